"""The screenshot set, for people to look at: ``python tests/screenshots.py [--out DIR]``.

Every table (Lanes with a card selected, Lopti at three seats before and after the setup, Spit),
the Lanes result after a resignation, home and settings — on a 360×640 and a 390×844 phone and a
desktop, light and dark, in English, Arabic and Vietnamese, and on the small phone with 1.3× text
— from the real app in web mode, driven by Debian's headless Chromium. Files are named
``{lang}-{theme}-{viewport}-{screen}.png``. ``--langs``, ``--themes``, ``--viewports`` pick a subset.
Needs the app's own dependencies and ``chromium`` (tests/run.py installs both).

The games are dealt from fixed seeds (``--seed``, the app's ``CARDTABLE_SEED``), so two runs show
the same cards, and ``--compare BEFORE AFTER`` lists the screenshots of one folder whose pixels
differ from the other's: a change meant to leave the screens as they were (#44) is checked by a
run before and a run after it. Spit's bot plays against the clock and the Lopti bots' answers
take their time, so those screens may differ between runs without any change."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import struct
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.views.test_browser import launch, open_app, serve, wait_until  # noqa: E402
from views.ui.i18n import counted, t  # noqa: E402

VIEWPORTS = {"phone360": (360, 640), "phone390": (390, 844), "desktop": (1280, 800)}
#: a 360×640 phone with the text 1.3× larger (the browser's root font size, which Flutter's web
#: engine reads as the text scale): the layout must survive it
TEXT_SCALED = "phone360-text130"
BIGGER_TEXT = ("document.addEventListener('DOMContentLoaded', "
               "() => { document.documentElement.style.fontSize = '130%'; });")


def shoot(page: Any, out: Path, name: str, settle: float = 1.2) -> None:
    time.sleep(settle)  # the arrival motion and the faces' first load
    page.screenshot(path=str(out / f"{name}.png"))


def button(page: Any, name: str, nth: int = 0) -> Any:
    return page.get_by_role("button", name=name).nth(nth)


def back(page: Any, lang: str) -> None:
    button(page, t(lang, "back")).click(timeout=20_000)
    time.sleep(0.8)


def tables(page: Any, lang: str, out: Path, prefix: str) -> None:
    """From home: each table, then back home (games stay saved; the next run continues them)."""
    shoot(page, out, f"{prefix}-home")
    button(page, t(lang, "play_vs_bot")).click(timeout=20_000)
    button(page, t(lang, "beginner")).click(timeout=20_000)
    page.wait_for_selector('[flt-semantics-identifier="hand-0"]', timeout=20_000)
    wait_until(lambda: page.locator('[flt-semantics-identifier="hand-0"][role="button"]').count() > 0, 20)
    shoot(page, out, f"{prefix}-lanes")
    page.locator('[flt-semantics-identifier="hand-0"]').first.click(timeout=10_000)
    shoot(page, out, f"{prefix}-lanes-selected", 0.6)
    button(page, t(lang, "resign")).click(timeout=20_000)
    time.sleep(0.6)
    page.get_by_role("button", name=t(lang, "resign")).last.click(timeout=20_000)  # the dialog's own
    page.get_by_role("button", name=t(lang, "home")).last.wait_for(timeout=20_000)
    shoot(page, out, f"{prefix}-lanes-result")
    page.get_by_role("button", name=t(lang, "home")).last.click(timeout=20_000)
    time.sleep(0.8)
    button(page, t(lang, counted("players_n", 3), n=3)).click(timeout=20_000)
    fresh = button(page, t(lang, "start_new"))  # an earlier viewport's table is still in progress
    with contextlib.suppress(Exception):
        fresh.click(timeout=2_500)
    page.wait_for_selector('[flt-semantics-identifier^="hand-"]', timeout=20_000)
    shoot(page, out, f"{prefix}-lopti", 2.0)
    button(page, t(lang, "keep")).click(timeout=20_000)  # the setup done: we lead (or the bots do)
    time.sleep(2.0)
    page.locator('[flt-semantics-identifier="hand-0"]').first.click(timeout=10_000)
    time.sleep(0.5)
    play = page.get_by_role("button", name=re.compile("^" + re.escape(t(lang, "play"))))
    if play.count():  # our turn: the lowest card goes on the pile, and the bots answer
        play.first.click(timeout=10_000)
    shoot(page, out, f"{prefix}-lopti-play", 4.0)
    back(page, lang)
    # the Spit tile by its identifier: the home may list more "Play against a bot" buttons above it
    # by then (the last opponent offered again), and the second one was once the Lanes tile's
    page.locator('[flt-semantics-identifier="play-spit"]').click(timeout=20_000)
    button(page, t(lang, "beginner")).click(timeout=20_000)
    with contextlib.suppress(Exception):
        button(page, t(lang, "start_new")).click(timeout=2_500)
    page.wait_for_selector('[flt-semantics-identifier^="stock-0-"]', timeout=20_000)
    shoot(page, out, f"{prefix}-spit", 1.5)
    back(page, lang)
    button(page, t(lang, "settings")).click(timeout=20_000)
    shoot(page, out, f"{prefix}-settings")
    back(page, lang)


def run(out: Path, langs: list[str], themes: list[str], viewports: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    from storage import api
    from storage.db import open_storage

    out.mkdir(parents=True, exist_ok=True)
    shots = 0
    for lang in langs:
        for theme in themes:
            with tempfile.TemporaryDirectory() as tmp:
                db = Path(tmp) / "app.sqlite"
                st = open_storage(db)
                api.update_profile(st, display_name="Tester", language=lang, theme=theme)
                st.close()
                with serve(db) as url, sync_playwright() as p:
                    for view in viewports:
                        w, h = VIEWPORTS["phone360" if view == TEXT_SCALED else view]
                        browser, page = launch(p, w, h)
                        if view == TEXT_SCALED:
                            page.add_init_script(BIGGER_TEXT)
                        open_app(page, url)
                        button(page, t(lang, "play_vs_bot")).wait_for(timeout=30_000)
                        before = len(list(out.glob("*.png")))
                        tables(page, lang, out, f"{lang}-{theme}-{view}")
                        shots += len(list(out.glob("*.png"))) - before
                        browser.close()
                        print(f"{lang} {theme} {view}: done", flush=True)
    return shots


#: what docs/app.md shows ("Screenshots"): these screens, in English and the light theme, on the
#: two phones; ``--docs`` writes them to DOCS as ``{viewport}-{screen}.png``
DOCS = ROOT / "docs" / "screenshots"
DOC_SCREENS = ("home", "lanes", "lopti-play", "spit", "settings")
DOC_VIEWPORTS = ("phone360", "phone390")


def docs() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        run(Path(tmp), ["en"], ["light"], list(DOC_VIEWPORTS))
        DOCS.mkdir(parents=True, exist_ok=True)
        for view in DOC_VIEWPORTS:
            for screen in DOC_SCREENS:
                (DOCS / f"{view}-{screen}.png").write_bytes((Path(tmp) / f"en-light-{view}-{screen}.png").read_bytes())
    return len(DOC_VIEWPORTS) * len(DOC_SCREENS)


def pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """A PNG's width, height and rows of raw pixels (8-bit, not interlaced, as Chromium writes them):
    the tools here have no imaging library, and two encodings of the same picture need not be equal
    byte for byte."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, data, width, height, bpp = 8, b"", 0, 0, 4
    while pos < len(png):
        size, kind = struct.unpack(">I4s", png[pos:pos + 8])
        chunk = png[pos + 8:pos + 8 + size]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and chunk[12] == 0, "only 8-bit, non-interlaced PNGs"
            bpp = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        elif kind == b"IDAT":
            data += chunk
        pos += 12 + size
    raw, stride, rows, prior = zlib.decompress(data), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up, corner = prior[x], prior[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                near = left if abs(p - left) <= abs(p - up) and abs(p - left) <= abs(p - corner) else (
                    up if abs(p - up) <= abs(p - corner) else corner)
                line[x] = (line[x] + near) & 255
        rows.append(bytes(line))
        prior = line
    return width, height, rows


def compare(before: Path, after: Path, tolerance: int = 8) -> int:
    """Print each screenshot in both folders whose pixels differ by more than ``tolerance`` levels
    of a colour channel (how many rows, the largest difference), and each in one folder only;
    return how many differ. The same screen drawn twice by Chromium differs by a few levels in
    shadows' blur and edges' smoothing (seen: up to 4)."""
    differ = 0
    names = sorted({p.name for p in before.glob("*.png")} | {p.name for p in after.glob("*.png")})
    for name in names:
        a, b = before / name, after / name
        if not (a.exists() and b.exists()):
            print(f"{name}: only in {before if a.exists() else after}")
            differ += 1
            continue
        if a.read_bytes() == b.read_bytes():
            continue
        (wa, ha, ra), (wb, hb, rb) = pixels(a.read_bytes()), pixels(b.read_bytes())
        apart = [max(abs(p - q) for p, q in zip(x, y, strict=False)) for x, y in zip(ra, rb, strict=False) if x != y]
        if (wa, ha) != (wb, hb) or max(apart, default=0) > tolerance:
            print(f"{name}: {wa}×{ha} against {wb}×{hb}, {len(apart)} rows differ, by up to {max(apart, default=0)}")
            differ += 1
    print(f"{len(names)} screenshots, {differ} differ")
    return differ


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "cardtable-screenshots"))
    ap.add_argument("--langs", default="en,ar,vi")
    ap.add_argument("--themes", default="light,dark")
    ap.add_argument("--viewports", default=",".join([*VIEWPORTS, TEXT_SCALED]))
    ap.add_argument("--docs", action="store_true", help=f"write docs/app.md's screenshots to {DOCS}")
    ap.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1: every run deals the same)")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="list the screenshots that differ")
    ap.add_argument("--tolerance", type=int, default=8, help="--compare: colour levels that are noise (default 8)")
    args = ap.parse_args()
    if args.compare:
        sys.exit(1 if compare(Path(args.compare[0]), Path(args.compare[1]), args.tolerance) else 0)
    os.environ["CARDTABLE_SEED"] = str(args.seed)  # the served app deals from it (views/app.py)
    if args.docs:
        print(f"{docs()} screenshots in {DOCS}")
        return
    out = Path(args.out)
    n = run(out, args.langs.split(","), args.themes.split(","), args.viewports.split(","))
    print(f"{n} screenshots in {out}")


if __name__ == "__main__":
    main()
