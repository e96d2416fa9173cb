"""Cards, notation and the project's own seeded shuffle.

Notation is the conformance notation (``"10H"``, ``"AS"``, ``"JK"``): rank then suit, case-sensitive.
Cards are immutable values; :func:`parse_card` returns one shared instance per notation, so
comparing and hashing are cheap and two equal cards are interchangeable (a double deck simply holds
the same value twice).

The shuffle does not use :mod:`random`: its algorithms are an implementation detail of CPython and
may change between versions. :class:`Rng` is SplitMix64, a tiny, well-studied generator that is
fully specified by integer arithmetic, so the same seed deals the same cards on every platform.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKER_TEXT = "JK"

#: rank number by rank text: A=1 … 10=10, J=11, Q=12, K=13; the joker is 0.
RANK_NUMBER: dict[str, int] = {r: i + 1 for i, r in enumerate(RANKS)}
RANK_TEXT: dict[int, str] = {v: k for k, v in RANK_NUMBER.items()}

ACE, JACK, QUEEN, KING, JOKER = 1, 11, 12, 13, 0


class CardError(ValueError):
    """A string that is not a card in the project's notation."""


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``rank`` is 1..13 (A..K) or 0 for a joker; ``suit`` is S/H/D/C or None."""

    rank: int
    suit: str | None

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def rank_text(self) -> str:
        return "JK" if self.rank == JOKER else RANK_TEXT[self.rank]

    def __str__(self) -> str:
        return JOKER_TEXT if self.rank == JOKER else RANK_TEXT[self.rank] + str(self.suit)

    def __repr__(self) -> str:
        return f"Card({self})"


def _build_table() -> dict[str, Card]:
    table = {RANK_TEXT[r] + s: Card(r, s) for r in range(1, 14) for s in SUITS}
    table[JOKER_TEXT] = Card(JOKER, None)
    return table


_BY_TEXT: dict[str, Card] = _build_table()
JOKER_CARD: Card = _BY_TEXT[JOKER_TEXT]


def parse_card(text: object) -> Card:
    """Parse ``"10H"``/``"JK"``; raise :class:`CardError` with a readable message otherwise."""
    if not isinstance(text, str):
        raise CardError(f"a card must be written as text like \"10H\", not {text!r}")
    card = _BY_TEXT.get(text)
    if card is None:
        raise CardError(
            f"{text!r} is not a card: write the rank (A, 2-10, J, Q, K) then the suit (S, H, D, C), "
            "e.g. \"10H\", or \"JK\" for a joker"
        )
    return card


def standard_deck(jokers: int = 0) -> list[Card]:
    """52 cards in a fixed order (suits S H D C, ranks A..K), then ``jokers`` jokers."""
    return [_BY_TEXT[RANK_TEXT[r] + s] for s in SUITS for r in range(1, 14)] + [JOKER_CARD] * jokers


def _canon(cards: Iterable[Card]) -> list[Card]:
    return [_BY_TEXT[str(c)] for c in cards]


_MASK = (1 << 64) - 1

T = TypeVar("T")


class Rng:
    """SplitMix64: deterministic, portable, and with a state that is one integer (easy to store).

    Engines keep an ``Rng`` state inside their game state when they need randomness during play
    (a Lanes reshuffle, a Spit re-deal), so a replay of the same actions reproduces it exactly.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def fork(self, salt: int) -> Rng:
        """An independent stream derived from this one and ``salt`` (does not advance self)."""
        return Rng((self.state ^ ((salt * 0xD1B54A32D192ED03) & _MASK)) & _MASK)


def derive_seed(seed: int, *labels: str | int) -> int:
    """Mix a seed with labels into a new 64-bit seed (stable across runs and platforms)."""
    acc = seed & _MASK
    for label in labels:
        data = label.encode() if isinstance(label, str) else str(label).encode()
        for b in data:
            acc = ((acc ^ b) * 0x100000001B3) & _MASK
        acc = Rng(acc).next_u64()
    return acc


def one_way_seed(seed: int, *labels: str | int) -> int:
    """A bot's seed from a game's ``seed`` and labels, through a one-way hash (BLAKE2b).

    :func:`derive_seed` is reversible: FNV steps and SplitMix's finaliser each undo exactly, so a
    bot given ``derive_seed(deal_seed, "seat", 0)`` could recover the deal seed and with it every
    hidden card. Nothing can be recovered from this one: a bot's seed says nothing about the deal."""
    h = hashlib.blake2b(digest_size=8, person=b"cardtable-bot")
    h.update((seed & _MASK).to_bytes(8, "little"))
    for label in labels:
        h.update(b"\x1f" + (label.encode() if isinstance(label, str) else b"#" + str(label).encode()))
    return int.from_bytes(h.digest(), "little")


def shuffled(cards: Iterable[Card], seed: int) -> list[Card]:
    deck = _canon(cards)
    Rng(seed).shuffle(deck)
    return deck
