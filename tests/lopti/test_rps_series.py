"""P-10: a rock-paper-scissors series thrown one throw at a time (engine.lopti.rps.RpsSeries),
as the session screen throws it for people and bots."""

from __future__ import annotations

import itertools

import pytest

from engine.lopti.rps import DECISIVE, RpsSeries, progress, series


def test_P_10_two_people_on_one_device_throw_in_turn_without_seeing_each_other() -> None:
    s = RpsSeries((1, 3), people={1, 3}, bots={})
    assert s.thrower() == 1 and s.throw("rock") == "hidden"
    assert s.thrower() == 3 and s.throw("scissors") == "pair"
    assert s.pairs == [("rock", "scissors")] and s.hands == {1: ["rock"], 3: ["scissors"]}
    assert progress(s.pairs)[0] == (1, 0)


def test_P_10_3_a_person_against_a_bot_is_decided_after_the_decisive_throws() -> None:
    bot = itertools.cycle(["scissors"])  # the person's rock beats it every time
    s = RpsSeries((0, 2), people={0}, bots={2: bot})
    answers = [s.throw("rock") for _ in range(DECISIVE)]  # exactly 30 decisive throws, even when one side leads
    assert answers[-1] == "done" and set(answers[:-1]) == {"pair"}
    assert series(s.pairs).winner == 0 and s.hands[0] == ["rock"] * len(s.pairs)
    with pytest.raises(ValueError, match="decided"):
        s.throw("rock")


def test_P_10_ties_do_not_count_and_a_bad_throw_changes_nothing() -> None:
    s = RpsSeries((0, 1), people={0}, bots={1: iter(["paper", "rock"])})
    assert s.throw("paper") == "pair" and progress(s.pairs)[0] == (0, 0)  # a tie
    with pytest.raises(ValueError, match="a throw is one of"):
        s.throw("lizard")
    assert s.pairs == [("paper", "paper")] and s.pending == {}
    with pytest.raises(ValueError, match="person or a bot"):
        RpsSeries((0, 1), people={0}, bots={})
