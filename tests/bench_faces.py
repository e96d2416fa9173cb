"""What a card face costs the browser (a script that prints figures; not a test):

    .venv/bin/python tests/bench_faces.py [--runs 6] [--cards DIR]

A bare Flet page shows, on one press, eight things in a row, and the browser's main-thread time
(Chromium's ``TaskDuration``) is summed from the press until the page has settled: eight plain
white boxes (the baseline), eight faces as the app ships them (SVG), the same eight laid out
unseen (1×1, transparent: what the home's look-ahead does, fetched and decoded but never drawn),
and the same eight as PNG (rasterised by this Chromium at 240×336 before the run). Number cards
and court cards apart. ``--cards DIR`` takes the SVG faces from another folder (an older commit's
``assets/cards/classic`` through ``git archive``, to compare). Each figure is a median over
``--runs`` fresh pages, also given less the baseline of the same run: the main-thread time the
eight faces themselves cost. Pages alternate, so a slow moment of the machine falls on all.
"""

from __future__ import annotations

import argparse
import base64
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CARDS = ROOT / "assets" / "cards" / "classic"
HANDS = {"numbers": ["2H", "3S", "4D", "5C", "6H", "7S", "8D", "9C"],
         "courts": ["JH", "QS", "KD", "JC", "QH", "KS", "JD", "QC"]}
KINDS = ("boxes", "svg", "svg unseen", "png")


def page_main(kind: str, hand: list[str]) -> Any:
    import flet as ft

    def main(page: ft.Page) -> None:
        row = ft.Row(wrap=True)

        def show(e: Any) -> None:
            if kind == "boxes":
                row.controls = [ft.Container(width=46, height=70, bgcolor="#FFFFFF") for _ in hand]
            elif kind == "svg unseen":
                row.controls = [ft.Image(src=f"faces/{c}.svg", width=1, height=1, opacity=0) for c in hand]
            else:
                ext = "png" if kind == "png" else "svg"
                row.controls = [ft.Image(src=f"faces/{c}.{ext}", width=46, height=70, fit=ft.BoxFit.FILL)
                                for c in hand]
            row.controls.append(ft.Semantics(identifier="shown", content=ft.Text("shown")))
            row.update()

        page.add(ft.Semantics(identifier="show", button=True, content=ft.Button("Show", on_click=show)), row)
    return main


def serve(kind: str, hand: str, port: int, assets: str) -> None:
    import flet as ft

    ft.run(page_main(kind, HANDS[hand]), assets_dir=assets, view=ft.AppView.WEB_BROWSER, host="127.0.0.1",
           port=port, no_cdn=True)


def rasterise(browser: Any, out: Path, cards: Path) -> None:
    """Each face used, as the SVG file and as a PNG drawn from it by Chromium at 240×336."""
    page = browser.new_page(viewport={"width": 300, "height": 400})
    for card in (c for hand in HANDS.values() for c in hand):
        svg = (cards / f"{card}.svg").read_bytes()
        shutil.copy(cards / f"{card}.svg", out / f"{card}.svg")
        page.set_content("<body style='margin:0'><img id=f width=240 height=336 "
                         f"src='data:image/svg+xml;base64,{base64.b64encode(svg).decode()}'></body>")
        page.locator("#f").screenshot(path=str(out / f"{card}.png"), omit_background=True)
    page.close()


def one_run(browser: Any, url: str) -> float:
    """A fresh page: the press, then 1.5 s to settle; the main thread's busy ms in between."""
    from tests.bench_open import main_thread_ms
    from tests.bench_ui import enable_semantics, press

    page = browser.new_page(viewport={"width": 390, "height": 844})
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(url)
    enable_semantics(page)
    button = page.locator('[flt-semantics-identifier="show"]')
    button.wait_for(timeout=60_000)
    time.sleep(1.0)
    before = main_thread_ms(cdp)
    press(page, button)
    page.locator('[flt-semantics-identifier="shown"]').wait_for(timeout=60_000)
    time.sleep(1.5)
    busy = main_thread_ms(cdp) - before
    page.close()
    return busy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--cards", type=Path, default=CARDS, help="the folder of SVG faces (default: the classic style)")
    ap.add_argument("--serve", nargs=4, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        kind, hand, port, assets = args.serve
        serve(kind, hand, int(port), assets)
        return
    from playwright.sync_api import sync_playwright

    from tests.bench_ui import serve as serve_process
    from tests.helpers import free_port
    from tests.views.test_browser import launch

    assets = Path(tempfile.mkdtemp())
    (assets / "faces").mkdir()
    pages = [(kind, hand) for hand in HANDS for kind in KINDS]
    busy: dict[tuple[str, str], list[float]] = {p: [] for p in pages}
    with sync_playwright() as p:
        browser, first = launch(p)
        first.close()
        rasterise(browser, assets / "faces", args.cards)
        ports = {page: free_port() for page in pages}
        procs = [serve_process([sys.executable, __file__, "--serve", kind, hand, str(ports[(kind, hand)]),
                                str(assets)], ports[(kind, hand)], dict(os.environ)) for kind, hand in pages]
        try:
            for _ in range(max(1, args.runs)):
                for page in pages:
                    busy[page].append(one_run(browser, f"http://127.0.0.1:{ports[page]}/"))
        finally:
            browser.close()
            for proc in procs:
                proc.terminate()
                proc.wait(timeout=10)
    print(f"main-thread ms from the press until settled, medians of {args.runs} fresh pages "
          "(in brackets: less the eight boxes of the same hand)")
    for hand in HANDS:
        ms = {kind: statistics.median(busy[(kind, hand)]) for kind in KINDS}
        cells = [f"{kind} {ms[kind]:.0f} ({ms[kind] - ms['boxes']:+.0f})" for kind in KINDS]
        print(f"  eight {hand:8s} " + ", ".join(cells))


if __name__ == "__main__":
    main()
