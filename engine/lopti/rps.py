"""Rock-paper-scissors exactly per P-10 (it cannot be changed by any rule, P-9.8).

Throws come from people or from seeded bots; these functions only referee them, so the outcome is
a pure function of the throws."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from engine.cards import Rng

THROWS = ("rock", "paper", "scissors")
DECISIVE = 30  # P-10.3
MAX_THROWS = 100_000  # a referee that never ends would be a bug: fail loudly instead


def beats(a: str, b: str) -> bool:
    return (a, b) in (("rock", "scissors"), ("scissors", "paper"), ("paper", "rock"))


@dataclass(frozen=True)
class RpsResult:
    winner: int  # 0 = side a, 1 = side b
    score: tuple[int, int]
    throws: tuple[tuple[str, str], ...]


def series(pairs: Iterable[tuple[str, str]]) -> RpsResult:
    """P-10.3: exactly 30 decisive throws (ties do not count); more wins; at 15–15 the next
    decisive throw wins."""
    log: list[tuple[str, str]] = []
    score = (0, 0)
    for pair in pairs:
        log.append(pair)
        if len(log) > MAX_THROWS:
            raise ValueError("too many throws without a decision")
        score, winner = _count(score, pair)
        if winner is not None:
            return RpsResult(winner, score, tuple(log))
    raise ValueError("the throws ran out before the series was decided")


def progress(pairs: Iterable[tuple[str, str]]) -> tuple[tuple[int, int], int | None]:
    """The score of a series thrown so far and its winner once decided (for a series thrown by
    hand, one pair at a time; the same counting as :func:`series`)."""
    score: tuple[int, int] = (0, 0)
    winner: int | None = None
    for pair in pairs:
        if winner is not None:
            raise ValueError("the series was already decided")
        score, winner = _count(score, pair)
    return score, winner


def _count(score: tuple[int, int], pair: tuple[str, str]) -> tuple[tuple[int, int], int | None]:
    ta, tb = pair
    if ta not in THROWS or tb not in THROWS:
        raise ValueError(f"a throw is one of {', '.join(THROWS)}")
    a, b = score
    if ta != tb:
        a, b = (a + 1, b) if beats(ta, tb) else (a, b + 1)
    decided = a + b >= DECISIVE and a != b
    return (a, b), ((0 if a > b else 1) if decided else None)


def seeded_thrower(seed: int) -> Iterator[str]:
    """A bot's throws: uniformly random from a seeded source (the only unexploitable strategy)."""
    rng = Rng(seed)
    while True:
        yield THROWS[rng.below(3)]


def seeded_series(seed_a: int, seed_b: int) -> RpsResult:
    return series(zip(seeded_thrower(seed_a), seeded_thrower(seed_b), strict=False))


def single_throw_match(ta: Iterator[str], tb: Iterator[str]) -> int:
    """One decisive throw (ties are thrown again): 0 if side a wins, 1 if side b."""
    for _ in range(MAX_THROWS):
        a, b = next(ta), next(tb)
        if a != b:
            return 0 if beats(a, b) else 1
    raise ValueError("too many tied throws")


def bracket(members: list[int], thrower: Callable[[int], Iterator[str]]) -> int:
    """P-10.4: single elimination, one decisive throw per match; returns the representative."""
    if not members:
        raise ValueError("a bracket needs at least one player")
    round_ = list(members)
    while len(round_) > 1:
        nxt = []
        for i in range(0, len(round_) - 1, 2):
            a, b = round_[i], round_[i + 1]
            nxt.append(a if single_throw_match(thrower(a), thrower(b)) == 0 else b)
        if len(round_) % 2:
            nxt.append(round_[-1])  # a bye
        round_ = nxt
    return round_[0]


class RpsSeries:
    """The throws of a P-10 series as they are made, one at a time: the people's by hand (on a
    shared device the second throws without seeing the first), the bots' from their seeded
    iterators. ``throw`` answers "hidden" (another person throws next, without seeing this one),
    "pair" (a pair was thrown) or "done" (the series is decided, P-10.3). ``hands`` keeps each
    person's throws in order: what the session records, so a replay throws the same series."""

    def __init__(self, sides: tuple[int, int], people: set[int], bots: dict[int, Iterator[str]]) -> None:
        if set(sides) != people | set(bots) or people & set(bots):
            raise ValueError("each side of a series is a person or a bot")
        self.sides = sides
        self.hands: dict[int, list[str]] = {s: [] for s in sides if s in people}
        self.bots = bots
        self.pairs: list[tuple[str, str]] = []
        self.pending: dict[int, str] = {}

    def thrower(self) -> int:
        """The person to throw now."""
        return next(s for s in self.sides if s in self.hands and s not in self.pending)

    def throw(self, choice: str) -> str:
        if choice not in THROWS:
            raise ValueError(f"a throw is one of {', '.join(THROWS)}")
        if progress(self.pairs)[1] is not None:
            raise ValueError("the series was already decided")
        self.pending[self.thrower()] = choice
        if any(s in self.hands and s not in self.pending for s in self.sides):
            return "hidden"
        for s, it in self.bots.items():
            self.pending[s] = next(it)
        a, b = self.sides
        self.pairs.append((self.pending[a], self.pending[b]))
        for s in self.hands:
            self.hands[s].append(self.pending[s])
        self.pending.clear()
        return "done" if progress(self.pairs)[1] is not None else "pair"
