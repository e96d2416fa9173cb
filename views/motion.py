"""Moves animated from the engine's events: a card that just landed grows into place.

Tables rebuild their controls on every change, so an implicit Flet animation has no "before" to
animate from. :class:`Arrivals` gives each landed card a first frame (small, faded) and, right after
the page shows it, its resting frame; Flutter animates between the two. Which cards landed is read
from the events alone (the functions below, tested without Flet), so what moves on screen is
exactly what the engine says happened — including a bot's move and an undo's replay."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
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
    """Collects the controls of cards that landed during one build; ``settle`` animates them in."""

    def __init__(self) -> None:
        self.boxes: list[ft.Container] = []
        self.seen: object = None

    def fresh(self, events: list[Any]) -> bool:
        """True once per batch of events (a refresh for a selection does not replay the motion)."""
        if not events or events is self.seen:
            return False
        self.seen = events
        return True

    def wrap(self, control: ft.Control) -> ft.Control:
        box = ft.Container(control, scale=0.55, opacity=0.25,
                           animate_scale=ft.Animation(DURATION_MS, ft.AnimationCurve.EASE_OUT_BACK),
                           animate_opacity=ft.Animation(DURATION_MS, ft.AnimationCurve.EASE_OUT))
        self.boxes.append(box)
        return box

    def settle(self, page: Any) -> None:
        """After the first frame went out: the resting frame (the client animates between them)."""
        boxes, self.boxes = self.boxes, []
        if not boxes:
            return

        async def rest() -> None:
            await asyncio.sleep(0.04)
            for box in boxes:
                box.scale, box.opacity = 1.0, 1.0
            try:
                page.update()
            except Exception:  # noqa: BLE001 - the table was left meanwhile
                pass

        try:
            page.run_task(rest)
        except Exception:  # noqa: BLE001 - no running page (a closing session)
            for box in boxes:
                box.scale, box.opacity = 1.0, 1.0
