"""Small shared pieces: text in the right font, playing cards drawn from containers (no images,
no SVG text: the suits come from the bundled DejaVu Sans font)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import flet as ft

from views.ui import theme
from views.ui.reconcile import anew_when
from views.ui.theme import card_style

SUIT_GLYPH = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = theme.RED
BLACK = theme.INK
HIGHLIGHT = theme.HIGHLIGHT
SELECTED = theme.SELECTED
FELT = theme.FELT
FELT_DARK = theme.FELT_DARK
CARD_FONT = "DejaVu"

#: the fonts the page registers (each one family; bold text is drawn from the regular face, as
#: it always was: the bold files were registered under names nothing used, 1.5 MB loaded for nothing)
FONTS = {
    "NotoSans": "fonts/NotoSans-Regular.ttf",
    "NotoSansArabic": "fonts/NotoSansArabic-Regular.ttf",
    "DejaVu": "fonts/DejaVuSans.ttf",
}


#: a colour per suit in the four-colour card style (settings): diamonds blue, clubs green
FOUR_COLOUR = {"S": BLACK, "H": RED, "D": theme.DIAMONDS_4C, "C": theme.CLUBS_4C}


def suit_color(suit: str, style: str | None = None) -> str:
    """A suit's colour in ``style`` (default: the page's chosen card style)."""
    if (style or card_style()) == "four_colour":
        return FOUR_COLOUR[suit]
    return RED if suit in "HD" else BLACK


def family(lang: str) -> tuple[str, list[str]]:
    if lang == "ar":
        return "NotoSansArabic", ["NotoSans", "DejaVu"]
    return "NotoSans", ["NotoSansArabic", "DejaVu"]


# Flet value objects are immutable descriptions: built once, shared by every card (a table is
# described afresh on every tap, and building these is most of that cost)
@cache
def border(width: float, color: str) -> ft.Border:
    return ft.Border.all(width, color)


@cache
def radius(r: float) -> ft.BorderRadius:
    return ft.BorderRadius.all(r)


@cache
def pad(all_sides: float) -> ft.Padding:
    return ft.Padding.all(all_sides)


@cache
def pad2(horizontal: float, vertical: float) -> ft.Padding:
    return ft.Padding.symmetric(horizontal=horizontal, vertical=vertical)


@cache
def font(family_name: str, fallback: tuple[str, ...] = ()) -> ft.TextStyle:
    return ft.TextStyle(font_family=family_name, font_family_fallback=list(fallback) or None)


def handler(fn: Callable[..., Any], *args: Any) -> Callable[[Any], None]:
    """A tap handler that calls ``fn(*args)`` (the event itself is not needed)."""
    return lambda e: fn(*args)


def text(lang: str, value: str, size: float = 14, bold: bool = False, color: str | None = None,
         align: ft.TextAlign | None = None, max_lines: int | None = None) -> ft.Text:
    fam, fallback = family(lang)
    return ft.Text(value, size=size, color=color, text_align=align or ft.TextAlign.START, max_lines=max_lines,
                   weight=ft.FontWeight.BOLD if bold else None,
                   style=font(fam, tuple(fallback)))


def card_face(card: str, width: float = 46, height: float = 64, *, selected: bool = False, target: bool = False,
              dim: bool = False, on_click: Callable[[Any], Any] | None = None, ident: str | None = None,
              style: str | None = None) -> ft.Control:
    """A card face: rank and suit in the corner and large in the middle (``style``: a card style other
    than the page's, for the settings' preview)."""
    if card == "JK":
        rank, glyph, color = "JK", "★", theme.JOKER
    else:
        rank, suit = card[:-1], card[-1]
        glyph, color = SUIT_GLYPH[suit], suit_color(suit, style)
    edge = border(3, SELECTED) if selected else border(3, HIGHLIGHT) if target else border(1, theme.CARD_EDGE)
    if height < 45:  # a small card: rank and suit on one line
        small = ft.Container(
            width=width, height=height, bgcolor=theme.CARD_FACE, border=edge, border_radius=radius(4),
            alignment=ft.Alignment.CENTER, on_click=on_click,
            content=ft.Text(rank + glyph if rank != "JK" else "★", size=11 if len(rank) == 1 else 9.5, no_wrap=True,
                            weight=ft.FontWeight.BOLD, color=color, style=font(CARD_FONT)))
        return anew_when(ft.Semantics(identifier=ident, label=card, content=small), card) if ident else small
    body = ft.Container(
        width=width, height=height, bgcolor=theme.CARD_FACE if not dim else theme.CARD_DIM, border=edge,
        border_radius=radius(6), padding=pad(2), on_click=on_click, ink=on_click is not None,
        content=ft.Column([
            ft.Text(rank, size=13, weight=ft.FontWeight.BOLD, color=color,
                    style=font(CARD_FONT)),
            ft.Container(ft.Text(glyph, size=20 if height >= 56 else 14, color=color,
                                 style=font(CARD_FONT)), alignment=ft.Alignment.CENTER,
                         expand=True),
        ], spacing=0, tight=True),
    )
    if not ident:
        return body
    # a card at this place that is another card is a new node (views/ui/reconcile.py): Flutter's
    # web semantics drops the identifier of a node whose contents are patched in place
    return anew_when(ft.Semantics(identifier=ident, label=card, button=on_click is not None, content=body), card)


def drag_ghost(width: float, height: float) -> ft.Control:
    """What stays behind while a card is dragged: a faded slot of its size. (Never the card's own
    control: a control may stand in one place only, or its updates reach the wrong copy.)"""
    return ft.Container(width=width, height=height, border_radius=radius(6), bgcolor=theme.SHADE)


def card_back(width: float = 46, height: float = 64, label: str | None = None) -> ft.Control:
    return ft.Container(width=width, height=height, bgcolor=theme.CARD_BACK, border=border(2, theme.ON_FELT),
                        border_radius=radius(6), alignment=ft.Alignment.CENTER,
                        content=ft.Text(label or "", size=12, color=theme.ON_FELT,
                                        style=font(CARD_FONT)))


def mini_card(card: str) -> ft.Control:
    """An attachment shown as a small tag beside the number card it sits on."""
    if card == "JK":
        label, color = "★", theme.JOKER
    else:
        label, color = card[:-1] + SUIT_GLYPH[card[-1]], suit_color(card[-1])
    return ft.Container(bgcolor=theme.CARD_FACE, border_radius=radius(4), padding=pad2(3, 1),
                        border=border(1, theme.CARD_EDGE),
        content=ft.Text(label, size=11, color=color, weight=ft.FontWeight.BOLD,
                        style=font(CARD_FONT)))


def table_header(lang: str, title: str, on_back: Callable[[Any], Any], back_label: str,
                 extra: ft.Control | None = None) -> ft.Control:
    """The bar above every table: back, the game and opponent, an optional action (resign)."""
    row: list[ft.Control] = [
        icon_button(ft.Icons.ARROW_BACK, back_label, on_back, theme.ON_FELT),
        ft.Container(text(lang, title, 18, True, theme.ON_FELT), expand=True),
    ]
    if extra is not None:
        row.append(extra)
    return ft.Row(row)


def status_box(lang: str, status: str, last: str) -> ft.Control:
    """Whose move it is and what to do, and the last move in words."""
    lines: list[ft.Control] = [text(lang, status, 15, True, theme.ON_FELT)]
    if last:
        lines.append(text(lang, last, 12, color=theme.LAST_MOVE, max_lines=3))
    return ft.Container(ft.Column(lines, spacing=2, tight=True),
                        padding=pad2(6, 4), bgcolor=theme.SHADE,
                        border_radius=radius(8))


def icon_button(icon: Any, label: str, on_click: Callable[[Any], Any], color: str | None = None) -> ft.Control:
    """An icon button with an accessible name (screen readers and browser tests see ``label``)."""
    return ft.Semantics(label=label, button=True,
                        content=ft.IconButton(icon, on_click=on_click, icon_color=color, tooltip=label))


MAX_WIDTH = theme.MAX_WIDTH


def felt(content: ft.Control, page_width: float | None) -> ft.Control:
    width = None if not page_width or page_width <= MAX_WIDTH else MAX_WIDTH
    inner = ft.Container(content, width=width, expand=width is None, padding=pad(6))
    row = ft.Row([inner], alignment=ft.MainAxisAlignment.CENTER, expand=True,
                 vertical_alignment=ft.CrossAxisAlignment.STRETCH)
    return ft.Container(row, bgcolor=FELT, expand=True)


def coach_panel(lang: str, coach: Any, *, on_hint: Callable[[Any], Any], on_retry: Callable[[Any], Any],
                on_continue: Callable[[Any], Any], on_next: Callable[[Any], Any] | None,
                next_label: str, on_learn: Callable[[Any], Any]) -> ft.Control:
    """The lesson coach above the learner's side of the table: step counter, the step's words, why
    the last move was wrong, the hint once asked for, and Continue / Retry / Next lesson."""
    from views.ui.i18n import t

    head = t(lang, "coach_done") if coach.done else t(lang, "coach_step", i=coach.step, n=coach.steps)
    lines: list[ft.Control] = [
        ft.Row([ft.Icon(ft.Icons.SCHOOL, size=18, color=theme.FELT),
                ft.Container(text(lang, head, 12, True, theme.FELT), expand=True),
                *([] if coach.done else [ft.TextButton(t(lang, "hint"), on_click=on_hint),
                                         ft.TextButton(t(lang, "retry"), on_click=on_retry)])],
               spacing=4),
        ft.Semantics(identifier="coach-text", content=text(lang, coach.text, 14, color=BLACK)),
    ]
    if coach.feedback:
        lines.append(ft.Semantics(identifier="coach-feedback",
                                  content=text(lang, coach.feedback, 13, True, theme.DANGER)))
    if coach.hint:
        lines.append(text(lang, coach.hint, 13, color=theme.HINT))
    buttons: list[ft.Control] = []
    if coach.info:
        buttons.append(ft.Semantics(identifier="coach-continue", button=True, content=ft.FilledButton(
            t(lang, "continue_step"), on_click=on_continue)))
    if coach.done:
        if on_next is not None:
            buttons.append(ft.Semantics(identifier="coach-next", button=True,
                                        content=ft.FilledButton(next_label, on_click=on_next)))
        buttons.append(ft.Button(t(lang, "learn"), on_click=on_learn))
        buttons.append(ft.TextButton(t(lang, "retry"), on_click=on_retry))
    if buttons:
        lines.append(ft.Row(buttons, spacing=8, wrap=True))
    return ft.Container(ft.Column(lines, spacing=4, tight=True), bgcolor=theme.COACH_BG,
                        padding=pad2(10, 6),
                        border_radius=radius(10), border=border(2, HIGHLIGHT))
