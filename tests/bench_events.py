"""The server's time after each kind of event, ended by Flet's ``after_event`` (a script that prints
figures; not a test): ``.venv/bin/python tests/bench_events.py [--opens 3] [--against REV]``.

Flet ends every event with ``Session.after_event``, which diffs the whole page (its auto-update)
when the handler sent nothing. The app sends every change itself (views/ui/reconcile.send) and
turns auto-update off (views/app.py); this counts what that end of an event costs. Each page served
(the app, and with ``--against`` the app as it was at commit ``REV``, from a git worktree) has
Flet's ``after_event`` timed in its own process, and is taken ``--opens`` times from a fresh page to
a Lanes table against the Beginner bot (home, "Play against a bot", "Beginner"; headless Chromium
at 390x844), with five selections and deselections of a hand card there. The figures are time on
the server's event loop, on which every session waits, and they do not depend on the browser.
"""

from __future__ import annotations

import argparse
import collections
import os
import runpy
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def serve_timed(port: int, out: str) -> None:
    """The app's web server, with Flet's ``after_event`` timed per event; written to ``out`` on SIGUSR2."""
    from flet.messaging.session import Session

    spent: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
    dispatch, after = Session.dispatch_event, Session.after_event
    name = {"event": ""}

    async def named(self: Session, control_id: int, event_name: str, event_data: Any) -> None:
        name["event"] = event_name
        await dispatch(self, control_id, event_name, event_data)

    async def timed(self: Session, control: Any) -> None:
        start = time.perf_counter()
        await after(self, control)
        spent[(name["event"], type(control).__name__)].append(time.perf_counter() - start)

    def dump(*_: object) -> None:
        Path(out).write_text("".join(f"{e}\t{c}\t{len(v)}\t{1000 * sum(v):.1f}\t{1000 * max(v):.1f}\n"
                                     for (e, c), v in spent.items()))

    Session.dispatch_event, Session.after_event = named, timed  # type: ignore[method-assign]
    signal.signal(signal.SIGUSR2, dump)
    sys.path[0] = str(Path.cwd())  # the app served is the one in the working directory (``--against``'s worktree)
    sys.argv = ["main.py", "--web", "--port", str(port)]
    runpy.run_path(str(Path.cwd() / "main.py"), run_name="__main__")


def drive(url: str, db: Path, opens: int) -> None:
    from playwright.sync_api import sync_playwright

    from tests.bench_ui import forget_games, playable, select_deselect, table_ready
    from tests.views.test_browser import launch

    with sync_playwright() as p:
        browser, first = launch(p)
        first.close()
        for _ in range(opens):
            forget_games(db)
            page, wire, _, _ = table_ready(browser, url)
            card = playable(db)
            for _ in range(5):
                select_deselect(page, wire, [], card)
            page.close()
        browser.close()


def measure(cwd: Path, opens: int, tmp: Path, name: str) -> dict[tuple[str, str], tuple[int, float, float]]:
    from tests.bench_ui import serve
    from tests.helpers import free_port

    port, db, out = free_port(), tmp / f"{name}.sqlite", tmp / f"{name}.tsv"
    proc = serve([sys.executable, str(ROOT / "tests/bench_events.py"), "--serve", str(port), str(out)], port,
                 {**os.environ, "CARDTABLE_DB": str(db)}, cwd=cwd)
    try:
        drive(f"http://127.0.0.1:{port}/", db, opens)
        proc.send_signal(signal.SIGUSR2)
        deadline = time.monotonic() + 10
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    rows = [line.split("\t") for line in out.read_text().splitlines()]
    return {(e, c): (int(n), float(total), float(most)) for e, c, n, total, most in rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opens", type=int, default=3)
    ap.add_argument("--against", metavar="REV", help="also measure the app as it was at this commit")
    ap.add_argument("--serve", nargs=2, metavar=("PORT", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve_timed(int(args.serve[0]), args.serve[1])
        return
    tmp = Path(tempfile.mkdtemp())
    pages = {"app": measure(ROOT, args.opens, tmp, "app")}
    if args.against:
        from tests.bench_ui import checkout, remove_checkout

        then = checkout(args.against, tmp / "against")
        try:
            pages["against"] = measure(then, args.opens, tmp, "against")
        finally:
            remove_checkout(then)
    for name, spent in pages.items():
        total = sum(ms for _, ms, _ in spent.values())
        print(f"{name}: the end of every event (Flet's after_event) over {args.opens} opens, "
              f"{total:.0f} ms in all, {total / args.opens:.0f} ms an open path with its taps")
        for (event, control), (n, ms, most) in sorted(spent.items(), key=lambda kv: -kv[1][1]):
            print(f"  {event or '?':28s} on {control:12s} {n:3d} events {ms:7.1f} ms, the longest {most:5.1f} ms")


if __name__ == "__main__":
    main()
