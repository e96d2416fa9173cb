"""The Lanes table contract: what ``views/lanes/table.py`` reads and sends. The table depends on
this protocol only; ``LanesMatch`` (views/lanes/controller.py) implements it over any mode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from engine.cards import Card
from engine.core import Event, Why
from engine.lanes.actions import LanesAction
from engine.lanes.notation import LanesObservation
from views.table.contract import Status
from views.table.modes import TurnMode


class LanesTargets(Protocol):
    lanes: set[int]  # my lanes a selected number card may start or extend
    stacks: set[tuple[int, int, int]]  # (owner, lane, stack) a selected card may go on
    discard: bool


class LanesControls(Protocol):
    # --- what the table reads ---------------------------------------------------------------
    @property
    def mode(self) -> TurnMode[LanesObservation, LanesAction]: ...

    @property
    def status(self) -> Status: ...

    @property
    def human(self) -> int:
        """The seat whose view is shown."""
        ...

    @property
    def level(self) -> str: ...

    @property
    def pass_and_play(self) -> bool: ...

    @property
    def observation(self) -> LanesObservation: ...

    @property
    def my_turn(self) -> bool: ...

    @property
    def last_events(self) -> list[Event]: ...

    selected: Card | None
    refusal: Why | None

    def targets(self) -> LanesTargets: ...

    def disbandable(self) -> set[int]: ...

    def playable_cards(self) -> set[Card]: ...

    def coach_cards(self) -> set[str]: ...

    def can_undo(self) -> bool: ...

    def explain(self, events: list[Event], lang: str) -> str: ...

    def describe_action(self, action: LanesAction | None, lang: str) -> str: ...

    def suggest_words(self, action: LanesAction, lang: str) -> str: ...

    # --- what the table sends (a refused move returns no events; ``refusal`` says why) ---------
    def select(self, card_text: str) -> None: ...

    def play_at(self, owner: int, lane: int, stack: int | None = None) -> list[Event]: ...

    def discard(self) -> list[Event]: ...

    def disband(self, lane: int) -> list[Event]: ...

    def undo(self) -> bool: ...

    def resign(self) -> list[Event]: ...

    def hint(self) -> LanesAction | None: ...

    def point_at(self, action: LanesAction | None) -> None: ...

    def suggest(self, level: str = "casual") -> LanesAction | None: ...

    def bot_choice(self, should_stop: Callable[[], bool] | None = None) -> LanesAction | None: ...

    def apply_bot(self, action: LanesAction) -> list[Event]: ...
