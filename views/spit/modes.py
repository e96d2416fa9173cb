"""Spit's modes (real time): who plays the other side and where a move goes, passed into
``SpitGame`` (views/spit/controller.py):

* :class:`LiveSpit` — a stored game against a bot or two people on one device, through the
  real-time driver (the view feeds it the clock; every applied action is saved in order);
* :class:`SpitLessonMode` — a lesson: no clock, the runner answers for the other side;
* :class:`SpitReplayMode` — a finished game step by step, read-only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from engine.bots.spit_bots import SpitBot
from engine.cards import one_way_seed
from engine.core import Event
from engine.spit import RULES, SpitOptions
from engine.spit.actions import SpitAction
from engine.spit.driver import BotPolicy, SpitDriver
from engine.spit.state import SpitState
from engine.tutorial import Lesson
from storage.seats import PERSON, SeatKind, stored_seats
from views.table.contract import Powers, Refused, Status
from views.table.lessons import LessonCoach
from views.table.modes import game_status

if TYPE_CHECKING:
    from storage.db import Storage
    from views.table.timeline import Timeline


class SpitMode(Protocol):
    @property
    def powers(self) -> Powers: ...

    @property
    def levels(self) -> list[str]: ...

    @property
    def game_id(self) -> int | None: ...

    @property
    def coach(self) -> LessonCoach | None: ...

    @property
    def ticks(self) -> bool:
        """Whether the table's clock drives this mode (a lesson or a replay moves only when tapped)."""
        ...

    @property
    def state(self) -> SpitState: ...

    def status(self) -> Status: ...

    def tick(self, now: float) -> list[Event]: ...

    def submit(self, action: SpitAction, now: float) -> list[Event]:
        """Apply ``action`` at game time ``now``; a refusal comes back as a ``rejected`` event
        (real time: the pile may have changed under the finger)."""
        ...

    def countdown_ends(self) -> float | None: ...

    def caption(self, lang: str) -> str | None: ...


def _status(state: SpitState) -> Status:
    return game_status(RULES, state)


class LiveSpit:
    powers = Powers()
    coach: LessonCoach | None = None
    ticks = True

    def __init__(self, storage: Storage, levels: list[str], seed: int, now: float, game_id: int, state: SpitState,
                 seq: int) -> None:
        from storage import api

        self.api, self.storage, self.levels, self.game_id, self.seq = api, storage, levels, game_id, seq
        # the bot's seed is never the deal's (it could rebuild the deal from it): a one-way hash of it
        bots: dict[int, BotPolicy] = {} if levels[1] == PERSON else {
            1: SpitBot(levels[1], one_way_seed(seed, "spit-bot"))}
        self.driver = SpitDriver(state, bots, seed=seed + seq, now=now, spit_countdown=1.2, round_pause=2.5,
                                 auto_spit=False)
        self.saved_log = len(self.driver.log)

    @classmethod
    def create(cls, storage: Storage, level: str, seed: int, now: float,
               options: SpitOptions | None = None) -> LiveSpit:
        from storage import api

        options = options or SpitOptions()
        seats = stored_seats([PERSON, level])
        game_id = api.new_game(storage, "spit", options.to_json(), seed, 2, seats,
                               mode="pass_and_play" if level == PERSON else "bots")
        return cls(storage, [PERSON, level], seed, now, game_id, RULES.new_game(options, seed), 0)

    @classmethod
    def resume(cls, storage: Storage, game_id: int, now: float) -> LiveSpit:
        from storage import api

        info, state = api.resume_game(storage, game_id)
        level = next((str(s.get("level", "casual")) for s in info.seats if s.get("kind") == SeatKind.BOT), PERSON)
        return cls(storage, [PERSON, level], info.seed, now, game_id, state, len(info.actions))

    @property
    def state(self) -> SpitState:
        return self.driver.state

    def status(self) -> Status:
        return _status(self.state)

    def _save(self) -> None:
        for _t, action in self.driver.log[self.saved_log:]:
            self.api.append_action(self.storage, self.game_id, self.seq, action)
            self.seq += 1
        self.saved_log = len(self.driver.log)
        if self.state.over:
            info = self.api.load_game(self.storage, self.game_id)
            if info.finished_at is None:
                self.api.finish_game(self.storage, self.game_id, self.state.winner, "cards")

    def tick(self, now: float) -> list[Event]:
        events = self.driver.advance(now)
        if events:
            self._save()
        return events

    def submit(self, action: SpitAction, now: float) -> list[Event]:
        events = self.driver.submit(action, now)
        self._save()
        return events

    def countdown_ends(self) -> float | None:
        return self.driver.countdown_ends()

    def caption(self, lang: str) -> str | None:
        return None


class NoClock:
    """A Spit mode that moves only when tapped (a lesson, a replay): no clock, no countdown."""

    ticks = False

    def tick(self, now: float) -> list[Event]:
        return []

    def countdown_ends(self) -> float | None:
        return None

    def caption(self, lang: str) -> str | None:
        return None


class SpitLessonMode(NoClock):
    powers = Powers(hint=True, resign=False, result=False)
    game_id: int | None = None

    def __init__(self, lesson: Lesson, storage: Storage) -> None:
        self.lesson_coach = LessonCoach(lesson, storage)
        self.levels = [PERSON, "beginner"]

    @property
    def coach(self) -> LessonCoach | None:
        return self.lesson_coach

    @property
    def _coach(self) -> LessonCoach:
        return self.lesson_coach

    @property
    def state(self) -> SpitState:
        state: SpitState = self._coach.run.state
        return state

    def status(self) -> Status:
        return _status(self.state)

    def submit(self, action: SpitAction, now: float) -> list[Event]:
        try:
            return self._coach.attempt(RULES.action_to_json(action))
        except Refused:
            return []  # the coach panel says why (the engine's reason or the step's words)


class SpitReplayMode(NoClock):
    powers = Powers(resign=False, read_only=True, result=False)
    coach: LessonCoach | None = None

    def __init__(self, timeline: Timeline, levels: list[str], game_id: int) -> None:
        self.timeline, self.levels, self.game_id = timeline, levels, game_id
        self.step = 0
        self.last_events: list[Event] = []

    def seek(self, k: int) -> None:
        self.step = max(0, min(k, self.timeline.last))
        self.last_events = self.timeline.events[self.step]

    @property
    def state(self) -> SpitState:
        state: SpitState = self.timeline.states[self.step]
        return state

    def status(self) -> Status:
        return _status(self.state)

    def submit(self, action: SpitAction, now: float) -> list[Event]:
        return []

    def caption(self, lang: str) -> str | None:
        from views.ui.i18n import t

        return t(lang, "replay_step", k=self.step, n=self.timeline.last)
