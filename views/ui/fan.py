"""Where each card of a hand lies, so every card stays tappable on the narrowest phone.

A hand is laid in one row while each card shows at least ``MIN_TARGET`` px of itself (a finger's
width); a hand too long for that shrinks its cards down to that size, then overlaps them, then
goes on in further rows (at most ``MAX_ROWS``, then the hand scrolls sideways), each row sliding
under the one below by all but a strip ``MIN_TARGET`` tall (the strip that holds a face's corner
index). So a card's visible part is never smaller than ``MIN_TARGET`` × ``MIN_TARGET``. Pure
arithmetic, tested without Flet; ``hand_fan`` places the controls."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import flet as ft

from views.ui import sizing, theme
from views.ui.reconcile import Parts, Same, keyed

MAX_ROWS = 3  # a longer hand scrolls sideways (with its scroll bar shown) rather than fill the table
GAP = 4  # between cards that do not need to overlap
LIFT_ROOM = 10  # above the first row: a selected card rises into it
GLOW_ROOM = 6  # below the hand: a glowing card's light (at the sides it may spill onto the cloth)


@dataclass(frozen=True)
class Fan:
    card_width: float
    card_height: float
    spots: tuple[tuple[float, float], ...]  # each card's (start, top) in the hand's box, in order
    width: float
    height: float
    #: each card's uncovered part (width, height), from its top and its left edge (where a face has
    #: its index): what a finger, the keyboard and a screen reader take for the card
    #: (``card_face(shows=…)``), so that no two cards' boxes overlap
    shows: tuple[tuple[float, float], ...] = ()
    rtl: bool = False  # laid from the right: each card lies over its left-hand neighbour


def lay_out(n: int, room: float, width: float = 48, height: float = 68,
            sliver: float = theme.MIN_TARGET, rtl: bool = False) -> Fan:
    """``n`` cards of ``width`` × ``height`` (at most) in a box ``room`` px wide; ``rtl``: from the
    right. Either way a card lies over its left-hand neighbour's right part, so every card shows
    its left part, where a face prints its index (a hand laid from the right with each card over
    the one before showed only the upside-down index in each card's far corner)."""
    room = max(room, sliver)
    w = width
    if n > 1 and sliver <= room - sliver * (n - 1) < w:  # one row of smaller cards, never below a finger
        w = room - sliver * (n - 1)
    h = height * w / width
    per_row = max(1, math.floor((room - w) / sliver + 1e-9) + 1) if n > 1 else 1
    rows = min(MAX_ROWS, max(1, math.ceil(n / per_row)))
    per = math.ceil(n / rows)  # rows of equal length, the last one shorter
    box = max(room, w + sliver * (per - 1))  # wider than the room only past MAX_ROWS: then it scrolls
    down = h + GAP if rows == 1 else sliver + 2
    spots: list[tuple[float, float]] = []
    shows: list[tuple[float, float]] = []
    spans = []  # each row's first start and last end
    for r in range(rows):
        k = min(per, n - r * per)
        step = w + GAP if k <= 1 else min(w + GAP, (box - w) / (k - 1))
        start = (box - (w + step * (k - 1))) / 2
        spots.extend((start + i * step, LIFT_ROOM + r * down) for i in range(k))
        shows.extend((w if i == (0 if rtl else k - 1) else min(w, step), h) for i in range(k))
        spans.append((start, start + step * (k - 1) + w))
    if rows > 1:  # a card the next row lies over at all is taken for its top strip
        shows = [(sw, down if (r := round((top - LIFT_ROOM) / down)) < rows - 1
                  and _meet((x + w - sw, x + w) if rtl else (x, x + sw), spans[r + 1]) else sh)
                 for (sw, sh), (x, top) in zip(shows, spots, strict=True)]
    return Fan(w, h, tuple(spots), box, LIFT_ROOM + (rows - 1) * down + h + GLOW_ROOM, tuple(shows), rtl)


def _meet(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return min(a[1], b[1]) - max(a[0], b[0]) > 1e-6


#: the width a hand may take: a table row's (views/ui/sizing.py)
hand_room = sizing.room


def card_keys(cards: Sequence[str]) -> list[tuple[str, int]]:
    """Each card with which copy of it this is (a hand may hold two of a card): a hand's keys."""
    seen: dict[str, int] = {}
    keys = []
    for c in cards:
        seen[c] = seen.get(c, -1) + 1
        keys.append((c, seen[c]))
    return keys


def _placed(card: ft.Control, key: tuple[str, int], spot: tuple[float, float | None, float | None]) -> ft.Control:
    """``card`` at its spot in a hand (top, left, right), keyed by which card it is."""
    top, left, right = spot
    return keyed(ft.Container(card, top=top, left=left, right=right), key)


def hand_fan(cards: list[ft.Control], fan: Fan, room: float, names: Sequence[str], said: str,
             parts: Parts | None = None) -> ft.Control:
    """``cards`` (built at the fan's card size, each as the part of it that ``fan.shows``) at their
    spots; right-to-left hands start at the right (a Stack places absolutely, so the mirroring is
    done here), and there each row is painted from its left end, so that each card lies over its
    left-hand neighbour. Each spot is keyed by the card it holds (``names``), so a card arriving
    or leaving moves the others without rebuilding them (views/ui/reconcile.py).

    The hand is one group a screen reader names (``said``: "Your hand"). The group carries the
    page's direction, so the cards are put in the page in reading order, right to left in Arabic;
    without it the nearest direction above them was the page's left-to-right one.

    ``parts``: the table's kept parts; a card kept at its spot keeps its spot's control too."""
    rtl = fan.rtl
    placed: list[ft.Control] = []
    for c, (start, top), shows, key in zip(cards, fan.spots, fan.shows, card_keys(names), strict=True):
        spot = (top, None if rtl else start, start + fan.card_width - shows[0] if rtl else None)
        place = partial(_placed, c, key, spot)
        placed.append(place() if parts is None else parts.part(("spot", key), (Same(c), spot), place))
    if rtl:  # paint each row from its left end: reversed within the row, the rows in order
        placed = [placed[i] for i in sorted(range(len(placed)), key=lambda i: (fan.spots[i][1], -i))]
    stack = ft.Semantics(content=ft.Stack(placed, width=fan.width, height=fan.height,
                                          clip_behavior=ft.ClipBehavior.NONE),
                         container=True, label=said)
    if fan.width > room:  # past MAX_ROWS: a sideways scroll, its bar always shown
        return ft.Row([stack], scroll=ft.ScrollMode.ALWAYS)
    return ft.Container(stack, alignment=ft.Alignment.CENTER)
