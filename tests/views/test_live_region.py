"""The keyboard tests' listener (`tests.views.test_keyboard.LISTEN`) hears what is announced while a
modal dialog is open. Flutter's web engine moves its live region into an open ``aria-modal`` dialog
for each message (a screen reader ignores the rest of the page then) and back afterwards; a listener
that looked for the messages under ``flt-announcement-host`` missed them, and the Lanes keyboard
game's result, announced as its result dialog arrived, went unheard in a CI run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.helpers import free_port, listening
from tests.views.live_region_app import SAID
from tests.views.test_browser import CHROMIUM, launch, open_app, wait_until
from tests.views.test_keyboard import LISTEN

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                 reason="Debian chromium is not installed (apt-get install chromium)")]


def test_an_announcement_inside_an_open_dialog_is_heard(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tests.views.live_region_app", str(port)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=open(tmp_path / "stderr.log", "wb"))  # noqa: SIM115
    try:
        assert listening(port, 60), "the app did not start"
        with sync_playwright() as p:
            browser, page = launch(p)
            open_app(page, f"http://127.0.0.1:{port}/")
            page.evaluate(LISTEN)
            page.get_by_role("button", name="Open").click(timeout=30_000)
            page.wait_for_selector('[aria-modal="true"]', state="attached", timeout=20_000)
            page.get_by_role("button", name="Announce").click(timeout=20_000)
            heard = wait_until(lambda: SAID in page.evaluate("() => window.__said"), 10)
            browser.close()
        assert heard, "the listener missed a message announced inside the dialog"
    finally:
        proc.terminate()
        proc.wait(timeout=15)

