"""Moves animated from the engine's events: a card that just landed grows into place.

Tables rebuild their controls on every change, so an implicit Flet animation has no "before" to
animate from. :class:`Arrivals` gives each landed card a first frame (small, faded) and, right after
the page shows it, its resting frame; Flutter animates between the two. Which cards landed is read
from the events alone (the functions below, tested without Flet), so what moves on screen is
exactly what the engine says happened — including a bot's move and an undo's replay."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from typing import Any

import flet as ft

DURATION_MS = 240


def lanes_landed(events: Iterable[Any]) -> set[tuple[int, int, int]]:
    """(owner, lane, stack) of every card played onto a lane (a jack's stack is gone: nothing)."""
    return {(int(e["owner"]), int(e["lane"]), int(e["stack"])) for e in events if e.get("type") == "play"}


def lopti_landed(events: Iterable[Any]) -> bool:
    """Cards were played onto the pile (and still lie there: a clear takes them away)."""
    kinds = [e.get("type") for e in events]
    return "play" in kinds and "clear" not in kinds and "take" not in kinds


def spit_landed(events: Iterable[Any]) -> set[int]:
    """The piles a card was played onto."""
    return {int(e["pile"]) for e in events if e.get("type") == "play"}


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

    def fresh(self, events: list[Any]) -> bool:
        """Whether the cards of ``events`` are drawn as arrivals (a new batch starts a motion)."""
        if not events:
            return False
        if events is not self.seen:
            self.seen = events
            self.arriving = True
        return True

    def wrap(self, control: ft.Control) -> ft.Control:
        self.wrapped = self.wrapped or self.arriving
        return ft.Container(control, scale=0.55 if self.arriving else 1.0, opacity=0.25 if self.arriving else 1.0,
                            animate_scale=ft.Animation(DURATION_MS, ft.AnimationCurve.EASE_OUT_BACK),
                            animate_opacity=ft.Animation(DURATION_MS, ft.AnimationCurve.EASE_OUT))

    def settle(self, page: Any, redraw: Callable[[], None]) -> None:
        """After the first frame went out: ``redraw`` the table at rest (the client animates)."""
        if not self.arriving:
            return
        self.arriving = False
        if not self.wrapped:
            return
        self.wrapped = False

        async def rest() -> None:
            await asyncio.sleep(0.04)
            redraw()

        with contextlib.suppress(RuntimeError):  # no running page (a closing session): nothing to animate
            page.run_task(rest)
