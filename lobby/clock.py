"""Injectable time, chance and time rules. The server never ticks clocks down: it stores timestamps
and computes remaining time on read, so tests use :class:`FakeClock` and never sleep. A new
match's seed (which decides the deal and who sits first) comes from the same object, so a test can
fix it and assert one outcome instead of branching on whichever seat the dice chose. And the clock
carries how long each time rule runs (:class:`TimeRules`): the rules' values by default, changed by
an operator through the environment or by a test through the constructor."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from typing import Protocol


@dataclass(frozen=True)
class TimeRules:
    """How long each time rule of an online match runs (L-8.3, L-8.4), and how long the lobby's
    offers stay open, in seconds."""

    first_move_s: float = 60.0  # L-8.4: each player's first move, or the match is aborted
    away_s: float = 60.0  # L-8.4: away this long (no request, no open stream) loses
    untimed_move_s: float = 300.0  # L-8.4: one move in an untimed match
    away_warn_s: float = 10.0  # the opponent's view shows the away countdown from here
    lag_allowance_s: float = 0.3  # not charged to a timed clock per move (network lag)
    # how long an offer waits for its answer (docs/lobby.md): an open seek, a challenge's code, a
    # rematch offer (an operator may shorten them; the tests of a real process do)
    seek_lifetime_s: float = 600.0
    challenge_lifetime_s: float = 1800.0
    rematch_lifetime_s: float = 120.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 86_400:
                raise ValueError(f"{f.name} must be a number of seconds from 0 to 86400, not {value!r}")
        if self.away_warn_s > self.away_s:
            raise ValueError("away_warn_s must not exceed away_s")

    @staticmethod
    def from_env(env: dict[str, str] | None = None) -> TimeRules:
        """``LOBBY_`` and the field's name in capitals (``LOBBY_FIRST_MOVE_S``, ``LOBBY_AWAY_S``, …,
        ``LOBBY_SEEK_LIFETIME_S``); unset: the rules' values."""
        env = dict(os.environ) if env is None else env
        values = {}
        for f in fields(TimeRules):
            raw = env.get("LOBBY_" + f.name.upper())
            if raw is not None:
                try:
                    values[f.name] = float(raw)
                except ValueError:
                    raise ValueError(f"LOBBY_{f.name.upper()} must be a number of seconds, not {raw!r}") from None
        return TimeRules(**values)


class Clock(Protocol):
    #: the durations of the time rules this server enforces
    rules: TimeRules

    def now(self) -> float: ...

    def new_seed(self) -> int:
        """The seed of a new match (63 bits): the deal and the seating (``lobby.service``)."""
        ...


class SystemClock:
    def __init__(self, rules: TimeRules | None = None) -> None:
        self.rules = rules or TimeRules.from_env()

    def now(self) -> float:
        return time.time()

    def new_seed(self) -> int:
        return secrets.randbits(63)


class FakeClock:
    """Time that moves only when told; seeds from ``seeds`` in turn, then a fixed sequence of
    large numbers (a small seed would show up in any answer by chance and defeat leak checks)."""

    def __init__(self, start: float = 1_000_000.0, seeds: Iterable[int] = (), rules: TimeRules | None = None) -> None:
        self.t = start
        self.rules = rules or TimeRules()
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
