"""main.py as a newcomer runs it (the README's first command)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT
from tests.helpers import free_port


def test_web_mode_says_where_it_serves(tmp_path: Path) -> None:
    """#42: `main.py --web` printed nothing, so a newcomer did not know where to point the browser."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "main.py", "--web", "--port", str(port), "--db", str(tmp_path / "a.db")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == f"Card Table is served at http://127.0.0.1:{port}/ (Ctrl+C stops it)"
    finally:
        proc.terminate()
        proc.wait(timeout=15)
