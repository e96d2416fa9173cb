"""Lopti, the 2–5 player shedding game whose deal winners add house rules (rules/lopti.md)."""

from __future__ import annotations

from typing import Any

from engine.cards import Rng
from engine.core import BadRequest, Event, Result
from engine.lopti import notation, rules
from engine.lopti.actions import Flip, Keep, LoptiAction, Play, Swap, Take, action_to_json, normalised, parse_action
from engine.lopti.notation import LoptiObservation
from engine.lopti.options import LoptiOptions
from engine.lopti.session import LoptiSession
from engine.lopti.state import LoptiState


class LoptiRules:
    """The :class:`engine.core.Rules` implementation for one Lopti deal."""

    name = "lopti"
    min_players, max_players = 2, 5

    def new_game(self, options: LoptiOptions, seed: int, players: int | None = None) -> LoptiState:
        n = players or 4
        if options.leader >= n:
            raise BadRequest("the leader must be one of the players")
        state = rules.deal(options, seed, n, leader=options.leader)
        state.deal_number = options.deal_number
        return state

    def legal_actions(self, state: LoptiState, player: int | None = None) -> list[LoptiAction]:
        return rules.legal_actions(state, player)

    def legal_json(self, state: LoptiState) -> list[str]:
        return list(dict.fromkeys(normalised(a) for a in rules.legal_actions(state)))

    def apply(self, state: LoptiState, action: LoptiAction) -> tuple[LoptiState, list[Event]]:
        return rules.apply(state, action)

    def observe(self, state: LoptiState, player: int) -> LoptiObservation:
        return notation.observe(state, player)

    def determinise(self, observation: LoptiObservation, rng: Rng) -> LoptiState:
        """A full state consistent with ``observation`` (hidden cards sampled with ``rng``)."""
        return notation.determinise(observation, rng)

    def is_over(self, state: LoptiState) -> bool:
        return state.over

    def result(self, state: LoptiState) -> Result | None:
        return rules.result(state)

    def to_move(self, state: LoptiState) -> int | None:
        return None if state.over else state.to_move

    def parse_options(self, obj: Any) -> LoptiOptions:
        return LoptiOptions.from_json(obj)

    def options_to_json(self, options: LoptiOptions) -> Any:
        return options.to_json()

    def parse_action(self, obj: Any, state: LoptiState | None = None) -> LoptiAction:
        return parse_action(obj)

    def action_to_json(self, action: LoptiAction) -> Any:
        return action_to_json(action)

    def position_from_json(self, options: LoptiOptions, obj: Any, seed: int = 0) -> LoptiState:
        return notation.position_from_json(options, obj, seed)

    def normalise(self, state: LoptiState) -> tuple[LoptiState, list[Event]]:
        return rules.normalise(state)

    def position_to_json(self, state: LoptiState) -> Any:
        return notation.position_to_json(state)


RULES = LoptiRules()

__all__ = ["RULES", "Flip", "Keep", "LoptiOptions", "LoptiRules", "LoptiSession", "LoptiState", "Play", "Swap",
           "Take"]
