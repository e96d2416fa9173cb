"""Every control on every table is a finger's target and stays legible when it cannot be used
(#42 item 3): walked on a 360×640 phone, the smallest the app supports.

- Every button is at least MIN_TARGET (44 px) tall: table buttons are BUTTON_HEIGHT (48) on every
  platform (Material shrinks them to 32–40 px on the web and the desktop), icon buttons 48 × 48.
- Every other control that answers a tap (a card, a deck, a rule's chip) declares, itself or through
  what it holds, at least MIN_TARGET × MIN_TARGET; a lane's bed fills its third of the table.
- A button that cannot be used now keeps its words (and a filled button its outline) at a contrast
  of at least 3:1 against every shade of the cloth (WCAG's non-text contrast).

A lane's covered stacks show only a strip of themselves (``sizing.lanes``' step); the lane around
them is the large target (a face card tapped on a lane goes on its last card it may take)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft
import pytest

from tests.views.screen import Screen, walk
from tests.views.test_lanes_controller import stored_mid_game
from tests.views.test_screens import start
from views.app import App
from views.ui import theme
from views.ui.i18n import t

PHONE = (360, 640)
CLOTH = (theme.FELT, theme.FELT_LIGHT, theme.FELT_DARK)
BUTTONS = (ft.Button, ft.TextButton, ft.FilledButton, ft.OutlinedButton)


def luminance(colour: str) -> float:
    rgb = colour.lstrip("#")[-6:]
    channels = [int(rgb[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_contrast_arithmetic_is_wcags() -> None:
    assert contrast("#FFFFFF", "#000000") == pytest.approx(21.0)
    assert contrast("#767676", "#FFFFFF") == pytest.approx(4.54, abs=0.01)


def extent(control: Any) -> tuple[float, float]:
    """The size a control declares: its own width and height, else those of the first control
    inside it that declares one (a card's face inside its tap area)."""
    width, height = getattr(control, "width", None), getattr(control, "height", None)
    for inner in walk(control):
        if width is None and isinstance(getattr(inner, "width", None), (int, float)):
            width = inner.width
        if height is None and isinstance(getattr(inner, "height", None), (int, float)):
            height = inner.height
    return float(width or 0), float(height or 0)


def disabled_colour(style: ft.ButtonStyle | None, part: str) -> str | None:
    value = getattr(style, part, None) if style is not None else None
    if isinstance(value, dict):
        value = value.get(ft.ControlState.DISABLED)
    if isinstance(value, ft.BorderSide):
        value = value.color
    return value if isinstance(value, str) else None


def problems(s: Screen) -> list[str]:
    """What on the screen is too small to tap or vanishes when disabled."""
    out: list[str] = []
    controls = s.controls()
    # a lane's name is a keyboard's target while a card is picked up (one named node, merged); a
    # finger reaches the same move through the whole lane bed around it, which is measured instead
    beds = [c for c in controls if getattr(c, "on_click", None) is not None and getattr(c, "expand", False)]
    covered = {id(x) for bed in beds for m in walk(bed) if isinstance(m, ft.MergeSemantics) for x in walk(m)}
    for c in controls:
        if id(c) in covered:
            continue
        name = f"{type(c).__name__} {getattr(c, 'content', '') if isinstance(getattr(c, 'content', None), str) else ''}"
        if isinstance(c, BUTTONS):
            if (c.height or 0) < theme.MIN_TARGET:
                out.append(f"{name}: {c.height} px tall")
            if c.disabled:
                words = disabled_colour(c.style, "color")
                if words is None or min(contrast(words, cloth) for cloth in CLOTH) < 3:
                    out.append(f"{name}: disabled words {words} under 3:1 on the cloth")
                if not isinstance(c, ft.TextButton):
                    rim = disabled_colour(c.style, "side")
                    if rim is None or min(contrast(rim, cloth) for cloth in CLOTH) < 3:
                        out.append(f"{name}: disabled outline {rim} under 3:1 on the cloth")
        elif isinstance(c, ft.IconButton):  # Material draws them 40 px on the web unless told
            if min(c.width or 0, c.height or 0) < theme.MIN_TARGET:
                out.append(f"{name}: {c.width} × {c.height} px")
        elif getattr(c, "on_click", None) is not None and not getattr(c, "expand", False):
            w, h = extent(c)
            if min(w, h) < theme.MIN_TARGET:
                out.append(f"{name}: {w:.0f} × {h:.0f} px")
    return out


def phone(tmp_path: Path, route: str) -> Screen:
    return Screen(tmp_path / "app.sqlite", start, route=route, size=PHONE)


@pytest.fixture(autouse=True)
def _seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(App, "new_seed", staticmethod(lambda: 1))  # deals where I move first


def test_every_control_on_the_lanes_table_is_a_finger_target(tmp_path: Path) -> None:
    """The opening (Discard disabled), a card picked up (the lanes lit), and the middle game (the
    Disband buttons under my lanes, Undo)."""
    s = phone(tmp_path, "/lanes/new")
    try:
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the Lanes table")
        assert s.find(t("en", "discard"))
        assert s.call(lambda: s.app.screen.match.targets().discard) is False  # Discard shown disabled
        assert problems(s) == []
        s.tap(ident="hand-0")
        assert problems(s) == []
    finally:
        s.close()
    game_id, lanes = stored_mid_game(tmp_path / "mid.sqlite")
    s = Screen(tmp_path / "mid.sqlite", start, route=f"/play/{game_id}", size=PHONE)
    try:
        s.wait_for(lambda: s.find(ident=f"disband-{min(lanes)}"), what="the Disband buttons")
        assert problems(s) == []
    finally:
        s.close()


def test_every_control_on_the_lopti_table_is_a_finger_target(tmp_path: Path) -> None:
    """The setup (Swap disabled until two cards are picked) and play (Play disabled until a card
    is picked, the deck, the rules' chips)."""
    s = phone(tmp_path, "/")
    try:
        s.tap(t("en", "players_n", n=3))
        s.wait_for(lambda: s.find(ident="lopti-deck"), what="the Lopti table")
        assert s.find(t("en", "swap")) and problems(s) == []
        s.tap(t("en", "keep"))
        s.wait_for(lambda: s.find(t("en", "play")), what="play")
        assert problems(s) == []
    finally:
        s.close()


def test_every_control_on_the_spit_table_is_a_finger_target(tmp_path: Path) -> None:
    s = phone(tmp_path, "/spit/new")
    try:
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="stock-0-0"), what="the Spit table")
        assert problems(s) == []
    finally:
        s.close()


def test_the_walk_finds_what_it_is_for() -> None:
    """The checks themselves: a 32 px button, a dark disabled button and a small card fail."""
    class Fake:
        def __init__(self, controls: list[Any]) -> None:
            self._controls = controls

        def controls(self) -> list[Any]:
            return self._controls

    small = ft.TextButton("Draw 16", height=17)
    dark = ft.Button("Discard", disabled=True, height=48)
    chip = ft.Container(width=40, height=54, on_click=lambda e: None)
    found = problems(Fake([small, dark, chip]))  # type: ignore[arg-type]
    assert len(found) == 4, found  # the short button, the dark words and outline, the small card
