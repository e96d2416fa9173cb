"""#7 Lopti sessions in the app (P-2.3, P-8 … P-10): deals follow each other with the winner's rule
in force from the next deal, one vote per deal, and a stored session resumes to the same state."""

from __future__ import annotations

from typing import Any

import pytest

from engine.lopti.votes import VoteError
from tests.views.modes import local, state_of
from tests.views.test_lopti_controller import person_move
from views.lopti.controller import LoptiMatch
from views.lopti.session import SessionFlow


def play_out(m: LoptiMatch) -> None:
    for _ in range(4000):
        if state_of(m).over:
            return
        person_move(m) if m.my_turn else m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    raise AssertionError("the deal did not end")


def test_a_session_of_deals_with_winners_rules_and_a_vote_resumes_exactly(st: Any) -> None:
    flow = SessionFlow(st, ["casual", "beginner"], seed=31)
    rules_seen = 0
    for deal_no in range(3):
        m = flow.start_deal()
        assert state_of(m).deal_number == deal_no == flow.deal_number
        # P-8.3: the rules in force in this deal are exactly the ones written after earlier deals
        assert len(local(m).state.options.house_rules) == rules_seen
        play_out(m)
        flow.deal_over(m)
        flow.deal_over(m)  # a second report of the same deal changes nothing
        assert flow.deal_number == deal_no + 1 and flow.session.results[-1] == tuple(state_of(m).places)
        if flow.rule_pending():  # the person won: they pick a ready-made rule
            choices = flow.rule_choices("ar")
            assert choices and all(text for _, text in choices)
            flow.add_rule(choices[0][0])
            with pytest.raises(VoteError):
                flow.add_rule(choices[1][0])  # one rule per won deal
        assert not flow.rule_pending()
        rules_seen = len(flow.session.rules)
        assert rules_seen == deal_no + 1  # a bot winner wrote its own rule
    assert flow.can_vote()
    proposal = flow.proposals(0)[0]
    record = flow.vote(proposal, {0: True})
    assert record.outcome in ("passed", "failed") and record.votes[0] is True
    assert not flow.can_vote()  # P-9.5: one vote per deal
    # the stored session resumes to the same engine session, and its next deal starts
    again = SessionFlow.resume(st, flow.session_id)  # type: ignore[arg-type]
    assert again.session.to_json() == flow.session.to_json()
    m = again.start_deal()
    assert state_of(m).deal_number == 3
    assert again.current_match() is not None and again.current_match().game_id == m.mode.game_id  # type: ignore[union-attr]
    from storage import api

    again.end()  # the table gets up: kept, no longer running
    assert api.load_session(st, again.session_id)["status"] == "ended"  # type: ignore[arg-type]


def test_descriptions_of_the_rules_in_three_languages(st: Any) -> None:
    flow = SessionFlow(st, ["beginner"], seed=5)
    for lang in ("en", "ar", "vi"):
        texts = [text for _, text in flow.rule_choices(lang)]
        assert len(texts) >= 5 and len(set(texts)) == len(texts)


def session_won_by_seat_1(st: Any, levels: list[str], seed: int) -> SessionFlow:
    """A session whose deals are played until seat 1 (a person) wins one and adds a rule (P-8.1)."""
    flow = SessionFlow(st, levels, seed=seed)
    for _ in range(6):
        m = flow.start_deal()
        play_out(m)
        flow.deal_over(m)
        if flow.rule_pending():
            winner = flow.winner
            flow.add_rule(flow.rule_choices("en")[0][0])
            if winner == 1:
                return flow
    raise AssertionError("seat 1 never won")


def test_P_10_2_a_person_who_left_is_replaced_and_their_rule_is_defended_by_a_supporter(st: Any) -> None:
    flow = session_won_by_seat_1(st, ["person", "person", "casual"], seed=13)
    assert flow.can_leave() == [1, 2]
    flow.leave(1)
    assert flow.levels[1] == "casual" and 1 in flow.session.absent and flow.can_leave() == [2]
    with pytest.raises(VoteError):
        flow.leave(1)  # gone already
    rule = next(r for r in flow.session.rules if r.author == 1)
    proposal = next(p for p in flow.proposals(0) if p.rule_id == rule.id and p.kind == "remove")
    people = {0: True, 2: True}  # the stand-in (seat index 1) and the bot (index 3) keep the rule: a tie
    assert flow.ballots(proposal, people) == {0: True, 1: False, 2: True, 3: False}
    assert flow.defender_choices(proposal, people) == [3]  # the author is gone; the bot stepped forward
    from views.lopti.session import Tie

    assert flow.throwers_by_hand(proposal, people, Tie([3])) == (0, 3)  # I throw against the bot
    record = flow.vote(proposal, people, tie=Tie([3]))
    assert record.tally == "tie" and record.rps is not None and record.rps["defender"] == 3
    # the next deal seats the stand-in, and the stored session replays to the same state
    m = flow.start_deal()
    assert m.levels[1] == "casual"
    again = SessionFlow.resume(st, flow.session_id)  # type: ignore[arg-type]
    assert again.session.to_json() == flow.session.to_json() and again.levels == flow.levels


def test_P_10_4_volunteers_play_a_knockout_thrown_by_hand_and_its_throws_replay(st: Any) -> None:
    """The author asks to remove their own rule, so its two supporters volunteer to defend it:
    one decisive throw a match, each person throwing by hand."""
    flow = session_won_by_seat_1(st, ["person", "person", "person"], seed=2)
    rule = next(r for r in flow.session.rules if r.author == 1)
    proposal = next(p for p in flow.proposals(1) if p.rule_id == rule.id and p.kind == "remove")
    people = {0: True, 1: True, 2: False, 3: False}
    assert flow.defender_choices(proposal, people) == [2, 3]
    throws: dict[int, list[str]] = {2: [], 3: []}
    asked = []
    for k in range(20):
        winner, seat = flow.knockout([2, 3], throws)
        if winner is not None:
            break
        assert seat is not None
        asked.append(seat)
        throws[seat].append(["rock", "paper", "scissors"][(k * (seat + 1)) % 3])
    assert winner in (2, 3) and asked[:2] == [2, 3]
    from views.lopti.session import Tie

    tie = Tie([2, 3], throws)
    assert flow.throwers_by_hand(proposal, people, tie) == (1, winner)
    record = flow.vote(proposal, people, tie=tie)
    assert record.rps is not None and record.rps["defender"] == winner
    again = SessionFlow.resume(st, flow.session_id)  # type: ignore[arg-type]
    assert again.session.to_json() == flow.session.to_json()
