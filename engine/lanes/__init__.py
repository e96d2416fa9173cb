"""Lanes, the two-player lane game known as Caravan (rules/lanes.md)."""

from __future__ import annotations

from typing import Any

from engine.cards import Rng
from engine.core import Event, Result
from engine.lanes import notation, rules
from engine.lanes.actions import (
    EXTERNAL,
    Abort,
    Away,
    Disband,
    Discard,
    LanesAction,
    Play,
    Resign,
    Timeout,
    action_to_json,
    parse_action,
)
from engine.lanes.notation import LanesObservation
from engine.lanes.options import VARIANTS, LanesOptions
from engine.lanes.state import LanesState


class LanesRules:
    """The :class:`engine.core.Rules` implementation for Lanes."""

    name = "lanes"
    min_players = max_players = 2

    def new_game(self, options: LanesOptions, seed: int, players: int | None = None) -> LanesState:
        return rules.new_game(options, seed, players)

    def legal_actions(self, state: LanesState, player: int | None = None) -> list[LanesAction]:
        return rules.legal_actions(state, player)

    def apply(self, state: LanesState, action: LanesAction) -> tuple[LanesState, list[Event]]:
        return rules.apply(state, action)

    def observe(self, state: LanesState, player: int) -> LanesObservation:
        return notation.observe(state, player)

    def determinise(self, observation: LanesObservation, rng: Rng) -> LanesState:
        """A full state consistent with ``observation`` (hidden cards sampled with ``rng``)."""
        return notation.determinise(observation, rng)

    def is_over(self, state: LanesState) -> bool:
        return state.over

    def result(self, state: LanesState) -> Result | None:
        return rules.result(state)

    def to_move(self, state: LanesState) -> int | None:
        return None if state.over else state.to_move

    def parse_options(self, obj: Any) -> LanesOptions:
        return LanesOptions.from_json(obj)

    def options_to_json(self, options: LanesOptions) -> Any:
        return options.to_json()

    def parse_action(self, obj: Any, state: LanesState | None = None) -> LanesAction:
        return parse_action(obj)

    def action_to_json(self, action: LanesAction) -> Any:
        return action_to_json(action)

    def position_from_json(self, options: LanesOptions, obj: Any, seed: int = 0) -> LanesState:
        state = notation.position_from_json(options, obj, seed)
        rules.evaluate(state, [])
        return state

    def position_to_json(self, state: LanesState) -> Any:
        return notation.position_to_json(state)

    def why_illegal(self, state: LanesState, action: LanesAction) -> str | None:
        return rules.why_illegal(state, action)


RULES = LanesRules()

__all__ = ["EXTERNAL", "RULES", "VARIANTS", "Abort", "Away", "Discard", "Disband", "LanesOptions", "LanesRules",
           "LanesState",
           "Play", "Resign", "Timeout"]
