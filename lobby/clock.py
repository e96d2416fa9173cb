"""Injectable time and chance. The server never ticks clocks down: it stores timestamps and
computes remaining time on read, so tests use :class:`FakeClock` and never sleep. A new match's
seed (which decides the deal and who sits first) comes from the same object, so a test can fix it
and assert one outcome instead of branching on whichever seat the dice chose."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Iterator
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    def new_seed(self) -> int:
        """The seed of a new match (63 bits): the deal and the seating (``lobby.service``)."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    def new_seed(self) -> int:
        return secrets.randbits(63)


class FakeClock:
    """Time that moves only when told; seeds from ``seeds`` in turn, then a fixed sequence of
    large numbers (a small seed would show up in any answer by chance and defeat leak checks)."""

    def __init__(self, start: float = 1_000_000.0, seeds: Iterable[int] = ()) -> None:
        self.t = start
        self._seeds: Iterator[int] = iter(seeds)
        self._next = 0

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds

    def new_seed(self) -> int:
        seed = next(self._seeds, None)
        if seed is None:
            self._next += 1
            seed = (self._next * 0x9E3779B97F4A7C15) % 2**63
        return seed

    def seed_next(self, *seeds: int) -> None:
        """The next matches get these seeds (in order)."""
        self._seeds = iter(seeds)
