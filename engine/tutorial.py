"""The lesson runner: a lesson is data (a file in ``assets/lessons/``), the runner checks the
learner's moves with the real engine.

A lesson: a starting position in the conformance format, the learner's seat, and steps. Each step
has text (en/ar/vi), the action(s) the learner must find (``"any"`` legal action, or ``"none"`` for
a step that only explains and waits for "continue"), a hint, and scripted opponent replies applied
after the learner's move. A step may instead let a bot answer (``"bot": "beginner"``: every other
seat to move plays that level's choice, seeded by the move number, so a lesson replays identically)
and may last ``"until": "over"`` — that is how the guided match against the Beginner bot is a
lesson too. A wrong move gets words: the engine's own reason when it is illegal (``Feedback.why``,
which the views translate), the step's ``wrong`` text when it is legal but not the lesson's.
Pure: no I/O here (the app reads the files), so lessons are testable like any engine code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.core import EngineError, Event, Why
from engine.games import rules_for

LANGS = ("en", "ar", "vi")


class LessonError(ValueError):
    """A lesson file that does not work (malformed, or a scripted move the engine refuses)."""


def lesson_text(obj: Any, where: str) -> dict[str, str]:
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
    info: bool = False  # text only: the learner reads and continues
    bot: str | None = None  # a bot level answers for the other seats
    until_over: bool = False  # the step lasts until the game ends


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
    seed: int | None = None  # a fresh deal instead of a hand-built position

    @staticmethod
    def from_json(obj: Any) -> Lesson:
        if not isinstance(obj, dict):
            raise LessonError("a lesson is a JSON object")
        for key in ("id", "game", "title", "steps", "done"):
            if key not in obj:
                raise LessonError(f"the lesson has no {key!r}")
        if ("position" in obj) == ("seed" in obj):
            raise LessonError("a lesson starts from a 'position' or from a fresh deal's 'seed' (one of them)")
        if "seed" in obj and (not isinstance(obj["seed"], int) or isinstance(obj["seed"], bool) or obj["seed"] < 0):
            raise LessonError("seed must be a non-negative integer")
        steps = []
        for i, raw in enumerate(obj["steps"]):
            if not isinstance(raw, dict):
                raise LessonError(f"step {i + 1} is not an object")
            expect = raw.get("expect", "any")
            if expect not in ("any", "none") and not (isinstance(expect, list) and expect):
                raise LessonError(f"step {i + 1}: expect is \"any\", \"none\" or a non-empty list of actions")
            bot = raw.get("bot")
            if bot is not None and bot not in BOT_LEVELS:
                raise LessonError(f"step {i + 1}: bot must be one of {', '.join(BOT_LEVELS)}")
            if raw.get("until", "step") not in ("step", "over"):
                raise LessonError(f"step {i + 1}: until is \"step\" or \"over\"")
            steps.append(Step(lesson_text(raw.get("text"), f"step {i + 1} text"),
                              tuple(expect) if isinstance(expect, list) else None,
                              lesson_text(raw.get("hint"), f"step {i + 1} hint"),
                              lesson_text(raw["wrong"], f"step {i + 1} wrong") if "wrong" in raw else None,
                              tuple(raw.get("replies", [])), expect == "none", bot, raw.get("until") == "over"))
        if not steps:
            raise LessonError("a lesson needs at least one step")
        lesson = Lesson(str(obj["id"]), str(obj["game"]), obj.get("options", {}), lesson_text(obj["title"], "title"),
                        obj.get("position"), int(obj.get("learner", 0)), tuple(steps), lesson_text(obj["done"], "done"),
                        obj.get("seed"))
        lesson.check()
        return lesson

    def check(self) -> None:
        """Play the lesson's own solution through the engine: every expected move and reply must be
        legal where the lesson puts it."""
        run = LessonRun(self)
        moves = 0
        while not run.finished:
            i = run.step
            step = self.steps[i]
            if step.info:
                run.advance()
                continue
            choice = run.suggestion()
            if choice is None:
                raise LessonError(f"step {i + 1}: the learner has no legal action")
            feedback = run.attempt(choice)
            if not feedback.ok:
                raise LessonError(f"step {i + 1}: the lesson's own move fails: {feedback.message['en']}")
            moves += 1
            if moves > 2000:
                raise LessonError(f"step {i + 1}: the lesson does not end")


BOT_LEVELS = ("random", "beginner", "casual", "skilled", "expert")


@dataclass
class Feedback:
    """``message``: the lesson's own words (or the engine reason in English in every language);
    ``why``: the engine's reason when the move was illegal, for the views to say it translated."""

    ok: bool
    message: dict[str, str]
    events: list[Event] = field(default_factory=list)
    why: Why | None = None


def _refused(exc: EngineError) -> Feedback:
    return Feedback(False, {lang: exc.message for lang in LANGS}, why=exc.why)


def _rejected(events: list[Event]) -> Feedback | None:
    """Real-time Spit refuses by a ``rejected`` event instead of an exception: same feedback."""
    for e in events:
        if e.type == "rejected":
            reason = e.get("reason")
            why = reason if isinstance(reason, Why) else Why("rejected", str(reason))
            return Feedback(False, {lang: str(why) for lang in LANGS}, why=why)
    return None


class LessonRun:
    """One learner going through one lesson."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.rules = rules_for(lesson.game)
        try:
            self.options = self.rules.parse_options(lesson.options)
            if lesson.seed is not None:
                state = self.rules.new_game(self.options, lesson.seed)
            else:
                state = self.rules.position_from_json(self.options, lesson.position)
                if hasattr(self.rules, "normalise"):
                    state, _ = self.rules.normalise(state)
        except EngineError as exc:
            raise LessonError(f"{lesson.id}: bad position: {exc.message}") from None
        self.state = state
        self.step = 0
        self.mistakes = 0
        #: what the bots did before the learner's first move (a fresh deal may start with the bot)
        self.opening_events: list[Event] = self._enter_step()

    def _enter_step(self) -> list[Event]:
        """A step played against a bot starts with the bot's moves when the learner is not to move."""
        step = self.current
        if step is None or step.bot is None:
            return []
        self.state, events = self._bot_replies(self.state, step.bot)
        return events

    @property
    def finished(self) -> bool:
        return self.step >= len(self.lesson.steps)

    def text(self, lang: str) -> str:
        if self.finished:
            return self.lesson.done[lang]
        return self.lesson.steps[self.step].text[lang]

    def hint(self, lang: str) -> str:
        return "" if self.finished else self.lesson.steps[self.step].hint[lang]

    @property
    def current(self) -> Step | None:
        return None if self.finished else self.lesson.steps[self.step]

    @property
    def over(self) -> bool:
        return bool(getattr(self.state, "over", False))

    def advance(self) -> Feedback:
        """Continue past a text-only step (and only such a step)."""
        step = self.current
        if step is None or not step.info:
            return Feedback(False, step.hint if step else dict(self.lesson.done))
        self.step += 1
        return Feedback(True, {lang: "" for lang in LANGS}, self._enter_step())

    def suggestion(self) -> Any | None:
        """A move for this step in the action format: the lesson's own, else what the Casual bot
        would play (the tables' hint, and the lesson's self-check for "any" steps)."""
        step = self.current
        if step is None or step.info:
            return None
        if step.expect is not None:
            works = self.targets()
            return works[0] if works else step.expect[0]
        legal = self.rules.legal_actions(self.state, self.lesson.learner)
        if not legal:
            return None
        if self.lesson.game == "spit":
            return self.rules.action_to_json(legal[0])
        from engine.bots import decide

        seq = int(getattr(self.state, "ply", 0))
        action = decide(self.lesson.game, self.rules.observe(self.state, self.lesson.learner), "casual", seq, 100)
        return self.rules.action_to_json(action if action is not None else legal[0])

    def _bot_replies(self, state: Any, level: str) -> tuple[Any, list[Event]]:
        """Let ``level`` play every other seat until the learner is to move again or the game ends."""
        from engine.bots import decide

        events: list[Event] = []
        for _guard in range(500):
            if getattr(state, "over", False) or getattr(state, "to_move", self.lesson.learner) == self.lesson.learner:
                break
            seat = state.to_move
            seq = int(getattr(state, "ply", 0))
            action = decide(self.lesson.game, self.rules.observe(state, seat), level, seq, 100)
            state, evs = self.rules.apply(state, action)
            events += evs
        return state, events

    def targets(self) -> list[Any]:
        """The actions this step wants (for highlighting); empty when any legal action will do."""
        if self.finished or self.lesson.steps[self.step].expect is None:
            return []
        return [e for e in self.lesson.steps[self.step].expect or () if self._works(e)]

    def _works(self, action: Any) -> bool:
        """Whether the engine takes ``action`` here (one of a step's alternatives may be used up)."""
        try:
            _state, events = self.rules.apply(self.state, self.rules.parse_action(action, self.state))
        except EngineError:
            return False
        return not any(e.type == "rejected" for e in events)

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
        if step.info:
            return Feedback(False, step.hint)
        try:
            parsed = self.rules.parse_action(action, self.state)
        except EngineError as exc:
            self.mistakes += 1
            return _refused(exc)
        if step.expect is not None and not any(self._matches(action, e) for e in step.expect):
            self.mistakes += 1
            try:  # illegal: the engine's reason; legal but not the lesson's move: the step's words
                _state, events = self.rules.apply(self.state, parsed)
            except EngineError as exc:
                return _refused(exc)
            return _rejected(events) or Feedback(False, step.wrong or step.hint)
        try:
            state, events = self.rules.apply(self.state, parsed)
        except EngineError as exc:
            self.mistakes += 1
            return _refused(exc)
        refused = _rejected(events)
        if refused is not None:
            self.mistakes += 1
            return refused
        all_events = list(events)
        for reply in step.replies:
            try:
                state, evs = self.rules.apply(state, self.rules.parse_action(reply, state))
            except EngineError as exc:
                raise LessonError(f"{self.lesson.id}: scripted reply refused: {exc.message}") from None
            all_events += evs
        if step.bot is not None:
            state, evs = self._bot_replies(state, step.bot)
            all_events += evs
        self.state = state
        if not step.until_over or getattr(state, "over", False):
            self.step += 1
            all_events += self._enter_step()
        return Feedback(True, {lang: "" for lang in LANGS}, all_events)
