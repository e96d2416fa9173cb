"""UI benchmark in the browser (a script that prints figures; not a test):

    .venv/bin/python tests/bench_ui.py [--taps 30]

* cold start → playable table: from launching ``main.py --web`` to a Lanes table against the
  Beginner bot showing its hand (process start, Flet web client load, the first screens);
* tap → table updated: a tap on a hand card until the table shows the change (the status line
  switches to "tap a lit target" and back), median and p95 over many taps.

Uses Debian's chromium headless, like the browser tests. Figures depend on the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.helpers import free_port
    from tests.views.test_browser import CHROMIUM, launch

    ap = argparse.ArgumentParser()
    ap.add_argument("--taps", type=int, default=30)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    port = free_port()
    env = {**os.environ, "CARDTABLE_DB": str(tmp / "bench.sqlite")}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "main.py", "--web", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import socket

        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        t_server = time.perf_counter() - t0
        with sync_playwright() as p:
            assert Path(CHROMIUM).exists(), "Debian chromium is needed (apt-get install chromium)"
            browser, page = launch(p)
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
            page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
            page.get_by_role("button", name="Play against a bot").first.click(timeout=60_000)
            t_home = time.perf_counter() - t0
            page.get_by_role("button", name="Beginner").click(timeout=20_000)
            page.wait_for_selector('[flt-semantics-identifier="hand-0"]', timeout=60_000)
            t_table = time.perf_counter() - t0
            # wait until it is our turn (the bot may open)
            deadline = time.monotonic() + 30
            while "Opening:" not in page.inner_text("body") and time.monotonic() < deadline:
                time.sleep(0.1)
            samples = []
            box = page.locator('[flt-semantics-identifier="hand-0"]').first.bounding_box()
            assert box is not None
            for i in range(args.taps):
                want = "Tap a highlighted lane" if i % 2 == 0 else "Opening:"
                start = time.perf_counter()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + 20)
                while want not in page.inner_text("body"):
                    if time.perf_counter() - start > 10:
                        raise SystemExit(f"the table did not update after tap {i}")
                    time.sleep(0.005)
                samples.append((time.perf_counter() - start) * 1000)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    samples.sort()
    p95 = samples[min(len(samples) - 1, int(0.95 * len(samples)))]
    print(f"cold start: server listening {t_server:.2f} s, home screen {t_home:.2f} s, "
          f"playable Lanes table {t_table:.2f} s")
    print(f"tap -> table updated: median {statistics.median(samples):.0f} ms, p95 {p95:.0f} ms "
          f"({len(samples)} taps)")


if __name__ == "__main__":
    main()
