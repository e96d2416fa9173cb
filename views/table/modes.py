"""Modes: who moves and where a move goes, passed into a game's controller (never found out by
asking the controller what it is). The turn-based tables (Lanes, Lopti) take one of these:

* :class:`Local` — a stored game against bots or between people on this device: the engine
  applies each action and storage keeps it at once (resume, history, undo against the learning bots);
* :class:`LessonMode` — a lesson: each move goes to the pure lesson runner, which checks the step
  and answers for the other seats; the coach panel reads its :class:`LessonCoach`;
* :class:`ReplayMode` — a finished game step by step, read-only, from the player's seat;
* the online mode (``views/online/controller.py``) — the lobby is the referee.

Every mode answers the same questions (:class:`TurnMode`); what a mode lets the player do is
declared in its :class:`Powers`, so a table shows Undo, Hint or Resign by reading them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from engine.core import BadRequest, Event, IllegalAction, Rules, Why
from engine.tutorial import Lesson
from storage.seats import PERSON, seat_levels, stored_seats
from views.table.contract import Powers, Refused, Status
from views.table.lessons import LessonCoach
from views.table.undo import UNDO_LEVELS, out_of_turn, undo_point

if TYPE_CHECKING:
    from engine.core import Result
    from storage.db import Storage
    from views.table.timeline import Timeline

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)
A = TypeVar("A")
#: a game's observation (``LanesObservation``…): JSON-ready fields, read by key
O = TypeVar("O", bound=Mapping[str, Any])
O_co = TypeVar("O_co", bound=Mapping[str, Any], covariant=True)


class TurnMode(Protocol[O_co, A]):
    """A turn-based table's mode, typed by the game's observation (``LanesObservation``…) and
    action (``LanesAction``…), so a table reads what the engine really gives it."""

    @property
    def powers(self) -> Powers: ...

    @property
    def levels(self) -> list[str]:
        """Per seat: "person" (on this device), a bot level, or "online" (a person at the lobby)."""
        ...

    @property
    def game_id(self) -> int | None:
        """The stored game behind this table (history, replay); None for a lesson or online."""
        ...

    @property
    def last_events(self) -> list[Event]: ...

    @property
    def coach(self) -> LessonCoach | None:
        """The lesson's coach (None in every other mode)."""
        ...

    def status(self) -> Status: ...

    def viewer(self) -> int:
        """The seat whose view is shown: the person to move, else the last person who was."""
        ...

    def observation(self) -> O_co: ...

    def legal(self) -> list[A]:
        """The viewer's legal actions now (empty when it is not their move)."""
        ...

    def submit(self, action: A) -> list[Event]:
        """Play ``action`` for the viewer; raises :class:`Refused` (nothing changes)."""
        ...

    def bot_move(self, should_stop: Callable[[], bool] | None = None) -> A | None:
        """The bot's decision when a bot is to move (slow: call it off the UI loop; a search
        ends early when ``should_stop`` says so)."""
        ...

    def apply_bot(self, action: A) -> list[Event]: ...

    def can_undo(self) -> bool: ...

    def undo(self) -> bool: ...

    def resign(self) -> list[Event]:
        """The viewer resigns (a lesson starts over instead; a replay does nothing)."""
        ...

    def suggestion(self, level: str = "casual") -> A | None:
        """The hint: the lesson's move, or what ``level`` would play (runs off the UI loop: the
        expert thinks for a moment)."""
        ...

    def caption(self, lang: str) -> str | None:
        """A line the mode puts in the status box instead of the turn (a replay's step)."""
        ...


class Judge(Protocol[S_contra]):
    """The part of a game's rules that says how a position stands."""

    def is_over(self, state: S_contra) -> bool: ...

    def result(self, state: S_contra) -> Result | None: ...

    def to_move(self, state: S_contra) -> int | None: ...


def game_status(rules: Judge[S], state: S) -> Status:
    """How ``state`` stands, in the engine's own words (``is_over``, ``to_move``, ``result``)."""
    over = bool(rules.is_over(state))
    result = rules.result(state)
    to_move = rules.to_move(state)
    return Status(over, None if over or to_move is None else int(to_move),
                  result.winner if result else None, result.reason if result else None)


class NoBotNoUndo(Generic[A]):
    """What a mode without bots of its own and without undo answers (a lesson's runner plays the
    other seats itself; a replay and an online match have nobody to move for)."""

    def bot_move(self, should_stop: Callable[[], bool] | None = None) -> A | None:
        return None

    def apply_bot(self, action: A) -> list[Event]:
        return []

    def can_undo(self) -> bool:
        return False

    def undo(self) -> bool:
        return False

    def caption(self, lang: str) -> str | None:
        return None


class Local(Generic[S, A, O]):
    """A stored game on this device: the engine applies, storage keeps every action at once."""

    coach: LessonCoach | None = None

    def __init__(self, rules: Rules[S, A, O], game: str, storage: Storage, game_id: int, state: S,
                 levels: list[str],
                 seq: int = 0, own_last: int | None = None) -> None:
        from storage import api

        self.api = api
        self.rules, self.game, self.storage, self.game_id = rules, game, storage, game_id
        self.state = state
        self.levels = levels
        self.people = [i for i, lv in enumerate(levels) if lv == PERSON]
        self.seq = seq
        #: the index of the viewer's last action in the record (what undo takes back)
        self.own_last = own_last
        self.last_events: list[Event] = []
        self._viewer = self.people[0]
        bots = [lv for lv in levels if lv != PERSON]
        self.powers = Powers(undo=len(self.people) == 1 and bool(bots) and all(lv in UNDO_LEVELS for lv in bots),
                             hint=len(self.people) == 1)

    @classmethod
    def create(cls, rules: Rules[S, A, O], game: str, storage: Storage, options: object, seed: int,
               levels: list[str], session_id: int | None = None) -> Local[S, A, O]:
        """A new game, stored before its first action (so it can be continued from the start)."""
        from storage import api

        seats = stored_seats(levels)
        people = sum(lv == PERSON for lv in levels)
        game_id = api.new_game(storage, game, rules.options_to_json(options), seed, len(levels), seats,
                               mode="pass_and_play" if people > 1 else "bots", session_id=session_id)
        return cls(rules, game, storage, game_id, rules.new_game(options, seed, len(levels)), levels)

    @classmethod
    def resume(cls, rules: Rules[S, A, O], storage: Storage, game_id: int) -> Local[S, A, O]:
        """A stored game exactly where it stopped (its record replayed through the engine)."""
        from storage import api

        info, state = api.resume_game(storage, game_id)
        levels = seat_levels(info.seats)
        start = rules.new_game(rules.parse_options(info.options), info.seed, info.players)
        people = [i for i, lv in enumerate(levels) if lv == PERSON] or [0]
        mode = cls(rules, info.game, storage, game_id, state, levels, len(info.actions),
                   undo_point(rules, start, info.actions, people[0], len(levels)))
        mode.viewer()
        return mode

    def status(self) -> Status:
        return game_status(self.rules, self.state)

    def _mover(self) -> int | None:
        """The seat to move (None when the game is over)."""
        to_move = self.rules.to_move(self.state)
        return None if to_move is None else int(to_move)

    def viewer(self) -> int:
        mover = self._mover()
        if mover in self.people:
            self._viewer = int(mover)
        return self._viewer

    def observation(self) -> O:
        return self.rules.observe(self.state, self.viewer())

    def legal(self) -> list[A]:
        if self._mover() not in self.people:
            return []
        return list(self.rules.legal_actions(self.state))

    def submit(self, action: A) -> list[Event]:
        mine = self._mover() in self.people
        table = out_of_turn(self.rules, self.state, action, len(self.levels))
        try:
            self.state, events = self.rules.apply(self.state, action)
        except (IllegalAction, BadRequest) as exc:
            raise Refused(exc.why) from None
        if table:  # a rule deleted on anyone's turn is never taken back, nor anything before it
            self.own_last = None
        elif mine:
            self.own_last = self.seq
        self.api.append_action(self.storage, self.game_id, self.seq, self.rules.action_to_json(action))
        self.seq += 1
        result = self.rules.result(self.state)
        if result is not None:
            self.api.finish_game(self.storage, self.game_id, result.winner, result.reason,
                                 list(result.places) or None)
        self.last_events = list(events)
        return self.last_events

    def bot_move(self, should_stop: Callable[[], bool] | None = None) -> A | None:
        seat = self._mover()
        if seat is None or seat in self.people:
            return None
        from engine.bots import decide

        return decide(self.game, self.rules.observe(self.state, seat), self.levels[seat], self.seq, 300,
                      should_stop)

    def apply_bot(self, action: A) -> list[Event]:
        seat = self._mover()
        if seat is None or seat in self.people or action not in self.rules.legal_actions(self.state):
            return []  # the position changed meanwhile (the player resigned, an undo)
        return self.submit(action)

    def can_undo(self) -> bool:
        return self.powers.undo and self._mover() is not None and self.own_last is not None

    def undo(self) -> bool:
        """Take back the person's last move and the bots' replies (exact: bots decide from
        (observation, move number), so the rest of the record replays the same)."""
        if not self.can_undo():
            return False
        info = self.api.load_game(self.storage, self.game_id)
        start = self.rules.new_game(self.rules.parse_options(info.options), info.seed, info.players)
        keep = undo_point(self.rules, start, info.actions, self.people[0], len(self.levels))
        if keep is None:
            return False
        self.api.truncate_actions(self.storage, self.game_id, keep)
        state = start
        for raw in info.actions[:keep]:
            state, _ = self.rules.apply(state, self.rules.parse_action(raw, state))
        self.state, self.seq = state, keep
        self.own_last = undo_point(self.rules, start, info.actions[:keep], self.people[0], len(self.levels))
        self.last_events = []
        return True

    def resign(self) -> list[Event]:
        return self.submit(self.rules.parse_action({"resign": True, "player": self.viewer()}))

    def suggestion(self, level: str = "casual") -> A | None:
        if not self.legal():
            return None
        from engine.bots import hint

        return hint(self.game, self.observation(), self.seq, level)

    def caption(self, lang: str) -> str | None:
        return None


class LessonMode(NoBotNoUndo[A], Generic[S, A, O]):
    """A lesson on a turn-based table: the runner checks each move and answers for the others.
    ``rules`` are the lesson's game's (the runner holds the same object, found by name)."""

    powers = Powers(hint=True, resign=False, result=False)
    game_id: int | None = None

    def __init__(self, rules: Rules[S, A, O], lesson: Lesson, storage: Storage) -> None:
        self.rules = rules
        self.lesson = lesson
        self.lesson_coach = LessonCoach(lesson, storage)
        self.levels = [PERSON if i == lesson.learner else "beginner" for i in range(self._players())]

    @property
    def coach(self) -> LessonCoach | None:
        return self.lesson_coach

    @property
    def last_events(self) -> list[Event]:
        return self.lesson_coach.events

    def _players(self) -> int:
        return len(self.observation()["players"])

    @property
    def state(self) -> S:
        state: S = self.lesson_coach.run.state
        return state

    def status(self) -> Status:
        return game_status(self.rules, self.state)

    def viewer(self) -> int:
        return self.lesson.learner

    def observation(self) -> O:
        return self.rules.observe(self.state, self.lesson.learner)

    def legal(self) -> list[A]:
        if self.rules.to_move(self.state) != self.lesson.learner:
            return []
        return list(self.rules.legal_actions(self.state))

    def submit(self, action: A) -> list[Event]:
        return self.lesson_coach.attempt(self.rules.action_to_json(action))

    def resign(self) -> list[Event]:
        self.lesson_coach.restart()  # "giving up" a lesson starts it over
        return []

    def suggestion(self, level: str = "casual") -> A | None:
        self.lesson_coach.hint_shown = True
        move = self.lesson_coach.run.suggestion()
        return None if move is None else self.rules.parse_action(move, self.state)


class ReplayMode(NoBotNoUndo[A], Generic[S, A, O]):
    """A finished game, read-only, seen from ``seat`` as it was played; ``seek`` picks the step."""

    powers = Powers(resign=False, read_only=True, result=False)
    coach: LessonCoach | None = None

    def __init__(self, rules: Rules[S, A, O], timeline: Timeline, levels: list[str], seat: int,
                 game_id: int) -> None:
        self.rules, self.timeline, self.levels, self.seat, self.game_id = rules, timeline, levels, seat, game_id
        self.step = 0
        self.last_events: list[Event] = []

    @property
    def state(self) -> S:
        state: S = self.timeline.states[self.step]
        return state

    def seek(self, k: int) -> None:
        self.step = max(0, min(k, self.timeline.last))
        self.last_events = self.timeline.events[self.step]

    def status(self) -> Status:
        return game_status(self.rules, self.state)

    def viewer(self) -> int:
        return self.seat

    def observation(self) -> O:
        return self.rules.observe(self.state, self.seat)

    def legal(self) -> list[A]:
        return []

    def submit(self, action: A) -> list[Event]:
        raise Refused(Why("replay", "a replay cannot be changed"))

    def resign(self) -> list[Event]:
        return []

    def suggestion(self, level: str = "casual") -> A | None:
        return None

    def caption(self, lang: str) -> str | None:
        from views.ui.i18n import t

        return t(lang, "replay_step", k=self.step, n=self.timeline.last)
