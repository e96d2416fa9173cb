"""The web app installs as Card Table: the running app serves our manifest, page and icons (assets/,
made by assets/icon/make.py) in place of Flet's, and Chromium reads the manifest without an error
(docs/app.md, "Build for phones")."""

from __future__ import annotations

from pathlib import Path

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
