"""Table rules on screen (#36 item 1): the winner writes a rule in their own words, the screen
says the table keeps it (the engine never enforces it, P-13), and it is shown with its author,
reworded by a vote and deleted by its author like any house rule — in each language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storage import api
from storage.db import open_storage
from tests.views.test_lopti_session import play_out
from tests.views.test_screens import open_at, switch_in
from views.lopti.session import SessionFlow
from views.ui.i18n import t

WORDS = {"en": "Whoever plays a queen says “long live the queen”.",
         "ar": "من يلعب الملكة يقول «عاشت الملكة».",
         "vi": "Ai đánh quân Q phải nói “Nữ hoàng muôn năm”."}


def session_with_a_winner(tmp_path: Path, lang: str) -> tuple[int, int]:
    """A two-person session after its first deal, the winner's rule still to write: (id, winner)."""
    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, language=lang)
    flow = SessionFlow(st, ["person"], seed=4)
    m = flow.start_deal()
    play_out(m)
    flow.deal_over(m)
    assert flow.rule_pending() and flow.session_id is not None and flow.winner is not None
    sid, winner = flow.session_id, flow.winner
    st.close()
    return sid, winner


def write(s: Any, words: str) -> None:
    field = s.wait_for(lambda: s.find(ident="tr-words") and s.one(ident="tr-words").content, what="the words")
    s.enter(field, words)


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_a_table_rule_is_written_reworded_by_a_vote_and_deleted_by_its_author(tmp_path: Path, lang: str) -> None:
    sid, winner = session_with_a_winner(tmp_path, lang)
    s = open_at(tmp_path, f"/lopti/session/{sid}")
    try:
        s.wait_for(lambda: s.find(ident="rb-words"), what="the winner's rule screen")
        s.tap(ident="rb-words")
        write(s, "   ")
        s.tap(ident="tr-done")
        s.wait_for(s.dialog_shown, what="the words are asked for")
        assert s.shows(t(lang, "tr_empty")) and s.shows(t(lang, "tr_means"))
        s.call(lambda: s.page.pop_dialog())
        write(s, WORDS[lang] + "\n")
        s.tap(ident="tr-done")
        rid = f"table-1-{winner}"
        s.wait_for(lambda: s.find(ident=f"sess-rule-{rid}"), what="the rule among the session's rules")
        assert s.shows(WORDS[lang]) and any(t(lang, "tr_kept") in w for w in s.texts())
        flow = SessionFlow.resume(s.app.storage, sid)
        assert flow.session.rules[0].rule["table"] == WORDS[lang]
        assert flow.session.deal_options().house_rules == ()  # the next deal is dealt as without it
        s.tap(ident="sess-vote")
        modify = next(i for i, p in enumerate(flow.proposals(0)) if p.kind == "modify")
        s.wait_for(lambda: s.find(ident=f"prop-{modify}"), what="the proposals")
        s.tap(ident=f"prop-{modify}")
        write(s, "Queens: everyone sings.")
        s.tap(ident="rb-done")
        s.wait_for(lambda: s.find(ident="vote-count"), what="the vote on the new words")
        for seat in (0, 1):
            s.toggle(switch_in(s, f"vote-{seat}"), True)
        s.tap(ident="vote-count")
        s.wait_for(lambda: s.shows("Queens: everyone sings."), what="the rule reworded")
        s.wait_for(lambda: s.find(ident=f"sess-delete-{rid}"), what="its author may delete it")
        s.tap(ident=f"sess-delete-{rid}")
        s.wait_for(lambda: any(t(lang, "sess_removed") in w for w in s.texts()), what="the rule deleted")
        assert not s.conn.crashes
    finally:
        s.close()
    st = open_storage(tmp_path / "app.sqlite")
    again = SessionFlow.resume(st, sid).session  # the steps replay to the same session
    assert again.rules[0].rule["table"] == "Queens: everyone sings." and not again.rules[0].in_force
    st.close()


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_a_table_rule_is_read_at_each_handover_and_listed_and_deleted_on_the_table(tmp_path: Path, lang: str) -> None:
    """Pass-and-play: the next deal's handover reads the table rule out (the players keep it), the
    table's House rules list shows it as kept by the table, and its author deletes it there."""
    sid, winner = session_with_a_winner(tmp_path, lang)
    s = open_at(tmp_path, f"/lopti/session/{sid}")
    rid = f"table-1-{winner}"
    try:
        s.wait_for(lambda: s.find(ident="rb-words"), what="the winner's rule screen")
        s.tap(ident="rb-words")
        write(s, WORDS[lang])
        s.tap(ident="tr-done")
        s.wait_for(lambda: s.find(ident="sess-next"), what="between deals")
        s.tap(ident="sess-next")
        s.wait_for(lambda: s.find(ident="privacy-ready") or s.find(ident="hand-0"), what="the deal")
        if not s.find(ident="privacy-ready"):  # I lead: I keep my cards, and the device goes to Player 2
            s.tap(t(lang, "keep"))
            s.wait_for(lambda: s.find(ident="privacy-ready"), what="the handover")
        assert s.find(ident="handover-rules") and s.shows(WORDS[lang]) and s.shows(t(lang, "tr_handover"))
        s.tap(ident="privacy-ready")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the table")
        assert s.shows(t(lang, "house_rules_n", n=1))
        s.tap(ident="house-rules")
        s.wait_for(lambda: s.find(ident=f"in-force-{rid}"), what="the house rules list")
        assert s.shows(WORDS[lang]) and any(t(lang, "tr_kept") in w for w in s.texts())
        s.tap(ident=f"delete-{rid}")
        s.wait_for(lambda: not s.find(ident=f"in-force-{rid}"), what="the list closed")
        s.wait_for(lambda: not s.find(ident="house-rules"), what="no house rule left on the table")
        assert s.shows(t(lang, "sess_deleted", rule=WORDS[lang]))
        assert not s.conn.crashes
    finally:
        s.close()
    st = open_storage(tmp_path / "app.sqlite")
    assert not SessionFlow.resume(st, sid).session.rules[0].in_force
    st.close()
