"""The Spit table contract: what ``views/spit/table.py`` reads and sends (real time: every tap
carries the game time). The table depends on this protocol only; ``SpitGame``
(views/spit/controller.py) implements it over any mode."""

from __future__ import annotations

from typing import Protocol

from engine.core import Event, Why
from engine.spit.notation import SpitObservation
from engine.spit.state import SpitState
from views.spit.modes import SpitMode


class SpitControls(Protocol):
    # --- what the table reads ---------------------------------------------------------------
    @property
    def mode(self) -> SpitMode: ...

    @property
    def state(self) -> SpitState: ...

    @property
    def observation(self) -> SpitObservation: ...

    @property
    def level(self) -> str: ...

    split: bool
    picked: dict[int, int | None]
    refusal: Why | None

    def target_piles(self, player: int = 0) -> set[int]: ...

    def target_slots(self, player: int = 0) -> set[int]: ...

    def can_spit(self, player: int = 0) -> bool: ...

    def countdown_ends(self) -> float | None: ...

    # --- what the table sends -------------------------------------------------------------------
    def tick(self, now: float) -> list[Event]: ...

    def tap_stock(self, slot: int, now: float, player: int = 0) -> list[Event]: ...

    def tap_pile(self, pile: int, now: float, player: int | None = None) -> list[Event]: ...

    def spit(self, now: float, player: int = 0) -> list[Event]: ...
