"""Updates in place (views/ui/reconcile.py): the controls on screen take the new description's
properties and keep their identity; only what differs is marked for sending."""

from __future__ import annotations

from typing import Any

import flet as ft

from engine.lanes import RULES, LanesOptions
from views.ui.reconcile import reconcile, update_children
from views.ui.widgets import card_face


def same(a: Any, b: Any) -> bool:
    """Two control trees describe the same screen (types, properties, children; handlers present)."""
    if type(a) is not type(b):
        return False
    if not isinstance(a, ft.BaseControl):
        return bool(a == b)
    kind: Any = type(a)  # Flet's @control sets these on the class
    events = kind._event_fields
    for name in a._values.keys() | b._values.keys():
        x, y = getattr(a, name), getattr(b, name)
        if name in events:
            if (x is None) != (y is None):
                return False
        elif isinstance(x, ft.BaseControl) or isinstance(y, ft.BaseControl):
            if not same(x, y):
                return False
        elif x != y:
            return False
    for name in kind._structural_fields:
        if name.startswith("_"):
            continue
        x, y = getattr(a, name, None), getattr(b, name, None)
        if isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y) or not all(same(p, q) for p, q in zip(x, y, strict=True)):
                return False
        elif x != y:
            return False
    return True


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
