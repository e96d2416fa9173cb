"""One lane of the Lanes table, drawn from ``LaneDrawn`` alone: the table keeps a lane's controls
while what it is drawn from is the same (``Parts``, views/ui/reconcile.py), so a refresh that
changes no lane (a refused move, the status line, a clock, the second frame of a motion elsewhere)
describes none, and a bot's move only the lanes it changed (#44). Every bed, card and lane button
answers taps throughout my turn, so picking a card up changes only the lanes it lights (a border,
a card's ring, the words said), never whether a control answers taps: Flutter's web semantics drops
the identifier of a node whose tap comes or goes while it is patched in place."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol

import flet as ft

from views.table.motion import DURATION_MS, TOWARD_ME, TOWARD_THEM
from views.ui import theme
from views.ui.i18n import RTL
from views.ui.reconcile import anew_when
from views.ui.widgets import (
    FELT_DARK,
    HIGHLIGHT,
    SYMBOLS,
    Tap,
    card_face,
    handler,
    mini_card,
    pad,
    radius,
    state_said,
    table_button,
    text,
)

if TYPE_CHECKING:
    from views.table.motion import Arrivals


#: the group of a hand card dragged onto the table, and of what takes it (a lane, a card, Discard)
DRAG_GROUP = "lanes-card"


class LaneTaps(Protocol):
    """What a lane's taps and drops call (the table's handlers)."""

    def on_lane(self, lane: int, owner: int | None = None) -> None: ...

    def on_stack(self, owner: int, lane: int, stack: int) -> None: ...

    def on_drop(self, card: str, owner: int, lane: int | None, stack: int | None) -> None: ...

    def on_disband(self, lane: int) -> None: ...


class LaneDrawn(NamedTuple):
    """Everything one lane is drawn from (``lane_column``), so that it names every input."""

    owner: int
    lane: int
    mine: bool  # the lane is the player's at this device (a card goes on it; theirs take it on a card)
    stacks: tuple[tuple[str, ...], ...]  # each number card, then the cards played on it
    stacks_said: tuple[str, ...]  # each number card said with where it lies ("King of hearts, lane 2, card 3")
    said: str  # the lane's words for a screen reader ("Lane 2: 23, descending, hearts")
    label: str  # the header: value, direction and suit in signs
    selling: str | None  # the "selling" chip's word when the lane sells, else None
    lit: bool  # my lane a picked-up number card may start or extend
    targets: frozenset[int]  # its stacks a picked-up card may go on
    my_turn: bool  # its bed, its cards and (mine) its button answer taps, and cards may be dropped on it
    disband: tuple[str, str] | None  # the Disband button's words and its spoken words, when offered
    card: tuple[float, float, float]  # a lane card's width, height and the step between stacks
    landed: frozenset[int]  # its stacks arriving now
    removed: tuple[int | None, tuple[str, ...]] | None  # what a jack, a joker or a disband took (where, cards)
    glow: bool  # it just sold
    arriving: bool  # the motion's first frame (what arrives starts where it came from)
    look: theme.Look


def lane_column(d: LaneDrawn, taps: LaneTaps, motion: Arrivals) -> ft.Control:
    """The lane: its bed (header and cards) filling the side's height, and its Disband under it."""
    cw, ch, step = d.card
    children: list[ft.Control] = [_stack(d, si, taps, motion) for si in range(len(d.stacks))]
    height = ch + step * max(0, len(d.stacks) - 1) + 4
    if d.removed is not None:  # what a jack, a joker or a disband took flies off and fades
        at, cards = d.removed
        ghost = _with_attachments(card_face(cards[0], cw, ch), list(cards[1:4]))
        children.append(ft.Container(motion.ghost(ghost, TOWARD_ME if d.mine else TOWARD_THEM),
                                     top=(len(d.stacks) if at is None else at) * step, left=0))
        height = max(height, ch + step * (len(d.stacks) if at is None else at) + 4)
    pile = ft.Stack(children, height=max(height, ch + 4))
    # the lane's words are said by its header (theirs) or its button (mine); the lane's own node
    # keeps no label: a label on a node with an identifier makes Flutter's web semantics drop the
    # identifier when the lane is patched in place (a tap that lights the lanes), and taps look it up
    shown: ft.Control = ft.Column([_name(d), pile], spacing=theme.SPACE_TIGHT, tight=True,
                                  horizontal_alignment=ft.CrossAxisAlignment.CENTER)
    body = ft.Container(
        content=ft.Stack([_lane_button(d, taps), shown]) if d.mine else shown,
        padding=pad(theme.SPACE_TIGHT), border_radius=radius(8), expand=True,
        # only a lane that just sold animates (its light fades): a lit border shows at once, as a
        # card is picked up (patched in place, an animated bed would light up over half a second)
        shadow=motion.glow() if d.glow else None, animate=ft.Animation(DURATION_MS * 2) if d.glow else None,
        bgcolor=FELT_DARK, border=ft.Border.all(3, HIGHLIGHT) if d.lit else ft.Border.all(1, theme.SUCCESS),
        on_click=_lane_tap(d, taps))
    # keyed by its cards: Flutter's web semantics drops the identifier of a node whose children
    # change, so a lane whose cards change is a new node (views/ui/reconcile.py)
    # the bed fills the side's height: the felt below the cards is the lane's, where its next
    # cards will lie (not empty cloth between the lanes and the hand)
    column: list[ft.Control] = [anew_when(ft.Semantics(identifier=f"lane-{d.owner}-{d.lane}", container=True,
                                                       expand=True, content=_drop(d, body, taps, None)), d.stacks)]
    if d.disband is not None:
        words, said = d.disband
        column.append(table_button(words, handler(taps.on_disband, d.lane), kind="text", ident=f"disband-{d.lane}",
                                   said=said))
    return ft.Column(column, expand=True, spacing=theme.SPACE_FINE, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def _lane_tap(d: LaneDrawn, taps: LaneTaps) -> Tap | None:
    """The tap of the lane's bed and (mine) its button: throughout my turn, like its cards. A bed
    whose tap came with the selection (or went: it once explained L-5.9 on a tap) made Flutter's web
    engine drop its cards' semantics identifiers when the selection patched it in place. With no
    card picked up, the table says to pick one first."""
    return handler(taps.on_lane, d.lane, d.owner) if d.my_turn else None


def _stack(d: LaneDrawn, si: int, taps: LaneTaps, motion: Arrivals) -> ft.Control:
    """A number card of the lane with the cards played on it, where it hangs in the pile."""
    cw, ch, step = d.card
    card, attached = d.stacks[si][0], d.stacks[si][1:]
    face = _drop(d, card_face(card, cw, ch, target=si in d.targets, ident=f"lane-{d.owner}-{d.lane}-{si}",
                              said=d.stacks_said[si],
                              on_click=handler(taps.on_stack, d.owner, d.lane, si) if d.my_turn else None),
                 taps, si)
    row = _with_attachments(face, list(attached))
    if si in d.landed:
        row = motion.wrap(row)
    # a Stack positions absolutely: in right-to-left layouts the cards hang from the right edge
    # (the row of card + attachments is mirrored), so that number cards stay in one column
    rtl = d.look.lang in RTL
    return ft.Container(row, top=si * step, left=None if rtl else 0, right=0 if rtl else None)


def _name(d: LaneDrawn) -> ft.Control:
    """The lane's header: its value, direction, suit and sale in signs. The opponent's is read out
    as the lane's words; mine are said by the lane's button (``_lane_button``)."""
    return ft.Semantics(label=None if d.mine else state_said(d.look.lang, d.said, target=d.lit),
                        exclude_semantics=True, content=_header(d))


def _lane_button(d: LaneDrawn, taps: LaneTaps) -> ft.Control:
    """My lane's button for a keyboard or a screen reader (an empty lane has no card to focus): a
    strip across the top of the bed, under its header and cards, as tall as a finger's target (the
    header's line of small words is not). It takes focus (Tab), says the lane's words and whether
    the picked-up card can go there, and Enter plays it like a tap on the bed. It answers
    throughout my turn, as the bed does, so a selection only changes its words: an ink well whose
    tap came and went with the selection, patched in place, lost its identifier in Flutter's web
    semantics. Under the cards in the Stack, so a card's own tap comes first where they overlap."""
    # the ink well's own node, which takes the focus, is the labelled node (as on a hand card)
    return ft.Container(ft.MergeSemantics(ft.Semantics(
        label=state_said(d.look.lang, d.said, target=d.lit), button=d.my_turn, identifier=f"my-lane-{d.lane}",
        content=ft.Container(height=theme.BUTTON_HEIGHT, on_click=_lane_tap(d, taps), ink=True,
                             border_radius=theme.SPACE_TIGHT))),
        top=0, left=0, right=0)


def _header(d: LaneDrawn) -> ft.Control:
    chips: list[ft.Control] = [ft.Text(d.label, size=theme.TYPE_SMALL, weight=ft.FontWeight.BOLD, color=theme.ON_FELT,
                                       style=SYMBOLS)]
    if d.selling is not None:
        chips.append(ft.Container(text(d.look.lang, d.selling, theme.TYPE_TINY, True, theme.INK),
                                  bgcolor=theme.SELLING, border_radius=radius(8),
                                  padding=ft.Padding.symmetric(horizontal=theme.SPACE_TIGHT,
                                                               vertical=theme.SPACE_NONE)))
    return ft.Row(chips, spacing=theme.SPACE_TIGHT, alignment=ft.MainAxisAlignment.CENTER, wrap=True)


def _drop(d: LaneDrawn, target: ft.Control, taps: LaneTaps, stack: int | None) -> ft.Control:
    return droppable(target, taps, d.owner, d.lane, stack, d.my_turn)


def droppable(target: ft.Control, taps: LaneTaps, owner: int, lane: int | None, stack: int | None,
              my_turn: bool) -> ft.Control:
    """``target`` taking a hand card dropped on it during my turn (lane ``None``: the Discard
    button): the same moves as tapping, through the same controller calls (``on_drop``)."""
    if not my_turn:
        return target
    return ft.DragTarget(group=DRAG_GROUP, content=target,
                         on_accept=lambda e: taps.on_drop(str(e.src.data), owner, lane, stack))


def _with_attachments(face: ft.Control, attached: list[str]) -> ft.Control:
    """A number card with the cards played on it (L-6) beside it, small, top to bottom."""
    return ft.Row([face, ft.Column([mini_card(c) for c in attached], spacing=theme.SPACE_HAIR, tight=True)],
                  spacing=theme.SPACE_FINE, vertical_alignment=ft.CrossAxisAlignment.START)
