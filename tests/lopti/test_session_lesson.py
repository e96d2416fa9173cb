"""The house-rule lesson (P-8 … P-10) on a practice session: each step is checked by the engine's
session — a rule by the learner, then a tied vote settled by rock-paper-scissors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import cycle

import pytest

from engine.lopti.rps import seeded_thrower
from engine.lopti.session_lesson import SessionLesson
from engine.lopti.templates import TEMPLATES
from engine.lopti.votes import Proposal
from engine.tutorial import LANGS, LessonError
from tests.conftest import ROOT

PATH = ROOT / "assets" / "lessons" / "lopti-14-house-rules.json"


def lesson() -> SessionLesson:
    return SessionLesson.from_json(json.loads(PATH.read_text(encoding="utf-8")))


def thrower(seat: int) -> Iterator[str]:
    return cycle(["rock", "paper", "scissors"] if seat == 0 else ["scissors", "rock", "paper"])


def test_the_steps_follow_the_session_the_learner_reaches() -> None:
    les = lesson()
    assert all(s.text[lang] and s.hint[lang] for s in les.steps for lang in LANGS)
    s = les.start()
    assert s.results == ((0, 1),) and s.players == 2 and les.done_steps(s) == 0 and not s.vote_used()
    s = s.add_winner_rule({**TEMPLATES[0], "id": "mine"}, 0)  # P-8.1: the winner's rule
    assert les.done_steps(s) == 1
    tied = s.hold_vote(Proposal("param", 0, param="draw_threshold", value=4), {0: True, 1: False},
                       throwers=thrower)  # P-10.1: one against one is a tie, thrown out
    assert les.done_steps(tied) == 2 and tied.votes[-1].tally == "tie" and tied.votes[-1].rps is not None
    passed = s.hold_vote(Proposal("param", 0, param="draw_threshold", value=4), {0: True, 1: True})
    assert les.done_steps(passed) == 1 and les.missed(passed)  # P-9.5: the deal's one vote is gone


def test_the_rule_step_stays_done_when_a_vote_removes_the_rule() -> None:
    les = lesson()
    s = les.start().add_winner_rule({**TEMPLATES[0], "id": "mine"}, 0)
    removed = s.hold_vote(Proposal("remove", 0, rule_id="mine"), {0: True, 1: False}, throwers=thrower)
    assert removed.votes[-1].tally == "tie" and les.done_steps(removed) == 2  # whoever won the throws
    assert les.done_steps(les.start()) == 0


@pytest.mark.parametrize("change", [{"kind": "deal"}, {"table": {"levels": ["person"], "results": [[1, 0]]}},
                                    {"steps": [{"check": "nap"}]}])
def test_a_broken_session_lesson_is_refused(change: dict[str, object]) -> None:
    obj = {**json.loads(PATH.read_text(encoding="utf-8")), **change}
    with pytest.raises(LessonError):
        SessionLesson.from_json(obj)


def seeded(seat: int) -> Iterator[str]:
    """Each seat's own seeded throws: any two seats reach a decision (a fixed cycle may tie forever)."""
    return seeded_thrower(1000 + seat)


SESSIONS = ROOT / "assets" / "lessons" / "lopti-15-sessions.json"


def sessions_lesson() -> SessionLesson:
    return SessionLesson.from_json(json.loads(SESSIONS.read_text(encoding="utf-8")))


def test_the_sessions_lesson_starts_at_a_table_of_two_deals_with_each_winner_s_rule() -> None:
    """P-2.3: deal 3 is dealt by the seat after deal 2's dealer and led by deal 2's winner; P-8.1:
    each winner's rule is in force (the lesson's table is built by the engine's own session)."""
    les = sessions_lesson()
    assert all(s.text[lang] and s.hint[lang] for s in les.steps for lang in LANGS)
    s = les.start()
    assert s.players == 4 and s.deal_number == 2 and (s.dealer, s.leader) == (2, 1)
    assert [(r.id, r.author) for r in s.rules] == [("three-eights-clear-2", 2), ("queens-reverse-1", 1)]
    assert les.done_steps(s) == 0 and not les.missed(s)


def test_the_sessions_lesson_follows_the_knockout_the_leaving_and_the_carried_rule() -> None:
    """P-10.2: the author proposes, so the supporters step forward; two do, so a knockout picks the
    defender (P-10.4); P-10.2 again: a player leaves and their rule stays; P-11.2: a majority
    brings a rule into the next session."""
    les = sessions_lesson()
    s = les.start().hold_vote(Proposal("remove", 1, rule_id="queens-reverse-1"),
                              {0: False, 1: True, 2: True, 3: False}, throwers=seeded)
    rps = s.votes[-1].rps
    assert rps is not None and rps["knockout"] == [0, 3] and rps["defender"] in (0, 3) and rps["proposer"] == 1
    assert les.done_steps(s) == 1 and not les.missed(s)
    s = s.leave(2)
    assert les.done_steps(s) == 2 and s.rules[0].in_force  # the rule of the player who left stays
    carried = s.new_session(99, {"three-eights-clear-2": {0: True, 1: True, 2: True, 3: False}})
    assert les.done_steps(s, carried) == 3 and not les.missed(s, carried)
    assert les.done_steps(carried) == 0  # the new session alone taught none of it: the coach keeps both
    empty = s.new_session(99, {"three-eights-clear-2": {0: True, 1: True, 2: False, 3: False}})  # two of four
    assert les.done_steps(s, empty) == 2 and les.missed(s, empty)


@pytest.mark.parametrize("votes, defenders", [
    ({0: True, 1: True, 2: False, 3: False}, None),  # Player 2 asks to drop Player 3's rule: its author defends it
    ({0: False, 1: True, 2: True, 3: False}, [3]),  # one supporter steps forward: no knockout
])
def test_a_vote_that_ends_without_a_knockout_misses_the_sessions_lesson_s_first_step(
        votes: dict[int, bool], defenders: list[int] | None) -> None:
    les = sessions_lesson()
    rule = "three-eights-clear-2" if defenders is None else "queens-reverse-1"
    s = les.start().hold_vote(Proposal("remove", 1, rule_id=rule), votes, throwers=seeded, defenders=defenders)
    rps = s.votes[-1].rps
    assert rps is not None and "score" in rps and "knockout" not in rps
    assert les.done_steps(s) == 0 and les.missed(s)


@pytest.mark.parametrize("table", [
    {"levels": ["person"], "results": [[1, 0]], "rules": [None]},  # Player 2 won last and wrote nothing
    {"levels": ["person"], "results": [[1, 0]], "rules": ["no-such-rule"]},
    {"levels": ["person"], "results": [[0, 1]], "rules": []},  # one rule (or null) per deal
])
def test_a_session_lesson_s_table_of_rules_is_checked(table: dict[str, object]) -> None:
    obj = {**json.loads(SESSIONS.read_text(encoding="utf-8")), "table": table}
    with pytest.raises(LessonError):
        SessionLesson.from_json(obj)
