"""Wider base-rule choices on screen (#36 item 2, P-9.1): every number and special card the Lopti
rules name is offered to the deal's vote; a value the engine refuses beside the base rules in force
says why where the vote button was and cannot be voted on; a passed change is what the next deal
plays — in each language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.lopti.house_rules import BaseParams
from storage import api
from storage.db import open_storage
from tests.views.test_screens import open_at
from views.lopti.session import SessionFlow
from views.ui.i18n import t


def pick(s: Any, name: str, value: int) -> None:
    dd = s.one(ident=f"param-{name}").content
    s.call(lambda: setattr(dd, "value", str(value)))
    s.fire(dd, "select", str(value))


def refused(s: Any, name: str) -> tuple[bool, str]:
    """(the vote button is disabled, the words shown under the choice)."""
    said = s.one(ident=f"param-{name}-why")
    vote = s.one(ident=f"param-{name}-vote").content
    return bool(vote.disabled), said.content.value if said.parent.visible else ""


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_a_refused_base_rule_says_why_and_a_passed_one_is_dealt(tmp_path: Path, lang: str) -> None:
    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, language=lang)
    flow = SessionFlow(st, ["person"] * 4, seed=5)  # five people at one device
    flow.save()
    sid = flow.session_id
    st.close()
    s = open_at(tmp_path, f"/lopti/session/{sid}")
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
        session = SessionFlow.resume(s.app.storage, sid).session  # type: ignore[arg-type]
        assert session.params_for(session.deal_number + 1).pass_rank == 4
    finally:
        s.close()
