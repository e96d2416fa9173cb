"""Dry run of a house rule: play a few hundred simulated deals with it and compare with the base
rules, so a table sees *before voting* whether a rule makes deals absurdly long (house_rules.md,
guarantee 8). The engine-wide turn cap stays the last line of defence."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from statistics import mean
from typing import Any

from engine.cards import Card, derive_seed
from engine.core import EngineError
from engine.lopti.actions import Flip, Keep, LoptiAction, Play, Take
from engine.lopti.house_rules import BaseParams, HouseRule, parse_rule
from engine.lopti.options import LoptiOptions
from engine.lopti.rules import apply, deal, legal_actions, on_face_down, play_refusal
from engine.lopti.state import SETUP, LoptiState, order

#: a rule is flagged when its deals average more than this many times the base rules' length
LONG_FACTOR = 2.0


def simple_policy(state: LoptiState) -> LoptiAction:
    """A plain, fast player for simulations: keep the deal, play the lowest legal play (specials
    last; of a rank, as many cards as it may), flip when on face-down cards, take only when
    nothing else is legal.

    The casual bot and every rollout of the searching bots play this, so it is their inner loop:
    it asks :func:`play_refusal` about the plays in the order it prefers them and stops at the
    first one allowed, instead of listing every legal action (the same choice: a property test in
    tests/lopti/test_house_rules.py)."""
    if state.phase == SETUP or state.over:
        return Keep()
    seat = state.seats[state.to_move]
    if on_face_down(seat):
        return Flip(0)
    for rank, count in _preferred(state, seat.hand):
        if play_refusal(state, rank, count) is None:
            return Play(rank=rank, count=count)
    if state.pile:
        return Take()
    # P-3.1: on an empty table any rank leads, so a seat always has a play; were that ever broken
    # (a house rule refusing every play on an empty table), say so rather than pick from an empty list
    raise EngineError("no legal action: no play is allowed and there is no pile to take")


@lru_cache(maxsize=16)
def _rank_keys(params: BaseParams) -> dict[int, int]:
    """Each rank's place in the plain player's order: ordinary ranks before the special cards (2, 3,
    10 and the low card, or the session's, P-9.1), lower before higher."""
    return {r: (100 if r in params.specials else 0) + order(r) for r in range(1, 14)}


def preference(params: BaseParams) -> Callable[[tuple[int, int]], tuple[int, int]]:
    """The plain player's order of plays (rank, count), favourite first (:func:`_rank_keys`; of a
    rank, more cards before fewer). Also what a bot infers an opponent's hand from
    (engine/bots/lopti_infer.py)."""
    keys = _rank_keys(params)
    return lambda play: (keys[play[0]], -play[1])


def _preferred(state: LoptiState, hand: list[Card]) -> Iterator[tuple[int, int]]:
    """Every play of ``hand`` (rank, count), in the plain player's order (:func:`preference`),
    lazily: the rollouts' inner loop usually stops at the first or second."""
    keys = _rank_keys(state.options.params)
    counts: dict[int, int] = {}
    for c in hand:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    for rank in sorted(counts, key=keys.__getitem__):
        for n in range(counts[rank], 0, -1):
            yield rank, n


def swap_strength(rank: int, params: BaseParams) -> int:
    """How valuable a card of ``rank`` is to keep for later, for the plain player's setup swap
    (P-2.2): its face-up cards are played last, so the strongest go there."""
    special = {params.clear_rank: 16, params.reset_rank: 15, params.pass_rank: 14, params.low_rank: 9}
    return special.get(rank, order(rank))


def reference_policy(state: LoptiState) -> LoptiAction:
    """The plain player written over ``legal_actions`` (what :func:`simple_policy` must equal)."""
    legal = legal_actions(state)
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        def cost(a: Play) -> tuple[int, int]:
            rank, count = a.key
            special = rank in state.options.params.specials
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
    s.record = False  # nobody reads the moves of a simulated deal
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
