"""Bots. This package so far holds the ``random`` baseline (a uniformly random legal action, used to
measure the other levels); the levels ``beginner`` … ``expert`` arrive with the bots issue and are
reported as unavailable until then rather than faked."""

from __future__ import annotations

from typing import Any

from engine.cards import Rng, derive_seed
from engine.core import BadRequest

LEVELS = ("beginner", "casual", "skilled", "expert", "random")
AVAILABLE = ("random",)


def random_action(rules: Any, state: Any, seed: int, player: int | None = None) -> Any:
    """A uniformly random legal action (or None when there is none)."""
    legal = rules.legal_actions(state, player) if player is not None else rules.legal_actions(state)
    if not legal:
        return None
    return legal[Rng(derive_seed(seed, "random-bot", getattr(state, "ply", 0))).below(len(legal))]


def choose_action(rules: Any, state: Any, spec: dict[str, Any]) -> Any:
    """Answer a conformance bot question: the action as JSON, or None when there is no move."""
    level = spec.get("level")
    if level not in LEVELS:
        raise BadRequest(f"bot level must be one of {', '.join(LEVELS)}")
    if level not in AVAILABLE:
        raise BadRequest(f"bot level {level!r} is not available yet; available: {', '.join(AVAILABLE)}")
    seed = spec.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadRequest("bot seed must be a whole number")
    player = spec.get("player")
    action = random_action(rules, state, seed, player)
    return None if action is None else rules.action_to_json(action)
