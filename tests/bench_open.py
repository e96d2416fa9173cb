"""Where the open path's time goes, the app against the bare page (a script that prints figures;
not a test): ``.venv/bin/python tests/bench_open.py [--runs 8] [--renderer canvaskit] [--click-in-page]``
(``--renderer``: every page's Flutter renderer, as main.py's; ``--click-in-page``: see ``open_path``).

tests/bench_ui.py gives the open path as one ratio; this splits it, app and bare page alternating
on fresh pages in one headless Chromium (390×844), medians over ``--runs``: the home shown; the
first tap's press (the page's main thread still busy after the home appears); the opponent screen
shown; the second press; the table's hand shown. For the table step it also gives, counted from the
press, when the tap's frame left the browser and the server's first answer came in (its
websocket), when the first card picture was asked for and when the last one had arrived: the
server's part, the client's work before the pictures and the pictures' own loading. Last, the
page's main-thread time (Chromium's ``TaskDuration``) while the home came, from it to the opponent
screen (the first press's wait is in it), from there to the hand, and in the second after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from main import RENDERERS  # noqa: E402
from tests.bench_ui import (  # noqa: E402
    Wire,
    checkout,
    cpu_seconds,
    enable_semantics,
    forget_games,
    press,
    remove_checkout,
    serve,
)

STEPS = ("home", "press 1", "opponent", "press 2", "table", "tap sent", "answer in", "first picture asked",
         "last picture in", "total", "main thread: home", "main thread: to opponent", "main thread: to table",
         "main thread: 1 s after", "main thread CPU: open -> hand", "server CPU: open -> hand")


def open_path(browser: Any, url: str, server: int, in_page: bool = False) -> dict[str, float]:
    """One fresh page taken home -> "Play against a bot" -> "Beginner" -> the hand; seconds per step
    (``server``: the serving process, charged its CPU). ``in_page``: each button is found, and its
    place read, by the page itself the moment it shows, and clicked there (no ``bounding_box``
    round trip, which waits on the page's main thread: how much of the first press is the robot's)."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    wire = Wire(page)
    asked: list[float] = []
    arrived: list[float] = []
    page.on("request", lambda r: asked.append(time.perf_counter()) if "/cards/" in r.url else None)
    page.on("requestfinished", lambda r: arrived.append(time.perf_counter()) if "/cards/" in r.url else None)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    busy = [main_thread_ms(cdp)]
    work = [metric(cdp, "ThreadTime"), cpu_seconds(server)]
    start = time.perf_counter()
    page.goto(url)
    enable_semantics(page)
    play = shown(page, "play-lanes", 60_000, in_page)
    home = time.perf_counter()
    busy.append(main_thread_ms(cdp))
    play()
    pressed = time.perf_counter()
    beginner = shown(page, "level-beginner", 20_000, in_page)
    opponent = time.perf_counter()
    busy.append(main_thread_ms(cdp))
    asked.clear()
    arrived.clear()
    wire.reset()
    beginner()
    pressed_2 = time.perf_counter()
    page.wait_for_selector('[flt-semantics-identifier="hand-0"]', timeout=60_000)
    table = time.perf_counter()
    busy.append(main_thread_ms(cdp))
    work = [metric(cdp, "ThreadTime") - work[0], cpu_seconds(server) - work[1]]
    page.wait_for_timeout(1_000)  # the pictures still on their way
    busy.append(main_thread_ms(cdp))
    page.close()
    return {"home": home - start, "press 1": pressed - home, "opponent": opponent - pressed,
            "press 2": pressed_2 - opponent, "table": table - pressed_2,
            "tap sent": (wire.sent or pressed_2) - pressed_2, "answer in": (wire.answered or pressed_2) - pressed_2,
            "first picture asked": min(asked, default=pressed_2) - pressed_2,
            "last picture in": max(arrived, default=pressed_2) - pressed_2, "total": table - start,
            "main thread CPU: open -> hand": work[0], "server CPU: open -> hand": work[1],
            **{f"main thread: {step}": (b - a) / 1000 for step, a, b in zip(
                ("home", "to opponent", "to table", "1 s after"), busy, busy[1:], strict=False)}}


#: the centre of the control with this semantics identifier once it is laid out and stays put from
#: one frame to the next (a screen's first frame may still move it), else null
PLACE_JS = """id => { const el = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  const r = el && el.getBoundingClientRect();
  const at = r && r.width > 0 ? [r.x + r.width / 2, r.y + r.height / 2] : null;
  const was = window.__place; window.__place = at && at.join();
  return at && was === at.join() ? at : null; }"""


def shown(page: Any, ident: str, timeout: float, in_page: bool) -> Callable[[], None]:
    """Wait until the button ``ident`` shows; what presses it (the bench's ``press``, or with
    ``in_page`` a click at the place the page read when it showed)."""
    if in_page:
        x, y = page.wait_for_function(PLACE_JS, arg=ident, timeout=timeout).json_value()
        return lambda: page.mouse.click(x, y)
    button = page.locator(f'[flt-semantics-identifier="{ident}"]')
    button.wait_for(timeout=timeout)
    return lambda: press(page, button)


def main_thread_ms(cdp: Any) -> float:
    """The page's main thread's busy time so far (Chromium's ``TaskDuration``), in ms."""
    return 1000 * metric(cdp, "TaskDuration")


def metric(cdp: Any, name: str) -> float:
    """One of Chromium's performance metrics for the page (seconds, for the times)."""
    return float(next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] == name))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--against", metavar="REV", help="also serve the app as it was at this commit, beside it")
    ap.add_argument("--renderer", choices=RENDERERS, default="auto", help="every page's Flutter renderer (main.py's)")
    ap.add_argument("--click-in-page", action="store_true",
                    help="find each button and read its place in the page, and click there (see open_path)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.helpers import free_port
    from tests.views.test_browser import launch

    tmp = Path(tempfile.mkdtemp())
    env = {**os.environ, "CARDTABLE_DB": str(tmp / "bench.sqlite"), "BENCH_RENDERER": args.renderer}
    app = [sys.executable, "main.py", "--web", "--renderer", args.renderer, "--port"]
    names = ("app", "bare", *(("against",) if args.against else ()))
    ports = {name: free_port() for name in names}
    dbs = {"app": tmp / "bench.sqlite", "against": tmp / "against.sqlite"}
    procs = {"app": serve([*app, str(ports["app"])], ports["app"], env),
             "bare": serve([sys.executable, "tests/bench_ui.py", "--serve-page", "imperative", str(ports["bare"])],
                           ports["bare"], env)}
    if args.against:
        then = checkout(args.against, tmp / "against")
        procs["against"] = serve([sys.executable, "main.py", "--web", "--port", str(ports["against"])],
                                 ports["against"], {**env, "CARDTABLE_DB": str(dbs["against"])}, cwd=then)
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    try:
        with sync_playwright() as p:
            browser, first = launch(p)
            first.close()
            for i in range(max(1, args.runs)):
                for db in dbs.values():
                    if db.exists():
                        forget_games(db)
                for name in names[i % len(names):] + names[:i % len(names)]:  # each page first in turn
                    runs[name].append(open_path(browser, f"http://127.0.0.1:{ports[name]}/", procs[name].pid,
                                                args.click_in_page))
            browser.close()
    finally:
        for proc in procs.values():
            proc.terminate()
            proc.wait(timeout=10)
        if args.against:
            remove_checkout(tmp / "against")
    report(runs, args.runs)


def report(runs: dict[str, list[dict[str, float]]], n: int) -> None:
    against = "against" in runs
    print(f"open path, medians of {n} runs (ms): app, bare page, difference"
          + (", the app at --against, the app's difference to it" if against else ""))
    for step in STEPS:
        app, bare, *then = (1000 * statistics.median(r[step] for r in runs[name]) for name in runs)
        print(f"  {step:30s} {app:6.0f} {bare:6.0f} {app - bare:+6.0f}"
              + (f" {then[0]:6.0f} {app - then[0]:+6.0f}" if then else ""))
    for name in runs:
        if name != "bare":
            ratio = statistics.median(a["total"] / b["total"] for a, b in zip(runs[name], runs["bare"], strict=True))
            print(f"  {name}: open -> hand {ratio:.2f} of the bare page's (median of the runs' ratios)")


if __name__ == "__main__":
    main()
