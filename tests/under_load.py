"""Run pytest several times in a row while busy processes load the machine (docs/testing.md).

A timing-sensitive test must pass on a loaded 2-core machine, so this starts ``--busy`` processes
that spin on the CPU, runs ``pytest ARGS`` ``--runs`` times one after another, stops the load
whatever happens, and prints one line per run and a closing ``N passed, N failed`` line. It exits
non-zero if any run failed.

    .venv/bin/python tests/under_load.py --runs 30 -- tests/lobby/test_e2e.py -k kill_9
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def spin() -> None:  # pragma: no cover - runs in the load processes
    while True:
        pass


def run(runs: int, busy: int, pytest_args: list[str]) -> tuple[int, int]:
    """(passed, failed) runs of ``pytest pytest_args`` with ``busy`` spinning processes beside them."""
    load = [mp.Process(target=spin, daemon=True) for _ in range(busy)]
    for proc in load:
        proc.start()
    passed = failed = 0
    try:
        for i in range(1, runs + 1):
            t0 = time.monotonic()
            out = subprocess.run([sys.executable, "-m", "pytest", "-q", *pytest_args], cwd=ROOT,
                                 capture_output=True, text=True)
            ok = out.returncode == 0
            passed, failed = passed + ok, failed + (not ok)
            print(f"run {i}: {'passed' if ok else 'FAILED'} in {time.monotonic() - t0:.1f} s", flush=True)
            if not ok:
                print(out.stdout[-3000:], flush=True)
    finally:
        for proc in load:
            proc.terminate()
            proc.join()
    return passed, failed


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10, help="how many pytest runs in a row (default 10)")
    parser.add_argument("--busy", type=int, default=2, help="how many spinning processes (default 2)")
    parser.add_argument("pytest_args", nargs="*", help="what pytest runs (after --)")
    args = parser.parse_args(argv)
    passed, failed = run(args.runs, args.busy, args.pytest_args)
    print(f"under load ({args.busy} busy processes): {passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
