"""#36 item 6, P-11.2: at a new session's setup the majority may bring back any old rule — from an
earlier session at the table or from the device's library — not only the last session's."""

from __future__ import annotations

import pytest

from engine.lopti.session import LoptiSession
from engine.lopti.templates import TEMPLATES
from engine.lopti.votes import VoteError

YES3 = {0: True, 1: True, 2: False}
NO = {0: True, 1: False, 2: False}
WORDS = {"id": "table-1-0", "table": "Queens: everyone sings.", "author": 0}


def ended() -> LoptiSession:
    s = LoptiSession(3, 5, results=((1, 0, 2),)).add_winner_rule({**TEMPLATES[2], "id": "queens-reverse-1"}, 1)
    return s


def test_P_11_2_a_majority_brings_back_library_and_earlier_rules_after_the_kept_ones() -> None:
    new = ended().new_session(9, {"queens-reverse-1": YES3}, brought=[
        ({**TEMPLATES[0], "id": "eights-punish-0"}, 0, YES3),  # an earlier session's, its author at the table
        (WORDS, None, YES3),  # the library's: nobody at this table is its author
        ({**TEMPLATES[1], "id": "kings-skip-2"}, 2, NO)])  # one of three: stays out
    assert [(r.id, r.author) for r in new.rules] == [("queens-reverse-1", 1), ("eights-punish-0", 0),
                                                     ("table-1-0", None)]
    assert not new.results and not new.votes  # P-11.2: the setup votes are not the first deal's vote
    assert [h.id for h in new.deal_options().house_rules] == ["queens-reverse-1", "eights-punish-0"]


def test_a_brought_rule_whose_id_is_taken_gets_a_new_one() -> None:
    same_id = {**TEMPLATES[0], "id": "queens-reverse-1"}  # another rule under a kept rule's id
    new = ended().new_session(9, {"queens-reverse-1": YES3},
                              brought=[(same_id, None, YES3), (same_id, None, YES3)])
    assert [r.id for r in new.rules] == ["queens-reverse-1", "queens-reverse-1-2", "queens-reverse-1-3"]


@pytest.mark.parametrize("rule, author", [({**TEMPLATES[0], "do": []}, None), ({"id": "t", "table": ""}, None),
                                          ({**TEMPLATES[0]}, 7), ("eights", None)])
def test_a_broken_old_rule_is_refused_whatever_the_votes(rule: object, author: int | None) -> None:
    with pytest.raises(VoteError):
        ended().new_session(9, brought=[(rule, author, NO)])  # type: ignore[list-item]


def test_fits_says_which_old_rules_the_table_can_bring_back() -> None:
    s = ended()
    assert s.fits(TEMPLATES[0], None) and s.fits(WORDS, 2)
    assert not s.fits({**TEMPLATES[0], "do": []}, None) and not s.fits(TEMPLATES[0], 5) and not s.fits("x", None)
