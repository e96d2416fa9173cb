"""The rule library and older rules at a new session's setup (#36 item 6, P-11.2): a rule saved
from a session, a rule of an earlier session at the table, and the library's rules may all be
voted back in, not only the last session's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.lopti.templates import TEMPLATES
from storage import api
from storage.db import open_storage
from tests.views.test_lopti_session import play_out
from tests.views.test_screens import open_at, switch_in
from views.lopti.session import SessionFlow
from views.ui.i18n import counted, t

ELSEWHERE = {**TEMPLATES[5], "id": "big-take-reveal-3"}  # saved at another table


def won(flow: SessionFlow, pick: int = 0) -> int:
    """Deal the flow's next deal to its end; the winner (a person) writes a ready-made rule."""
    m = flow.start_deal()
    play_out(m)
    flow.deal_over(m)
    winner = flow.winner
    assert winner is not None and flow.rule_pending()
    flow.add_rule(flow.rule_choices("en")[pick][0])
    return winner


def test_a_rule_of_an_earlier_session_at_the_table_comes_back_two_sessions_later(st: Any) -> None:
    first = SessionFlow(st, ["person"], seed=4)
    won(first)
    rule = first.session.rules[0]
    second = first.next_session(11, {})  # nobody keeps it: the second session starts bare
    assert second.session.rules == ()
    won(second, pick=1)  # another rule than the first session's
    old = second.old_rules()
    assert [(o.rule, o.author) for o in old] == [(rule.rule, rule.author)]  # the second's own rule is not "old"
    third = second.next_session(12, {old[0].key: {0: True, 1: True}})
    assert [(r.rule["when"], r.author) for r in third.session.rules] == [(rule.rule["when"], rule.author)]
    again = SessionFlow.resume(st, third.session_id)  # type: ignore[arg-type]  # the carry step replays
    assert again.session.rules == third.session.rules


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_a_rule_is_saved_to_the_library_and_a_library_rule_voted_into_the_next_session(
        tmp_path: Path, lang: str) -> None:
    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, language=lang)
    api.save_preset(st, "lopti_rule", "elsewhere", ELSEWHERE)
    flow = SessionFlow(st, ["person"], seed=4)
    winner = won(flow)
    rid = flow.session.rules[0].id
    sid = flow.session_id
    st.close()
    s = open_at(tmp_path, f"/lopti/session/{sid}")
    try:
        s.wait_for(lambda: s.find(ident=f"sess-save-{rid}"), what="the rule's card")
        s.tap(ident=f"sess-save-{rid}")
        s.wait_for(lambda: any(t(lang, "lib_saved", rule="") in w for w in s.texts()), what="saved")
        assert [d["id"] for _, _, d in api.presets(s.app.storage, "lopti_rule")] == ["big-take-reveal-3", rid]
        s.tap(ident="sess-again")
        s.wait_for(lambda: s.find(ident="keep-old-0-0"), what="the older rules at setup")
        assert s.shows(t(lang, "lib_older")) and s.shows(t(lang, "lib_from"))
        assert not s.find(ident="keep-old-1-0")  # the rule just saved is this session's: offered once
        for seat in (0, 1):
            s.toggle(switch_in(s, f"keep-old-0-{seat}"), True)
        s.tap(ident="carry-start")
        s.wait_for(lambda: s.shows(t(lang, counted("carry_kept", 1), n=1)), what="the new session")
        assert not s.conn.crashes
    finally:
        s.close()
    st = open_storage(tmp_path / "app.sqlite")
    [new] = [x for x in api.sessions(st) if x["id"] != sid]
    rules = SessionFlow.resume(st, int(new["id"])).session.rules
    assert [(r.id, r.author) for r in rules] == [("big-take-reveal-3", None)] and winner in (0, 1)
    st.close()


def test_a_rule_is_taken_out_of_the_library_at_setup(tmp_path: Path) -> None:
    st = open_storage(tmp_path / "app.sqlite")
    api.save_preset(st, "lopti_rule", "elsewhere", ELSEWHERE)
    flow = SessionFlow(st, ["person"], seed=4)
    won(flow)
    sid = flow.session_id
    st.close()
    s = open_at(tmp_path, f"/lopti/session/{sid}")
    try:
        s.wait_for(lambda: s.find(ident="sess-again"), what="between deals")
        s.tap(ident="sess-again")
        s.wait_for(lambda: s.find(ident="forget-old-0"), what="the library's rule")
        s.tap(ident="forget-old-0")
        s.wait_for(lambda: not s.find(ident="keep-old-0-0"), what="the rule gone from the setup")
        assert api.presets(s.app.storage, "lopti_rule") == [] and not s.shows(t("en", "lib_older"))
        assert s.find(ident="carry-start") and not s.conn.crashes
    finally:
        s.close()
