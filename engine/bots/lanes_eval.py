"""The static evaluation of a Lanes position, from one player's side, with its weights.

Every Lanes bot above the beginner judges positions with :func:`evaluate`; the search levels call
it hundreds of thousands of times per decision, so it stays a plain loop over the six lanes.

The weights are data, not code, so that they can be tuned by self-play
(``python tests/tune_lanes_eval.py``). ``HAND_WRITTEN`` are the weights the casual and skilled
levels play with; ``TUNED`` is what the expert plays with (docs/bots.md has how they were found
and what they are worth).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from engine.cards import JACK, JOKER, KING, QUEEN, Card
from engine.lanes.state import LANES, SELL_MAX, SELL_MIN, UP, LanesState, lane_direction, selling, values


@dataclass(frozen=True, slots=True)
class Weights:
    #: a pair this player sells (the opponent's sales count against)
    sale: float = 12.0
    #: lane value toward 26, per 26 points
    slope: float = 6.0
    #: a lane in the selling range 21–26
    in_range: float = 2.0
    #: an overloaded lane (over 26): worth this much at 27 …
    over_base: float = 4.0
    #: … and this much less per point above 26
    over_slope: float = 1.2
    #: per card in hand (up to five)
    hand: float = 0.4
    #: a jack or joker in hand (they answer the opponent's sales)
    answer: float = 1.2
    #: a king in hand
    king: float = 0.6
    #: about to run out of cards (L-8.2): deck empty, two cards or fewer in hand
    dry: float = 6.0
    #: a sale's margin of safety: (value − 21) / 5 of a selling lane
    secure: float = 0.0
    #: a lane under 21 that one number card could bring into range, in its direction (per rank that
    #: does it, out of ten)
    finish: float = 0.0
    #: a queen in hand (it turns a lane that cannot grow any more)
    queen: float = 0.0
    #: selling in two pairs or more (one more sale anywhere ends the match in this player's favour)
    majority: float = 0.0

    def to_json(self) -> dict[str, float]:
        return asdict(self)

    @staticmethod
    def from_json(d: dict[str, Any]) -> Weights:
        return replace(Weights(), **{k: float(v) for k, v in d.items()})


HAND_WRITTEN = Weights()
#: found by self-play (2026-11-30): ``python tests/tune_lanes_eval.py --games 600 --rounds 2 --seed 1``,
#: then ``--rounds 1 --seed 2 --scale 0.67,1.33`` from there. A flatter slope toward 26, a gentler
#: penalty for overload (a lane over 26 can still be cut back or disbanded), jacks, jokers and kings
#: kept in hand valued higher, and lanes that one more card in their direction could sell. At the
#: casual level (one-ply greedy) these weights beat the hand-written ones in 66.7 % ± 2.5 of 1,000
#: fresh games (``--compare … --seed 77``).
TUNED = Weights(slope=3.0, over_slope=0.8, answer=1.8, king=1.8, finish=2.0)


def _lane_score(v: int, w: Weights) -> float:
    if v == 0:
        return 0.0
    if v <= SELL_MAX:
        return w.slope * v / SELL_MAX + (w.in_range if v >= SELL_MIN else 0.0)
    return w.over_base - w.over_slope * (v - SELL_MAX)


def _finishers(lane: list[Any], v: int, held: str | None) -> int:
    """How many number ranks (1–10) would bring this lane from under 21 into 21–26, allowed by its
    direction (the current-suit exception ignored: the suit of a card yet to come is unknown)."""
    if not lane or v >= SELL_MIN:
        return 0
    lo, hi = SELL_MIN - v, SELL_MAX - v
    if lo > 10:
        return 0
    lo, hi = max(1, lo), min(10, hi)
    last = lane[-1].card.rank
    d = lane_direction(lane, held)  # L-5.9, queens on the last card included
    if d is None:  # fewer than two number cards: anything but the same value (L-5.6)
        return hi - lo + 1 - (1 if lo <= last <= hi else 0)
    if d == UP:
        lo = max(lo, last + 1)
    else:
        hi = min(hi, last - 1)
    return max(0, hi - lo + 1)


def evaluate(s: LanesState, p: int, w: Weights = HAND_WRITTEN) -> float:
    """Static score of a position for player ``p`` (positive is good); ±1000 when the match is
    over. (The terms are added in one fixed order, so a score is the same float every time.)"""
    if s.over:
        return 0.0 if s.winner is None else (1000.0 if s.winner == p else -1000.0)
    me, opp = s.sides[p], s.sides[1 - p]
    mine, theirs = values(s, p), values(s, 1 - p)
    sellers = selling(mine, theirs)  # per pair: 0 this player sells, 1 the opponent (L-7)
    score = 0.0
    for i in range(LANES):
        score = _pair_score(score, s, p, i, mine[i], theirs[i], sellers[i], w)
    if w.majority:
        score += w.majority * ((sellers.count(0) >= 2) - (sellers.count(1) >= 2))
    score += w.hand * (min(len(me.hand), 5) - min(len(opp.hand), 5))
    return _hand_score(score, me.hand, me.deck, opp.hand, opp.deck, w)


def _pair_score(score: float, s: LanesState, p: int, i: int, a: int, b: int, seller: int | None,
                w: Weights) -> float:
    """Pair ``i``: who sells and how safely (L-7), each lane's shape, and the cards that could
    finish a lane at 11–20."""
    if seller == 0:
        score += w.sale + w.secure * (a - SELL_MIN) / 5
    elif seller == 1:
        score -= w.sale + w.secure * (b - SELL_MIN) / 5
    score += _lane_score(a, w) - _lane_score(b, w)
    if w.finish:  # only a lane at 11–20 can be finished by one number card
        if SELL_MIN - 10 <= a < SELL_MIN:
            score += w.finish * _finishers(s.sides[p].lanes[i], a, s.held[p][i]) / 10
        if SELL_MIN - 10 <= b < SELL_MIN:
            score -= w.finish * _finishers(s.sides[1 - p].lanes[i], b, s.held[1 - p][i]) / 10
    return score


def _hand_score(score: float, hand: list[Card], deck: list[Card], opp_hand: list[Card], opp_deck: list[Card],
                w: Weights) -> float:
    """Cards that answer the opponent's sales are worth keeping; running dry is not (L-8.2)."""
    for c in hand[:8]:
        r = c.rank
        if r in (JACK, JOKER):
            score += w.answer
        elif r == KING:
            score += w.king
        elif r == QUEEN:
            score += w.queen
    if not deck and len(hand) <= 2:
        score -= w.dry / (1 + len(hand))
    if not opp_deck and len(opp_hand) <= 2:
        score += w.dry / (1 + len(opp_hand))
    return score
