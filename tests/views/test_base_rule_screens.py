"""Wider base-rule choices on screen (#36 item 2, P-9.1): every number and special card the Lopti
rules name is offered to the deal's vote; a value the engine refuses beside the base rules in force
says why where the vote button was and cannot be voted on; a passed change is what the next deal
plays — in each language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.lopti.house_rules import BaseParams
from engine.lopti.votes import Proposal
from storage import api
from storage.db import open_storage
from tests.views.test_screens import open_at
from views.lopti.session import SessionFlow
from views.ui import sizing
from views.ui.i18n import t


def pick(s: Any, name: str, value: int) -> None:
    dd = s.one(ident=f"param-{name}").content
    s.enter(dd, str(value))
    s.fire(dd, "select", str(value))


def refused(s: Any, name: str) -> tuple[bool, str]:
    """(the vote button is disabled, the words shown under the choice)."""
    said = s.one(ident=f"param-{name}-why")
    vote = s.one(ident=f"param-{name}-vote").content
    return bool(vote.disabled), said.content.value if said.parent.visible else ""


def session_at(tmp_path: Path, lang: str, people: int, vote: Proposal | None = None) -> tuple[Any, int]:
    """A new session of ``people`` persons besides me at one device, in ``lang``, with the first
    deal's vote already held (everyone yes) when ``vote`` is given: its page opened, and its id."""
    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, language=lang)
    flow = SessionFlow(st, ["person"] * people, seed=5)
    if vote is not None:
        flow.vote(vote, {seat: True for seat in range(people + 1)})
    flow.save()
    sid = flow.session_id
    assert sid is not None
    st.close()
    return open_at(tmp_path, f"/lopti/session/{sid}"), sid


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_a_refused_base_rule_says_why_and_a_passed_one_is_dealt(tmp_path: Path, lang: str) -> None:
    s, sid = session_at(tmp_path, lang, 4)  # five people at one device
    try:
        s.wait_for(lambda: s.find(ident="sess-vote"), what="the vote before the first deal (P-9.1)")
        s.tap(ident="sess-vote")
        s.wait_for(lambda: s.find(ident="param-pass_rank"), what="the base rules")
        assert all(s.find(ident=f"param-{name}") for name in BaseParams.RANGES)
        pick(s, "hand_size", 5)  # 5 players × (5 + 3 + 3) = 55 cards (P-2.1)
        assert s.wait_for(lambda: refused(s, "hand_size")[0], what="the vote refused") and \
            refused(s, "hand_size")[1] == t(lang, "why_deck_short", players=5, per_seat=11, need=55)
        pick(s, "pass_rank", 7)  # the 7 is the low card (P-4.4)
        s.wait_for(lambda: refused(s, "pass_rank")[0], what="a rank with two jobs refused")
        assert refused(s, "pass_rank")[1] == t(lang, "why_special_twice", rank="7")
        s.tap(ident="param-pass_rank-vote")  # refused: nothing is put to the vote
        assert not s.find(ident="vote-count")
        pick(s, "pass_rank", 4)
        s.wait_for(lambda: refused(s, "pass_rank") == (False, ""), what="a playable pass card")
        s.tap(ident="param-pass_rank-vote")
        s.wait_for(lambda: s.find(ident="vote-count"), what="the vote")
        assert s.shows(t(lang, "prop_param", change=t(lang, "param_pass_rank", v="4")))
        for seat in range(5):
            s.toggle(s.one(ident=f"vote-{seat}").content, True)
        s.tap(ident="vote-count")
        s.wait_for(lambda: s.find(ident="sess-next"), what="back between deals")
        session = SessionFlow.resume(s.app.storage, sid).session
        assert session.params_for(session.deal_number + 1).pass_rank == 4
    finally:
        s.close()


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_a_deal_with_no_face_up_card_offers_only_keep_and_says_the_change(tmp_path: Path, lang: str) -> None:
    """P-2.1, P-2.2 as a vote changed them: nothing lies face up, so the setup offers no swap (the
    engine lists only Keep) and says so; the table's House rules count and list the change."""
    s, _ = session_at(tmp_path, lang, 1, Proposal("param", 0, when="now", param="face_up", value=0))
    try:
        s.wait_for(lambda: s.find(ident="sess-next"), what="the first deal to deal")
        s.tap(ident="sess-next")
        s.wait_for(lambda: s.shows(t(lang, "lp_setup_keep")), what="only Keep offered")
        assert not s.find(t(lang, "swap")) and s.find(t(lang, "keep"))
        assert not s.find(ident="up-0") and s.find(ident="down-2")
        s.tap(ident="house-rules")
        s.wait_for(s.dialog_shown, what="the house rules")
        assert s.shows(t(lang, "house_rules_n", n=1)) and s.shows(t(lang, "param_face_up", v="0"))
    finally:
        s.close()


def test_four_table_cards_fit_beside_my_plate_on_a_phone() -> None:
    """My face-up cards stand in one row beside my seat plate whatever a vote dealt (P-2.1): the
    cards shrink for a fourth slot, and three slots keep the size they always had."""
    for width, height in ((360, 640), (390, 844)):
        for slots in (3, 4):
            w, _ = sizing.lopti(width, height, 2, slots).table
            assert sizing.LOPTI_MY_PLATE + slots * (w + sizing.LOPTI_SLOT_EXTRA) <= sizing.room(width) + 1
        assert sizing.lopti(width, height, 2, 3) == sizing.lopti(width, height, 2)
