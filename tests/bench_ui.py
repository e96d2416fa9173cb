"""UI benchmark in the browser, as ratios against a bare Flet counter served the same way in the
same run (a script that prints figures; not a test — these shared machines change speed by 2x
within seconds, so only a ratio measured side by side means anything):

    .venv/bin/python tests/bench_ui.py [--taps 40] [--block 10]

* page ready: browser open -> a playable Lanes table against the Beginner bot (home, "Play against
  a bot", "Beginner", the hand shown), against browser open -> the counter's button shown; and on
  the way, browser open -> the app's home shown (its own cold start, one screen like the
  counter's). ``--opens`` fresh pages of each, alternated, each its own browser context (cold);
* tap -> update: a tap on a hand card until the table shows it (the status line changes), against
  a tap on the counter until its number changes; median and p95, in alternating blocks of taps;
* a Spit round against the Expert bot (real time: the player taps a stock and a pile whenever a
  card fits, and "Spit!" when play is stuck): the app process's CPU seconds per second of play, and the longest gap
  between two frames the browser drew (requestAnimationFrame), against the same figures for the
  counter page left open.

Both apps run as ``flet`` web servers (no CDN) in their own processes, driven by one headless
Debian Chromium.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def counter_main(port: int) -> None:
    """The baseline: Flet's own counter sample, served like the app."""
    import flet as ft

    def main(page: ft.Page) -> None:
        count = ft.Text("0", size=30)

        def add(e: Any) -> None:
            count.value = str(int(count.value or "0") + 1)

        page.add(ft.Semantics(identifier="count", content=count),
                 ft.Semantics(identifier="add", button=True, content=ft.Button("Add", on_click=add)))

    ft.run(main, view=ft.AppView.WEB_BROWSER, host="127.0.0.1", port=port, no_cdn=True)


def serve(cmd: list[str], port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"{cmd} did not listen on {port}")


def enable_semantics(page: Any) -> None:
    """Flutter's accessibility tree appears after a click on its placeholder (as soon as it exists)."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        page.evaluate("document.querySelector('flt-semantics-placeholder')?.click()")
        if page.query_selector("flt-semantics-placeholder") is None or page.query_selector(
                "[flt-semantics-identifier]") is not None:
            return
        time.sleep(0.05)


def open_page(browser: Any, url: str, ready: str) -> tuple[Any, float]:
    """A fresh page at ``url``; seconds until the control ``ready`` (a semantics id) is shown."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    start = time.perf_counter()
    page.goto(url)
    enable_semantics(page)
    page.wait_for_selector(f'[flt-semantics-identifier="{ready}"]', timeout=60_000)
    return page, time.perf_counter() - start


STAGES: dict[str, float] = {}


def app_ready(browser: Any, url: str) -> tuple[Any, float]:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    start = time.perf_counter()
    page.goto(url)
    enable_semantics(page)
    play = page.get_by_role("button", name="Play against a bot").first
    play.wait_for(timeout=60_000)
    STAGES["home shown"] = time.perf_counter() - start
    press(page, play)  # a person's tap: the mouse at the button (no waiting for it to be "stable")
    beginner = page.get_by_role("button", name="Beginner")
    beginner.wait_for(timeout=20_000)
    STAGES["opponent screen shown"] = time.perf_counter() - start
    press(page, beginner)
    page.wait_for_selector('[flt-semantics-identifier="hand-0"]', timeout=60_000)
    elapsed = time.perf_counter() - start
    deadline = time.monotonic() + 30  # our move (the bot may open)
    while "Opening:" not in page.inner_text("body") and time.monotonic() < deadline:
        time.sleep(0.05)
    return page, elapsed


def press(page: Any, locator: Any) -> None:
    box = locator.bounding_box(timeout=2_000)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def tap_until(page: Any, ident: str, changed: Any) -> float:
    box = page.locator(f'[flt-semantics-identifier="{ident}"]').first.bounding_box()
    start = time.perf_counter()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + min(20, box["height"] / 2))
    while not changed():
        if time.perf_counter() - start > 10:
            raise SystemExit(f"no update after a tap on {ident}")
        time.sleep(0.002)
    return (time.perf_counter() - start) * 1000


FRAMES_JS = """() => { window.__gaps = []; let last = performance.now();
  const step = (t) => { window.__gaps.push(t - last); last = t; requestAnimationFrame(step); };
  requestAnimationFrame(step); }"""


def cpu_seconds(pid: int) -> float:
    """User + system CPU of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def watch(page: Any, pid: int, seconds: float, act: Any = None) -> tuple[float, float]:
    """CPU seconds per second of ``pid`` and the longest frame gap (ms) over ``seconds``."""
    page.evaluate(FRAMES_JS)
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        if act is not None:
            act()
        time.sleep(0.2)
    cpu = (cpu_seconds(pid) - cpu0) / (time.perf_counter() - t0)
    gaps = page.evaluate("() => window.__gaps.slice(5)")
    return cpu, max(gaps) if gaps else float("nan")


def spit_round(browser: Any, url: str, pid: int, seconds: float, db: Path) -> tuple[float, float]:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url)
    enable_semantics(page)
    page.get_by_role("button", name="Play against a bot").nth(1).click(timeout=60_000)
    page.get_by_role("button", name="Expert").click(timeout=20_000)
    page.wait_for_selector('[flt-semantics-identifier="stock-0-0"]', timeout=60_000)

    from playwright.sync_api import Error as PlaywrightError

    from engine.spit import RULES as SPIT
    from engine.spit.actions import CallSpit, PlayCard
    from tests.views.test_browser import latest_game

    def play() -> None:
        """The player's side: a card that fits, tapped stock then pile; "Spit!" when stuck."""
        state, _ = latest_game(db, "spit")
        if state is None:
            return
        legal = SPIT.legal_actions(state, 0)
        move = next((a for a in legal if isinstance(a, PlayCard)), None)
        try:
            if move is not None:
                for ident in (f"stock-0-{move.stock}", f"pile-{move.pile}"):
                    press(page, page.locator(f'[flt-semantics-identifier="{ident}"]').first)
            elif any(isinstance(a, CallSpit) for a in legal):
                press(page, page.get_by_role("button", name="Spit!").first)
        except (PlaywrightError, TypeError):
            pass  # the control went away meanwhile (the bot was faster): the next round of play

    return watch(page, pid, seconds, play)


def spit_actions(db: Path) -> int:
    """Actions stored for the newest Spit game (how much was played while measuring)."""
    from storage import api
    from storage.db import open_storage

    st = open_storage(db)
    try:
        games = [g for g in api.games_in_progress(st) + api.history(st) if g.game == "spit"]
        return len(max(games, key=lambda g: g.id).actions) if games else 0
    finally:
        st.close()


def figures(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--taps", type=int, default=40)
    ap.add_argument("--block", type=int, default=10)
    ap.add_argument("--spit-seconds", type=float, default=20.0)
    ap.add_argument("--opens", type=int, default=5, help="page-ready runs (alternating counter and app)")
    ap.add_argument("--serve-counter", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve_counter:
        counter_main(args.serve_counter)
        return
    from playwright.sync_api import sync_playwright

    from tests.helpers import free_port
    from tests.views.test_browser import launch

    tmp = Path(tempfile.mkdtemp())
    env = {**os.environ, "CARDTABLE_DB": str(tmp / "bench.sqlite")}
    app_port, counter_port = free_port(), free_port()
    procs = [serve([sys.executable, "main.py", "--web", "--port", str(app_port)], app_port, env),
             serve([sys.executable, "tests/bench_ui.py", "--serve-counter", str(counter_port)], counter_port, env)]
    try:
        with sync_playwright() as p:
            browser, first = launch(p)
            first.close()
            opens: list[tuple[float, float, float]] = []  # counter ready, home shown, table ready
            for _ in range(max(1, args.opens)):
                counter, counter_ready = open_page(browser, f"http://127.0.0.1:{counter_port}/", "add")
                table, table_ready = app_ready(browser, f"http://127.0.0.1:{app_port}/")
                opens.append((counter_ready, STAGES["home shown"], table_ready))
                if len(opens) < args.opens:  # the last two pages stay open for the taps
                    counter.close()
                    table.close()
            bare: list[float] = []
            app: list[float] = []
            status = ["Opening:", "Tap a highlighted lane"]
            while len(app) < args.taps:
                for _ in range(args.block):
                    before = counter.inner_text('[flt-semantics-identifier="count"]')
                    bare.append(tap_until(counter, "add", lambda b=before: counter.inner_text(
                        '[flt-semantics-identifier="count"]') != b))
                for _ in range(args.block):
                    want = status[(len(app) + 1) % 2]
                    app.append(tap_until(table, "hand-0", lambda w=want: w in table.inner_text("body")))
            counter_cpu, counter_gap = watch(counter, procs[1].pid, args.spit_seconds)
            spit_cpu, spit_gap = spit_round(browser, f"http://127.0.0.1:{app_port}/", procs[0].pid,
                                            args.spit_seconds, tmp / "bench.sqlite")
            browser.close()
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=10)
    (bm, bp), (am, ap95) = figures(bare), figures(app)
    for counter_ready, home_shown, table_ready in opens:
        print(f"page ready: counter {counter_ready:.2f} s; the app's home {home_shown:.2f} s (ratio "
              f"{home_shown / counter_ready:.2f}), a playable Lanes table through it {table_ready:.2f} s "
              f"-> ratio {table_ready / counter_ready:.2f}")
    print(f"page ready, median of {len(opens)} runs: home {statistics.median(h / c for c, h, _ in opens):.2f}, "
          f"playable Lanes table {statistics.median(r / c for c, _, r in opens):.2f} (ratios to the counter)")
    print(f"tap -> update: counter median {bm:.0f} ms p95 {bp:.0f} ms; hand card median {am:.0f} ms "
          f"p95 {ap95:.0f} ms ({len(app)} taps each) -> median ratio {am / bm:.2f}, p95 ratio {ap95 / bp:.2f} "
          f"(p95 against the counter's median {ap95 / bm:.2f})")
    print(f"Spit against the Expert for {args.spit_seconds:.0f} s ({spit_actions(tmp / 'bench.sqlite')} actions "
          f"played): app process {spit_cpu:.2f} CPU s/s, longest "
          f"frame gap {spit_gap:.0f} ms; the counter page open as long: {counter_cpu:.2f} CPU s/s, "
          f"{counter_gap:.0f} ms")


if __name__ == "__main__":
    main()
