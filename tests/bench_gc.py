"""The web server's garbage collections, the app against itself at another commit (a script that
prints figures; not a test): ``.venv/bin/python tests/bench_gc.py [--rounds 6] [--taps 20] --against REV``.

Python's collector stops the server's event loop while it runs, and every session's events wait:
a full collection (generation 2) walks every object the process holds. Both versions are served
side by side (``REV`` from a git worktree, each with its own database), each through this script,
which logs every collection of its process (generation, milliseconds) and then runs that version's
``main.py --web``. One headless Chromium takes both down the same path, alternating, ``--rounds``
times: home -> "Play against a bot" -> "Beginner" -> the hand shown, then ``--taps`` taps on a
hand card (select, deselect). Printed per version: the full collections (how many, the longest, in
all) and every collection's milliseconds in all, from when the server listens (the start-up's
own collections left out).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def serve_logged(port: str, db: str, log: str) -> None:
    """Run ``main.py --web`` of the current directory with each collection logged to ``log``."""
    import gc

    sys.path.insert(0, os.getcwd())
    started: list[float] = []
    out = open(log, "a", buffering=1)  # noqa: SIM115 - open for the life of the process

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            ms = (time.perf_counter() - started[0]) * 1000
            held = len(gc.get_objects(2)) if info["generation"] == 2 else 0  # what the next full one walks
            out.write(f"{info['generation']} {ms:.2f} {held}\n")

    gc.callbacks.append(note)
    import main  # the version being served: the current directory's

    main.main(["--web", "--port", port, "--db", db])


def drive(browser: Any, url: str, db: Path, taps: int) -> None:
    """One fresh page to a Lanes table against the Beginner, then ``taps`` taps on a playable card."""
    from tests.bench_ui import forget_games, playable, select_deselect, table_ready

    forget_games(db)
    page, wire, _, _ = table_ready(browser, url)
    card = playable(db)
    for _ in range(taps // 2):
        select_deselect(page, wire, [], card)
    page.close()


def logged(log: Path) -> list[list[str]]:
    return [line.split() for line in log.read_text().splitlines()] if log.exists() else []


def summary(log: Path, skip: int) -> str:
    """The collections logged after the first ``skip`` (those of the start-up, before the server listened)."""
    rows = logged(log)[skip:]
    full = [float(ms) for gen, ms, _ in rows if gen == "2"]
    held = max((int(n) for gen, _, n in rows if gen == "2"), default=0)
    every = sum(float(ms) for _, ms, _ in rows)
    longest = max(full, default=0.0)
    return (f"{len(full)} full collections, the longest {longest:.1f} ms, {sum(full):.1f} ms in all, "
            f"{held} objects left in the oldest generation after; "
            f"{len(rows)} collections of any generation, {every:.1f} ms in all")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--taps", type=int, default=20)
    ap.add_argument("--against", metavar="REV", help="the commit to compare with")
    ap.add_argument("--serve", nargs=3, metavar=("PORT", "DB", "LOG"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve_logged(*args.serve)
        return
    if not args.against:
        ap.error("--against REV is needed (the commit to compare with)")
    sys.path.insert(0, str(ROOT))
    compare(args.against, args.rounds, args.taps)


def compare(rev: str, rounds: int, taps: int) -> None:
    from playwright.sync_api import sync_playwright

    from tests.bench_ui import side_by_side
    from tests.views.test_browser import launch

    tmp = Path(tempfile.mkdtemp())

    def command(i: int, port: int) -> list[str]:
        return [sys.executable, str(Path(__file__).resolve()), "--serve", str(port), str(tmp / f"{i}.sqlite"),
                str(tmp / f"{i}.log")]

    with side_by_side(rev, tmp, command) as urls, sync_playwright() as p:
        start_up = [len(logged(tmp / f"{i}.log")) for i in range(len(urls))]
        browser, first = launch(p)
        first.close()
        for _ in range(rounds):
            for i, url in enumerate(urls.values()):
                drive(browser, url, tmp / f"{i}.sqlite", taps)
    print(f"The server's garbage collections over {rounds} open paths with {taps} taps each (after start-up):")
    for i, name in enumerate(urls):
        print(f"  {name:10s} {summary(tmp / f'{i}.log', start_up[i])}")


if __name__ == "__main__":
    main()
