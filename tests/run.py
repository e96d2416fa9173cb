"""The whole test command: lint (ruff), types (mypy over the whole tree: pyproject.toml), then pytest.

Run from the project root: ``python tests/run.py [pytest args]``. Exits non-zero on any failure.

``python tests/run.py --fast [pytest args]`` is the tier for working (docs/testing.md): the same ruff
and mypy, then pytest without the browser tier, the PostgreSQL half and the tests that start lobby
processes, with fewer property-test examples. It installs nothing. CI runs the whole command.
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


def ensure_debian(package: str, present: bool, purpose: str) -> None:
    """Install a Debian package the tests need when it is missing and we may (root with apt, as in
    CI); otherwise say which tests will skip (under CI=true those tests fail instead)."""
    if present:
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        print(f"== installing Debian {package} for {purpose}", flush=True)
        subprocess.call(["apt-get", "update", "-qq"], env=env, stdout=subprocess.DEVNULL)
        subprocess.call(["apt-get", "install", "-y", "-qq", package], env=env, stdout=subprocess.DEVNULL)
    else:
        print(f"== {package} not installed: {purpose} will be skipped", flush=True)


#: what the fast tier leaves out (markers registered in pyproject.toml) and how many examples it runs
FAST_MARKERS = "not browser and not postgres and not process and not soak"
FAST_ENV = {"HYPOTHESIS_PROFILE": "fast", "PROTOCOL_EXAMPLES": "5", "LEAK_EXAMPLES": "3", "FUZZ_EXAMPLES": "10"}


#: two pytest-xdist workers (this 2-core machine's cores); the browser tier and the PostgreSQL tests
#: each keep to one of them (tests/conftest.py)
WORKERS = ["-n", "2", "--dist", "loadgroup"]


def main(argv: list[str]) -> int:
    fast = argv[:1] == ["--fast"]
    if fast:  # the tier for working: nothing installed, fewer examples, the slow tiers left out
        argv = ["-m", FAST_MARKERS, *argv[1:]]
        os.environ.update(FAST_ENV)
    else:
        install_test_services()
    py = sys.executable
    failures = int(step("ruff", [py, "-m", "ruff", "check", "."]) != 0)
    failures += step("mypy", [py, "-m", "mypy"]) != 0
    failures += step("pytest (fast)" if fast else "pytest", [py, "-m", "pytest", *WORKERS, *argv]) != 0
    if failures:
        print(f"FAILED: {failures} step(s) failed", flush=True)
        return 1
    return 0


def install_test_services() -> None:
    """Browser tests use Debian's chromium (never a downloaded browser); the lobby's PostgreSQL tests
    start a throwaway server from Debian's postgresql (tests/pg.py)."""
    import glob

    ensure_debian("chromium", bool(shutil.which("chromium") or Path("/usr/bin/chromium").exists()),
                  "the browser tests")
    ensure_debian("postgresql", bool(glob.glob("/usr/lib/postgresql/*/bin/initdb")),
                  "the lobby's PostgreSQL tests")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
