"""Lessons inside the real tables (no Flet here, so plain pytest covers it): the catalogue, and
the coach every lesson mode shares (views/table/modes.py, views/spit/modes.py).

A lesson is played on exactly the table a real game uses: the game's controller gets a lesson
mode, whose moves go to the pure lesson runner (``engine.tutorial.LessonRun.attempt``) instead of
straight to the engine and storage; the runner answers for the opponent (scripted replies or the
Beginner bot), and the coach panel reads ``Coach`` for its words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core import Event, Why
from engine.games import GAMES
from engine.lopti.session_lesson import SessionLesson
from engine.tutorial import Feedback, Lesson, LessonError, LessonRun
from views.table.contract import Refused

if TYPE_CHECKING:
    from storage.db import Storage

LESSON_DIR = Path(__file__).resolve().parents[2] / "assets" / "lessons"
#: a lesson on a table (a position and moves) or on a Lopti session (the house-rule flow)
AnyLesson = Lesson | SessionLesson


def _file_order(path: Path) -> tuple[str, int, str]:
    """``lanes-10-…`` after ``lanes-9-…``: the game, then the lesson's number, then the name."""
    game, _, rest = path.stem.partition("-")
    number, _, name = rest.partition("-")
    return (game, int(number) if number.isdigit() else 0, name)


@cache
def lessons() -> dict[str, list[AnyLesson]]:
    """Every lesson file, per game in the order of the number in its file name. A broken file is
    left out (and the lesson tests fail on it), so one bad file never takes the Learn screen down."""
    out: dict[str, list[AnyLesson]] = {g: [] for g in GAMES}
    for path in sorted(LESSON_DIR.glob("*.json"), key=_file_order):
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            lesson: AnyLesson = (SessionLesson.from_json(raw) if isinstance(raw, dict) and raw.get("kind") == "session"
                                 else Lesson.from_json(raw))
        except (OSError, ValueError, LessonError):
            continue
        out.setdefault(lesson.game, []).append(lesson)
    return out


def find(lesson_id: str) -> AnyLesson | None:
    return next((x for group in lessons().values() for x in group if x.id == lesson_id), None)


def next_lesson(lesson: AnyLesson) -> AnyLesson | None:
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


@dataclass
class LessonCoach:
    """The lesson half every lesson mode shares: the runner, the last answer, the hint asked for,
    progress saved as the learner goes."""

    lesson: Lesson
    storage: Storage
    run: LessonRun = field(init=False)
    feedback: Feedback | None = None
    hint_shown: bool = False
    #: what the last move (or the opening, or a continue) caused: the table's last events
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.run = LessonRun(self.lesson)
        self.events = list(self.run.opening_events)

    def panel(self, lang: str, why_text: Callable[[str, Why], str]) -> Coach:
        run, fb = self.run, self.feedback
        words = ""
        if fb is not None and not fb.ok:
            words = why_text(lang, fb.why) if fb.why is not None else fb.message[lang]
        step = run.current
        return Coach(run.step + 1, len(self.lesson.steps), run.text(lang), words,
                     run.hint(lang) if self.hint_shown else "", bool(step and step.info), run.finished)

    def attempt(self, action_json: object) -> list[Event]:
        """The learner's move; raises :class:`Refused` with the engine's reason or the step's words."""
        fb = self.run.attempt(action_json)
        self.feedback = fb
        if not fb.ok:
            raise Refused(fb.why, fb.message)
        self.hint_shown = False
        self._save()
        self.events = list(fb.events)
        return self.events

    def advance(self) -> list[Event]:
        """Continue past a text-only step."""
        self.feedback = self.run.advance()
        self.hint_shown = False
        self._save()
        self.events = list(self.feedback.events)
        return self.events

    def show_hint(self) -> None:
        self.hint_shown = True

    def restart(self) -> None:
        self.run = LessonRun(self.lesson)
        self.feedback = None
        self.hint_shown = False
        self.events = list(self.run.opening_events)

    def _save(self) -> None:
        if self.storage is not None:
            from storage import api

            api.set_lesson(self.storage, self.lesson.id, self.run.step, self.run.finished)

    def cards(self) -> set[str]:
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


