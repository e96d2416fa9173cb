"""Turns wall-clock time into Spit actions — outside the pure engine's rules, but still clock-free.

The driver never reads a clock: every call passes ``now`` (seconds, any monotonic origin). The UI
feeds it taps with the time they happened and calls :meth:`SpitDriver.advance` when
:meth:`SpitDriver.next_due` says something is scheduled; tests pass made-up times. So a whole
real-time game is reproducible from (seed, bot seeds, timestamped taps).

Scheduling seam: a :class:`BotPolicy` looks at its observation and proposes ``(delay, action)``.
The driver schedules it, and at the due time re-checks it against ``legal_actions``: a move that
became illegal meanwhile (the other player got to the pile first) is given up silently and the bot
plans again, as a person who sees the pile change would.

After a stalemate the driver runs the "spit!" countdown: when it ends, bots call spit (after their
own reaction time) and, with ``auto_spit``, so do people who have not tapped yet. After a round the
next deal follows ``round_pause`` seconds later.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.cards import Rng, one_way_seed
from engine.core import Event
from engine.spit import RULES
from engine.spit.actions import CallSpit, Fill, NextRound, PlayCard, Slap, SpitAction
from engine.spit.notation import SpitObservation
from engine.spit.state import ROUND_OVER, STALLED, SpitState


class BotPolicy(Protocol):
    def plan(self, observation: SpitObservation, legal: list[SpitAction], rng: Rng) -> tuple[float, SpitAction] | None:
        """The bot's next intended action and how many seconds it takes to make it (or None)."""


@dataclass
class ScriptedBot:
    """A trivial, predictable opponent for tests: fixed delays, first legal play, else a fill;
    slaps the smaller pile."""

    delay: float = 0.5
    slap_delay: float = 0.4
    spit_delay: float = 0.3

    def plan(self, observation: SpitObservation, legal: list[SpitAction], rng: Rng) -> tuple[float, SpitAction] | None:
        plays = [a for a in legal if isinstance(a, PlayCard)]
        if plays:
            return self.delay, plays[0]
        fills = [a for a in legal if isinstance(a, Fill)]
        if fills:
            return self.delay, fills[0]
        slaps = [a for a in legal if isinstance(a, Slap)]
        if slaps:
            sizes = observation["pile_sizes"]
            return self.slap_delay, min(slaps, key=lambda a: (sizes[a.pile], a.pile))
        spits = [a for a in legal if isinstance(a, CallSpit)]
        if spits:
            return self.spit_delay, spits[0]
        return None


@dataclass(order=True)
class _Scheduled:
    due: float
    seq: int
    player: int | None = field(compare=False)
    action: SpitAction = field(compare=False)
    kind: str = field(compare=False, default="bot")


class SpitDriver:
    def __init__(self, state: SpitState, bots: dict[int, BotPolicy], seed: int = 0, *, now: float = 0.0,
                 spit_countdown: float = 1.0, round_pause: float = 2.0, auto_spit: bool = True) -> None:
        self.state = state
        self.bots = bots
        # the bots' seeds and reaction times come from here: one-way, so they say nothing of the deal
        self.rng = Rng(one_way_seed(seed, "spit-driver"))
        self.spit_countdown = spit_countdown
        self.round_pause = round_pause
        self.auto_spit = auto_spit
        self.now = now
        self._queue: list[_Scheduled] = []
        self._seq = 0
        self._stall_end: float | None = None
        self.log: list[tuple[float, dict[str, Any]]] = []
        self._replan(now)

    # --- public -------------------------------------------------------------------------------

    def submit(self, action: SpitAction, now: float) -> list[Event]:
        """A person's action at time ``now`` (earlier scheduled actions fire first)."""
        events = self.advance(now)
        events += self._apply(action, now)
        return events

    def advance(self, now: float) -> list[Event]:
        """Fire everything due up to ``now``, in time order."""
        events: list[Event] = []
        while self._queue and self._queue[0].due <= now:
            item = heapq.heappop(self._queue)
            if item.kind == "bot" and item.action not in RULES.legal_actions(self.state, item.player):
                self._replan(item.due)  # the pile changed under the bot's hand: give up, look again
                continue
            if item.kind == "auto" and item.action not in RULES.legal_actions(self.state, item.player):
                continue
            events += self._apply(item.action, item.due)
        self.now = max(self.now, now)
        return events

    def next_due(self) -> float | None:
        return self._queue[0].due if self._queue else None

    def countdown_ends(self) -> float | None:
        """When the current spit countdown ends (for the UI), if one is running."""
        return self._stall_end if self.state.phase == STALLED else None

    # --- internals ------------------------------------------------------------------------------

    def _push(self, due: float, player: int | None, action: SpitAction, kind: str) -> None:
        self._seq += 1
        heapq.heappush(self._queue, _Scheduled(due, self._seq, player, action, kind))

    def _apply(self, action: SpitAction, t: float) -> list[Event]:
        self.state, events = RULES.apply(self.state, action)
        self.log.append((t, RULES.action_to_json(action)))
        if any(e.type != "rejected" for e in events):
            self._replan(t)
        return events

    def _replan(self, t: float) -> None:
        """Drop every scheduled bot action and plan afresh from the new position."""
        self._queue = [i for i in self._queue if i.kind not in ("bot", "auto", "deal")]
        heapq.heapify(self._queue)
        s = self.state
        if s.over:
            return
        if s.phase == ROUND_OVER:
            self._push(t + self.round_pause, None, NextRound(), "deal")
            return
        if s.phase == STALLED:
            if self._stall_end is None:  # the countdown starts once per stalemate
                self._stall_end = t + self.spit_countdown
            start = max(t, self._stall_end)
        else:
            self._stall_end = None
            start = t
        for p, bot in self.bots.items():
            legal = RULES.legal_actions(s, p)
            if not legal:
                continue
            planned = bot.plan(RULES.observe(s, p), legal, self.rng)
            if planned is not None:
                delay, action = planned
                self._push(start + max(0.0, delay), p, action, "bot")
        if s.phase == STALLED and self.auto_spit:
            for p in (0, 1):
                if p not in self.bots and CallSpit(p) in RULES.legal_actions(s, p):
                    self._push(start, p, CallSpit(p), "auto")
