"""Moves animated from the engine's events: a card that just landed grows into place (or turns over,
when it was flipped), a drawn card slides into the hand, cards that left the table — a cleared or
taken pile, a jack's or joker's removals, a disbanded lane, a slapped Spit pile — fly off toward
where they went and fade, a lane that sells glows.

Tables rebuild their controls on every change, so an implicit Flet animation has no "before" to
animate from. :class:`Arrivals` gives each landed card a first frame (small, faded) and, right after
the page shows it, its resting frame; Flutter animates between the two. Which cards landed is read
from the events alone (the functions below, tested without Flet), so what moves on screen is
exactly what the engine says happened — including a bot's move and an undo's replay. Every motion
is one short implicit animation (``DURATION_MS``), never waits for anything, and is left out when
the player's settings reduce motion (``theme.look().reduce_motion``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TypeVar, cast

import flet as ft

from engine.core import Event
from views.ui import theme
from views.ui.widgets import LIFTING, Moving

T = TypeVar("T")

DURATION_MS = 240
DEALT_SCALE = 0.8  # a dealt card's size as it appears, around its own centre (within its own place)
#: where a departing card flies, as a share of its own size: down toward me, up toward the others,
#: sideways off the table (a cleared pile)
TOWARD_ME, TOWARD_THEM, SWEPT = (0.0, 2.5), (0.0, -2.5), (2.5, 0.0)


def lanes_landed(events: Iterable[Event]) -> set[tuple[int, int, int]]:
    """(owner, lane, stack) of every card played onto a lane that is still there (a jack went away
    with the stack it took: that place may now hold the next stack, which did not move)."""
    events = list(events)
    gone = {str(c) for e in events if e.get("type") in ("remove", "disband") for c in e.get("cards", [])}
    return {(int(e["owner"]), int(e["lane"]), int(e["stack"])) for e in events
            if e.get("type") == "play" and str(e.get("card")) not in gone}


def lopti_landed(events: Iterable[Event]) -> bool:
    """Cards were played onto the pile (and still lie there: a clear takes them away)."""
    kinds = [e.get("type") for e in events]
    return "play" in kinds and "clear" not in kinds and "take" not in kinds


def spit_landed(events: Iterable[Event]) -> set[int]:
    """The piles a card was played onto."""
    return {int(e["pile"]) for e in events if e.get("type") == "play"}


def lanes_removed(events: Iterable[Event]) -> dict[tuple[int, int], tuple[int | None, list[str]]]:
    """(owner, lane) → (the stack a jack was played on, if one was; the cards that left the lane):
    a jack's or joker's removals and a disbanded lane (L-6, L-7.5)."""
    events = list(events)
    jacked = {(int(e["owner"]), int(e["lane"])): int(e["stack"]) for e in events
              if e.get("type") == "play" and str(e.get("card", ""))[:-1] == "J"}
    gone: dict[tuple[int, int], tuple[int | None, list[str]]] = {}
    for e in events:
        if e.get("type") in ("remove", "disband"):
            key = (int(e.get("owner", e.get("player", 0))), int(e["lane"]))
            stack, cards = gone.get(key, (jacked.get(key), []))
            gone[key] = (stack, cards + [str(c) for c in e.get("cards", [])])
    return gone


def lanes_sold(events: Iterable[Event]) -> set[int]:
    """The lane pairs whose sale was settled by this move (L-7.2: the pair glows)."""
    return {int(e["pair"]) for e in events if e.get("type") == "sold"}


def drawn(events: Iterable[Event], player: int) -> list[str]:
    """The cards ``player`` drew (they slide into the hand)."""
    return [str(e["card"]) for e in events if e.get("type") == "draw" and e.get("player") == player and e.get("card")]


def lopti_flipped(events: Iterable[Event]) -> bool:
    """A face-down card was turned over onto the pile (it turns as it lands)."""
    return any(e.get("type") == "flip" and e.get("legal", True) for e in events)


def lopti_departed(events: Iterable[Event]) -> tuple[str, int] | None:
    """("clear", by whom) or ("take", the taker) when the pile left the table in this batch."""
    for e in events:
        if e.get("type") in ("clear", "take"):
            return str(e["type"]), int(e.get("player", 0))
    return None


def spit_taken(events: Iterable[Event]) -> dict[int, int]:
    """pile → the player who took it at the end of a round (S-5: the slap)."""
    for e in events:
        if e.get("type") == "taken":
            return {int(pile): player for player, pile in enumerate(e.get("taken", [])) if pile is not None}
    return {}


def _curve(curve: ft.AnimationCurve) -> ft.Animation:
    return ft.Animation(DURATION_MS, curve)


#: a hand card at rest: nothing moves (a selected card lifts at its own pace)
RESTING = Moving(1.0, 1.0, 0.0, _curve(ft.AnimationCurve.EASE_OUT), _curve(ft.AnimationCurve.EASE_OUT), LIFTING)


class Arrivals:
    """The arrival of the cards in the last batch of events, as two frames of one description.

    Tables are described afresh and reconciled in place (views/ui/reconcile.py), so the motion is
    a second description, not a change to a built control: the first build after a new batch
    shows the landed cards small and faded (``arrive``), ``settle`` redraws the table a moment
    later with the same cards at rest, and the reconcile changes just their scale and opacity —
    which the client animates. Later builds keep them at rest (same structure, nothing re-sent)."""

    def __init__(self) -> None:
        self.seen: object = None
        self.arriving = False
        self.wrapped = False
        self.dealing = False  # a new deal's hand is arriving from the deck (until the first move)
        self.shown: dict[str, object] = {}  # what the table showed for the batch on screen
        self.before: dict[str, object] = {}  # ... and for the batch before it (where departing cards lay)

    def fresh(self, events: list[Event]) -> bool:
        """Whether the cards of ``events`` are drawn as arrivals (a new batch starts a motion)."""
        if not events:
            return False
        if events is not self.seen:
            self.seen = events
            self.arriving = True
            self.dealing = False
            self.before, self.shown = self.shown, {}
        return True

    def deal(self) -> None:
        """A deal nobody has moved in yet is on the table: its hand appears card after card (each a
        little later, all within DURATION_MS + 180 ms)."""
        self.dealing = self.arriving = True

    def hand_card(self, i: int, n: int, drawn: bool) -> Moving | None:
        """How hand card ``i`` of ``n`` arrives (``card_face(moving=…)``; ``None``: no motion at
        all). Only its picture moves; its box stays at its place, where it is tapped, focused and
        read from the first frame (#47: a moving box was met out of its place by a screen reader and
        by Tab). Dealt: each card grows and fades in at its own place, a little after the one
        before, never flying in from elsewhere — a tap during the deal lands on the card drawn under
        the finger (#42). Drawn (``drawn``): the picture slides down into its place. At rest: the
        same properties, still."""
        if theme.look().reduce_motion:
            return None
        if not drawn and not self.dealing:
            return RESTING
        self.wrapped = self.wrapped or self.arriving
        if drawn:
            return replace(RESTING, opacity=0.25 if self.arriving else 1.0, rise=-1.2 if self.arriving else 0.0,
                           slide=_curve(ft.AnimationCurve.EASE_OUT))
        late = ft.Animation(DURATION_MS - 120 + (180 * i) // max(1, n - 1), ft.AnimationCurve.EASE_OUT)
        return replace(RESTING, scale=DEALT_SCALE if self.arriving else 1.0, opacity=0.0 if self.arriving else 1.0,
                       grow=late, fade=late)

    def remember(self, key: str, value: T) -> T | None:
        """Note what the table shows now under ``key``; returns what it showed before this batch."""
        self.shown[key] = value
        before = self.before.get(key)
        return cast("T | None", before)  # noted under the same key by the same caller

    def wrap(self, control: ft.Control, *, turn: bool = False) -> ft.Control:
        """``control`` arriving: growing into place, or turning over (``turn``: a flipped card).
        (A hand card arrives by ``hand_card``.)"""
        if theme.look().reduce_motion:
            return control
        self.wrapped = self.wrapped or self.arriving
        start = ft.Scale(scale_x=0.05, scale_y=1.0) if turn else 0.55
        grow = ft.AnimationCurve.EASE_OUT if turn else ft.AnimationCurve.EASE_OUT_BACK
        return ft.Container(control, scale=start if self.arriving else 1.0, opacity=0.25 if self.arriving else 1.0,
                            animate_scale=_curve(grow),
                            animate_opacity=_curve(ft.AnimationCurve.EASE_OUT))

    def ghost(self, control: ft.Control, toward: tuple[float, float]) -> ft.Control:
        """Cards that left the table, drawn where they lay in the first frame, flown ``toward`` (a
        share of their size) and faded in the next; invisible, untappable and silent after."""
        if theme.look().reduce_motion:
            return ft.Container()
        self.wrapped = self.wrapped or self.arriving
        return ft.Semantics(exclude_semantics=True, content=ft.Container(
            control, ignore_interactions=True, opacity=1.0 if self.arriving else 0.0,
            offset=ft.Offset(0, 0) if self.arriving else ft.Offset(*toward),
            animate_offset=_curve(ft.AnimationCurve.EASE_IN), animate_opacity=_curve(ft.AnimationCurve.EASE_IN)))

    def glow(self) -> list[ft.BoxShadow] | None:
        """The light of a lane that just sold: on in the first frame, fading in the next."""
        if theme.look().reduce_motion or not self.arriving:
            return None
        self.wrapped = True
        return [ft.BoxShadow(spread_radius=4, blur_radius=16, color=theme.GLOW)]

    def settle(self, page: ft.Page, redraw: Callable[[], None]) -> None:
        """After the first frame went out: ``redraw`` the table at rest (the client animates)."""
        if not self.arriving:
            return
        self.arriving = False
        if not self.wrapped:
            return
        self.wrapped = False

        async def rest() -> None:
            await asyncio.sleep(theme.SETTLE_S)
            redraw()

        with contextlib.suppress(RuntimeError):  # no running page (a closing session): nothing to animate
            page.run_task(rest)
