"""How steady is this machine's CPU? (a script, not a test)

    python tests/bench_machine.py [--seconds 60] [--cpu 0]

Runs a fixed piece of pure-Python work over and over on one CPU and prints how many times it
finished in each second, then the median and the slowest seconds. On a dedicated machine the
figures stay within a few percent. On the shared virtual machines these projects run on they do
not: on 2026-11-30, alone on an otherwise idle machine, one CPU did 294–648 units per second, in
slow spells of 1–5 s, while the kernel reported no stolen time. Latency benchmarks
(``tests/bench_lobby.py``) must be read with that in mind: a server that needs 80 % of a CPU at
full speed falls behind whenever the CPU runs at half speed.
"""

from __future__ import annotations

import argparse
import os
import time


def unit() -> int:
    s = 0
    for i in range(20_000):
        s += i * i % 7
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--cpu", type=int, default=0, help="pin to this CPU (Linux)")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    per_second: list[int] = []
    for _ in range(args.seconds):
        n, t = 0, time.perf_counter()
        while time.perf_counter() - t < 1.0:
            unit()
            n += 1
        per_second.append(n)
    ranked = sorted(per_second)
    median = ranked[len(ranked) // 2]
    slow = sum(1 for n in per_second if n < 0.7 * median)
    print("units per second:", " ".join(map(str, per_second)))
    print(f"median {median}, slowest {ranked[0]}, fastest {ranked[-1]}; "
          f"{slow} of {len(per_second)} seconds under 70 % of the median")


if __name__ == "__main__":
    main()
