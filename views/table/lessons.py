"""Lessons inside the real tables (no Flet here, so plain pytest covers it).

Each game's table talks to a controller (``LanesMatch``, ``LoptiMatch``, ``SpitGame``). A lesson
controller is the same controller with one difference: a move goes to the pure lesson runner
(``engine.tutorial.LessonRun.attempt``) instead of straight to the engine and storage, and the
runner answers for the opponent (scripted replies or the Beginner bot). So a lesson is played on
exactly the table a real game uses, and the coach panel reads ``Coach`` for its words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.cards import Card
from engine.core import Event
from engine.lanes import RULES as LANES
from engine.lanes.actions import Discard, LanesAction, Play
from engine.lopti import RULES as LOPTI
from engine.lopti.actions import LoptiAction
from engine.spit import RULES as SPIT
from engine.tutorial import Feedback, Lesson, LessonError, LessonRun
from views.lanes.controller import LanesMatch
from views.lopti.controller import LoptiMatch
from views.spit.controller import SpitGame
from views.ui.i18n import why_text

LESSON_DIR = Path(__file__).resolve().parents[2] / "assets" / "lessons"
GAMES = ("lanes", "lopti", "spit")


@cache
def lessons() -> dict[str, list[Lesson]]:
    """Every lesson file, per game in file-name order. A broken file is left out (and the lesson
    tests fail on it), so one bad file never takes the Learn screen down."""
    out: dict[str, list[Lesson]] = {g: [] for g in GAMES}
    for path in sorted(LESSON_DIR.glob("*.json")):
        try:
            lesson = Lesson.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, LessonError):
            continue
        out.setdefault(lesson.game, []).append(lesson)
    return out


def find(lesson_id: str) -> Lesson | None:
    return next((x for group in lessons().values() for x in group if x.id == lesson_id), None)


def next_lesson(lesson: Lesson) -> Lesson | None:
    group = lessons().get(lesson.game, [])
    i = next((k for k, x in enumerate(group) if x.id == lesson.id), len(group))
    return group[i + 1] if i + 1 < len(group) else None


@dataclass
class Coach:
    """What the coach panel shows."""

    step: int  # 1-based; len(steps) + 1 when done
    steps: int
    text: str
    feedback: str  # the last wrong move in words ("" when none)
    hint: str  # shown after the learner asks
    info: bool  # a text-only step: show Continue
    done: bool


class LessonMixin:
    """The lesson half shared by the three controllers."""

    run: LessonRun
    storage: Any
    feedback: Feedback | None
    hint_shown: bool
    refusal: Any
    selected: Any

    def _start_lesson(self, lesson: Lesson, storage: Any) -> None:
        self.lesson = lesson
        self.storage = storage
        self.run = LessonRun(lesson)
        self.feedback = None
        self.hint_shown = False
        # what the game controllers keep for a stored game (a lesson is not one)
        self.api = None
        self.game_id = None
        self.seq = 0
        self.refusal = None
        self.options = self.run.options
        self.last_events: list[Event] = list(self.run.opening_events)

    @property
    def state(self) -> Any:
        """The position is the runner's: the tables read it through the controller as usual."""
        return self.run.state

    def bot_choice(self) -> Any:
        return None  # the lesson runner plays the other seats

    def _clear_selection(self) -> None:
        self.selected = None

    def coach(self, lang: str) -> Coach:
        run = self.run
        fb = ""
        if self.feedback is not None and not self.feedback.ok:
            fb = why_text(lang, self.feedback.why) if self.feedback.why is not None else self.feedback.message[lang]
        step = run.current
        return Coach(run.step + 1, len(self.lesson.steps), run.text(lang), fb,
                     run.hint(lang) if self.hint_shown else "", bool(step and step.info), run.finished)

    def _attempt(self, action_json: Any) -> Feedback:
        self.refusal = None
        fb = self.run.attempt(action_json)
        self.feedback = fb
        if fb.ok:
            self.hint_shown = False
            self._save_progress()
        return fb

    def advance(self) -> None:
        """Continue past a text-only step."""
        self.feedback = self.run.advance()
        self.hint_shown = False
        self._save_progress()

    def show_hint(self) -> None:
        self.hint_shown = True

    def restart(self) -> None:
        self.run = LessonRun(self.lesson)
        self.refusal = None
        self._clear_selection()
        self.feedback = None
        self.hint_shown = False
        self.last_events = list(self.run.opening_events)

    def _save_progress(self) -> None:
        if self.storage is None:
            return
        from storage import api

        api.set_lesson(self.storage, self.lesson.id, self.run.step, self.run.finished)

    def coach_cards(self) -> set[str]:
        """Cards the current step is about (the coach highlights them on the table)."""
        out: set[str] = set()
        for action in self.run.targets():
            for key in ("play", "discard", "swap"):  # a card, or a list of cards (Spit's play is a place)
                value = action.get(key) if isinstance(action, dict) else None
                if isinstance(value, str):
                    out.add(value)
                elif isinstance(value, list):
                    out.update(str(c) for c in value)
        return out


class LanesLesson(LessonMixin, LanesMatch):
    """A Lanes lesson on the Lanes table."""

    def __init__(self, storage: Any, lesson: Lesson) -> None:  # no game row: lessons are not games
        self._start_lesson(lesson, storage)
        self.level = "beginner"
        self.seat = lesson.learner
        self.pass_and_play = False
        self.selected: Card | None = None

    def _apply(self, action: LanesAction) -> list[Event]:
        fb = self._attempt(LANES.action_to_json(action))
        if fb.ok:
            self.selected = None
            self.last_events = fb.events
            self.seq += 1
            return fb.events
        return []

    def resign(self) -> list[Event]:
        self.restart()  # "giving up" a lesson starts it over
        return []

    def hint(self) -> LanesAction | None:
        self.show_hint()
        move = self.run.suggestion()
        if move is None:
            return None
        action = LANES.parse_action(move, self.state)
        if isinstance(action, (Play, Discard)):
            self.selected = action.card
        return action


class LoptiLesson(LessonMixin, LoptiMatch):
    """A Lopti lesson on the Lopti table."""

    def __init__(self, storage: Any, lesson: Lesson) -> None:
        self._start_lesson(lesson, storage)
        self.players = len(self.run.state.seats)
        self.levels = ["person" if i == lesson.learner else "beginner" for i in range(self.players)]
        self.people = [lesson.learner]
        self.pass_and_play = False
        self.viewer = lesson.learner
        self.handover_pending = False
        self.selected: list[Card] = []
        self.selected_up: Card | None = None

    def _clear_selection(self) -> None:
        self.selected, self.selected_up = [], None

    def _apply(self, action: LoptiAction) -> list[Event]:
        fb = self._attempt(LOPTI.action_to_json(action))
        self._clear_selection()
        if fb.ok:
            self.last_events = fb.events
            return fb.events
        return []


class SpitLesson(LessonMixin, SpitGame):
    """A Spit lesson on the Spit table: no clock and no bot, the runner answers for the opponent."""

    def __init__(self, storage: Any, lesson: Lesson) -> None:
        self._start_lesson(lesson, storage)
        self.level = "beginner"
        self.split = False
        self.picked: dict[int, int | None] = {0: None, 1: None}
        self._picked_order: list[int] = []

    def _clear_selection(self) -> None:
        self.picked = {0: None, 1: None}

    def countdown_ends(self) -> float | None:
        return None

    def tick(self, now: float) -> list[Event]:
        return []

    def _submit(self, action: Any, now: float) -> list[Event]:
        fb = self._attempt(SPIT.action_to_json(action))
        self._clear_selection()
        return fb.events if fb.ok else []
