"""A Lopti session: several deals in a row (P-2.3, P-11.1).

The dealer rotates clockwise each deal; the first deal's dealer leads, and every later deal is led
by the previous deal's winner. The session is a plain value: ``start_deal`` returns the deal's
state and ``record`` returns a new session with the finished deal's places appended.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.cards import derive_seed
from engine.core import BadRequest
from engine.lopti.options import LoptiOptions
from engine.lopti.rules import deal
from engine.lopti.state import LoptiState


@dataclass(frozen=True)
class LoptiSession:
    players: int
    seed: int
    first_dealer: int = 0
    options: LoptiOptions = field(default_factory=LoptiOptions)
    #: places of each finished deal, first out first
    results: tuple[tuple[int, ...], ...] = ()

    @property
    def deal_number(self) -> int:
        """0-based number of the next deal."""
        return len(self.results)

    @property
    def dealer(self) -> int:
        return (self.first_dealer + self.deal_number) % self.players

    @property
    def leader(self) -> int:
        return self.dealer if not self.results else self.results[-1][0]

    def start_deal(self) -> LoptiState:
        return deal(self.options, derive_seed(self.seed, "deal", self.deal_number), self.players, self.leader)

    def record(self, finished: LoptiState) -> LoptiSession:
        if not finished.over:
            raise BadRequest("only a finished deal can be recorded")
        return replace(self, results=(*self.results, tuple(finished.places)))

    @property
    def winners(self) -> list[int]:
        return [r[0] for r in self.results]
