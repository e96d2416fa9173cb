"""The lesson runner: a lesson is data (a file in ``assets/lessons/``), the runner checks the
learner's moves with the real engine.

A lesson: a starting position in the conformance format, the learner's seat, and steps. Each step
has text (en/ar/vi), the action(s) the learner must find (or ``"any"`` legal action), a hint, and
scripted opponent replies applied after the learner's move. A wrong move gets words: the engine's
own reason when it is illegal, the step's ``wrong`` text when it is legal but not the lesson's.
Pure: no I/O here (the app reads the files), so lessons are testable like any engine code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.core import EngineError, Event
from engine.games import rules_for

LANGS = ("en", "ar", "vi")


class LessonError(ValueError):
    """A lesson file that does not work (malformed, or a scripted move the engine refuses)."""


def _text(obj: Any, where: str) -> dict[str, str]:
    if not isinstance(obj, dict) or any(not isinstance(obj.get(lang), str) or not obj[lang] for lang in LANGS):
        raise LessonError(f"{where}: needs text in {', '.join(LANGS)}")
    return {lang: obj[lang] for lang in LANGS}


@dataclass(frozen=True)
class Step:
    text: dict[str, str]
    expect: tuple[Any, ...] | None  # None = any legal action
    hint: dict[str, str]
    wrong: dict[str, str] | None
    replies: tuple[Any, ...]


@dataclass(frozen=True)
class Lesson:
    id: str
    game: str
    options: Any
    title: dict[str, str]
    position: Any
    learner: int
    steps: tuple[Step, ...]
    done: dict[str, str]

    @staticmethod
    def from_json(obj: Any) -> Lesson:
        if not isinstance(obj, dict):
            raise LessonError("a lesson is a JSON object")
        for key in ("id", "game", "title", "position", "steps", "done"):
            if key not in obj:
                raise LessonError(f"the lesson has no {key!r}")
        steps = []
        for i, raw in enumerate(obj["steps"]):
            if not isinstance(raw, dict):
                raise LessonError(f"step {i + 1} is not an object")
            expect = raw.get("expect", "any")
            if expect != "any" and not (isinstance(expect, list) and expect):
                raise LessonError(f"step {i + 1}: expect is \"any\" or a non-empty list of actions")
            steps.append(Step(_text(raw.get("text"), f"step {i + 1} text"),
                              None if expect == "any" else tuple(expect),
                              _text(raw.get("hint"), f"step {i + 1} hint"),
                              _text(raw["wrong"], f"step {i + 1} wrong") if "wrong" in raw else None,
                              tuple(raw.get("replies", []))))
        lesson = Lesson(str(obj["id"]), str(obj["game"]), obj.get("options", {}), _text(obj["title"], "title"),
                        obj["position"], int(obj.get("learner", 0)), tuple(steps), _text(obj["done"], "done"))
        lesson.check()
        return lesson

    def check(self) -> None:
        """Play the lesson's own solution through the engine: every expected move and reply must be
        legal where the lesson puts it."""
        run = LessonRun(self)
        for i, step in enumerate(self.steps):
            if step.expect is None:
                legal = run.rules.legal_actions(run.state, self.learner)
                if not legal:
                    raise LessonError(f"step {i + 1}: the learner has no legal action")
                choice = run.rules.action_to_json(legal[0])
            else:
                choice = step.expect[0]
            feedback = run.attempt(choice)
            if not feedback.ok:
                raise LessonError(f"step {i + 1}: the lesson's own move fails: {feedback.message['en']}")


@dataclass
class Feedback:
    ok: bool
    message: dict[str, str]
    events: list[Event] = field(default_factory=list)


class LessonRun:
    """One learner going through one lesson."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.rules = rules_for(lesson.game)
        try:
            self.options = self.rules.parse_options(lesson.options)
            state = self.rules.position_from_json(self.options, lesson.position)
            if hasattr(self.rules, "normalise"):
                state, _ = self.rules.normalise(state)
        except EngineError as exc:
            raise LessonError(f"{lesson.id}: bad position: {exc.message}") from None
        self.state = state
        self.step = 0
        self.mistakes = 0

    @property
    def finished(self) -> bool:
        return self.step >= len(self.lesson.steps)

    def text(self, lang: str) -> str:
        if self.finished:
            return self.lesson.done[lang]
        return self.lesson.steps[self.step].text[lang]

    def hint(self, lang: str) -> str:
        return "" if self.finished else self.lesson.steps[self.step].hint[lang]

    def targets(self) -> list[Any]:
        """The actions this step wants (for highlighting); empty when any legal action will do."""
        if self.finished or self.lesson.steps[self.step].expect is None:
            return []
        return list(self.lesson.steps[self.step].expect or ())

    def _matches(self, action: Any, expected: Any) -> bool:
        a = self.rules.action_to_json(self.rules.parse_action(action, self.state))
        b = self.rules.action_to_json(self.rules.parse_action(expected, self.state))
        return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)

    def attempt(self, action: Any) -> Feedback:
        """Check the learner's move. Illegal: the engine's reason. Legal but not the lesson's: the
        step's words. Right: apply it and the scripted replies, and move on."""
        if self.finished:
            return Feedback(False, {lang: self.lesson.done[lang] for lang in LANGS})
        step = self.lesson.steps[self.step]
        try:
            parsed = self.rules.parse_action(action, self.state)
        except EngineError as exc:
            self.mistakes += 1
            return Feedback(False, {lang: exc.message for lang in LANGS})
        if step.expect is not None and not any(self._matches(action, e) for e in step.expect):
            legal = self.rules.legal_actions(self.state, self.lesson.learner)
            self.mistakes += 1
            if parsed in legal or self.rules.action_to_json(parsed) in [self.rules.action_to_json(x) for x in legal]:
                return Feedback(False, step.wrong or step.hint)
            try:
                self.rules.apply(self.state, parsed)
            except EngineError as exc:
                return Feedback(False, {lang: exc.message for lang in LANGS})
            return Feedback(False, step.wrong or step.hint)
        try:
            state, events = self.rules.apply(self.state, parsed)
        except EngineError as exc:
            self.mistakes += 1
            return Feedback(False, {lang: exc.message for lang in LANGS})
        if any(e.type == "rejected" for e in events):
            self.mistakes += 1
            return Feedback(False, step.wrong or step.hint, list(events))
        all_events = list(events)
        for reply in step.replies:
            try:
                state, evs = self.rules.apply(state, self.rules.parse_action(reply, state))
            except EngineError as exc:
                raise LessonError(f"{self.lesson.id}: scripted reply refused: {exc.message}") from None
            all_events += evs
        self.state = state
        self.step += 1
        return Feedback(True, {lang: "" for lang in LANGS}, all_events)
