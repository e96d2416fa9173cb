"""Dry run of a house rule: play a few hundred simulated deals with it and compare with the base
rules, so a table sees *before voting* whether a rule makes deals absurdly long (house_rules.md,
guarantee 8). The engine-wide turn cap stays the last line of defence."""

from __future__ import annotations

from dataclasses import dataclass
from statistics import mean
from typing import Any

from engine.cards import derive_seed
from engine.lopti.actions import Flip, Keep, LoptiAction, Play, Take
from engine.lopti.house_rules import HouseRule, parse_rule
from engine.lopti.options import LoptiOptions
from engine.lopti.rules import apply, deal, legal_actions
from engine.lopti.state import LoptiState, order

#: a rule is flagged when its deals average more than this many times the base rules' length
LONG_FACTOR = 2.0


def simple_policy(state: LoptiState) -> LoptiAction:
    """A plain, fast player for simulations: keep the deal, play the lowest legal play (specials
    last), flip when on face-down cards, take only when nothing else is legal."""
    legal = legal_actions(state)
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        def cost(a: Play) -> tuple[int, int]:
            rank, count = a.key
            special = rank in (2, 3, 10) or rank == state.options.params.low_rank
            return (1 if special else 0, order(rank) * 10 - count)
        return min(plays, key=cost)
    for a in legal:
        if isinstance(a, (Flip, Keep)):
            return a
    takes = [a for a in legal if isinstance(a, Take)]
    return takes[0] if takes else legal[0]


@dataclass(frozen=True)
class DryRunReport:
    deals: int
    players: int
    mean_turns: float
    max_turns: int
    cap_hits: int
    rule_fires: float
    base_mean_turns: float
    flagged: bool
    reason: str

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _play(options: LoptiOptions, seed: int, players: int) -> tuple[int, bool, int]:
    s = deal(options, seed, players, leader=seed % players)
    while not s.over:
        s, _ = apply(s, simple_policy(s))
    return s.turns, s.capped, s.fires_deal


def dry_run(rule: HouseRule | dict[str, Any], deals: int = 200, players: int = 4, seed: int = 0) -> DryRunReport:
    r = rule if isinstance(rule, HouseRule) else parse_rule(rule)
    base = [_play(LoptiOptions(), derive_seed(seed, "dry", i), players) for i in range(deals)]
    with_rule = [_play(LoptiOptions(house_rules=(r,)), derive_seed(seed, "dry", i), players) for i in range(deals)]
    base_mean = mean(t for t, _, _ in base)
    m = mean(t for t, _, _ in with_rule)
    caps = sum(c for _, c, _ in with_rule)
    flagged, reason = False, "deals stay about as long as with the base rules"
    if caps:
        flagged, reason = True, f"{caps} of {deals} deals hit the turn cap"
    elif m > LONG_FACTOR * base_mean:
        flagged, reason = True, f"deals get {m / base_mean:.1f}× longer than with the base rules"
    return DryRunReport(deals, players, m, max(t for t, _, _ in with_rule), caps,
                        mean(f for _, _, f in with_rule), base_mean, flagged, reason)
