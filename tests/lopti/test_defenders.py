"""P-10.2 and P-10.4 in a session: an author who left cannot defend their rule; its supporters
step forward, and several volunteers play a one-throw knockout — thrown by hand where they are
people — whose result the stored throws replay exactly."""

from __future__ import annotations

import pytest

from engine.lopti.rps import beats
from engine.lopti.session import LoptiSession
from engine.lopti.templates import TEMPLATES
from engine.lopti.votes import Proposal, VoteError


def with_rule_by(author: int, players: int = 5) -> LoptiSession:
    """A session whose first deal ``author`` won (P-7.4), with the rule they added (P-8.1)."""
    s = LoptiSession(players=players, seed=9)
    d = s.start_deal()
    d.places, d.phase = [author, *(i for i in range(players) if i != author)], "over"
    return s.record(d).add_winner_rule(TEMPLATES[1], author=author)


def test_P_10_2_a_present_author_defends_their_rule_and_nobody_else_is_asked() -> None:
    s = with_rule_by(2, players=4)
    p = Proposal("remove", 0, rule_id=s.rules[0].id)
    tie = {0: True, 1: True, 2: False, 3: False}
    assert s.defender_choices(p, tie) == [] and s.tie_sides(p, tie) == (0, 2)
    gone = s.leave(2)
    assert gone.defender_choices(p, {0: True, 1: True, 2: True, 3: False}) == []  # 3 of 4: a majority, no tie


def test_P_10_2_when_the_author_left_the_supporters_may_defend_and_only_they() -> None:
    s = with_rule_by(2, players=4).leave(2)
    p = Proposal("remove", 0, rule_id=s.rules[0].id)
    votes = {0: True, 1: False, 2: True, 3: False}  # the stand-in at seat 2 votes; 1 and 3 support
    assert s.defender_choices(p, votes) == [1, 3]
    assert s.tie_sides(p, votes, defenders=[3]) == (0, 3)
    assert s.tie_sides(p, votes, defenders=[]) == (0, None)  # nobody defends: the change passes
    after = s.hold_vote(p, votes, defenders=[])
    assert after.votes[-1].outcome == "passed" and not after.rules[0].in_force


def test_leaving_is_checked() -> None:
    s = with_rule_by(1, players=3)
    with pytest.raises(VoteError):
        s.leave(7)
    once = s.leave(1)
    with pytest.raises(VoteError):
        once.leave(1)
    with pytest.raises(VoteError):
        once.leave(2)  # two players must stay


def test_P_10_4_a_knockout_asks_each_person_for_their_throw_and_replays_from_the_throws() -> None:
    s = with_rule_by(4).leave(4)
    volunteers, people = [1, 2, 3], {1, 3}
    hands: dict[int, list[str]] = {1: [], 3: []}
    asked = []
    for _ in range(40):
        winner, seat = s.knockout(volunteers, hands, people)
        if winner is not None:
            break
        assert seat in people
        asked.append(seat)
        hands[seat].append("rock" if len(hands[seat]) % 2 else "paper")
    assert winner in volunteers and asked and set(asked) <= people
    # the record of those throws gives the same representative when the vote is replayed (the
    # sides of a tie, asked directly: five seats never tie)
    p = Proposal("remove", 0, rule_id=s.rules[0].id)
    assert s.tie_sides(p, {0: True, 1: False, 2: False, 3: False, 4: True}, s.bracket_throwers(hands),
                        defenders=volunteers) == (0, winner)


def test_P_10_4_one_decisive_throw_decides_a_knockout_match_between_two_people() -> None:
    s = with_rule_by(3, players=4).leave(3)
    winner, seat = s.knockout([1, 2], {1: ["rock"], 2: ["rock"]}, {1, 2})
    assert winner is None and seat == 1  # a tied throw is thrown again, first by the first side
    winner, _ = s.knockout([1, 2], {1: ["rock", "paper"], 2: ["rock", "rock"]}, {1, 2})
    assert winner == 1 and beats("paper", "rock")
