"""Where the open path's time goes, the app against the bare page (a script that prints figures;
not a test): ``.venv/bin/python tests/bench_open.py [--runs 8]``.

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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.bench_ui import Wire, enable_semantics, forget_games, press, serve  # noqa: E402

STEPS = ("home", "press 1", "opponent", "press 2", "table", "tap sent", "answer in", "first picture asked",
         "last picture in", "total", "main thread: home", "main thread: to opponent", "main thread: to table",
         "main thread: 1 s after")


def open_path(browser: Any, url: str) -> dict[str, float]:
    """One fresh page taken home -> "Play against a bot" -> "Beginner" -> the hand; seconds per step."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    wire = Wire(page)
    asked: list[float] = []
    arrived: list[float] = []
    page.on("request", lambda r: asked.append(time.perf_counter()) if "/cards/" in r.url else None)
    page.on("requestfinished", lambda r: arrived.append(time.perf_counter()) if "/cards/" in r.url else None)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    busy = [main_thread_ms(cdp)]
    start = time.perf_counter()
    page.goto(url)
    enable_semantics(page)
    play = page.locator('[flt-semantics-identifier="play-lanes"]')
    play.wait_for(timeout=60_000)
    home = time.perf_counter()
    busy.append(main_thread_ms(cdp))
    press(page, play)
    pressed = time.perf_counter()
    beginner = page.locator('[flt-semantics-identifier="level-beginner"]')
    beginner.wait_for(timeout=20_000)
    opponent = time.perf_counter()
    busy.append(main_thread_ms(cdp))
    asked.clear()
    arrived.clear()
    wire.reset()
    press(page, beginner)
    pressed_2 = time.perf_counter()
    page.wait_for_selector('[flt-semantics-identifier="hand-0"]', timeout=60_000)
    table = time.perf_counter()
    busy.append(main_thread_ms(cdp))
    page.wait_for_timeout(1_000)  # the pictures still on their way
    busy.append(main_thread_ms(cdp))
    page.close()
    return {"home": home - start, "press 1": pressed - home, "opponent": opponent - pressed,
            "press 2": pressed_2 - opponent, "table": table - pressed_2,
            "tap sent": (wire.sent or pressed_2) - pressed_2, "answer in": (wire.answered or pressed_2) - pressed_2,
            "first picture asked": min(asked, default=pressed_2) - pressed_2,
            "last picture in": max(arrived, default=pressed_2) - pressed_2, "total": table - start,
            **{f"main thread: {step}": (b - a) / 1000 for step, a, b in zip(
                ("home", "to opponent", "to table", "1 s after"), busy, busy[1:], strict=False)}}


def main_thread_ms(cdp: Any) -> float:
    """The page's main thread's busy time so far (Chromium's ``TaskDuration``), in ms."""
    return 1000 * next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] == "TaskDuration")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=8)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.helpers import free_port
    from tests.views.test_browser import launch

    tmp = Path(tempfile.mkdtemp())
    env = {**os.environ, "CARDTABLE_DB": str(tmp / "bench.sqlite")}
    ports = {name: free_port() for name in ("app", "bare")}
    procs = {"app": serve([sys.executable, "main.py", "--web", "--port", str(ports["app"])], ports["app"], env),
             "bare": serve([sys.executable, "tests/bench_ui.py", "--serve-page", "imperative", str(ports["bare"])],
                           ports["bare"], env)}
    runs: dict[str, list[dict[str, float]]] = {"app": [], "bare": []}
    try:
        with sync_playwright() as p:
            browser, first = launch(p)
            first.close()
            for i in range(max(1, args.runs)):
                forget_games(tmp / "bench.sqlite")
                for name in ("app", "bare") if i % 2 == 0 else ("bare", "app"):
                    runs[name].append(open_path(browser, f"http://127.0.0.1:{ports[name]}/"))
            browser.close()
    finally:
        for proc in procs.values():
            proc.terminate()
            proc.wait(timeout=10)
    print(f"open path, medians of {args.runs} runs (ms): app, bare page, difference")
    for step in STEPS:
        app, bare = (1000 * statistics.median(r[step] for r in runs[name]) for name in ("app", "bare"))
        print(f"  {step:26s} {app:6.0f} {bare:6.0f} {app - bare:+6.0f}")


if __name__ == "__main__":
    main()
