"""#7 The winner's rule builder, proposals to change a rule or a base rule, an author deleting their
own rule, and rock-paper-scissors thrown by hand (P-8 … P-10, notes/house_rules.md "Flows")."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from engine.lopti.house_rules import EVENTS, MAX_CONDITIONS, MAX_EFFECTS, TIMINGS, validate
from engine.lopti.rps import beats, progress
from engine.lopti.templates import TEMPLATES
from engine.lopti.votes import Proposal, VoteError
from tests.views.modes import local
from tests.views.test_lopti_session import play_out
from views.lopti.rule_draft import RuleDraft
from views.lopti.session import SessionFlow

COUNTER = {"rock": "paper", "paper": "scissors", "scissors": "rock"}


def _filled(draft: RuleDraft) -> RuleDraft:
    for i, e in enumerate(draft.effects):
        if e["effect"] == "announce" and not e.get("text"):
            draft.set_effect_arg(i, "text", "Hello")
    return draft


def test_every_choice_the_builder_offers_makes_a_valid_rule() -> None:
    """P-13: the builder offers, for each trigger, only conditions and effects the validator accepts."""
    for event in EVENTS:
        for timing in TIMINGS:
            d = RuleDraft()
            d.set_when(event, timing)
            for kind in d.condition_kinds():
                for effect in d.effect_kinds():
                    d.conditions = []
                    d.add_condition(kind)
                    d.set_effect(0, effect)
                    assert validate(_filled(d).to_rule("x")) == [], (event, timing, kind, effect)
            # what it does not offer the validator refuses
            assert ("clear" in d.effect_kinds()) == ((event, timing) == ("play", "after"))
            assert ("draw" in d.effect_kinds()) == (event != "draw")  # no rule feeds its own trigger


def test_a_new_trigger_keeps_what_fits_and_drops_what_does_not() -> None:
    d = RuleDraft()
    d.add_condition("rank_in")
    d.toggle_rank(0, "K")
    d.toggle_rank(0, "8")  # ranks toggle, never leaving the set empty
    d.toggle_rank(0, "K")
    assert d.conditions == [{"rank_in": ["K"]}]
    d.add_condition("pile_size")
    d.set_effect(0, "clear")
    d.set_when(event="take")  # a take has no rank, and an extra clear only follows a play
    assert d.conditions == [{"pile_size": {"op": ">=", "n": 6}}]
    assert d.effects[0]["effect"] != "clear" and d.problems() == []
    with pytest.raises(ValueError):
        d.set_condition(0, "rank_in")


def test_every_ready_made_rule_opens_in_the_builder_unchanged() -> None:
    for tpl in TEMPLATES:
        again = RuleDraft.from_rule(tpl).to_rule(tpl["id"])
        assert again["when"] == tpl["when"] and again["do"] == tpl["do"] and again.get("if") == tpl.get("if")


@settings(max_examples=60, deadline=None)
@given(st_.lists(st_.tuples(st_.integers(0, 7), st_.integers(0, 40)), max_size=25))
def test_any_sequence_of_builder_taps_leaves_a_valid_rule(taps: list[tuple[int, int]]) -> None:
    d = RuleDraft()
    for op, k in taps:
        if op == 0:
            d.set_when(event=EVENTS[k % len(EVENTS)])
        elif op == 1:
            d.set_when(timing=TIMINGS[k % 2])
        elif op == 2:
            d.add_condition()
        elif op == 3 and d.conditions:
            kinds = d.condition_kinds()
            d.set_condition(k % len(d.conditions), kinds[k % len(kinds)])
        elif op == 4:
            d.add_effect()
        elif op == 5:
            kinds = d.effect_kinds()
            d.set_effect(k % len(d.effects), kinds[k % len(kinds)])
        elif op == 6 and d.conditions:
            d.remove_condition(k % len(d.conditions))
        elif op == 7:
            d.remove_effect(k % len(d.effects))
    assert 1 <= len(d.effects) <= MAX_EFFECTS and len(d.conditions) <= MAX_CONDITIONS
    assert _filled(d).problems() == []


def _session_after_a_bot_win(st: Any) -> SessionFlow:
    """Two seats (the person and a casual bot), played until the bot has won a deal and written its rule."""
    for seed in range(1, 40):
        flow = SessionFlow(st, ["casual"], seed=seed)
        for _ in range(3):
            m = flow.start_deal()
            play_out(m)
            flow.deal_over(m)
            if flow.rule_pending():
                d = RuleDraft()
                d.add_condition("rank_in")
                flow.add_own_rule(d)
            if any(r.author == 1 for r in flow.session.rules):
                return flow
    raise AssertionError("the bot never won a deal")


def session_won_by_the_person(st: Any) -> SessionFlow:
    """Two seats (the person and a Beginner bot) after a first deal the person won (P-8.1: their
    rule to add is pending)."""
    for seed in range(1, 60):
        flow = SessionFlow(st, ["beginner"], seed=seed)
        m = flow.start_deal()
        play_out(m)
        flow.deal_over(m)
        if flow.rule_pending():
            return flow
    raise AssertionError("the person never won a first deal")


def test_a_person_winner_writes_a_rule_and_may_delete_it_without_a_vote(st: Any) -> None:
    flow = session_won_by_the_person(st)
    d = RuleDraft()
    d.set_when("take", "after")
    d.add_condition("count_at_least")
    d.set_condition_arg(0, 5)
    d.set_effect(0, "reveal")
    rule = flow.add_own_rule(d)
    assert rule["id"] == "own-1-0" and not flow.rule_pending()
    in_force = local(flow.start_deal()).state.options.house_rules  # from the next deal on
    assert in_force[0].to_json()["if"] == {"count_at_least": 5}
    assert flow.deletable(0) == ["own-1-0"] and flow.deletable(1) == []
    with pytest.raises(VoteError):
        flow.delete_rule("own-1-0", 1)  # P-9.4: only its author
    flow.delete_rule("own-1-0", 0)
    assert not flow.session.rules[0].in_force and flow.can_vote()  # no vote was used
    again = SessionFlow.resume(st, flow.session_id)  # type: ignore[arg-type]
    assert again.session.to_json() == flow.session.to_json()


@pytest.mark.parametrize("person_wins", [True, False])
def test_a_base_rule_change_and_a_rule_change_through_the_vote(st: Any, person_wins: bool) -> None:
    """P-9.6: a base-rule change voted "now" plays from the very next deal when it passes, and
    changes nothing when it fails. The person (yes) and the bot (no) tie; the person throws every
    throw of the series by hand, winning or losing each, so both outcomes are checked."""
    flow = _session_after_a_bot_win(st)
    name, now, choices = flow.params()[0]
    assert name == "draw_threshold" and now == 3 and now not in dict(choices)
    p = Proposal("param", 0, when="now", param=name, value=choices[-1][0])
    votes = flow.ballots(p, {0: True})
    assert votes == {0: True, 1: False} and flow.throwers_by_hand(p, {0: True}) == (0, 1)
    bot = flow.bot_throws(1)
    hands = []
    for _ in range(30):
        b = next(bot)
        hands.append(COUNTER[b] if person_wins else next(x for x in COUNTER if beats(b, x)))
    record = flow.vote(p, {0: True}, hands={0: hands})
    assert record.votes == votes and record.tally == "tie"
    assert record.outcome == ("passed" if person_wins else "failed")
    assert flow.session.params_for(flow.deal_number).draw_threshold == (choices[-1][0] if person_wins else now)
    with pytest.raises(VoteError):
        flow.vote(p, {0: True})  # P-9.5: one vote per deal
    bad = Proposal("modify", 0, rule_id=flow.session.rules[-1].id, new_rule={"when": {"event": "win"}})
    with pytest.raises(VoteError):
        flow.check(bad)


def test_a_tie_is_thrown_by_hand_and_the_stored_session_replays_it(st: Any) -> None:
    """P-10: person (yes) against the bot defending its own rule (no) is a tie; the person throws
    by hand against the bot's seeded throws, and the series shown is the one the engine records."""
    flow = _session_after_a_bot_win(st)
    bot_rule = next(r for r in flow.session.rules if r.author == 1 and r.in_force)
    p = Proposal("remove", 0, rule_id=bot_rule.id)
    assert flow.throwers_by_hand(p, {0: True}) == (0, 1)
    assert flow.throwers_by_hand(p, {0: False}) is None  # 0 yes of 2: no tie, no RPS
    bot = flow.bot_throws(1)
    mine: list[str] = []
    pairs: list[tuple[str, str]] = []
    for _ in range(12):  # the person wins twelve throws by hand, then lets the app throw the rest
        b = next(bot)
        mine.append(COUNTER[b])
        pairs.append((COUNTER[b], b))
        assert beats(*pairs[-1])
    assert progress(pairs) == ((12, 0), None)
    record = flow.vote(p, {0: True}, hands={0: mine})
    assert record.tally == "tie" and record.rps is not None and record.rps["score"][0] >= 12
    assert (record.outcome == "passed") == (record.rps["score"][0] > record.rps["score"][1])
    again = SessionFlow.resume(st, flow.session_id)  # type: ignore[arg-type]
    assert again.session.to_json() == flow.session.to_json()


def test_throws_by_hand_decide_the_series_alone_when_they_are_enough(st: Any) -> None:
    flow = _session_after_a_bot_win(st)
    bot_rule = next(r for r in flow.session.rules if r.author == 1 and r.in_force)
    p = Proposal("remove", 0, rule_id=bot_rule.id)
    bot = flow.bot_throws(1)
    losing = []
    for _ in range(30):
        b = next(bot)
        losing.append(next(x for x in COUNTER if beats(b, x)))  # the person loses every throw
    record = flow.vote(p, {0: True}, hands={0: losing})
    assert record.outcome == "failed" and record.rps["score"] == [0, 30]  # type: ignore[index]
    assert bot_rule.id in [r.id for r in flow.session.rules if r.in_force]


def test_the_next_session_keeps_only_the_rules_a_majority_votes_for(st: Any) -> None:
    """P-11.1/P-11.2: a new session at the same table starts with base rules; an old rule comes
    back only with a majority at setup, and that vote does not use the first deal's vote."""
    flow = _session_after_a_bot_win(st)
    for _ in range(3):  # a few more deals, so both seats are likely to have written a rule
        m = flow.start_deal()
        play_out(m)
        flow.deal_over(m)
        if flow.rule_pending():
            d = RuleDraft()
            d.set_effect(0, "reverse")
            flow.add_own_rule(d)
    rules = {r.id: r.author for r in flow.session.rules if r.in_force}
    people = {rid: {0: True} for rid in rules}  # I vote to keep every rule
    votes = flow.carry_ballots(people)
    # the bot keeps only its own rules: a rule both of us want is kept (2 of 2), mine alone is a tie
    assert all(votes[rid][1] == (author == 1) for rid, author in rules.items())
    new = flow.next_session(77, people)
    kept = [r.id for r in new.session.rules]
    assert kept == [rid for rid, author in rules.items() if author == 1]
    assert all(r.active_from_deal == 0 for r in new.session.rules)
    # P-9.1: the new session's first deal has its vote too (after carrying rules, before dealing)
    assert new.deal_number == 0 and new.can_vote() is True and not new.session.vote_used()
    from storage import api

    assert api.load_session(st, flow.session_id)["status"] == "ended"  # type: ignore[arg-type]
    again = SessionFlow.resume(st, new.session_id)  # type: ignore[arg-type]
    assert again.session.to_json() == new.session.to_json()
    m = again.start_deal()
    assert [r.to_json()["id"] for r in local(m).state.options.house_rules] == kept  # in force from the first deal
