"""Bots for every game and level, deciding from observations only.

Levels (ids shown translated in the app): ``beginner``, ``casual``, ``skilled``, ``expert``, plus
``random`` (a uniformly random legal action, the measuring stick). Every bot is a pure function
``(observation, seed, budget) -> action``: it never sees the state, so it cannot peek; the
strongest levels sample the unseen cards consistently with the observation (determinisation) and
search over the real engine, so they respect every variant and house rule automatically.

Search budgets are counted in simulated actions, not seconds, so a decision is reproducible on any
machine: ``budget_ms`` converts to work at a calibrated rate (``WORK_PER_MS`` per game, measured
by ``python -m engine.bots.arena``). The engine reads no clock; the app runs bots off its UI loop
and may cancel through ``should_stop``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from engine.core import BadRequest

if TYPE_CHECKING:
    from engine.lanes.notation import LanesObservation
    from engine.lopti.notation import LoptiObservation
    from engine.spit.notation import SpitObservation

LEVELS = ("beginner", "casual", "skilled", "expert", "random")


def decide(game: str, observation: Mapping[str, Any], level: str, seed: int = 0, budget_ms: int = 300,
           should_stop: Callable[[], bool] | None = None) -> Any:
    """The action (engine value) the bot of ``level`` picks from ``observation``; None if none.

    ``observation`` is the game's ``observe`` output — also when it crossed the network as JSON
    (the lobby sends exactly that), which is why it is taken as a plain mapping here and read as
    the game's observation type by the game's bots."""
    if level not in LEVELS:
        raise BadRequest(f"bot level must be one of {', '.join(LEVELS)}")
    if game == "lanes":
        from engine.bots import lanes_bots
        return lanes_bots.decide(cast("LanesObservation", observation), level, seed, budget_ms, should_stop)
    if game == "lopti":
        from engine.bots import lopti_bots
        return lopti_bots.decide(cast("LoptiObservation", observation), level, seed, budget_ms, should_stop)
    if game == "spit":
        from engine.bots import spit_bots
        return spit_bots.decide(cast("SpitObservation", observation), level, seed)
    raise BadRequest(f"no bots for {game!r}")


def choose_action(rules: Any, state: Any, spec: dict[str, Any]) -> Any:
    """Answer a conformance bot question from the given player's observation only."""
    level = spec.get("level")
    if level not in LEVELS:
        raise BadRequest(f"bot level must be one of {', '.join(LEVELS)}")
    unknown = set(spec) - {"level", "seed", "budget_ms", "player"}
    if unknown:
        raise BadRequest(f"unknown bot field(s): {', '.join(sorted(unknown))}")
    seed = spec.get("seed", 0)
    budget = spec.get("budget_ms", 300)
    for name, value in (("seed", seed), ("budget_ms", budget)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise BadRequest(f"bot {name} must be a whole number ≥ 0")
    if rules.name == "spit":
        player = spec.get("player")
        if player not in (0, 1):
            raise BadRequest("a Spit bot question names its player (0 or 1)")
    else:
        player = rules.to_move(state)
        if player is None:
            return None
    action = decide(rules.name, rules.observe(state, player), level, seed, min(budget, 5000))
    return None if action is None else rules.action_to_json(action)


HINT_LEVELS = ("casual", "skilled", "expert")


def hint(game: str, observation: Mapping[str, Any], seed: int = 0, level: str = "casual",
         should_stop: Callable[[], bool] | None = None) -> Any:
    """The player's optional hint: what the chosen level (Casual unless the settings say
    otherwise) would play here."""
    if level not in HINT_LEVELS:
        raise BadRequest(f"hint level must be one of {', '.join(HINT_LEVELS)}")
    return decide(game, observation, level, seed, should_stop=should_stop)
