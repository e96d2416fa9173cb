"""Draw the app's icon and splash, and write the web app's manifest and page (run by hand; the
output is committed): ``python assets/icon/make.py`` (needs the test extra and Debian's chromium).

The vector sources are ``icon.svg`` and ``splash.svg`` beside this file: two playing cards fanned on
the table's felt, our own drawing under the project's licence. They are rendered by headless
Chromium onto a canvas and the pixels written as PNGs here, so every size comes from the same
drawing and the iOS icon can be written without an alpha channel (Apple refuses one).

What is written, and who reads it (docs/app.md, "Build for phones"):
- ``assets/icon.png`` 1024, ``icon_android.png`` 512, ``icon_ios.png`` 1024 (RGB): ``flet build``;
- ``assets/splash.png``, ``splash_dark.png`` 1024 (cards only, on the splash colour): ``flet build``;
- ``assets/favicon.png`` 32, ``assets/icons/*`` 192 and 512, ``assets/manifest.json`` and
  ``assets/index.html``: the web app, which Flet serves from assets/ before its own files;
- ``assets/assets/FontManifest.json`` and ``assets/assets/fonts/MaterialIcons-Used.otf``: the fonts
  Flutter's web engine loads before the first frame, cut to the ones the app draws with
  (``font_manifest``), and Material's icons cut to the ones it shows (``icon_font``); these alone
  with ``python assets/icon/make.py --fonts`` (no browser needed), after an icon is added to views/.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ASSETS = HERE.parent
sys.path.insert(0, str(ASSETS.parent))

from views.ui import theme  # noqa: E402  (the colours come from the one theme module)

NAME, SHORT_NAME = "Card Table", "Card Table"
DESCRIPTION = "Lanes, Lopti and Spit: card games against bots, with friends, and online."
SIZE = 1024
CARD_W, CARD_H, CARD_R = 330, 462, 26

HEART = ("M0 90C-60 40-110 0-110-45C-110-85-80-110-50-110C-25-110-8-95 0-75C8-95 25-110 50-110"
         "C80-110 110-85 110-45C110 0 60 40 0 90Z")
SPADE = ("M0-100C-60-45-110-10-110 30C-110 65-80 85-50 85C-30 85-12 75-5 60L-20 110H20L5 60"
         "C12 75 30 85 50 85C80 85 110 65 110 30C110-10 60-45 0-100Z")


def card(angle: float, dx: float, suit: str, colour: str, face: str) -> str:
    """One card, turned ``angle`` degrees about the foot of the pair, its suit drawn large."""
    x, y = SIZE / 2 - CARD_W / 2 + dx, SIZE / 2 - CARD_H / 2 + 10
    cx, cy = x + CARD_W / 2, y + CARD_H / 2
    return (f'<g transform="rotate({angle} {SIZE / 2} {SIZE / 2 + 330})">'
            f'<rect x="{x + 6}" y="{y + 10}" width="{CARD_W}" height="{CARD_H}" rx="{CARD_R}" fill="#00000040"/>'
            f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="{CARD_R}" fill="{face}" '
            f'stroke="{theme.CARD_EDGE}" stroke-width="3"/>'
            f'<path d="{suit}" fill="{colour}" transform="translate({cx} {cy}) scale(1.05)"/></g>')


def cards(face: str) -> str:
    return card(-13, -62, SPADE, theme.INK, face) + card(11, 62, HEART, theme.RED, face)


def svg(body: str) -> str:
    head = f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" viewBox="0 0 {SIZE} {SIZE}">'
    return f"{head}{body}</svg>\n"


def icon_svg() -> str:
    """Full bleed: the felt fills the square, so it works as a maskable web icon and on iOS (no
    transparency); the cards stay inside the centre circle that every mask keeps."""
    lamp = (f'<defs><radialGradient id="lamp" cx="50%" cy="42%" r="70%"><stop offset="0" '
            f'stop-color="{theme.FELT_LIGHT}"/><stop offset="1" stop-color="{theme.FELT_DARK}"/></radialGradient>'
            f'</defs><rect width="{SIZE}" height="{SIZE}" fill="url(#lamp)"/>')
    return svg(lamp + cards(theme.CARD_FACE))


def splash_svg(face: str) -> str:
    """The cards alone: the build puts them on the splash colour (the felt, pyproject.toml)."""
    return svg(cards(face))


def png(width: int, height: int, rgba: bytes, alpha: bool) -> bytes:
    """A PNG of 8-bit RGBA (or RGB, the alpha dropped) pixels, unfiltered rows."""
    step = 4 if alpha else 3
    rows = b"".join(b"\0" + bytes(px for i in range(0, width * 4, 4) for px in
                                  rgba[r * width * 4 + i:r * width * 4 + i + step]) for r in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


RENDER = """async ([svg, size]) => {
  const img = new Image();
  img.src = 'data:image/svg+xml;base64,' + btoa(svg);
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = size; canvas.height = size;
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, 0, 0, size, size);
  const px = ctx.getImageData(0, 0, size, size).data;
  let s = '';
  for (let i = 0; i < px.length; i += 0x8000) s += String.fromCharCode.apply(null, px.subarray(i, i + 0x8000));
  return btoa(s);
}"""


def render(page: object, svg: str, size: int, alpha: bool = True) -> bytes:
    rgba = base64.b64decode(page.evaluate(RENDER, [svg, size]))  # type: ignore[attr-defined]
    return png(size, size, rgba, alpha)


def manifest() -> dict[str, object]:
    icons: list[dict[str, str]] = []
    for purpose in ("any", "maskable"):
        for size in (192, 512):
            name = f"icon-{size}.png" if purpose == "any" else f"icon-maskable-{size}.png"
            icons.append({"src": f"icons/{name}", "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose})
    return {"name": NAME, "short_name": SHORT_NAME, "description": DESCRIPTION, "start_url": ".",
            "display": "standalone", "orientation": "portrait", "background_color": theme.FELT,
            "theme_color": theme.FELT, "prefer_related_applications": False, "icons": icons}


def index_html(flet_index: str) -> str:
    """Flet's own page with our name and description, so a phone's home screen says Card Table."""
    out = re.sub(r'<meta name="description" content="[^"]*">', f'<meta name="description" content="{DESCRIPTION}">',
                 flet_index)
    out = re.sub(r'<meta name="apple-mobile-web-app-title" content="[^"]*">',
                 f'<meta name="apple-mobile-web-app-title" content="{SHORT_NAME}">', out)
    out = re.sub(r"<title>[^<]*</title>", f"<title>{NAME}</title>", out)
    link = '<link rel="manifest" href="manifest.json">'
    out = out.replace(link, f'<meta name="theme-color" content="{theme.FELT}">\n  {link}')
    return out.replace("</head>", NO_RIVE + "</head>", 1)


#: Flet's web client loads the Rive animation runtime from a CDN as it starts, whatever the app
#: draws (its address is compiled into main.dart.js; no setting turns it off). This app draws no
#: Rive animation, and web mode must work offline without a request off its own origin: the
#: script's address is pointed at assets/no-rive.js, whose RiveNative refuses, which the client
#: takes as "Rive unavailable" (it then never asks again).
RIVE_CDN = "https://cdn.jsdelivr.net/npm/@rive-app/"
NO_RIVE = f"""  <script>
    (function () {{
      var src = Object.getOwnPropertyDescriptor(HTMLScriptElement.prototype, "src");
      Object.defineProperty(HTMLScriptElement.prototype, "src", {{
        configurable: true, enumerable: src.enumerable,
        get: function () {{ return src.get.call(this); }},
        set: function (v) {{ src.set.call(this, String(v).indexOf("{RIVE_CDN}") === 0 ? "no-rive.js" : v); }}
      }});
    }})();
  </script>
"""


def flet_web(*parts: str) -> Path:
    """A file of the installed Flet web client (what Flet serves when the app's assets do not)."""
    import flet_web

    return Path(flet_web.get_package_web_dir(), *parts)


def flet_web_index() -> str:
    return flet_web("index.html").read_text(encoding="utf-8")


#: the app's Material icons, under the page's assets (``/assets/``, where Flet's font manifest points)
ICON_FONT = "fonts/MaterialIcons-Used.otf"

#: Material icons that Flutter's own widgets draw (a menu's arrow, a back button, a field's clear, a
#: chip's delete, a sort arrow, a picker's pencil...), kept with the ones the app names
FLUTTERS_OWN = (
    "access_time", "add", "arrow_back", "arrow_back_ios", "arrow_back_ios_new", "arrow_downward", "arrow_drop_down",
    "arrow_drop_up", "arrow_forward", "arrow_forward_ios", "arrow_left", "arrow_right", "arrow_upward",
    "calendar_today", "cancel", "check", "check_box", "check_box_outline_blank", "check_circle", "chevron_left",
    "chevron_right", "clear", "close", "content_copy", "date_range", "done", "drag_handle", "edit", "error",
    "error_outline", "expand_less", "expand_more", "first_page", "indeterminate_check_box", "info",
    "keyboard", "keyboard_arrow_down", "keyboard_arrow_left", "keyboard_arrow_right", "keyboard_arrow_up",
    "last_page", "menu", "menu_open", "more_horiz", "more_vert", "navigate_before", "navigate_next",
    "radio_button_checked", "radio_button_unchecked", "refresh", "remove", "schedule", "search", "star",
    "star_border", "unfold_more", "visibility", "visibility_off", "warning", "wifi_off")


def font_manifest(flet_manifest: list[dict[str, object]]) -> list[dict[str, object]]:
    """Flet's web client lists every font its Flutter packages bring — Cupertino's icons and 20
    KaTeX fonts for Markdown's mathematics, 0.9 MB in 21 files — and Flutter's web engine fetches
    and registers all of them before it draws the first frame. The app uses neither (a test in
    tests/test_phone_build.py fails if it starts to), so its page lists Material's icons alone,
    and those from ``ICON_FONT``: the icons it shows, not all 8,600 glyphs (1.26 MB) of Flet's."""
    return [{**font, "fonts": [{"asset": ICON_FONT}]} for font in flet_manifest if font["family"] == "MaterialIcons"]


def flet_web_font_manifest() -> list[dict[str, object]]:
    manifest: list[dict[str, object]] = json.loads(flet_web("assets", "FontManifest.json").read_text(encoding="utf-8"))
    return manifest


def flet_web_icon_font() -> Path:
    return flet_web("assets", "fonts", "MaterialIcons-Regular.otf")


def icons_named(root: Path) -> set[str]:
    """Every Material icon ``main.py`` and ``views/`` name (``ft.Icons.SETTINGS``), as Flutter names
    it (``settings``), with the ones Flutter's own widgets draw."""
    return {name.lower() for path in [root / "main.py", *(root / "views").rglob("*.py")]
            for name in re.findall(r"\bIcons\.([A-Z][A-Z0-9_]*)", path.read_text(encoding="utf-8"))} | set(FLUTTERS_OWN)


def icon_codepoints(font: Any, names: set[str]) -> dict[str, int]:
    """Each icon's codepoint in Material's icon font, whose glyph for Flutter's ``Icons.x`` is named
    ``x_baseline`` (``x_outlined`` and the other styles by their own names)."""
    by_glyph = {glyph: cp for cp, glyph in font.getBestCmap().items()}
    found = {name: by_glyph.get(f"{name}_baseline", by_glyph.get(name)) for name in sorted(names)}
    unknown = [name for name, cp in found.items() if cp is None]
    if unknown:
        raise SystemExit(f"not in Material's icon font: {unknown}")
    return {name: cp for name, cp in found.items() if cp is not None}


def icon_font(flet_font: Path, names: set[str]) -> Any:
    """Material's icon font with the glyphs of ``names`` alone, at their codepoints."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(flet_font, recalcTimestamp=False)  # the same bytes from the same Flet
    options = subset.Options()
    options.name_IDs = ["*"]  # its names and licence stay
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(icon_codepoints(font, names).values()))
    subsetter.subset(font)
    return font


def write_fonts() -> None:
    """The page's font manifest and its icon font (``--fonts``)."""
    (ASSETS / "assets" / "fonts").mkdir(parents=True, exist_ok=True)
    (ASSETS / "assets" / "FontManifest.json").write_text(
        json.dumps(font_manifest(flet_web_font_manifest()), indent=2) + "\n", encoding="utf-8")
    icon_font(flet_web_icon_font(), icons_named(ASSETS.parent)).save(ASSETS / "assets" / ICON_FONT)


def main() -> None:
    from playwright.sync_api import sync_playwright

    (HERE / "icon.svg").write_text(icon_svg(), encoding="utf-8")
    (HERE / "splash.svg").write_text(splash_svg(theme.CARD_FACE), encoding="utf-8")
    icon, light, dark = icon_svg(), splash_svg(theme.CARD_FACE), splash_svg(theme.CARD_DIM)
    (ASSETS / "icons").mkdir(exist_ok=True)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.set_content("<html><body></body></html>")
        files = {
            "icon.png": render(page, icon, 1024), "icon_android.png": render(page, icon, 512),
            "icon_ios.png": render(page, icon, 1024, alpha=False),
            "splash.png": render(page, light, 1024), "splash_dark.png": render(page, dark, 1024),
            "favicon.png": render(page, icon, 32),
            "icons/icon-192.png": render(page, icon, 192), "icons/icon-512.png": render(page, icon, 512),
            "icons/icon-maskable-192.png": render(page, icon, 192, alpha=False),
            "icons/icon-maskable-512.png": render(page, icon, 512, alpha=False),
            "icons/apple-touch-icon-192.png": render(page, icon, 192, alpha=False),
        }
        browser.close()
    for name, data in files.items():
        (ASSETS / name).write_bytes(data)
    (ASSETS / "manifest.json").write_text(json.dumps(manifest(), indent=2) + "\n", encoding="utf-8")
    (ASSETS / "index.html").write_text(index_html(flet_web_index()), encoding="utf-8")
    write_fonts()


if __name__ == "__main__":
    write_fonts() if sys.argv[1:] == ["--fonts"] else main()
