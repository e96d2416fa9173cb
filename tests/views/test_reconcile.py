"""Updates in place (views/ui/reconcile.py; docs/app.md, "One way to update the screen"): the
controls on screen take the new description's properties and keep their identity; only what
differs is marked for sending."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft
import pytest

from engine.lanes import RULES, LanesOptions
from views.ui.reconcile import Parts, Same, differs, keyed, reconcile, show, update_children
from views.ui.widgets import card_face


def same(a: Any, b: Any) -> bool:
    """Two control trees describe the same screen (types, properties, children; handlers present)."""
    return differs(a, b) is None


def keyed_hand(cards: list[str]) -> ft.Row:
    return ft.Row([keyed(card_face(c, ident=f"card-{c}", on_click=lambda e: None), c) for c in cards])


def hand(cards: list[str], selected: str | None) -> ft.Row:
    return ft.Row([card_face(c, selected=c == selected, ident=f"hand-{i}", on_click=lambda e: None)
                   for i, c in enumerate(cards)])


def test_a_selection_changes_only_the_two_cards_borders_and_keeps_every_control() -> None:
    old = hand(["5H", "KS", "2D"], None)
    faces = list(old.controls)
    new = hand(["5H", "KS", "2D"], "KS")
    kept = reconcile(old, new)
    assert kept is old and all(a is b for a, b in zip(old.controls, faces, strict=True))
    assert same(old, new)
    inner = [c.content for c in old.controls if isinstance(c, ft.Semantics)]  # Semantics -> the card's Container
    assert [bool(c is not None and c._dirty) for c in inner] == [False, True, False]  # only the selected card changed


def test_a_played_card_leaves_the_hand_and_a_new_type_replaces_the_old() -> None:
    old = hand(["5H", "KS", "2D"], "KS")
    update_children(old, hand(["5H", "2D"], None).controls)
    assert same(old, hand(["5H", "2D"], None)) and len(old.controls) == 2
    box = ft.Column([ft.Text("a"), ft.Container(ft.Text("b"))])
    update_children(box, [ft.Text("a"), ft.Text("b")])
    assert same(box, ft.Column([ft.Text("a"), ft.Text("b")]))


def test_handlers_are_swapped_silently_and_a_kept_control_is_used_as_it_is() -> None:
    calls: list[str] = []
    old = ft.Container(ft.Text("x"), on_click=lambda e: calls.append("old"))
    new = ft.Container(ft.Text("x"), on_click=lambda e: calls.append("new"))
    reconcile(old, new)
    assert not old._dirty  # the client already knows it answers taps
    handler: Any = old.on_click
    handler(None)
    assert calls == ["new"]
    cleared = reconcile(ft.Container(on_click=lambda e: None), ft.Container())
    assert cleared.on_click is None and "on_click" in cleared._dirty


def test_every_position_of_a_lanes_game_reconciles_to_its_fresh_description() -> None:
    """Property over a whole game: drawing each position's hand and lanes on the previous drawing
    gives the same screen as drawing it from scratch."""
    from engine.bots import decide

    state = RULES.new_game(LanesOptions(), 7)
    def draw(s: Any) -> ft.Column:
        obs = RULES.observe(s, s.to_move)
        lanes = [ft.Row([card_face(st[0], 40, 54) for st in lane]) for p in obs["players"] for lane in p["lanes"]]
        return ft.Column([hand(obs["hand"], None), *lanes, ft.Text(str(obs["to_move"]))])

    screen = draw(state)
    steps = 0
    while not state.over and steps < 120:
        action = decide("lanes", RULES.observe(state, state.to_move), "beginner", steps, 50)
        state, _ = RULES.apply(state, action)
        fresh = draw(state)
        update_children(screen, fresh.controls)
        assert same(screen, draw(state)), f"step {steps}"
        steps += 1
    assert steps > 20


def test_keyed_children_match_by_what_they_are_so_a_card_at_the_head_leaves_the_others_alone() -> None:
    old = keyed_hand(["5H", "KS", "2D"])
    faces = list(old.controls)
    changed: list[Any] = []
    assert update_children(old, keyed_hand(["QC", "5H", "KS", "2D"]).controls, changed=changed)
    assert old.controls[1:] == faces and all(a is b for a, b in zip(old.controls[1:], faces, strict=True))
    assert changed == [] and same(old, keyed_hand(["QC", "5H", "KS", "2D"]))
    update_children(old, keyed_hand(["2D", "5H"]).controls)  # a card left, the rest reordered
    assert old.controls[0] is faces[2] and old.controls[1] is faces[0] and same(old, keyed_hand(["2D", "5H"]))
    # without keys the same change rewrites every position
    plain = hand(["5H", "KS", "2D"], None)
    before = list(plain.controls)
    update_children(plain, hand(["QC", "5H", "KS", "2D"], None).controls)
    assert not any(a is b for a, b in zip(plain.controls, before, strict=False))


def test_a_key_given_twice_never_puts_one_control_in_two_places() -> None:
    old = ft.Row([keyed(ft.Text("a"), "x")])
    update_children(old, [keyed(ft.Text("a"), "x"), keyed(ft.Text("b"), "x")])
    assert old.controls[0] is not old.controls[1]


def test_the_flet_internals_the_reconciler_reads_mean_what_it_takes_them_to_mean() -> None:
    """views/ui/reconcile.py reads five of Flet's private attributes; a Flet upgrade that changes
    any of them fails here, not as a stale screen. (flet 1.0.5)"""
    text_kind: Any = ft.Text  # Flet's @control sets these on the class (not declared)
    container: Any = ft.Container
    row: Any = ft.Row
    column: Any = ft.Column
    text = ft.Text("a")
    assert text._values == {"value": "a"}  # the properties given, by name (defaults left out)
    text.size = 12
    assert text._values == {"value": "a", "size": 12}
    assert text_kind._prop_defaults["value"] == "" and container._prop_defaults["opacity"] == 1.0
    assert "on_click" in container._event_fields and container._prop_defaults["on_click"] is None
    assert "width" not in container._event_fields
    # a list of children is a structural field; a single child is an ordinary property
    assert "controls" in row._structural_fields and "controls" in column._structural_fields
    assert "content" not in container._structural_fields
    assert isinstance(ft.Container(ft.Text("x"))._values["content"], ft.Text)
    # a control placed on a page knows its parent (through ``_parent``): a table's own status line
    from tests.views.screen import Screen

    kept = ft.Text("status")
    box = ft.Column([kept])
    assert kept.parent is None and getattr(kept, "_parent", None) is None
    screen = Screen(Path("unused.sqlite"), lambda page, db: page.add(box))
    try:
        assert screen.call(lambda: kept.parent) is box and getattr(kept, "_parent", None) is not None
        # so a new description that holds it uses it as it is, and a patch reaches the client
        sent = screen.conn.bytes_sent
        screen.call(lambda: show(box, [kept, ft.Text("more")]))
        assert screen.call(lambda: len(box.controls)) == 2 and box.controls[0] is kept
        assert screen.conn.bytes_sent > sent
    finally:
        screen.close()


def test_a_hand_fan_keeps_each_card_that_stays_over_a_whole_lanes_game() -> None:
    """Property over a whole game: the real hand fan (views/ui/fan.py, keyed by card) reconciled
    onto the previous drawing equals a fresh drawing, and every card still in the hand keeps the
    control it had, wherever it moved (a positional match rebuilt every card after a played one)."""
    from engine.bots import decide
    from views.ui.fan import card_keys, hand_fan, lay_out

    def draw(cards: list[str]) -> ft.Column:
        fan = lay_out(len(cards), 360, 46, 64)
        faces = [card_face(c, fan.card_width, fan.card_height, ident=f"hand-{i}", on_click=lambda e: None,
                           shows=fan.shows[i]) for i, c in enumerate(cards)]
        return ft.Column([hand_fan(faces, fan, 360, cards, "Your hand")])

    def spots(screen: ft.Column, cards: list[str]) -> dict[tuple[str, int], Any]:
        """The control at each card's spot (what a person sees there)."""
        stack: Any = screen.controls[0]
        stack = stack.content if isinstance(stack, ft.Container) else stack.controls[0]
        stack = stack.content  # the hand's group (its name, its direction)
        return dict(zip(card_keys(cards), stack.controls, strict=True))

    state = RULES.new_game(LanesOptions(), 11)
    cards = list(RULES.observe(state, 0)["hand"])
    screen = draw(cards)
    kept = moved = 0
    while not state.over:
        action = decide("lanes", RULES.observe(state, state.to_move), "beginner", kept, 50)
        state, _ = RULES.apply(state, action)
        before, cards = spots(screen, cards), list(RULES.observe(state, 0)["hand"])
        update_children(screen, draw(cards).controls)
        assert same(screen, draw(cards))
        after = spots(screen, cards)
        for key in set(before) & set(after):
            assert after[key] is before[key], key
            kept += 1
        moved += sum(1 for k in set(before) & set(after) if card_keys(cards).index(k) != list(before).index(k))
    assert kept > 100 and moved > 0


def test_a_control_with_several_changed_parts_is_sent_whole_once() -> None:
    """#44: each sent control is a message of its own, which the client patches and redraws on its
    own; a lane whose border, glow and name changed goes as one message, not as four."""
    def lane(target: bool, name: str) -> ft.Container:
        return ft.Container(ft.Column([ft.Semantics(label=name, content=ft.Text(name)),
                                       ft.Container(border=ft.Border.all(3 if target else 1))]),
                            bgcolor="#FFD54F" if target else None)

    old, changed = lane(False, "Lane 1"), list[ft.BaseControl]()
    reconcile(old, lane(True, "Lane 1: the selected card can go here"), changed)
    assert changed == [old] and same(old, lane(True, "Lane 1: the selected card can go here"))
    one, changed = lane(False, "Lane 1"), list[ft.BaseControl]()
    reconcile(one, lane(False, "Lane 1, empty"), changed)  # one part changed: only that part is sent
    assert len(changed) == 1 and isinstance(changed[0], ft.Semantics)


# --- parts kept from one show to the next (Parts) ------------------------------------------------

def test_a_part_is_kept_while_what_it_is_drawn_from_is_the_same_and_drawn_again_when_it_changes(
        monkeypatch: Any) -> None:
    monkeypatch.setattr(Parts, "check", False)  # (on in these tests: it builds kept parts too)
    root, parts, built = ft.Column(), Parts(), []

    def label(words: str) -> ft.Control:
        built.append(words)
        return ft.Container(ft.Text(words), padding=len(words))

    def refresh(words: str) -> ft.Control:
        part = parts.part("label", words, lambda: label(words))
        show(root, [ft.Text("title"), part], update=False, parts=parts)
        return root.controls[1]

    first = refresh("a")
    assert refresh("a") is first and built == ["a"]  # kept: not described again
    assert refresh("bb") is first and built == ["a", "bb"]  # drawn again, shown by the same control
    assert same(first, ft.Container(ft.Text("bb"), padding=2))
    assert refresh("bb") is first and built == ["a", "bb"]  # the control on screen is the one kept


def test_a_part_left_out_of_a_show_is_forgotten(monkeypatch: Any) -> None:
    """A show without a part (the pass-and-play privacy screen) drops it: the control kept before
    is no longer on screen, and the next show describes it anew."""
    monkeypatch.setattr(Parts, "check", False)
    root, parts, built = ft.Column(), Parts(), []

    def text() -> ft.Control:
        built.append(1)
        return ft.Text("p")

    show(root, [parts.part("p", 1, text)], update=False, parts=parts)
    show(root, [ft.Text("hand the device over")], update=False, parts=parts)
    show(root, [parts.part("p", 1, text)], update=False, parts=parts)
    assert built == [1, 1]


def test_with_check_on_a_kept_part_that_misses_an_input_raises(monkeypatch: Any) -> None:
    root, parts, colour = ft.Column(), Parts(), ["red"]
    monkeypatch.setattr(Parts, "check", True)

    def refresh() -> None:  # drawn from nothing: the colour is a forgotten input
        show(root, [parts.part("p", (), lambda: ft.Text("x", color=colour[0]))], update=False, parts=parts)

    refresh()
    refresh()
    colour[0] = "blue"
    with pytest.raises(AssertionError, match="color"):
        refresh()


def test_differs_names_where_two_descriptions_part() -> None:
    a = ft.Column([ft.Text("x"), ft.Container(ft.Text("y"), on_click=lambda e: None)])
    assert differs(a, ft.Column([ft.Text("x"), ft.Container(ft.Text("y"), on_click=lambda e: 1)])) is None
    assert differs(a, ft.Column([ft.Text("x"), ft.Container(ft.Text("z"), on_click=lambda e: None)])) \
        == ".controls[1].content.value: 'y' shown, 'z' described"
    assert "handler" in str(differs(a, ft.Column([ft.Text("x"), ft.Container(ft.Text("y"))])))
    assert "children" in str(differs(a, ft.Column([ft.Text("x")])))
    card = ft.Text("5H")
    assert Same(card) == Same(card) and Same(card) != Same(ft.Text("5H"))
