"""Small shared pieces: text in the right font, playing cards (the bundled vector faces; small cards
as chips whose suits come from the bundled DejaVu Sans font), the table's bars and panels."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

import flet as ft

from views.ui import theme
from views.ui.fan import card_keys
from views.ui.i18n import SUIT_GLYPH, card_name, spoken_cards, t
from views.ui.reconcile import anew_when
from views.ui.theme import card_style

if TYPE_CHECKING:
    from views.table.lessons import Coach

RED = theme.RED
BLACK = theme.INK
HIGHLIGHT = theme.HIGHLIGHT
SELECTED = theme.SELECTED
FELT = theme.FELT
FELT_DARK = theme.FELT_DARK
#: the one font the page registers (assets/fonts/subset.py makes it): the Arabic script and the
#: symbols the platform's font lacks — suits, arrows, the star. Latin and Vietnamese text is drawn
#: in the platform's own font (Roboto in the web client, which already carries it): one small file
#: to load before the first screen settles, not three large ones
FONT = "CardTable"
FONTS = {FONT: "fonts/CardTable.ttf"}


#: a colour per suit in the four-colour card style (settings): diamonds blue, clubs green
FOUR_COLOUR = {"S": BLACK, "H": RED, "D": theme.DIAMONDS_4C, "C": theme.CLUBS_4C}


def suit_color(suit: str, style: str | None = None) -> str:
    """A suit's colour in ``style`` (default: the page's chosen card style)."""
    if (style or card_style()) == "four_colour":
        return FOUR_COLOUR[suit]
    return RED if suit in "HD" else BLACK


def family(lang: str) -> tuple[str | None, tuple[str, ...]]:
    """The font of ``lang``'s text and what fills its gaps: Arabic is drawn in the bundled font
    (its Latin letters and digits fall back to the platform's); every other language in the
    platform's font, with the bundled one for suits, arrows and Arabic names."""
    if lang == "ar":
        return FONT, ()
    return None, (FONT,)


# Flet value objects are immutable descriptions: built once, shared by every card (a table is
# described afresh on every tap, and building these is most of that cost)
@cache
def border(width: float, color: str) -> ft.Border:
    return ft.Border.all(width, color)


def radius(r: float) -> float:
    """The same radius at every corner, sent as the one number Flet reads so (#44: a table's cards
    and lanes sent the four corners each, about a tenth of the bytes of a table's first drawing)."""
    return r


def pad(all_sides: float) -> float:
    """The same padding on every side, sent as one number (as ``radius``)."""
    return all_sides


@cache
def pad2(horizontal: float, vertical: float) -> ft.Padding:
    return ft.Padding.symmetric(horizontal=horizontal, vertical=vertical)


@cache
def font(family_name: str | None, fallback: tuple[str, ...] = ()) -> ft.TextStyle:
    return ft.TextStyle(font_family=family_name, font_family_fallback=list(fallback) or None)


#: a card chip's rank and suit, and a lane's arrow and suit: the platform's digits, the bundled suits
SYMBOLS = font(None, (FONT,))


#: what a tap does, given Flet's event. The event's type differs with the control a widget draws
#: (``Event[IconButton]``, ``Event[Button]``…) and no handler of ours reads it, so it is an object
Tap = Callable[[object], object]


def handler(fn: Callable[..., object], *args: object) -> Tap:
    """A tap handler that calls ``fn(*args)`` (the event itself is not needed)."""
    return lambda e: fn(*args)


def text(lang: str, value: str, size: float = theme.TYPE_BODY, bold: bool = False, color: str | None = None,
         align: ft.TextAlign | None = None, max_lines: int | None = None) -> ft.Text:
    return ft.Text(value, size=size, color=color, text_align=align or ft.TextAlign.START, max_lines=max_lines,
                   weight=ft.FontWeight.BOLD if bold else None, style=font(*family(lang)))


#: the faces bundled in assets/cards (docs/app.md: where they come from, their licence): one folder
#: per card style, one file per card under the engine's name (10H.svg, JK.svg)
FACE_NAMES = frozenset([*(r + s for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
                          for s in "SHDC"), "JK"])
BACK_SRC = "cards/back.svg"
SMALL = 45  # below this height a card is a chip: rank and suit in text (a face's index would not read)


def face_src(card: str, style: str | None = None) -> str:
    return f"cards/{style or card_style()}/{card}.svg"


@cache
def _edge(selected: bool, target: bool, r: float) -> ft.BoxDecoration:
    """The selection or target ring, drawn over the face (a border would shrink the face inside it).
    An unmarked card has a clear ring, never none: a ring that comes and goes changes the widgets
    around the card's ink well, so Flutter made a new one and the keyboard's focus left the card
    that Enter had just picked up."""
    color = SELECTED if selected else HIGHLIGHT if target else theme.NONE
    return ft.BoxDecoration(border=border(3, color), border_radius=radius(r))


@cache
def _shadow(selected: bool, target: bool) -> list[ft.BoxShadow]:
    if target:  # a legal target glows
        return [ft.BoxShadow(spread_radius=2, blur_radius=10, color=theme.GLOW)]
    if selected:  # a lifted card casts a longer shadow
        return [ft.BoxShadow(blur_radius=8, offset=ft.Offset(0, 5), color=theme.CARD_SHADOW)]
    return [ft.BoxShadow(blur_radius=2, offset=ft.Offset(0, 1), color=theme.CARD_SHADOW)]


#: how a selected card rises (quicker than a card's arrival)
LIFTING = ft.Animation(120, ft.AnimationCurve.EASE_OUT)


@cache
def _lift(reduce_motion: bool) -> ft.Animation | None:
    return None if reduce_motion else LIFTING


@dataclass(frozen=True)
class Moving:
    """How a hand card's picture arrives (views/table/motion.py: dealt, or drawn and sliding in)
    while its box stays at its place: the box is what is tapped, focused and read, and Flutter puts
    a box in the page and in Tab's order by where it is drawn, so a box that moved with the picture
    was met out of its place while it moved. The same properties in every frame, at rest too, so
    the card's controls keep their shape and only these values change."""

    scale: float
    opacity: float
    #: the picture's offset from its place, as a share of its height (negative: above it)
    rise: float
    grow: ft.Animation
    fade: ft.Animation
    slide: ft.Animation


def card_face(card: str, width: float = 46, height: float = 64, *, selected: bool = False, target: bool = False,
              dim: bool = False, on_click: Tap | None = None, ident: str | None = None,
              style: str | None = None, said: str | None = None,
              shows: tuple[float, float] | None = None, moving: Moving | None = None,
              suggested: bool = False) -> ft.Control:
    """A card as it is printed (the bundled vector faces; ``style``: a card style other than the
    page's, for the settings' preview). The selected card lifts, a legal target glows, a card that
    cannot be played now is greyed. A screen reader says its name in the player's language, or
    ``said`` (its name with where it lies, when the same card can lie in two places at once).

    ``shows``: the part of a hand card that the cards laid over it leave uncovered (views/ui/fan.py),
    from its top and its left edge. The card is then tapped, focused and read as that part alone,
    the picture spilling out of it: Flutter orders the page and Tab by the boxes' geometry, and
    overlapping boxes put a right-to-left hand in the page out of order and a hand in overlapping
    rows in the Tab order of its columns. ``moving``: how the picture arrives (``Moving``); the box
    does not move. ``suggested``: a card of mine the coach or a hint lights — drawn lit like a
    target, said as suggested (a lit card in my hand is not somewhere a card can go)."""
    if height < SMALL or card not in FACE_NAMES:
        return _card_chip(card, width, height, selected=selected, target=target, on_click=on_click, ident=ident,
                          style=style, said=said, suggested=suggested)
    look = theme.look()
    name = state_said(look.lang, said or card_name(look.lang, card), selected=selected, target=target, dim=dim,
                      suggested=suggested)
    target = target or suggested
    r = max(3.0, width * theme.CARD_RADIUS)
    face = ft.Image(src=face_src(card, style), width=width, height=height, fit=ft.BoxFit.FILL, gapless_playback=True,
                    semantics_label=None if ident else name, exclude_from_semantics=bool(ident),
                    color=theme.CARD_DIM if dim else None, color_blend_mode=ft.BlendMode.MODULATE if dim else None)
    picture = ft.Container(
        width=width, height=height, bgcolor=theme.CARD_FACE, border_radius=radius(r), content=face,
        foreground_decoration=_edge(selected, target, r), shadow=_shadow(selected, target),
        offset=ft.Offset(0, theme.LIFT if selected else moving.rise if moving else 0),
        animate_offset=moving.slide if moving else _lift(look.reduce_motion),
        scale=moving.scale if moving else None, animate_scale=moving.grow if moving else None,
        opacity=moving.opacity if moving else 1.0, animate_opacity=moving.fade if moving else None,
        on_click=on_click if shows is None else None, ink=shows is None and on_click is not None)
    body: ft.Control = picture
    if shows is not None:  # the box is the uncovered part; the picture (and its lift) spills out of it
        w, h = shows
        picture.top, picture.left = 0, 0
        spill = ft.Stack([picture], width=w, height=h, clip_behavior=ft.ClipBehavior.NONE)
        body = ft.Container(spill, width=w, height=h, on_click=on_click, ink=on_click is not None)
    if not ident:
        return body
    # a card at this place that is another card is a new node (views/ui/reconcile.py): Flutter's
    # web semantics drops the identifier of a node whose contents are patched in place
    return anew_when(ft.Semantics(identifier=ident, label=name, button=on_click is not None, selected=selected,
                                  content=body), card)


def state_said(lang: str, what: str, *, selected: bool = False, target: bool = False, dim: bool = False,
               suggested: bool = False) -> str:
    """A card's or a lane's name with what a sighted player sees drawn on it: lifted (selected), lit
    (the selected card can go there; or, a card of mine, suggested by the coach or a hint) or
    greyed (cannot be played now)."""
    if selected:
        return t(lang, "said_selected", what=what)
    if target:
        return t(lang, "said_target", what=what)
    if suggested:
        return t(lang, "said_suggested", what=what)
    return t(lang, "said_dim", what=what) if dim else what


def copies_said(lang: str, cards: Sequence[str]) -> list[str | None]:
    """The spoken names of a row of cards (a hand) where the same card lies twice or more (two
    jokers, two decks): each copy says which it is ("Joker, copy 2"), so every card a screen reader
    or the keyboard reaches has a name of its own; ``None`` for a card that is there once."""
    return [None if cards.count(card) == 1 else t(lang, "said_copy", what=card_name(lang, card), k=copy + 1)
            for card, copy in card_keys(cards)]


def _card_chip(card: str, width: float, height: float, *, selected: bool, target: bool,
               on_click: Tap | None, ident: str | None, style: str | None, said: str | None = None,
               suggested: bool = False) -> ft.Control:
    """A small card: its rank and suit on one line, as on a face's corner."""
    if card == "JK":
        rank, glyph, color = "JK", "★", theme.JOKER
    else:
        rank, suit = card[:-1], card[-1]
        glyph, color = SUIT_GLYPH.get(suit, "?"), suit_color(suit, style) if suit in SUIT_GLYPH else BLACK
    lang = theme.look().lang
    name = state_said(lang, said or card_name(lang, card), selected=selected, target=target, suggested=suggested)
    target = target or suggested
    edge = border(3, SELECTED) if selected else border(3, HIGHLIGHT) if target else border(1, theme.CARD_EDGE)
    chip = ft.Container(
        width=width, height=height, bgcolor=theme.CARD_FACE, border=edge, border_radius=radius(4),
        alignment=ft.Alignment.CENTER, on_click=on_click, ink=on_click is not None, shadow=_shadow(False, target),
        content=ft.Text(rank + glyph if rank != "JK" else "★", size=11 if len(rank) == 1 else 9.5, no_wrap=True,
                        weight=ft.FontWeight.BOLD, color=color, style=SYMBOLS,
                        semantics_label=None if ident else name))
    # an ink well, as on a face: Tab reaches a chip that answers a tap, and Enter plays it
    return anew_when(ft.Semantics(identifier=ident, label=name, button=on_click is not None, selected=selected,
                                  content=chip), card) if ident else chip


def loaded_ahead(srcs: list[str]) -> ft.Control:
    """Pictures laid out unseen (a transparent pixel each), so the client fetches and decodes them
    now and a screen shown next draws them at once: a table's first frame waited on its card
    pictures, which the client only asked for once it had built the table (#44, docs/app.md)."""
    return ft.Row([ft.Image(src=src, width=1, height=1, opacity=0, exclude_from_semantics=True) for src in srcs],
                  spacing=theme.SPACE_NONE, tight=True, height=1)


def card_slot(width: float, height: float, words: str = "") -> ft.Control:
    """Where cards will lie, with none there yet: an outline on the cloth, and what it is."""
    return ft.Container(ft.Text(words, size=theme.TYPE_TINY, color=theme.ON_FELT_MUTED, text_align=ft.TextAlign.CENTER),
                        width=width, height=height, alignment=ft.Alignment.CENTER, padding=pad(2),
                        border=border(1.5, theme.SEAT_EDGE), border_radius=radius(6))


def dragged_card(card: str, width: float = 52, height: float = 74) -> ft.Control:
    """The card under the finger while it is dragged: its face with a lifted card's shadow. Every
    draggable card carries one from the start (Flet sends it with the table), so it is the face
    alone — no ring, no motion, no name (the card in the hand is the one read out)."""
    r = max(3.0, width * theme.CARD_RADIUS)
    return ft.Container(ft.Image(src=face_src(card), width=width, height=height, fit=ft.BoxFit.FILL,
                                 exclude_from_semantics=True),
                        width=width, height=height, bgcolor=theme.CARD_FACE, border_radius=r,
                        shadow=_shadow(True, False))


def drag_ghost(width: float, height: float) -> ft.Control:
    """What stays behind while a card is dragged: a faded slot of its size. (Never the card's own
    control: a control may stand in one place only, or its updates reach the wrong copy.)"""
    return ft.Container(width=width, height=height, border_radius=radius(6), bgcolor=theme.SHADE)


class HandCard(NamedTuple):
    """Everything a card in my hand is drawn from (``hand_card``): a table keeps the card's control
    while this is the same (``Parts`` in views/ui/reconcile.py), so it names every input."""

    card: str
    at: int  # its place in the hand (its semantics identifier is ``hand-{at}``)
    selected: bool
    suggested: bool
    dim: bool
    said: str | None
    width: float
    height: float
    shows: tuple[float, float]
    moving: Moving | None
    tappable: bool  # my turn
    drag: str | None  # the drag group while it can be dragged onto the table, else None
    look: theme.Look


def hand_card(h: HandCard, on_tap: Callable[[str], object]) -> ft.Control:
    """A card in my hand, drawn from ``h`` alone; ``on_tap(card)`` when tapped."""
    face = card_face(h.card, h.width, h.height, selected=h.selected, suggested=h.suggested, dim=h.dim,
                     ident=f"hand-{h.at}", said=h.said, shows=h.shows, moving=h.moving,
                     on_click=handler(on_tap, h.card) if h.tappable else None)
    if h.drag is None:
        return face
    return ft.Draggable(group=h.drag, data=h.card, content=face, content_feedback=dragged_card(h.card),
                        content_when_dragging=drag_ghost(h.width, h.height))


def card_back(width: float = 46, height: float = 64, label: str | None = None) -> ft.Control:
    """A face-down card (``label``: a count printed on it, as a pile's size)."""
    lang = theme.look().lang
    spoken = t(lang, "card_down_n", n=label) if label else t(lang, "card_down")
    back = ft.Image(src=BACK_SRC, width=width, height=height, fit=ft.BoxFit.FILL, exclude_from_semantics=True)
    count: list[ft.Control] = [] if not label else [ft.Container(
        ft.Text(label, size=11 if height < SMALL else 13, weight=ft.FontWeight.BOLD, color=theme.ON_FELT,
                style=SYMBOLS),
        bgcolor=theme.CARD_BACK, border_radius=radius(4), padding=pad2(theme.SPACE_FINE, theme.SPACE_NONE),
        alignment=ft.Alignment.CENTER)]
    return ft.Semantics(label=spoken, exclude_semantics=True, content=ft.Container(  # the count is said once
        ft.Stack([back, *count], alignment=ft.Alignment.CENTER), width=width, height=height,
        border_radius=radius(max(3.0, width * theme.CARD_RADIUS)), bgcolor=theme.CARD_BACK,
        shadow=_shadow(False, False)))


def mini_card(card: str) -> ft.Control:
    """An attachment shown as a small tag beside the number card it sits on."""
    if card == "JK":
        label, color = "★", theme.JOKER
    else:
        label, color = card[:-1] + SUIT_GLYPH[card[-1]], suit_color(card[-1])
    return ft.Container(bgcolor=theme.CARD_FACE, border_radius=radius(4),
                        padding=pad2(theme.SPACE_FINE, theme.SPACE_HAIR),
                        border=border(1, theme.CARD_EDGE),
        content=ft.Text(label, size=theme.TYPE_TINY, color=color, weight=ft.FontWeight.BOLD,
                        style=SYMBOLS, semantics_label=card_name(theme.look().lang, card)))


def table_header(lang: str, title: str, on_back: Tap, back_label: str,
                 extra: ft.Control | None = None) -> ft.Control:
    """The bar above every table: back, the game and opponent, an optional action (resign)."""
    row: list[ft.Control] = [
        icon_button(ft.Icons.ARROW_BACK, back_label, on_back, theme.ON_FELT),
        ft.Container(text(lang, title, theme.TYPE_HEADING, True, theme.ON_FELT), expand=True),
    ]
    if extra is not None:
        row.append(extra)
    return ft.Row(row)


def seat_plate(lang: str, name: str, detail: ft.Control, *, count: int | None = None, turn: bool = False) -> ft.Control:
    """A player's place at the table: a face-down card with what they hold, their name (and bot
    level) and ``detail``; lit, with a dot before the name, while it is their turn."""
    head: list[ft.Control] = [text(lang, name, theme.TYPE_NOTE, True, theme.ON_FELT)]
    if turn:
        head.insert(0, ft.Container(width=8, height=8, bgcolor=HIGHLIGHT, border_radius=radius(4)))
    row: list[ft.Control] = [ft.Column([ft.Row(head, spacing=theme.SPACE_TIGHT, tight=True), detail],
                                       spacing=theme.SPACE_HAIR, tight=True)]
    if count is not None:
        row.insert(0, card_back(28, 38, str(count)))
    return ft.Container(ft.Row(row, spacing=theme.SPACE_SNUG, tight=True), bgcolor=FELT_DARK, border_radius=radius(10),
                        padding=pad2(theme.SPACE, theme.SPACE_TIGHT),
                        border=border(2, HIGHLIGHT) if turn else border(1, theme.SEAT_EDGE),
                        shadow=_shadow(False, True) if turn else None)


def status_box(lang: str, status: str, last: str) -> ft.Control:
    """Whose move it is and what to do, and the last move in words."""
    lines: list[ft.Control] = [text(lang, status, theme.TYPE_LEAD, True, theme.ON_FELT)]
    if last:  # cards are shown as 6♥ and said by name
        lines.append(ft.Semantics(label=spoken_cards(lang, last), exclude_semantics=True,
                                  content=text(lang, last, theme.TYPE_NOTE, color=theme.LAST_MOVE, max_lines=3)))
    return ft.Container(ft.Column(lines, spacing=theme.SPACE_FINE, tight=True),
                        padding=pad2(theme.SPACE_SNUG, theme.SPACE_TIGHT), bgcolor=theme.SHADE,
                        border_radius=radius(8))


@cache
def _button_style(kind: str, color: str) -> ft.ButtonStyle:
    """A table button's look, usable and not: a usable one is a light pill (``primary``: the
    table's main action, in the highlight colour); one that cannot be used now keeps its outline
    and words in OFF_FELT, never dark on the dark cloth. A ``text`` button is words in ``color``."""
    off = theme.OFF_FELT
    shape = ft.RoundedRectangleBorder(radius=theme.BUTTON_HEIGHT / 2)
    if kind == "text":
        return ft.ButtonStyle(color={ft.ControlState.DISABLED: off, ft.ControlState.DEFAULT: color},
                              icon_color={ft.ControlState.DISABLED: off, ft.ControlState.DEFAULT: color},
                              padding=pad2(theme.SPACE_LOOSE, theme.SPACE_NONE), shape=shape)
    return ft.ButtonStyle(
        bgcolor={ft.ControlState.DISABLED: theme.NONE,
                 ft.ControlState.DEFAULT: theme.HIGHLIGHT if kind == "primary" else theme.BUTTON},
        color={ft.ControlState.DISABLED: off, ft.ControlState.DEFAULT: theme.INK},
        icon_color={ft.ControlState.DISABLED: off, ft.ControlState.DEFAULT: theme.INK},
        side={ft.ControlState.DISABLED: ft.BorderSide(1.5, off), ft.ControlState.DEFAULT: ft.BorderSide(0, color)},
        padding=pad2(theme.SPACE_WIDE, theme.SPACE_NONE), shape=shape,
        elevation={ft.ControlState.DISABLED: 0, ft.ControlState.DEFAULT: 1})


def table_button(label: str, on_click: Tap | None, *, disabled: bool = False,
                 kind: str = "filled", color: str = theme.ON_FELT, icon: ft.IconData | None = None,
                 ident: str | None = None, said: str | None = None) -> ft.Control:
    """A button on the cloth, BUTTON_HEIGHT tall (a finger's target on every platform: Material
    shrinks buttons to 32–40 px on the web and the desktop). ``kind``: "filled", "primary" or
    "text"; ``ident``: its semantics identifier, for tests and screen readers' tools; ``said``: its
    name for a screen reader when the words shown need their place to be understood."""
    style = _button_style(kind, color)
    # a fuller name than the words shown ("Disband lane 2" under lane 2's "Disband") is the words'
    # own semantics label, so the button's focusable node carries it, named once
    words: str | ft.Control = label if said is None else ft.Text(label, semantics_label=said)
    button: ft.Control
    if kind == "text":
        button = ft.TextButton(words, icon=icon, on_click=on_click, disabled=disabled, style=style,
                               height=theme.BUTTON_HEIGHT)
    else:
        button = ft.Button(words, icon=icon, on_click=on_click, disabled=disabled, style=style,
                           height=theme.BUTTON_HEIGHT)
    return button if ident is None else tagged(ident, button)


def tagged(ident: str, control: ft.Control, *, visible: bool = True) -> ft.Control:
    """``control`` — a button, a list tile: anything with its own focusable node — carrying the
    semantics identifier ``ident`` (for the tests and assistive tools), as that one node. A
    ``Semantics(button=True)`` laid around a button made a second button of the same name: a
    screen reader heard two, and Tab's focus landed on the one without the identifier."""
    return ft.MergeSemantics(ft.Semantics(identifier=ident, content=control), visible=visible)


def tap_area(ident: str, control: ft.Container, *, selected: bool | None = None) -> ft.Control:
    """A tappable container (its ``on_click`` set, ``ink=True`` so that Tab reaches it and Enter
    activates it) as one button node with the identifier ``ident``, named by its words;
    ``selected``: a chip that is on or off says so."""
    return ft.MergeSemantics(ft.Semantics(identifier=ident, button=True, selected=selected, content=control))


def labelled_switch(lang: str, words: str, page_width: float | None, value: bool,
                    on_change: Callable[[ft.Event[ft.Switch]], None] | None = None) -> ft.Switch:
    """A switch whose words wrap onto as many lines as they need. Flet lays a switch's label out
    beside it at the label's full width, so a long one ran off the phone's edge (the Lopti table's
    "Stop each deal when the first player goes out..." at 360 and 390 px); given the screen's width
    less its edges and the switch, the words wrap. They stay the switch's own label: a tap on them
    flips it, and a screen reader says them as the switch's name."""
    label: ft.Control = text(lang, words)
    if page_width:  # not known yet: Flet's own way
        label = ft.Container(label, width=max(page_width - 2 * theme.SPACE_WIDE - theme.SWITCH_WIDTH, theme.MIN_TARGET))
    return ft.Switch(label=label, value=value, on_change=on_change)


def icon_button(icon: ft.IconData, label: str, on_click: Tap, color: str | None = None,
                ident: str | None = None) -> ft.Control:
    """An icon button with an accessible name (screen readers and browser tests see ``label``):
    one node, named once, that takes the keyboard's focus. The button's own node is merged with
    the name (it had no name, and its tooltip said the word again, "Back Back"; a name laid over
    it with its semantics excluded left Tab's focus on a node the browser could not see).
    ``ident``: its semantics identifier."""
    # 48 × 48 everywhere: Material's icon buttons are 40 px on the web and the desktop
    return ft.MergeSemantics(ft.Semantics(label=label, identifier=ident, button=True, content=ft.IconButton(
        icon, on_click=on_click, icon_color=color, width=theme.BUTTON_HEIGHT, height=theme.BUTTON_HEIGHT)))


MAX_WIDTH = theme.MAX_WIDTH


def narrow_page(controls: list[ft.Control], spacing: float = theme.SPACE_LOOSE) -> ft.Control:
    """A screen of fields or of reading (the settings, the rules): one column of
    ``theme.NARROW_COLUMNS`` — the whole width on a phone, part of a wider page (a switch's words
    sized by ``theme.narrow_width``) —, scrolling, within the page's edges."""
    column = ft.Column(controls, spacing=spacing, col=theme.NARROW_COLUMNS)
    return ft.Container(ft.Column([ft.ResponsiveRow([column])], scroll=ft.ScrollMode.AUTO), padding=pad(theme.PAD))


def felt(content: ft.Control, page_width: float | None) -> ft.Control:
    width = None if not page_width or page_width <= MAX_WIDTH else MAX_WIDTH
    inner = ft.Container(content, width=width, expand=width is None, padding=pad2(theme.FELT_PAD, theme.SPACE_SNUG))
    row = ft.Row([inner], alignment=ft.MainAxisAlignment.CENTER, expand=True,
                 vertical_alignment=ft.CrossAxisAlignment.STRETCH)
    return ft.Container(row, bgcolor=FELT, expand=True, gradient=_CLOTH)


#: the cloth, lit from above the middle of the table
_CLOTH = ft.RadialGradient(colors=[theme.FELT_LIGHT, FELT, theme.FELT_DARK], center=ft.Alignment(0, -0.3), radius=1.3)


def coach_panel(lang: str, coach: Coach, *, on_hint: Tap, on_retry: Tap,
                on_continue: Tap, on_next: Tap | None,
                next_label: str, on_learn: Tap) -> ft.Control:
    """The lesson coach above the learner's side of the table: step counter, the step's words, why
    the last move was wrong, the hint once asked for, and Continue / Retry / Next lesson."""
    head = t(lang, "coach_done") if coach.done else t(lang, "coach_step", i=coach.step, n=coach.steps)
    lines: list[ft.Control] = [
        ft.Row([ft.Icon(ft.Icons.SCHOOL, size=18, color=theme.FELT),
                ft.Container(text(lang, head, theme.TYPE_NOTE, True, theme.FELT), expand=True),
                *([] if coach.done else [ft.TextButton(t(lang, "hint"), on_click=on_hint),
                                         ft.TextButton(t(lang, "retry"), on_click=on_retry)])],
               spacing=theme.SPACE_TIGHT),
        ft.Semantics(identifier="coach-text", content=text(lang, coach.text, theme.TYPE_BODY, color=BLACK)),
    ]
    if coach.feedback:
        lines.append(ft.Semantics(identifier="coach-feedback",
                                  content=text(lang, coach.feedback, theme.TYPE_SMALL, True, theme.DANGER)))
    if coach.hint:
        lines.append(text(lang, coach.hint, theme.TYPE_SMALL, color=theme.HINT))
    buttons: list[ft.Control] = []
    if coach.info:
        buttons.append(tagged("coach-continue", ft.FilledButton(t(lang, "continue_step"), on_click=on_continue)))
    if coach.done:
        if on_next is not None:
            buttons.append(tagged("coach-next", ft.FilledButton(next_label, on_click=on_next)))
        buttons.append(ft.Button(t(lang, "learn"), on_click=on_learn))
        buttons.append(ft.TextButton(t(lang, "retry"), on_click=on_retry))
    if buttons:
        lines.append(ft.Row(buttons, spacing=theme.SPACE, wrap=True))
    return ft.Container(ft.Column(lines, spacing=theme.SPACE_TIGHT, tight=True), bgcolor=theme.COACH_BG,
                        padding=pad2(theme.SPACE_LOOSE, theme.SPACE_SNUG),
                        border_radius=radius(10), border=border(2, HIGHLIGHT))
