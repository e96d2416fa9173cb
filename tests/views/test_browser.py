"""Browser test of the real app: web mode served offline, driven in headless Chromium (Debian's,
never a downloaded one). Taps through the start of a Lanes match on a phone-sized screen."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is not installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def app_url(tmp_path: Path):  # type: ignore[no-untyped-def]
    port = free_port()
    env = {**os.environ, "CARDTABLE_DB": str(tmp_path / "app.sqlite")}
    proc = subprocess.Popen([sys.executable, "main.py", "--web", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.3)
    yield f"http://127.0.0.1:{port}/", tmp_path / "app.sqlite"
    proc.terminate()
    proc.wait(timeout=10)


def tap(page, selector: str) -> bool:  # type: ignore[no-untyped-def]
    loc = page.locator(selector)
    if loc.count() == 0:
        return False
    box = loc.first.bounding_box()
    if not box:
        return False
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 30))
    time.sleep(0.5)
    return True


def test_phone_plays_the_opening_of_a_lanes_match(app_url) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    url, db = app_url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(url)
        page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=30_000)
        time.sleep(1.0)
        page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
        page.get_by_role("button", name="Play against a bot").first.click(timeout=20_000)
        page.get_by_role("button", name="Beginner").click(timeout=20_000)
        page.wait_for_selector('[flt-semantics-identifier="hand-0"]', timeout=20_000)
        deadline = time.monotonic() + 90
        i = 0
        while saved_actions(db) < 3 and time.monotonic() < deadline:
            # pick a card, then try each of my lanes (only lit ones react); then the next card
            before = saved_actions(db)
            if tap(page, f'[flt-semantics-identifier="hand-{i % 8}"]'):
                for lane in range(3):
                    tap(page, f'[flt-semantics-identifier="lane-0-{lane}"]')
                if saved_actions(db) == before:
                    tap(page, f'[flt-semantics-identifier="hand-{i % 8}"]')  # nothing lit: deselect
                    i += 1
                else:
                    time.sleep(2.0)  # the bot answers
            else:
                i += 1
                time.sleep(0.5)
        assert "Error running app" not in page.content()
        page.screenshot(path=str(db.parent / "phone.png"))
        browser.close()
    # the moves (mine and the bot's) were saved as they happened
    assert saved_actions(db) >= 3


def saved_actions(db: Path) -> int:
    from storage import api
    from storage.db import open_storage
    if not db.exists():
        return 0
    st = open_storage(db)
    try:
        games = api.games_in_progress(st) + api.history(st)
        return max((len(g.actions) for g in games), default=0)
    finally:
        st.close()
