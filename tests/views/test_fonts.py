"""The one bundled font (assets/fonts/CardTable.ttf, made by assets/fonts/subset.py) with the
platform's Roboto draws every character the app can show: the Arabic script with its joining
forms, suits, arrows — and the page loads one small font before its first screen settles."""

from __future__ import annotations

import ast
import unicodedata
from functools import cache
from pathlib import Path

import flet_web
import pytest
from fontTools.ttLib import TTFont

from views.ui.widgets import FONT, FONTS, SUIT_GLYPH, family

ROOT = Path(__file__).resolve().parents[2]
CARDTABLE = ROOT / "assets" / FONTS[FONT]
ROBOTO = Path(flet_web.get_package_web_dir()) / "assets" / "fonts" / "roboto.woff2"
#: not drawn: marks of direction and joining, and the line breaks
INVISIBLE = {"Cf", "Cc", "Zl", "Zp"}


@cache
def cmap(path: Path) -> frozenset[int]:
    return frozenset(TTFont(path).getBestCmap())


def literals(path: Path) -> str:
    """Every string literal of a Python module (what a screen can show is written in them)."""
    return "".join(node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                   if isinstance(node, ast.Constant) and isinstance(node.value, str))


def app_texts() -> dict[str, str]:
    """Every text the app shows, by where it comes from: translations, lessons, rules pages and
    the strings of views/ and of the engine (its refusals and event names reach the screen)."""
    texts = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
             for folder in ("i18n", "lessons", "rules") for p in (ROOT / "assets" / folder).iterdir()
             if p.suffix in (".json", ".md")}
    texts.update({str(p.relative_to(ROOT)): literals(p) for folder in ("views", "engine")
                  for p in (ROOT / folder).rglob("*.py")})
    return texts


def test_every_character_the_app_shows_is_in_a_font_it_has() -> None:
    drawn = cmap(CARDTABLE) | cmap(ROBOTO)
    missing = {f"{ch} U+{ord(ch):04X} {unicodedata.name(ch, '?')} ({where})"
               for where, body in app_texts().items() for ch in set(body)
               if ord(ch) not in drawn and unicodedata.category(ch) not in INVISIBLE and ch.isprintable()}
    assert not missing, sorted(missing)


def test_the_texts_read_include_all_three_languages() -> None:
    """The test above looks at real text: Arabic, Vietnamese and the suits are among it."""
    body = "".join(app_texts().values())
    assert "ب" in body and "ạ" in body and all(g in body for g in SUIT_GLYPH.values())


def test_suits_and_arrows_come_from_the_bundled_font() -> None:
    """Roboto has no suits or arrows; without the bundled font they would be empty boxes offline."""
    assert all(ord(g) not in cmap(ROBOTO) and ord(g) in cmap(CARDTABLE) for g in (*SUIT_GLYPH.values(), "→", "★"))


def test_arabic_letters_join_and_every_form_is_there() -> None:
    """The cut kept every layout feature of Noto Sans Arabic 2.005: HarfBuzz picks the joined forms
    and lam-alef from GSUB, and places the marks from GPOS."""
    font = TTFont(CARDTABLE)
    assert {r.FeatureTag for r in font["GSUB"].table.FeatureList.FeatureRecord} == {
        "aalt", "ccmp", "dlig", "fina", "init", "isol", "locl", "medi", "rlig"}
    assert {r.FeatureTag for r in font["GPOS"].table.FeatureList.FeatureRecord} == {"kern", "mark", "mkmk"}
    assert all(cp in cmap(CARDTABLE) for cp in range(0x0621, 0x064B))  # the letters
    assert all(cp in cmap(CARDTABLE) for cp in range(0xFE80, 0xFEF5))  # their shaped forms


def test_the_page_loads_one_small_font() -> None:
    """Flet loads registered fonts one after another before the first screen settles, each
    re-laying out every text: one file, a fraction of the 1.5 MB the three full fonts were."""
    assert len(FONTS) == 1
    assert CARDTABLE.stat().st_size < 250_000


@pytest.mark.parametrize(("lang", "primary", "fallback"),
                         [("ar", FONT, ()), ("en", None, (FONT,)), ("vi", None, (FONT,))])
def test_each_language_draws_in_its_font(lang: str, primary: str | None, fallback: tuple[str, ...]) -> None:
    assert family(lang) == (primary, fallback)


def test_every_text_style_of_the_theme_keeps_its_colour_role() -> None:
    """The theme gives every role of the type scale the bundled font behind it (#42); Flet puts a
    role's style in place of Material's whole, so each names its colour role as Material's does:
    without one, a text field's value, a menu's choice, a switch's label and the home's titles
    were near black on the dark theme's near-black page."""
    import flet as ft

    from views.app import TEXT_ROLES, page_theme

    for fam in (None, FONT):
        made = page_theme(fam)
        assert made.text_theme is not None and made.primary_text_theme is not None
        for role in TEXT_ROLES:
            style, primary = getattr(made.text_theme, role), getattr(made.primary_text_theme, role)
            assert style.color == ft.Colors.ON_SURFACE and style.font_family_fallback == [FONT]
            assert primary.color == ft.Colors.ON_PRIMARY  # on the primary colour (theme.ON_ACCENT)
