"""Lopti state and the values derived from it (rules/lopti.md P-1 … P-7).

Stored: each seat's hand, face-up and face-down cards; the draw pile (top first); the play pile
(plays oldest first); the visible 3-chain; whether a 3-obligation stands; whose play it is and
whether it is an extra play; places; which cards of each hand everyone has seen. Derived: the low
condition, the top play, the run of equal ranks on top, whether the deal is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from engine.cards import ACE, Card
from engine.lopti.options import LoptiOptions

SETUP, PLAY, OVER = "setup", "play", "over"
TWO, THREE, SEVEN, TEN = 2, 3, 7, 10
FOUR = 4


def order(card_rank: int) -> int:
    """P-1.2: 2 … 10 J Q K A, ace highest."""
    return 14 if card_rank == ACE else card_rank


_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K", **{r: str(r) for r in range(2, 11)}}


def rank_label(rank: int) -> str:
    return _LABELS.get(rank) or str(rank)


class LoptiMove(TypedDict):
    """One move, as everyone saw it."""

    seat: int
    action: str  # the normalised form: "play 9x2", "take", "flip", "swap", "keep"
    rank: int  # a play's rank (0 for any other move)
    count: int  # a play's number of cards (0 for any other move)
    swap: list[str]  # a swap's [hand card, face-up card] (empty for any other move)
    setup: bool  # made before play started (P-2.2)
    pile: list[list[str]]  # the run of equal ranks on top of the pile: all that P-3 and P-4 look at
    obligation: bool  # a 3-obligation stood (P-4.2)
    up: list[str]  # the mover's face-up cards
    known: list[str]  # the cards of the mover's hand that everyone saw enter it
    hand_size: int
    drew: list[int]  # per seat: cards that joined the hand unseen in this move (drawn, P-3.5)


@dataclass(slots=True)
class Seat:
    hand: list[Card]
    up: list[Card]
    down: list[Card]
    out: bool = False
    #: cards of ``hand`` that every player has seen enter it (picked-up face-up cards, taken piles)
    known: list[Card] = field(default_factory=list)
    #: cards of ``hand`` that were the face-up cards (for the house-rule condition ``zone``)
    from_up: list[Card] = field(default_factory=list)

    def clone(self) -> Seat:
        return Seat(list(self.hand), list(self.up), list(self.down), self.out, list(self.known), list(self.from_up))

    def card_count(self) -> int:
        return len(self.hand) + len(self.up) + len(self.down)


@dataclass(slots=True)
class LoptiState:
    options: LoptiOptions
    seats: list[Seat]
    draw: list[Card]
    pile: list[list[Card]]
    threes: int
    obligation: bool
    to_move: int
    extra_play: bool
    phase: str
    places: list[int]
    decided: list[bool]
    #: cards out of the round (3s, cleared piles): needed to conserve cards and for custom rules
    gone: list[Card] = field(default_factory=list)
    turns: int = 0
    capped: bool = False
    ply: int = 0
    #: who leads once the setup swaps are done (P-2.3)
    leader: int = 0
    #: house rules: play direction (+1 clockwise, -1 after a "reverse"), pending skips per seat,
    #: rule firings this turn / this deal (the loop caps), the deal's number in its session
    direction: int = 1
    skips: list[int] = field(default_factory=list)
    fires_turn: int = 0
    fires_deal: int = 0
    deal_number: int = 0
    #: the deal's moves as everyone saw them (``notation.public_move``), oldest first: what a player
    #: remembers of the deal, and what a bot reads its opponents' choices from. Immutable entries.
    moves: tuple[LoptiMove, ...] = ()
    #: whether ``apply`` adds to ``moves``: off in a bot's sampled worlds, whose rollouts never read
    #: the record and must not pay for it on every simulated action
    record: bool = True

    def clone(self) -> LoptiState:
        return LoptiState(
            self.options, [s.clone() for s in self.seats], list(self.draw), [list(p) for p in self.pile],
            self.threes, self.obligation, self.to_move, self.extra_play, self.phase, list(self.places),
            list(self.decided), list(self.gone), self.turns, self.capped, self.ply, self.leader,
            self.direction, list(self.skips), self.fires_turn, self.fires_deal, self.deal_number,
            self.moves, self.record,
        )

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def winner(self) -> int | None:
        return self.places[0] if self.places else None


def top_play(state: LoptiState) -> list[Card] | None:
    return state.pile[-1] if state.pile else None


def is_low(state: LoptiState) -> bool:
    """P-4.4: the low condition holds while the pile's top play is 7s (or the voted low rank)."""
    top = top_play(state)
    return top is not None and top[0].rank == state.options.params.low_rank


def top_run(state: LoptiState) -> tuple[int | None, int]:
    """(rank, count) of the run of equal-rank cards on top of the pile (P-3.4)."""
    if not state.pile:
        return None, 0
    rank = state.pile[-1][0].rank
    n = 0
    for play in reversed(state.pile):
        if play[0].rank != rank:
            break
        n += len(play)
    return rank, n


def active_seats(state: LoptiState) -> list[int]:
    return [i for i, s in enumerate(state.seats) if not s.out]


def next_active(state: LoptiState, seat: int, direction: int | None = None) -> int:
    """The next player still in, in the current direction of play (P-1.3)."""
    n = len(state.seats)
    d = state.direction if direction is None else direction
    for k in range(1, n + 1):
        j = (seat + d * k) % n
        if not state.seats[j].out:
            return j
    return seat
