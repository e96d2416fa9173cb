"""The web app installs as Card Table: the running app serves our manifest, page and icons (assets/,
made by assets/icon/make.py) in place of Flet's, and Chromium reads the manifest without an error
(docs/app.md, "Build for phones")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.views.test_browser import launch, pytestmark, serve

__all__ = ["pytestmark"]  # the browser tier's marks and its skip when Chromium is missing

IMAGE_SIZE = """async (src) => {
  const res = await fetch(src);
  const img = new Image();
  img.src = URL.createObjectURL(await res.blob());
  await img.decode();
  return [res.status, res.headers.get('content-type'), img.naturalWidth, img.naturalHeight];
}"""


def test_the_running_app_serves_an_installable_card_table_manifest(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    with serve(tmp_path / "app.sqlite") as url, sync_playwright() as p:
        browser, page = launch(p)
        page.goto(url)
        assert page.locator('meta[name="apple-mobile-web-app-title"]').get_attribute("content") == "Card Table"
        href = page.locator('link[rel="manifest"]').get_attribute("href")
        parsed = page.context.new_cdp_session(page).send("Page.getAppManifest")
        assert parsed["url"].endswith(f"/{href}") and parsed["errors"] == [], parsed["errors"]
        manifest = page.evaluate("async (href) => (await fetch(href)).json()", href)
        assert manifest["name"] == "Card Table" and manifest["display"] == "standalone"
        assert manifest["theme_color"] == manifest["background_color"] == "#0B5D3B"
        assert {icon["purpose"] for icon in manifest["icons"]} == {"any", "maskable"}
        for icon in manifest["icons"]:
            status, kind, width, height = page.evaluate(IMAGE_SIZE, icon["src"])
            assert (status, kind, f"{width}x{height}") == (200, "image/png", icon["sizes"]), icon
        for src, size in (("favicon.png", 32), ("icons/apple-touch-icon-192.png", 192)):
            assert page.evaluate(IMAGE_SIZE, src) == [200, "image/png", size, size]
        browser.close()


def test_the_app_asks_nothing_off_its_origin_and_every_script_renders_from_bundled_fonts(tmp_path: Path) -> None:
    """#42 item 2. Web mode works offline: loading the app, a table, and the settings' language menu
    (whose "العربية" the English app drew as empty boxes while Flutter fetched a Noto Arabic font it
    does not have: 404s) request nothing outside the app's origin, and nothing answers 404. Flet's
    client asked a CDN for the Rive runtime on every load (assets/icon/make.py, NO_RIVE). The fonts
    asked for are the three the app draws with."""
    from playwright.sync_api import sync_playwright

    from tests.views.test_browser import open_app, start_lanes_against_the_beginner, wait_until

    with serve(tmp_path / "app.sqlite") as url, sync_playwright() as p:
        browser, page = launch(p)
        origin = url.rstrip("/")
        away: list[str] = []
        missing: list[str] = []
        fonts: set[str] = set()
        page.on("request", lambda r: None if r.url.startswith((origin, "data:", "blob:")) else away.append(r.url))
        page.on("request", lambda r: fonts.add(r.url.rsplit("/", 1)[-1])
                if r.url.endswith((".ttf", ".otf", ".woff2")) else None)
        page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
        open_app(page, url)
        start_lanes_against_the_beginner(page)
        page.get_by_role("button", name="Back").first.click(timeout=20_000)
        page.get_by_role("button", name="Settings").first.click(timeout=20_000)
        page.locator('[flt-semantics-identifier="setting-language"]').first.click(timeout=20_000)
        page.get_by_text("العربية").first.wait_for(timeout=20_000)
        page.wait_for_timeout(1500)  # any font the menu's words need is asked for now
        assert away == [], f"requests off the app's origin: {away}"
        assert missing == [], f"requests answered with an error: {missing}"
        # the app's Material icons, Flet's Roboto and the app's own font: not Flet's 23 (assets/icon/make.py)
        assert fonts == {"MaterialIcons-Used.otf", "roboto.woff2", "CardTable.ttf"}, fonts
        # #42 item 5: the fullest table on the smallest phone fits without anything pushed off it
        # the page opened anew at home: Escape on the language menu closed it and (the app's own key
        # handler) left the settings screen too, racing a tap on Back (CI, 2026-12-07)
        page.set_viewport_size({"width": 360, "height": 640})
        open_app(page, url)
        page.get_by_role("button", name="5 players").click(timeout=20_000)
        page.wait_for_selector('[flt-semantics-identifier^="hand-"]', timeout=20_000)
        keep = page.get_by_role("button", name="Keep")
        assert wait_until(lambda: keep.count() == 1 and keep.first.bounding_box() is not None, 20)
        low = [box for el in [keep.first, *page.locator('[flt-semantics-identifier^="hand-"]').all()]
               if (box := el.bounding_box()) and box["y"] + box["height"] > 640 + 1]
        assert low == [], low
        browser.close()


#: an iPhone 14 in portrait: 390 × 844 CSS px, the notch 47 px at the top, the home bar 34 at the bottom
NOTCHED = {"width": 390, "height": 844, "top": 47, "bottom": 34}
SAFE_INSETS = {"insets": {"top": NOTCHED["top"], "topMax": NOTCHED["top"], "bottom": NOTCHED["bottom"],
                          "bottomMax": NOTCHED["bottom"], "left": 0, "leftMax": 0, "right": 0, "rightMax": 0}}


def test_on_a_notched_phone_the_page_stays_inside_the_safe_area_and_the_table_fits(tmp_path: Path) -> None:
    """Flutter's web engine ignores the safe-area insets (measured: the same pixels with and without
    them), so the web app relies on the browser: a page that does not ask for ``viewport-fit=cover``
    is laid out inside the safe area. Checked on the live page under Chromium's notch emulation, then
    the Lanes table at the height such a browser leaves (844 − 47 − 34): the top bar and the whole
    hand are in view. Phone builds pad by the system's insets instead: every view is a SafeArea
    (tests/views/test_phone_frame.py)."""
    from playwright.sync_api import sync_playwright

    from tests.views.test_browser import open_app, start_lanes_against_the_beginner, wait_until

    with serve(tmp_path / "app.sqlite") as url, sync_playwright() as p:
        browser, page = launch(p, NOTCHED["width"], NOTCHED["height"])
        page.context.new_cdp_session(page).send("Emulation.setSafeAreaInsetsOverride", SAFE_INSETS)
        open_app(page, url)
        inset = page.evaluate("""() => { const d = document.createElement('div');
            d.style.paddingTop = 'env(safe-area-inset-top)'; document.body.appendChild(d);
            return getComputedStyle(d).paddingTop; }""")
        assert inset == f"{NOTCHED['top']}px"  # the emulated notch is there for the page to see
        viewport = page.locator('meta[name="viewport"]').get_attribute("content") or ""
        assert "viewport-fit=cover" not in viewport.replace(" ", "")
        browser.close()
        inside = NOTCHED["height"] - NOTCHED["top"] - NOTCHED["bottom"]
        browser, page = launch(p, NOTCHED["width"], inside)
        open_app(page, url)
        start_lanes_against_the_beginner(page)
        hand = page.locator('[flt-semantics-identifier^="hand-"]')
        # the boxes are read together, in the pass that found all eight: a hand card's semantics node
        # can be replaced while the table settles (the bot's first move), so a later read may miss it
        read: list[list[Any]] = []

        def all_eight() -> bool:
            read.append([c.bounding_box() for c in hand.all()])
            return len(read[-1]) == 8 and all(read[-1])

        assert wait_until(all_eight, 20)
        for box in read[-1]:
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= inside + 1, box
            assert box["x"] >= 0 and box["x"] + box["width"] <= NOTCHED["width"] + 1, box
        back = page.get_by_role("button", name="Back").first.bounding_box()  # the top bar, under no notch
        assert back is not None and back["y"] >= 0
        # #42 items 3 and 5, as drawn: every button is a finger's target, and my lanes' beds reach
        # down to the hand without covering it
        small = [(b.get_attribute("aria-label") or b.inner_text(), box) for b in page.locator('[role="button"]').all()
                 if (box := b.bounding_box()) and min(box["width"], box["height"]) < 43.5]
        assert small == [], small
        hand_top = min(box["y"] for c in hand.all() if (box := c.bounding_box()))
        beds = [box for i in range(3) if (box := page.locator(f'[flt-semantics-identifier="lane-0-{i}"]').first
                                          .bounding_box())]
        assert len(beds) == 3
        for bed in beds:
            assert bed["y"] + bed["height"] <= hand_top + 1, (bed, hand_top)
            assert hand_top - (bed["y"] + bed["height"]) < 80, (bed, hand_top)  # no band of bare cloth
        browser.close()
