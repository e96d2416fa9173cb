"""Lanes state and the values derived from it.

The state stores only what cannot be computed: cards in hands, decks, discards and lanes, whose
turn it is, who is still in the opening, reshuffles used, the fixed-direction memory and the result.
A lane's value, direction and suit, and who sells each pair, are *derived* (L-5.9): computing them
from the cards means they can never drift out of step with the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import ACE, KING, QUEEN, Card
from engine.lanes.options import LanesOptions

UP, DOWN = "up", "down"
SELL_MIN, SELL_MAX = 21, 26
LANES = 3
HAND_SIZE = 8
ATTACH_LIMIT = 3


def is_number(card: Card) -> bool:
    """A, 2–10 (L-5.1)."""
    return ACE <= card.rank <= 10


@dataclass(slots=True)
class Stack:
    """A number card with the face cards attached to it, oldest first."""

    card: Card
    attached: list[Card] = field(default_factory=list)

    def cards(self) -> list[Card]:
        return [self.card, *self.attached]

    def kings(self) -> int:
        return sum(1 for c in self.attached if c.rank == KING)

    def queens(self) -> list[Card]:
        return [c for c in self.attached if c.rank == QUEEN]


Lane = list[Stack]


@dataclass(slots=True)
class Side:
    """One player's cards: hand, own deck (top first), own discard pile (oldest first), lanes."""

    hand: list[Card]
    deck: list[Card]
    discard: list[Card]
    lanes: list[Lane]

    def clone(self) -> Side:
        return Side(
            list(self.hand), list(self.deck), list(self.discard),
            [[Stack(s.card, list(s.attached)) for s in lane] for lane in self.lanes],
        )


@dataclass(slots=True)
class LanesState:
    options: LanesOptions
    sides: list[Side]
    to_move: int
    in_opening: list[bool]
    reshuffles_used: list[int]
    #: L-9.10 memory: per player, per lane, the base direction kept after a removal (or None)
    held: list[list[str | None]]
    rng: int
    winner: int | None = None
    reason: str | None = None
    over: bool = False
    ply: int = 0

    def clone(self) -> LanesState:
        return LanesState(
            self.options, [s.clone() for s in self.sides], self.to_move, list(self.in_opening),
            list(self.reshuffles_used), [list(h) for h in self.held], self.rng, self.winner,
            self.reason, self.over, self.ply,
        )


# --- derived values -------------------------------------------------------------------------


def stack_value(stack: Stack, options: LanesOptions) -> int:
    """L-6.3: each king doubles (``king_adds``, L-9.2: adds the printed value once more)."""
    base = stack.card.rank
    if not stack.attached:
        return base
    k = stack.kings()
    if not k:
        return base
    return base * (1 + k) if options.king_adds else base << k


def lane_value(lane: Lane, options: LanesOptions) -> int:
    """L-1.2: the sum of the lane's number cards after kings. (A plain loop: bots evaluate
    millions of lanes, and most stacks carry no face card.)"""
    total = 0
    for s in lane:
        total += stack_value(s, options) if s.attached else s.card.rank
    return total


def _flip(direction: str) -> str:
    return DOWN if direction == UP else UP


def base_direction(lane: Lane, held: str | None) -> str | None:
    """Direction from the last two number cards, before queens (L-5.3, L-5.8, L-9.10 memory)."""
    if len(lane) < 2:
        return None
    a, b = lane[-2].card.rank, lane[-1].card.rank
    if b > a:
        return UP
    if b < a:
        return DOWN
    return held if held is not None else DOWN


def lane_direction(lane: Lane, held: str | None = None) -> str | None:
    """L-5.9: compare the last two number cards, then reverse once per queen on the last card.

    Queens on earlier cards do nothing (L-9.1 ``queen_anywhere`` relies on this)."""
    d = base_direction(lane, held)
    if d is None:
        return None
    if len(lane[-1].queens()) % 2:
        d = _flip(d)
    return d


def lane_suit(lane: Lane, options: LanesOptions) -> str | None:
    """L-5.7: the last number card's suit unless a queen on it sets another (L-6.2);
    ``founding_suit`` (L-9.3) starts from the first number card instead."""
    if not lane:
        return None
    queens = lane[-1].queens()
    if queens:
        return queens[-1].suit
    return lane[0].card.suit if options.founding_suit else lane[-1].card.suit


def selling(values0: list[int], values1: list[int]) -> list[int | None]:
    """L-7: per pair, the player whose lane sells (or None)."""
    out: list[int | None] = []
    for a, b in zip(values0, values1, strict=True):
        a_in = SELL_MIN <= a <= SELL_MAX
        b_in = SELL_MIN <= b <= SELL_MAX
        if a_in and b_in:
            out.append(None if a == b else (0 if a > b else 1))
        elif a_in:
            out.append(0)
        elif b_in:
            out.append(1)
        else:
            out.append(None)
    return out


def values(state: LanesState, player: int) -> list[int]:
    return [lane_value(lane, state.options) for lane in state.sides[player].lanes]


def directions(state: LanesState, player: int) -> list[str | None]:
    return [lane_direction(lane, state.held[player][i]) for i, lane in enumerate(state.sides[player].lanes)]


def suits(state: LanesState, player: int) -> list[str | None]:
    return [lane_suit(lane, state.options) for lane in state.sides[player].lanes]


def pair_sellers(state: LanesState) -> list[int | None]:
    return selling(values(state, 0), values(state, 1))


def attach_limit(options: LanesOptions) -> int | None:
    return None if options.no_attach_limit else ATTACH_LIMIT
