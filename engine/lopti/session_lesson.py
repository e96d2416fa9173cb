"""A lesson played on a Lopti session rather than a deal (the house-rule flow, P-8 … P-10): the
learner writes a house rule, puts a change to the table's vote and settles a tie by
rock-paper-scissors; or, at a table of several deals, sees who deals and leads, defends a rule
whose author cannot (the supporters' knockout), lets a player leave and carries a rule into the
next session (P-2.3, P-10.2, P-10.4, P-11).

The lesson is data (``"kind": "session"`` in ``assets/lessons/``): the table (seats, the deals
already played and the rule each winner wrote) and steps, each with the session fact that
completes it. The engine's own :class:`~engine.lopti.session.LoptiSession` is the checker — a
step is done when a session the learner reached says so (the learner wrote a rule; the deal's
vote was held; it was tied and settled by a series of throws; its defender came out of a
knockout; a player left; a new session began with a rule carried into it). Pure: no I/O; the
views run it on the real session screens.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.lopti.session import LoptiSession
from engine.lopti.templates import TEMPLATES
from engine.lopti.votes import VoteError
from engine.tutorial import LessonError, lesson_text

#: what completes a step, read from the sessions the learner reached
CHECKS = ("rule", "vote", "tie_settled", "knockout", "left", "carried")
#: the steps that need this deal's one vote: missed once the vote went another way (P-9.5)
VOTE_CHECKS = ("tie_settled", "knockout")


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
    #: the places of the deals already played
    results: tuple[tuple[int, ...], ...]
    steps: tuple[SessionStep, ...]
    done: dict[str, str]
    learner: int = 0
    #: the rule each deal's winner wrote after it (a ready-made rule's id), or None
    rules: tuple[str | None, ...] = ()

    @staticmethod
    def from_json(obj: Any) -> SessionLesson:
        if not isinstance(obj, dict) or obj.get("kind") != "session":
            raise LessonError("a session lesson is an object with \"kind\": \"session\"")
        for key in ("id", "game", "title", "table", "steps", "done"):
            if key not in obj:
                raise LessonError(f"the lesson has no {key!r}")
        if obj["game"] != "lopti":
            raise LessonError("session lessons are Lopti lessons")
        levels, seed, results, rules = _table(obj["table"])
        steps = tuple(_step(i, raw) for i, raw in enumerate(obj["steps"]))
        if not steps:
            raise LessonError("a lesson needs at least one step")
        lesson = SessionLesson(str(obj["id"]), "lopti", lesson_text(obj["title"], "title"), levels, seed, results,
                               steps, lesson_text(obj["done"], "done"), rules=rules)
        lesson.start()  # the table's rules are checked as the engine adds them
        return lesson

    def start(self) -> LoptiSession:
        """The session the lesson begins with: its deals played, each winner's rule added, the vote open."""
        session = LoptiSession(players=len(self.levels) + 1, seed=self.seed)
        for places, rule_id in zip(self.results, self.rules or (None,) * len(self.results), strict=True):
            session = replace(session, results=(*session.results, places))
            if rule_id is not None:
                try:
                    rule = next(t for t in TEMPLATES if t["id"] == rule_id)
                    session = session.add_winner_rule({**rule, "id": f"{rule_id}-{places[0]}"}, places[0])
                except (StopIteration, VoteError) as exc:
                    raise LessonError(f"table.rules: {rule_id!r} is not a ready-made rule the winner can add "
                                      f"({exc})") from None
        return session

    def done_steps(self, *sessions: LoptiSession) -> int:
        """How many steps, in order, the sessions the learner reached complete (a step is done when
        one of them says so: a new session at the table keeps what the last one taught)."""
        n = 0
        for step in self.steps:
            if not any(self._holds(step.check, s) for s in sessions):
                break
            n += 1
        return n

    def missed(self, *sessions: LoptiSession) -> bool:
        """The current step can no longer be completed here (start the lesson again): it needs the
        deal's one vote, and the vote went another way (P-9.5); or it carries a rule into a new
        session, and the new session began without one (P-11.2)."""
        n = self.done_steps(*sessions)
        if n == len(self.steps):
            return False
        last = sessions[-1]
        if self.steps[n].check in VOTE_CHECKS:
            return last.vote_used()
        return self.steps[n].check == "carried" and len(sessions) > 1 and not last.results

    def _holds(self, check: str, session: LoptiSession) -> bool:
        if check == "rule":
            return any(r.author == self.learner for r in session.rules)  # written (a vote may remove it later)
        if check == "left":
            return bool(session.absent)
        if check == "carried":  # rules before a session's first deal came from an earlier session (P-11.2)
            return not session.results and bool(session.rules)
        votes = [v for v in session.votes if v.deal == session.deal_number]
        if check == "vote":
            return bool(votes)
        if check == "knockout":  # the defender came out of a knockout between the supporters (P-10.4)
            return any(v.rps is not None and "knockout" in v.rps and "score" in v.rps for v in votes)
        return any(v.tally == "tie" and v.rps is not None and "score" in v.rps for v in votes)  # thrown out


def _table(table: Any) -> tuple[tuple[str, ...], int, tuple[tuple[int, ...], ...], tuple[str | None, ...]]:
    """The lesson's table: the other seats, the seed, the deals played, each winner's rule."""
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
    rules = table.get("rules", [None] * len(results))
    if (not isinstance(rules, list) or len(rules) != len(results)
            or not all(r is None or isinstance(r, str) for r in rules)):
        raise LessonError("table.rules: for each deal played, the id of the rule its winner wrote, or null")
    last = results[-1][0]
    if last != 0 and rules[-1] is None:
        raise LessonError("table.results: the last deal was won by the learner (seat 0), who writes a rule, "
                          "or by a seat whose rule is in table.rules")
    return tuple(levels), seed, tuple(tuple(r) for r in results), tuple(rules)


def _step(i: int, raw: Any) -> SessionStep:
    if not isinstance(raw, dict) or raw.get("check") not in CHECKS:
        raise LessonError(f"step {i + 1}: check is one of {', '.join(CHECKS)}")
    return SessionStep(lesson_text(raw.get("text"), f"step {i + 1} text"),
                       lesson_text(raw.get("hint"), f"step {i + 1} hint"), raw["check"],
                       lesson_text(raw["missed"], f"step {i + 1} missed") if "missed" in raw else None)
