"""The house-rule lesson (P-8 … P-10) on a practice session: each step is checked by the engine's
session — a rule by the learner, then a tied vote settled by rock-paper-scissors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import cycle

import pytest

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
