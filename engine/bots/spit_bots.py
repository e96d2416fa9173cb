"""Spit bots: speed is the difficulty (S-9.1).

A bot plans like a person: it sees the table, needs a reaction time to choose among the moves it
can make, and sometimes picks a poorer move. Reaction times follow the Hick–Hyman law — simple
reaction about 0.25 s for the fastest level, growing with log2(options + 1) — plus a per-level
base, a slap reaction time and a mistake rate. The driver re-checks every planned move when it
falls due and silently drops one that became illegal (the pile changed), so the bot then looks
again, exactly like a person whose card got beaten to the pile.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from engine.cards import Rng, derive_seed, parse_card
from engine.spit.actions import CallSpit, Fill, PlayCard, Slap, SpitAction
from engine.spit.notation import SpitObservation
from engine.spit.state import adjacent

#: level -> (base reaction s, seconds per bit of choice, slap reaction s, mistake rate)
PROFILES: dict[str, tuple[float, float, float, float]] = {
    "beginner": (0.95, 0.30, 1.00, 0.20),
    "casual": (0.70, 0.22, 0.75, 0.10),
    "skilled": (0.45, 0.15, 0.50, 0.04),
    "expert": (0.25, 0.10, 0.30, 0.0),
    "random": (0.60, 0.0, 0.60, 1.0),
}


def reaction_time(level: str, options: int, rng: Rng) -> float:
    base, per_bit, _, _ = PROFILES[level]
    jitter = 0.85 + 0.3 * (rng.below(1000) / 1000)  # ±15 % trial-to-trial variation
    return (base + per_bit * math.log2(options + 1)) * jitter


def _legal_from_obs(obs: SpitObservation) -> list[SpitAction]:
    p = obs["player"]
    me = obs["players"][p]
    tops = [parse_card(t) if t else None for t in obs["pile_tops"]]
    out: list[SpitAction] = []
    phase = obs["phase"]
    if phase == "play":
        for si, top in enumerate(me["stock_tops"]):
            if top is None:
                continue
            c = parse_card(top)
            for pi in (0, 1):
                top_card = tops[pi]
                if top_card is not None and adjacent(c, top_card):
                    out.append(PlayCard(p, si, pi))
        empty = [i for i, n in enumerate(me["stock_sizes"]) if n == 0]
        for src, n in enumerate(me["stock_sizes"]):
            if n >= 2:
                out.extend(Fill(p, src, slot) for slot in empty)
    elif phase == "stalled" and me["spit_count"] and not obs["ready"][p]:
        out.append(CallSpit(p))
    elif phase == "slap":
        out.extend(Slap(p, i) for i in obs["piles_in_use"])
    return out


def _best(obs: SpitObservation, legal: list[SpitAction]) -> SpitAction:
    """Plays before fills; prefer a play whose card frees a stock beneath (bigger stock first);
    slap the smaller pile."""
    p = obs["player"]
    sizes = obs["players"][p]["stock_sizes"]
    slaps = [a for a in legal if isinstance(a, Slap)]
    if slaps:
        return min(slaps, key=lambda a: (obs["pile_sizes"][a.pile], a.pile))
    plays = [a for a in legal if isinstance(a, PlayCard)]
    if plays:
        return max(plays, key=lambda a: (sizes[a.stock], -a.stock, -a.pile))
    return legal[0]


def decide(obs: SpitObservation, level: str, seed: int) -> SpitAction | None:
    """The move this bot would make now (the driver adds the reaction time)."""
    legal = _legal_from_obs(obs)
    if not legal:
        return None
    rng = Rng(derive_seed(seed, "spit-bot", obs["ply"], obs["player"]))
    mistake = PROFILES[level][3]
    if rng.below(1000) < mistake * 1000:
        return legal[rng.below(len(legal))]
    return _best(obs, legal)


@dataclass
class SpitBot:
    """A :class:`engine.spit.driver.BotPolicy` for one level."""

    level: str
    seed: int = 0
    timer: list[float] | None = field(default=None, repr=False)

    def plan(self, observation: SpitObservation, legal: list[SpitAction], rng: Rng) -> tuple[float, SpitAction] | None:
        t0 = time.perf_counter() if self.timer is not None else 0.0
        action = decide(observation, self.level, derive_seed(self.seed, rng.next_u64()))
        if self.timer is not None:
            self.timer.append((time.perf_counter() - t0) * 1000)
        if action is None:
            return None
        if isinstance(action, Slap):
            _, _, slap, _ = PROFILES[self.level]
            return slap * (0.85 + 0.3 * rng.below(1000) / 1000), action
        if isinstance(action, CallSpit):
            return 0.2 + PROFILES[self.level][0] * 0.5, action
        moves = sum(1 for a in legal if isinstance(a, (PlayCard, Fill)))
        return reaction_time(self.level, moves, rng), action
