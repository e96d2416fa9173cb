"""A lesson played on a Lopti session rather than a deal (the house-rule flow, P-8 … P-10): the
learner has just won a deal, writes a house rule in the builder, puts a change to the table's vote
and settles the tie by rock-paper-scissors.

The lesson is data (``"kind": "session"`` in ``assets/lessons/``): the table (seats, the deals
already played) and steps, each with the session fact that completes it. The engine's own
:class:`~engine.lopti.session.LoptiSession` is the checker — a step is done when the session the
learner reached says so (the learner wrote a rule; the deal's vote was held; it was tied
and settled by a series of throws). Pure: no I/O; the views run it on the real session screens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.lopti.session import LoptiSession
from engine.tutorial import LessonError, lesson_text

#: what completes a step, read from the session the learner reached
CHECKS = ("rule", "vote", "tie_settled")


@dataclass(frozen=True)
class SessionStep:
    text: dict[str, str]
    hint: dict[str, str]
    check: str
    #: said when the step can no longer be completed in this session (e.g. the vote was not tied)
    missed: dict[str, str] | None = None


@dataclass(frozen=True)
class SessionLesson:
    id: str
    game: str
    title: dict[str, str]
    #: every seat's kind after the learner's (seat 0): "person" (someone at this device) or a bot level
    levels: tuple[str, ...]
    seed: int
    #: the places of the deals already played (the learner won the last one)
    results: tuple[tuple[int, ...], ...]
    steps: tuple[SessionStep, ...]
    done: dict[str, str]
    learner: int = 0

    @staticmethod
    def from_json(obj: Any) -> SessionLesson:
        if not isinstance(obj, dict) or obj.get("kind") != "session":
            raise LessonError("a session lesson is an object with \"kind\": \"session\"")
        for key in ("id", "game", "title", "table", "steps", "done"):
            if key not in obj:
                raise LessonError(f"the lesson has no {key!r}")
        if obj["game"] != "lopti":
            raise LessonError("session lessons are Lopti lessons")
        levels, seed, results = _table(obj["table"])
        steps = tuple(_step(i, raw) for i, raw in enumerate(obj["steps"]))
        if not steps:
            raise LessonError("a lesson needs at least one step")
        return SessionLesson(str(obj["id"]), "lopti", lesson_text(obj["title"], "title"), levels, seed, results,
                             steps, lesson_text(obj["done"], "done"))

    def start(self) -> LoptiSession:
        """The session the lesson begins with: its deals played, no rule yet, the vote open."""
        return LoptiSession(players=len(self.levels) + 1, seed=self.seed, results=self.results)

    def done_steps(self, session: LoptiSession) -> int:
        """How many steps, in order, the session the learner reached completes."""
        n = 0
        for step in self.steps:
            if not self._holds(step.check, session):
                break
            n += 1
        return n

    def missed(self, session: LoptiSession) -> bool:
        """The current step can no longer be completed here (start the lesson again)."""
        n = self.done_steps(session)
        return n < len(self.steps) and self.steps[n].check == "tie_settled" and session.vote_used()

    def _holds(self, check: str, session: LoptiSession) -> bool:
        if check == "rule":
            return any(r.author == self.learner for r in session.rules)  # written (a vote may remove it later)
        votes = [v for v in session.votes if v.deal == session.deal_number]
        if check == "vote":
            return bool(votes)
        return any(v.tally == "tie" and v.rps is not None and "score" in v.rps for v in votes)  # thrown out


def _table(table: Any) -> tuple[tuple[str, ...], int, tuple[tuple[int, ...], ...]]:
    """The lesson's table: the other seats, the seed, the deals played (the learner won the last)."""
    if not isinstance(table, dict):
        raise LessonError("table: an object with levels, seed and results")
    levels = table.get("levels")
    if not isinstance(levels, list) or not 1 <= len(levels) <= 4 or not all(isinstance(x, str) for x in levels):
        raise LessonError("table.levels: the other seats, 1 to 4")
    seed = table.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise LessonError("table.seed must be a non-negative integer")
    players = len(levels) + 1
    results = table.get("results")
    if (not isinstance(results, list) or not results
            or any(not isinstance(r, list) or sorted(r) != list(range(players)) for r in results)):
        raise LessonError(f"table.results: the places of each deal played, each a list of the {players} seats")
    if results[-1][0] != 0:
        raise LessonError("table.results: the learner (seat 0) won the last deal")
    return tuple(levels), seed, tuple(tuple(r) for r in results)


def _step(i: int, raw: Any) -> SessionStep:
    if not isinstance(raw, dict) or raw.get("check") not in CHECKS:
        raise LessonError(f"step {i + 1}: check is one of {', '.join(CHECKS)}")
    return SessionStep(lesson_text(raw.get("text"), f"step {i + 1} text"),
                       lesson_text(raw.get("hint"), f"step {i + 1} hint"), raw["check"],
                       lesson_text(raw["missed"], f"step {i + 1} missed") if "missed" in raw else None)
