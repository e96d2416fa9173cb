"""What a screen reader says (#47): parts said together are joined the language's way — Arabic with
"،", not a Latin comma — wherever views/ joins them (item 6), Spit names each pile and stock by
its top card and count (item 5), and names say everything once (item 3: icon buttons, each
Disband, a face-down count, cards in the last move)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT
from views.ui.i18n import card_name, clauses, counted, listed, t


def test_parts_are_joined_the_languages_way() -> None:
    parts = ["23", t("ar", "dir_up"), t("ar", "suit_H")]
    assert listed("ar", parts) == f"23، {parts[1]}، {parts[2]}"
    assert listed("en", ["23", "ascending"]) == "23, ascending"
    assert listed("vi", []) == ""
    assert clauses("ar", ["a", "b"]) == "a؛ b" and clauses("en", ["a", "b"]) == "a; b"


def test_no_view_joins_with_a_latin_comma_or_semicolon() -> None:
    joined = []
    for path in sorted((ROOT / "views").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" \
                    and isinstance(node.func.value, ast.Constant) and str(node.func.value.value).strip() in (",", ";"):
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
            what = t(lang, counted("sp_cards_said", size), card=card_name(lang, top), count=size) if top \
                else t(lang, "sp_empty_said")
            assert s.one(ident=f"pile-{i}").label == t(lang, "sp_pile_said", n=i + 1, what=what)
        mine = obs["players"][0]
        slot = next(k for k, top in enumerate(mine["stock_tops"]) if top)
        stock = s.one(ident=f"stock-0-{slot}").label
        size = mine["stock_sizes"][slot]
        assert stock == t(lang, "sp_my_stock_said", n=slot + 1, what=t(
            lang, counted("sp_cards_said", size), card=card_name(lang, mine["stock_tops"][slot]), count=size))
        # a fresh deal's stocks hold 1 to 5 cards (only I play from mine): each depth in its
        # language's number form
        words = {"en": ["1 card", "2 cards", "3 cards"], "ar": ["ورقة واحدة", "ورقتان", "3 أوراق"],
                 "vi": ["1 lá", "2 lá", "3 lá"]}[lang]
        depths = {mine["stock_sizes"][k]: s.one(ident=f"stock-0-{k}").label for k in range(5)}
        assert all(depths[n].endswith(words[n - 1]) for n in (1, 2, 3)), depths
        assert s.one(ident="stock-1-0").label.startswith(t(lang, "sp_their_stock_said", n=1, what=""))
        if lang == "ar":
            assert "، " in stock and ", " not in stock
    finally:
        s.close()


def test_a_count_takes_its_number_form() -> None:
    """Arabic reads one, two, three to ten and eleven or more cards each its own way; English has
    "1 card"; Vietnamese has one form."""
    assert [counted("k", n) for n in (0, 1, 2, 3, 10, 11, 99, 100, 103, 111)] == \
        ["k", "k_one", "k_two", "k_few", "k_few", "k", "k", "k", "k_few", "k"]
    for lang in ("en", "ar", "vi"):
        for n in (5, 11, 103):  # the number itself is said from three on
            assert str(n) in t(lang, counted("sp_cards_said", n), card="x", count=n)


def test_every_counted_key_has_its_four_forms_in_every_language() -> None:
    """A key given to ``counted`` in views/ falls back to another language's words, or to the bare
    key, when one of its forms is missing; and "1 house rule(s)" once read as a guess."""
    from views.ui.i18n import table

    keys = {node.args[0].value for path in (ROOT / "views").rglob("*.py")
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "counted"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)}
    keys |= {k.removesuffix("_one") for k in table("en") if k.endswith("_one")}  # a reason's (``why_text``)
    assert {"friendly_rules", "carry_kept", "moves_n", "lp_rule_return", "why_not_held_count", "n_games"} <= keys
    for lang in ("en", "ar", "vi"):
        words = table(lang)
        forms = [f"{k}{form}" for k in sorted(keys) for form in ("", "_one", "_two", "_few")]
        assert [f for f in forms if f not in words] == [], lang
        assert [f for f in forms if "(s)" in words[f]] == [], lang
        assert [k for k, v in words.items() if "(s)" in v] == [], lang  # nor any other string
    assert t("en", counted("friendly_rules", 1), n=1) == "Friendly game: 1 house rule"
    assert t("ar", counted("friendly_rules", 2), n=2) == "لعبة ودية: قاعدتان منزليتان"


def test_no_screen_says_a_count_family_without_choosing_its_form() -> None:
    """A key with number forms given to ``t`` as it is says its general form whatever the count
    ("1 moves" in the history list); it goes through ``counted`` (or a key chosen in code)."""
    from views.ui.i18n import table

    families = {k.removesuffix("_one") for k in table("en") if k.endswith("_one")}
    bare = [f"{path.relative_to(ROOT)}:{node.lineno} {node.args[1].value}"
            for path in (ROOT / "views").rglob("*.py")
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "t" and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant) and node.args[1].value in families]
    assert bare == []


def test_a_reason_with_a_count_says_it_in_the_counts_form() -> None:
    """An engine reason carrying ``n`` (a Lopti play refused) takes the form of its count."""
    from engine.core import Why
    from views.ui.i18n import why_text

    assert why_text("en", Why("not_held_count", "-", n=1, rank="7")) == "You do not hold a card of rank 7."
    assert why_text("en", Why("not_held_count", "-", n=3, rank="7")) == "You do not hold 3 cards of rank 7."
    assert why_text("vi", Why("not_held_count", "-", n=1, rank="7")) == "Bạn không có 1 lá bậc 7."


def test_cards_shown_with_suit_symbols_are_said_by_name() -> None:
    """#47 item 3: "Last move: … 6♥" was read with a suit symbol in every language."""
    from views.ui.i18n import card_label, spoken_cards

    for lang in ("en", "ar", "vi"):
        shown = t(lang, "last_move", text=f"{card_label('6H')} {card_label('10C')} {card_label('QS')} JK")
        said = spoken_cards(lang, shown)
        assert not any(g in said for g in "♠♥♦♣")
        for card in ("6H", "10C", "QS", "JK"):
            assert card_name(lang, card) in said
    assert spoken_cards("en", "Lane 2: 17") == "Lane 2: 17"  # numbers that are not cards stay


def test_the_last_move_line_and_a_face_down_count_are_said_once_by_name() -> None:
    import flet as ft

    from tests.views.screen import walk
    from views.ui.widgets import card_back, status_box

    line = [c for c in walk(status_box("en", "Your move", "Last move: Opponent played 6♥ on lane 2"))
            if isinstance(c, ft.Semantics)]
    said = "Last move: Opponent played 6 of hearts on lane 2"
    assert [(c.label, c.exclude_semantics) for c in line] == [(said, True)]
    back = card_back(label="7")
    assert isinstance(back, ft.Semantics) and back.label == t("en", "card_down_n", n="7") and back.exclude_semantics


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_icon_buttons_are_one_named_focusable_node(lang: str) -> None:
    """#47 item 3: Back and Rules had an unnamed focusable button under a label said twice ("Back
    Back", the tooltip again): now the button's own node is merged with one name and no tooltip,
    so the node that takes the keyboard's focus is the named one (a name laid over the button
    with its semantics excluded left the focus on a node the browser could not see)."""
    import flet as ft

    from views.ui.widgets import icon_button

    taps: list[object] = []
    node = icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), taps.append)
    assert isinstance(node, ft.MergeSemantics) and isinstance(node.content, ft.Semantics)
    named = node.content
    assert named.label == t(lang, "back") and named.button and not named.exclude_semantics
    button = named.content
    assert isinstance(button, ft.IconButton) and button.tooltip is None and button.on_click == taps.append


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_each_disband_button_says_which_lane(tmp_path: Path, lang: str) -> None:
    """#47 item 3: the Disband buttons under the lanes shared one name; each says its lane."""
    from storage import api
    from storage.db import open_storage
    from tests.views.screen import Screen
    from tests.views.test_lanes_controller import stored_mid_game
    from views.app import start

    game_id, lanes = stored_mid_game(tmp_path / "app.sqlite")
    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, language=lang)
    st.close()
    s = Screen(tmp_path / "app.sqlite", start, route=f"/play/{game_id}")
    try:
        s.wait_for(lambda: s.find(ident=f"disband-{min(lanes)}"), what="the Disband buttons")
        names = {lane: _words_said(s.one(ident=f"disband-{lane}")) for lane in lanes}
        assert names == {lane: t(lang, "disband_lane", n=lane + 1) for lane in lanes}
        assert len(set(names.values())) == len(names) and all(names.values())
    finally:
        s.close()


def _words_said(node: object) -> str | None:
    """The name a button's words give it: the semantics label of the text inside it."""
    import flet as ft

    from tests.views.screen import walk

    return next((c.semantics_label for c in walk(node) if isinstance(c, ft.Text) and c.semantics_label), None)


BUTTONS = {"Button", "TextButton", "FilledButton", "FilledTonalButton", "OutlinedButton", "ElevatedButton",
           "IconButton", "ListTile"}


def test_no_button_is_wrapped_in_a_second_button() -> None:
    """#47 item 3: ``Semantics(button=True)`` around a button is a second button of the same name to
    a screen reader (and Tab's focus lands on the one without the identifier); a button carries its
    identifier through `tagged` (views/ui/widgets.py), one merged node."""
    def name(node: ast.AST | None) -> str:
        return node.func.attr if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else ""

    doubled = []
    for path in sorted((ROOT / "views").rglob("*.py")):
        calls = [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.Call)]
        merged = {id(a) for n in calls if name(n) == "MergeSemantics" for a in n.args}
        for node in calls:
            kw = {k.arg: k.value for k in node.keywords}
            button = kw.get("button")
            if name(node) == "Semantics" and id(node) not in merged and isinstance(button, ast.Constant) \
                    and button.value is True and name(kw.get("content")) in BUTTONS:
                doubled.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert doubled == []


def test_what_an_export_or_import_moved_is_said_in_each_counts_form() -> None:
    """Settings' "Your data" tells two counts in one line; each takes its own form."""
    from views.screens.settings import games_and_sessions

    assert games_and_sessions("en", "exported", 1, 2) == "Exported 1 game and 2 sessions."
    assert games_and_sessions("en", "imported", 12, 1) == "Imported 12 games and 1 session."
    assert games_and_sessions("ar", "imported", 2, 3) == "استُوردت لعبتان و3 جلسات."
    assert games_and_sessions("vi", "exported", 1, 5) == "Đã xuất 1 ván và 5 phiên."


def test_an_export_with_no_place_chosen_says_nothing_was_exported() -> None:
    """A save dialog closed without a place answers no path: the player is told nothing was
    written, not that it was. The browser's download answers none either, and there it is saved."""
    from views.screens.settings import export_said

    archive: dict[str, list[object]] = {"games": [1, 2], "sessions": []}
    assert export_said("en", archive, "/home/me/cardtable-export.json", web=False) == "Exported 2 games and 0 sessions."
    assert export_said("en", archive, None, web=True) == "Exported 2 games and 0 sessions."
    assert export_said("en", archive, None, web=False) == "Nothing was exported: no place to save it was chosen."
    assert export_said("ar", archive, None, web=False) == "لم يُصدَّر شيء: لم يُختر مكان لحفظه."


def test_counts_on_the_lopti_lessons_review_and_online_screens_take_their_number_form() -> None:
    """Arabic counts one, two, 3-10 and 11+ in four forms: "2 لاعبين" and "14 دروس" read wrong
    on the home and the lessons list ("لاعبان", "14 درسًا"). A lobby's answer without a whole
    count is said in the general form, never refused."""
    from views.online.common import me_said
    from views.online.watch import moves_said
    from views.screens.review import review_working

    assert [t("ar", counted("players_n", n), n=n) for n in (2, 3, 5)] == ["لاعبان", "3 لاعبين", "5 لاعبين"]
    assert t("ar", counted("lesson_progress", 14), done=0, n=14) == "أنهيت 0 من 14 درسًا"
    assert t("ar", counted("lesson_progress", 6), done=6, n=6) == "أنهيت 6 من 6 دروس"
    assert t("en", counted("sess_majority", 2), n=2, of=3).startswith("It passes with at least 2 of 3 votes")
    assert "بصوتين" in t("ar", counted("carry_hint", 2), n=2, of=3)
    assert me_said("en", {"name": "Ana", "rating": 1500, "rated_games": 1}) == "Ana · rating 1500 · 1 rated game"
    assert me_said("ar", {"name": "Ana", "rating": 1500, "rated_games": 2}).endswith("مباراتان مصنّفتان")
    assert me_said("en", {"name": "Ana", "rating": 1500, "rated_games": "?"}) == "Ana · rating 1500 · ? rated games"
    assert moves_said("en", 1) == "1 move" and moves_said("ar", 7) == "7 نقلات" and moves_said("en", None) == "? moves"
    assert review_working("en", 0, None) == "0 of … moves looked at"
    assert review_working("en", 1, 1) == "1 of 1 move looked at"
    assert review_working("ar", 3, 40) == "تمت مراجعة 3 من 40 نقلة"
