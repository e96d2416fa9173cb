"""Table rules (#36 item 1): a winner's house rule in the players' own words. The engine cannot
enforce free text (P-13), so a table rule never reaches a deal: the deal, its legal actions and
every bot decision are the same with it or without it. Otherwise it is a session rule like the
others — written by the winner (P-8.1), voted on (P-9.1, P-9.7), deleted by its author (P-9.4),
carried into a new session by a majority (P-11.2)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.bots.lopti_bots import decide
from engine.lopti import RULES
from engine.lopti.describe import describe
from engine.lopti.house_rules import RuleError
from engine.lopti.session import LoptiSession, bot_vote
from engine.lopti.table_rules import MAX_CHARS, is_table_rule, table_words
from engine.lopti.templates import TEMPLATES
from engine.lopti.votes import Proposal, VoteError

WORDS = "Whoever plays a queen says “long live the queen”, or takes the pile."


def won_by(seat: int, players: int = 3, seed: int = 7) -> LoptiSession:
    places = (seat, *[s for s in range(players) if s != seat])
    return LoptiSession(players, seed, results=(places,))


def test_P_8_1_the_winner_writes_a_table_rule_and_it_is_kept_as_written() -> None:
    s = won_by(1).add_winner_rule({"id": "table-1-1", "table": f"  {WORDS}\n"}, 1)
    r = s.rules[0]
    assert r.author == 1 and r.in_force and is_table_rule(r.rule)
    assert r.rule == {"id": "table-1-1", "table": WORDS, "author": 1}
    assert all(describe(r.rule, lang) == WORDS for lang in ("en", "ar", "vi"))  # the author's words, untranslated


def test_P_13_a_table_rule_never_changes_a_deal_what_a_seat_sees_or_a_bot_s_choice() -> None:
    """The same session with and without the table rule deals the same deal under the same
    options; along a whole deal every legal list, every seat's observation and the bot's choice
    are the same."""
    words = won_by(1).add_winner_rule({"id": "table-1-1", "table": WORDS}, 1)
    assert words.deal_options() == won_by(1).deal_options()
    a, b = words.start_deal(), won_by(1).start_deal()
    for _ in range(600):
        if a.over:
            break
        seat = a.to_move
        assert RULES.legal_actions(a) == RULES.legal_actions(b)
        assert RULES.observe(a, seat) == RULES.observe(b, seat)
        move = decide(RULES.observe(a, seat), "casual", seed=3, budget_ms=50)
        assert move is not None and move == decide(RULES.observe(b, seat), "casual", seed=3, budget_ms=50)
        a, _ = RULES.apply(a, move)
        b, _ = RULES.apply(b, move)
    assert a.over and a.places == b.places


@pytest.mark.parametrize("words, why", [
    ("", "needs words"), ("   \n ", "needs words"), ("x" * (MAX_CHARS + 1), "at most"),
    ("bell\x07", "control"), (42, "in words")])
def test_a_table_rule_s_words_are_checked(words: object, why: str) -> None:
    with pytest.raises(RuleError, match=why):
        table_words(words)
    with pytest.raises(VoteError, match=why):
        won_by(0).add_winner_rule({"id": "t", "table": words}, 0)


def test_a_table_rule_keeps_right_to_left_words_and_format_marks() -> None:
    arabic = "من يلعب الملكة يقول \u200f«عاشت الملكة»"
    assert table_words(arabic) == arabic and table_words("x" * MAX_CHARS) == "x" * MAX_CHARS


def test_P_9_a_table_rule_is_removed_reworded_and_restored_by_votes() -> None:
    s = won_by(1).add_winner_rule({"id": "table-1-1", "table": WORDS}, 1)
    yes = {0: True, 1: True, 2: True}
    kinds = [p.kind for p in s.proposals_for(0)]
    assert kinds == ["remove", "modify"]
    reworded = s.hold_vote(Proposal("modify", 0, rule_id="table-1-1", new_rule={"table": "Queens: sing."}), yes)
    assert reworded.rules[0].rule == {"id": "table-1-1", "table": "Queens: sing.", "author": 1}
    with pytest.raises(VoteError, match="other words"):  # a table rule stays words (P-13)
        s.check_proposal(Proposal("modify", 0, rule_id="table-1-1", new_rule={**TEMPLATES[0]}))
    with pytest.raises(VoteError, match="needs words"):
        s.check_proposal(Proposal("modify", 0, rule_id="table-1-1", new_rule={"table": " "}))
    removed = s.hold_vote(Proposal("remove", 0, rule_id="table-1-1"), yes)
    assert not removed.rules[0].in_force
    later = LoptiSession(3, 7, results=(*removed.results, (0, 1, 2)), rules=removed.rules, votes=removed.votes)
    back = later.hold_vote(Proposal("restore", 2, rule_id="table-1-1"), yes)  # P-9.7: a later vote
    assert back.rules[0].in_force


def test_an_engine_rule_is_not_changed_into_words() -> None:
    s = won_by(1).add_winner_rule({**TEMPLATES[0], "id": "eights-punish-1"}, 1)
    with pytest.raises(VoteError, match="rule builder"):
        s.check_proposal(Proposal("modify", 0, rule_id="eights-punish-1", new_rule={"table": WORDS}))


def test_P_9_4_and_P_11_2_its_author_deletes_it_and_a_majority_carries_it() -> None:
    s = won_by(1).add_winner_rule({"id": "table-1-1", "table": WORDS}, 1)
    assert s.deletable_by(1) == ["table-1-1"] and s.deletable_by(0) == []
    assert not s.delete_own_rule("table-1-1", 1).rules[0].in_force
    carried = s.new_session(8, {"table-1-1": {0: True, 1: True, 2: False}})
    assert carried.rules[0].rule["table"] == WORDS and carried.deal_options().house_rules == ()


def test_bots_vote_on_a_table_rule_as_on_any_rule_that_punishes_nobody() -> None:
    s = won_by(1).add_winner_rule({"id": "table-1-1", "table": WORDS}, 1)
    assert bot_vote(s, Proposal("remove", 0, rule_id="table-1-1"), 2) is False  # the bot never reads it
    assert bot_vote(s, Proposal("remove", 0, rule_id="table-1-1"), 1) is False  # its author keeps it


@pytest.mark.parametrize("new_rule", [{"table": "Queens: everyone sings."}, None])
def test_P_8_1_a_vote_that_changes_the_winner_s_rule_from_the_next_deal_gives_no_second_rule(
        new_rule: dict[str, str] | None) -> None:
    """One rule per won deal: a change voted for the next deal moves when the rule applies, not
    when it was written (the winner was once offered a second rule after such a vote)."""
    first = {"id": "table-1-1", "table": WORDS} if new_rule else {**TEMPLATES[2], "id": "queens-reverse-1"}
    s = won_by(1).add_winner_rule(first, 1)
    announce = [{"effect": "reverse"}, {"effect": "announce", "text": "Q!"}]
    changed: dict[str, Any] = new_rule or {**TEMPLATES[2], "do": announce}
    voted = s.hold_vote(Proposal("modify", 0, rule_id=first["id"], new_rule=changed, when="next_deal"),
                        {0: True, 1: True, 2: True})
    assert voted.rules[0].active_from_deal == 2 and voted.rule_written(1)
    with pytest.raises(VoteError, match="one rule per won deal"):
        voted.add_winner_rule({"id": "table-1-1b", "table": "Another"}, 1)
