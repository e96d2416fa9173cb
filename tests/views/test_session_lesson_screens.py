"""The Lopti sessions lesson (#36 item 7) played to its end on the real session screens, in each
language: who deals and leads (P-2.3), the supporters' knockout when a rule's author asks to
remove it (P-10.2, P-10.4), a player leaving with their rule kept, and a rule carried into the
next session by a majority (P-11.1, P-11.2). The coach follows the engine's sessions."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import api
from storage.db import open_storage
from tests.views.test_screens import open_at, switch_in, throw_the_knockout
from views.table.lessons import find
from views.ui.i18n import t

LESSON = "lopti-15-sessions"


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_the_sessions_lesson_is_played_to_its_end(tmp_path: Path, lang: str) -> None:
    from engine.lopti.session_lesson import SessionLesson

    lesson = find(LESSON)
    assert isinstance(lesson, SessionLesson)
    start = lesson.start()
    remove_own = next(i for i, p in enumerate(start.proposals_for(1))
                      if p.kind == "remove" and p.rule_id == "queens-reverse-1")
    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, language=lang)
    st.close()
    s = open_at(tmp_path, f"/lesson/{LESSON}")
    try:
        s.wait_for(lambda: s.find(ident="sess-vote"), what="the table between deals 2 and 3")
        assert s.shows(lesson.steps[0].text[lang]) and not s.find(ident="sess-next") and not s.find(ident="sess-end")
        player = lambda n: t(lang, "player_n", n=n)  # noqa: E731
        assert s.shows(t(lang, "sess_dealer_next", n=3, dealer=player(3), leader=player(2)))  # P-2.3
        s.tap(ident="sess-vote")
        chooser = s.wait_for(lambda: s.find(ident="proposer") and s.one(ident="proposer").content, what="who")
        s.enter(chooser, "1")
        s.fire(chooser, "select", "1")
        s.wait_for(lambda: s.one(ident="proposer").content.value == "1", what="Player 2 proposing")
        s.tap(ident=f"prop-{remove_own}")
        s.wait_for(lambda: s.find(ident="vote-count"), what="the vote")
        for seat in (1, 2):  # yes for Players 2 and 3; me and Player 4 keep the rule: a tie
            s.toggle(switch_in(s, f"vote-{seat}"), True)
        s.tap(ident="vote-count")
        s.wait_for(lambda: s.find(ident="defend-0") and s.find(ident="defend-3"), what="the supporters")
        for seat in (0, 3):
            s.toggle(switch_in(s, f"defend-{seat}"), True)
        s.tap(ident="defend-go")
        throw_the_knockout(s)
        s.wait_for(lambda: s.find(ident="rps-auto"), what="the series against the proposer")
        s.tap(ident="rps-auto")
        s.wait_for(lambda: s.shows(lesson.steps[1].text[lang]), what="the knockout step done")
        s.tap(ident="sess-leave-2")
        s.wait_for(lambda: s.find(ident="leave-confirm-2"), what="the confirmation")
        s.tap(ident="leave-confirm-2")
        s.wait_for(lambda: s.shows(lesson.steps[2].text[lang]), what="the leaving step done")
        s.wait_for(lambda: not s.dialog_shown(), what="the confirmation closed")
        s.tap(ident="sess-again")
        rule = "three-eights-clear-2"  # Player 3's rule: in force whatever the vote decided
        s.wait_for(lambda: s.find(ident=f"keep-{rule}-0"), what="the new session's setup")
        for seat in (0, 1, 3):  # the people still at the table; Player 3's stand-in keeps its own rule
            s.toggle(switch_in(s, f"keep-{rule}-{seat}"), True)
        s.tap(ident="carry-start")
        s.wait_for(lambda: s.shows(lesson.done[lang]), what="the lesson done")
        assert s.shows(t(lang, "sess_dealer_first", n=1, dealer=t(lang, "you")))  # a new session: its dealer leads
        assert not s.conn.crashes
        assert api.lesson_progress(s.app.storage)[LESSON][1] is True
        assert api.sessions(s.app.storage) == []  # practice tables are never kept
    finally:
        s.close()
