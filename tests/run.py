"""The whole test command: lint (ruff), types (mypy on engine/), then pytest.

Run from the project root: ``python tests/run.py [pytest args]``. Exits non-zero on any failure.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def step(title: str, cmd: list[str]) -> int:
    print(f"== {title}: {' '.join(cmd)}", flush=True)
    return subprocess.call(cmd, cwd=ROOT)


def main(argv: list[str]) -> int:
    py = sys.executable
    failures = 0
    failures += step("ruff", [py, "-m", "ruff", "check", "."]) != 0
    failures += step("mypy", [py, "-m", "mypy"]) != 0
    rc = step("pytest", [py, "-m", "pytest", *argv])
    failures += rc != 0
    if failures:
        print(f"FAILED: {failures} step(s) failed", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
