"""What a screen reader says (#47): parts said together are joined the language's way — Arabic with
"،", not a Latin comma — wherever views/ joins them (item 6), and Spit names each pile and stock by
its top card and count (item 5)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT
from views.ui.i18n import card_name, listed, t


def test_parts_are_joined_the_languages_way() -> None:
    parts = ["23", t("ar", "dir_up"), t("ar", "suit_H")]
    assert listed("ar", parts) == f"23، {parts[1]}، {parts[2]}"
    assert listed("en", ["23", "ascending"]) == "23, ascending"
    assert listed("vi", []) == ""


def test_no_view_joins_with_a_latin_comma() -> None:
    joined = []
    for path in sorted((ROOT / "views").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" \
                    and isinstance(node.func.value, ast.Constant) and str(node.func.value.value).strip() == ",":
                joined.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert joined == []


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_spit_names_each_pile_and_stock_by_its_top_card_and_count(tmp_path: Path, lang: str) -> None:
    """#47 item 5: a pile read as a bare number and a stock as "+1" now say which pile or stock,
    its top card by name, and how many cards it holds (or that it is empty)."""
    from storage import api
    from storage.db import open_storage
    from tests.views.screen import Screen
    from views.app import start
    from views.spit.table import SpitTable

    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, language=lang)
    st.close()
    s = Screen(tmp_path / "app.sqlite", start, route="/spit/new")
    try:
        s.tap(t(lang, "beginner"))
        table = s.wait_for(lambda: isinstance(s.app.screen, SpitTable) and s.app.screen, what="the Spit table")
        obs = s.call(lambda: table.game.observation)
        for i in (0, 1):
            top, size = obs["pile_tops"][i], obs["pile_sizes"][i]
            what = t(lang, "sp_cards_said", card=card_name(lang, top), count=size) if top else t(lang, "sp_empty_said")
            assert s.one(ident=f"pile-{i}").label == t(lang, "sp_pile_said", n=i + 1, what=what)
        mine = obs["players"][0]
        slot = next(k for k, top in enumerate(mine["stock_tops"]) if top)
        stock = s.one(ident=f"stock-0-{slot}").label
        assert stock == t(lang, "sp_my_stock_said", n=slot + 1, what=t(
            lang, "sp_cards_said", card=card_name(lang, mine["stock_tops"][slot]), count=mine["stock_sizes"][slot]))
        assert s.one(ident="stock-1-0").label.startswith(t(lang, "sp_their_stock_said", n=1, what=""))
        if lang == "ar":
            assert "، " in stock and ", " not in stock
    finally:
        s.close()
