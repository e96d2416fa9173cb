"""Every state of a stored game, rebuilt from its record (the engine is pure, so the states are
exactly the ones played): what a replay steps through."""

from __future__ import annotations

from typing import Any, Protocol

from engine.core import Event, GameRecord
from engine.games import rules_for


class Timeline:
    """``states[k]`` is the game after ``k`` actions; ``events[k]`` what action ``k`` caused."""

    def __init__(self, record: GameRecord[Any]) -> None:
        #: the game's name ("lanes"): which table shows it
        self.game = record.game
        rules = rules_for(record.game)
        state = rules.new_game(rules.parse_options(record.options), record.seed, record.players)
        self.states: list[Any] = [state]
        self.events: list[list[Event]] = [[]]
        for raw in record.actions:
            state, evs = rules.apply(state, rules.parse_action(raw, state))
            self.states.append(state)
            self.events.append(list(evs))

    @property
    def last(self) -> int:
        return len(self.states) - 1


class Stepper(Protocol):
    """What the replay bar moves: a replay mode's step through its timeline."""

    timeline: Timeline
    step: int

    def seek(self, k: int) -> None: ...

    @property
    def state(self) -> object: ...

    def caption(self, lang: str) -> str | None: ...
