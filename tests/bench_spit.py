"""How a Spit round starts, the app against itself at another commit (a script that prints figures;
not a test): ``.venv/bin/python tests/bench_spit.py [--runs 6] [--pace 0.8] --against REV``.

Spit is played in real time, so what its table costs as it opens is felt as a frozen start. Both
versions are served side by side (``REV`` from a git worktree, each with its own database) and
alternated on fresh pages in one headless Chromium (390×844): home -> Spit's "Play against a bot"
-> "Expert", waiting ``--pace`` seconds before each press as a person reading the screen would
(0: at once). For each: from the press on "Expert" until the player's first stock is on the page,
and the longest gap between two frames the browser drew in the 2.5 s after. Medians over ``--runs``,
then each run's figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.bench_ui import FRAMES_JS, enable_semantics, forget_games, press, side_by_side  # noqa: E402


def round_start(browser: Any, url: str, pace: float) -> tuple[float, float]:
    """One fresh page taken to a Spit table against the Expert: ms from the press to the table, and
    the longest frame gap (ms) in the 2.5 s after."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(url)
        enable_semantics(page)
        play = page.locator('[flt-semantics-identifier="play-spit"]')
        play.wait_for(timeout=60_000)
        time.sleep(pace)
        press(page, play)
        expert = page.get_by_role("button", name="Expert")
        expert.wait_for(timeout=20_000)
        time.sleep(pace)
        start = time.perf_counter()
        press(page, expert)
        page.wait_for_selector('[flt-semantics-identifier="stock-0-0"]', timeout=60_000)
        shown = (time.perf_counter() - start) * 1000
        page.evaluate(FRAMES_JS)
        time.sleep(2.5)
        gaps = page.evaluate("() => window.__gaps")
        return shown, max(gaps) if gaps else float("nan")
    finally:
        page.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.views.test_browser import launch

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--pace", type=float, default=0.8, help="seconds before each press (0: at once)")
    ap.add_argument("--against", required=True, metavar="REV", help="the commit to compare with")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    with side_by_side(args.against, tmp, lambda i, port: [sys.executable, "main.py", "--web", "--port", str(port)]) \
            as urls, sync_playwright() as p:
        browser, first = launch(p)
        first.close()
        found: dict[str, list[tuple[float, float]]] = {name: [] for name in urls}
        for _ in range(args.runs):
            for i, (name, url) in enumerate(urls.items()):
                forget_games(tmp / f"{i}.sqlite")
                found[name].append(round_start(browser, url, args.pace))
    print(f"Spit's start, medians of {args.runs} runs (pace {args.pace:.1f} s): press on 'Expert' -> table shown, "
          "longest frame gap in the 2.5 s after")
    for name, rows in found.items():
        shown, gap = (statistics.median(r[k] for r in rows) for k in (0, 1))
        print(f"  {name:10s} {shown:6.0f} ms {gap:6.0f} ms   runs: {[(round(a), round(b)) for a, b in rows]}")


if __name__ == "__main__":
    main()
