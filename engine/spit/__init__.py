"""Spit, the real-time two-player game (rules/spit.md), as a pure state machine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import Rng
from engine.core import BadRequest, Event, Result
from engine.spit import notation, rules
from engine.spit.actions import CallSpit, Fill, NextRound, PlayCard, Slap, SpitAction, action_to_json, parse_action
from engine.spit.notation import SpitObservation
from engine.spit.state import DEFAULT_ROUND_CAP, SpitState


@dataclass(frozen=True, slots=True)
class SpitOptions:
    """``scoring``: "standard" (S-7) or "points" (S-8). ``round_cap`` ends an endless game."""

    scoring: str = "standard"
    round_cap: int = DEFAULT_ROUND_CAP

    @property
    def ranked(self) -> bool:
        return False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.scoring != "standard":
            out["scoring"] = self.scoring
        if self.round_cap != DEFAULT_ROUND_CAP:
            out["round_cap"] = self.round_cap
        return out

    @staticmethod
    def from_json(obj: Any) -> SpitOptions:
        if obj is None:
            return SpitOptions()
        if not isinstance(obj, dict):
            raise BadRequest("Spit options must be an object such as {} or {\"scoring\": \"points\"}")
        unknown = set(obj) - {"scoring", "round_cap"}
        if unknown:
            raise BadRequest(f"unknown Spit option(s): {', '.join(sorted(unknown))}")
        scoring = obj.get("scoring", "standard")
        if scoring not in ("standard", "points"):
            raise BadRequest("scoring must be \"standard\" or \"points\"")
        cap = obj.get("round_cap", DEFAULT_ROUND_CAP)
        if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= 100_000:
            raise BadRequest("round_cap must be a whole number from 1 to 100000")
        return SpitOptions(scoring, cap)


class SpitRules:
    name = "spit"
    min_players = max_players = 2

    def new_game(self, options: SpitOptions, seed: int, players: int | None = None) -> SpitState:
        if players not in (None, 2):
            raise BadRequest("Spit is a two-player game")
        state = rules.new_game(options.scoring, seed, options.round_cap)
        return state

    def legal_actions(self, state: SpitState, player: int | None = None) -> list[SpitAction]:
        return rules.legal_actions(state, player)

    def legal_json(self, state: SpitState) -> dict[str, list[Any]]:
        return {str(p): [action_to_json(a) for a in rules.legal_actions(state, p)] for p in (0, 1)}

    def apply(self, state: SpitState, action: SpitAction) -> tuple[SpitState, list[Event]]:
        return rules.apply(state, action)

    def observe(self, state: SpitState, player: int) -> SpitObservation:
        return notation.observe(state, player)

    def determinise(self, observation: SpitObservation, rng: Rng) -> SpitState:
        """A full state consistent with ``observation`` (hidden cards sampled with ``rng``)."""
        return notation.determinise(observation, rng)

    def is_over(self, state: SpitState) -> bool:
        return state.over

    def result(self, state: SpitState) -> Result | None:
        return rules.result(state)

    def to_move(self, state: SpitState) -> int | None:
        return None  # real time: nobody has the turn

    def parse_options(self, obj: Any) -> SpitOptions:
        return SpitOptions.from_json(obj)

    def options_to_json(self, options: SpitOptions) -> Any:
        return options.to_json()

    def parse_action(self, obj: Any, state: SpitState | None = None) -> SpitAction:
        return parse_action(obj)

    def action_to_json(self, action: SpitAction) -> Any:
        return action_to_json(action)

    def position_from_json(self, options: SpitOptions, obj: Any, seed: int = 0) -> SpitState:
        return notation.position_from_json(options.scoring, options.round_cap, obj, seed)

    def normalise(self, state: SpitState) -> tuple[SpitState, list[Event]]:
        """At load: a stalled position whose callers have all called resolves at once; a play
        position that is stuck becomes stalled; a finished round ends."""
        s = state.clone()
        events: list[Event] = []
        if s.phase in ("play", "stalled"):
            rules.settle(s, events)
        return s, events

    def position_to_json(self, state: SpitState) -> Any:
        return notation.position_to_json(state)


RULES = SpitRules()

__all__ = ["RULES", "CallSpit", "Fill", "NextRound", "PlayCard", "Slap", "SpitOptions", "SpitRules", "SpitState"]
