"""Spit state and derived values (rules/spit.md).

Stored: each player's five stock slots (bottom first; the top card is face up), spit cards (top
first), the two spit piles (pile i is player i's own, bottom first), the phase, who has called
"spit" while stalled, which pile each player took at the end of the round, scores (points variant),
the winner, the round number and the RNG state for the next deal. Derived: which piles are in use,
each player's total, legality.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import ACE, KING, Card

STALLED, PLAY, SLAP, ROUND_OVER, OVER = "stalled", "play", "slap", "round_over", "over"
PHASES = (STALLED, PLAY, SLAP, ROUND_OVER, OVER)
SLOTS = 5
#: Rounds after which a game that keeps passing cards back and forth ends (see docs/engine.md).
DEFAULT_ROUND_CAP = 200


def adjacent(a: Card, b: Card) -> bool:
    """S-1.2: one rank above or below, circularly (A next to K and 2)."""
    d = abs(a.rank - b.rank)
    return d == 1 or d == KING - ACE


@dataclass(slots=True)
class SpitPlayer:
    stocks: list[list[Card]]
    spit: list[Card]

    def clone(self) -> SpitPlayer:
        return SpitPlayer([list(s) for s in self.stocks], list(self.spit))

    def stock_count(self) -> int:
        return sum(len(s) for s in self.stocks)


@dataclass(slots=True)
class SpitState:
    scoring: str
    players: list[SpitPlayer]
    piles: list[list[Card]]
    phase: str
    ready: list[bool]
    taken: list[int | None] = field(default_factory=lambda: [None, None])
    scores: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None
    #: who emptied their stocks first this round (None after a stalemate)
    emptied: int | None = None
    #: piles in use at the start of this round's play (one-pile rounds, S-6.1)
    round_no: int = 1
    round_cap: int = DEFAULT_ROUND_CAP
    rng: int = 0
    ply: int = 0

    def clone(self) -> SpitState:
        return SpitState(self.scoring, [p.clone() for p in self.players], [list(p) for p in self.piles], self.phase,
                         list(self.ready), list(self.taken), list(self.scores), self.winner, self.emptied,
                         self.round_no, self.round_cap, self.rng, self.ply)

    @property
    def over(self) -> bool:
        return self.phase == OVER


def piles_in_use(state: SpitState) -> list[int]:
    return [i for i in (0, 1) if state.piles[i]]


def total(state: SpitState, p: int) -> int:
    """Cards player ``p`` owns: stocks + spit cards + the pile taken at the end of the round."""
    me = state.players[p]
    n = me.stock_count() + len(me.spit)
    t = state.taken[p]
    if t is not None:
        n += len(state.piles[t])
    return n
