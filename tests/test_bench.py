"""The benchmark script runs and prints its figures (no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_benchmark_prints_figures_for_every_engine() -> None:
    proc = subprocess.run([sys.executable, "tests/bench.py", "--seconds", "0.2"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any(line.startswith("lanes") and "playouts/s" in line for line in lines)
    assert sum(line.startswith("lopti") for line in lines) == 3
    assert any(line.startswith("spit") and "rounds/s" in line for line in lines)
    assert any(line.startswith("storage") and "resume" in line for line in lines)
