"""The whole test command: lint (ruff), types (mypy on engine/), then pytest.

Run from the project root: ``python tests/run.py [pytest args]``. Exits non-zero on any failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def step(title: str, cmd: list[str]) -> int:
    print(f"== {title}: {' '.join(cmd)}", flush=True)
    return subprocess.call(cmd, cwd=ROOT)


def ensure_chromium() -> None:
    """Browser tests use Debian's chromium (never a downloaded browser). Install it when missing
    and we may (root with apt, as in CI); otherwise those tests skip and say so."""
    if shutil.which("chromium") or Path("/usr/bin/chromium").exists():
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        print("== installing Debian chromium for the browser tests", flush=True)
        subprocess.call(["apt-get", "update", "-qq"], env=env, stdout=subprocess.DEVNULL)
        subprocess.call(["apt-get", "install", "-y", "-qq", "chromium"], env=env, stdout=subprocess.DEVNULL)
    else:
        print("== chromium not installed: browser tests will be skipped", flush=True)


def ensure_postgres() -> None:
    """The lobby's PostgreSQL tests start a throwaway server from Debian's packages (tests/pg.py).
    Install it when missing and we may (root with apt, as in CI); otherwise those tests skip."""
    import glob

    if glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        print("== installing Debian postgresql for the lobby's PostgreSQL tests", flush=True)
        subprocess.call(["apt-get", "update", "-qq"], env=env, stdout=subprocess.DEVNULL)
        subprocess.call(["apt-get", "install", "-y", "-qq", "postgresql"], env=env, stdout=subprocess.DEVNULL)
    else:
        print("== postgresql not installed: the lobby's PostgreSQL tests will be skipped", flush=True)


def main(argv: list[str]) -> int:
    py = sys.executable
    failures = 0
    ensure_chromium()
    ensure_postgres()
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
