"""Rematch on the online result screen (#45 item 1), against a real lobby process: the opponent's
offer is heard by the result dialog's long poll, Accept opens the new match with the seats swapped;
a declined offer says so and leaves no button; leaving the result screen declines at the lobby.
The negotiation's own rules are tested at the lobby (tests/lobby/test_rematch.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from storage.lobby_client import LobbyClient
from tests.views.modes import online_seat
from tests.views.online_lobby import ann_and_bob
from tests.views.screen import Screen
from views.app import start
from views.online.rematch import RematchTalk
from views.online.table import OnlineSeat, open_online_table


@pytest.fixture
def ended(tmp_path: Path) -> Iterator[tuple[LobbyClient, LobbyClient, str]]:
    """A casual 10+5 match at a real lobby, open on nobody's table yet; Bob will resign it."""
    with ann_and_bob(tmp_path, rated=False, time_control="10+5") as (_url, ann, bob, mid):
        yield ann, bob, mid


def result_on_table(s: Screen, ann: LobbyClient, bob: LobbyClient, mid: str) -> OnlineSeat:
    """Ann's table open on ``s``; Bob resigns; the result dialog shows with its Rematch button."""
    s.call(lambda: open_online_table(s.app, ann, ann.view(mid)))
    seat: OnlineSeat = s.wait_for(lambda: online_seat(s.app.screen), what="the online table")
    bob.resign(mid)
    s.wait_for(lambda: s.find(ident="online-rematch"), what="the result's Rematch button")
    return seat


def test_the_opponents_offer_is_heard_and_accept_opens_the_new_match(tmp_path: Path, ended: Any) -> None:
    ann, bob, mid = ended
    s = Screen(tmp_path / "ann.sqlite", start)
    try:
        seat = result_on_table(s, ann, bob, mid)
        old_seat = seat.online.seat
        assert bob.rematch(mid)["status"] == "offered"
        s.wait_text("Bob offers a rematch")  # heard by the dialog's long poll, no tap needed
        s.tap(ident="online-rematch")  # now "Accept rematch"
        new = s.wait_for(lambda: (x := online_seat(s.app.screen)) is not None and x is not seat and x,
                         what="the new match's table")
        assert new.online.match_id != mid and new.online.view["status"] == "running"
        assert new.online.seat == 1 - old_seat  # seats swapped
        assert bob.rematch_status(mid)["match_id"] == new.online.match_id  # the one Bob is told of
        assert not s.dialog_shown()
    finally:
        s.close()


def test_a_declined_offer_says_so_and_leaves_no_button(tmp_path: Path, ended: Any) -> None:
    ann, bob, mid = ended
    s = Screen(tmp_path / "ann.sqlite", start)
    try:
        result_on_table(s, ann, bob, mid)
        assert s.shows("Bob resigned.")  # the result names who ended the match
        s.tap(ident="online-rematch")
        s.wait_text("Rematch offered: waiting for Bob")
        assert not s.find(ident="online-rematch")  # no second offer while waiting
        assert bob.rematch_status(mid)["status"] == "offered"
        bob.decline_rematch(mid)
        s.wait_text("Bob declined a rematch.")
        assert not s.find(ident="online-rematch") and not s.find(ident="online-rematch-decline")
    finally:
        s.close()


def test_leaving_the_result_screen_declines_at_the_lobby(tmp_path: Path, ended: Any) -> None:
    ann, bob, mid = ended
    s = Screen(tmp_path / "ann.sqlite", start)
    try:
        result_on_table(s, ann, bob, mid)
        assert bob.rematch(mid)["status"] == "offered"
        s.wait_text("Bob offers a rematch")
        s.tap("Home")
        s.wait_for(lambda: bob.rematch_status(mid)["status"] == "declined", what="the lobby told of it")
        assert bob.rematch_status(mid)["offered_by"] is not None  # Bob's offer, declined by Ann's leaving
    finally:
        s.close()


class Answers:
    """A lobby client whose rematch calls answer from a list (for the talk's own bookkeeping)."""

    def __init__(self, *answers: dict[str, Any]) -> None:
        self.answers = list(answers)

    def rematch_status(self, match_id: str, since: int, timeout: float) -> dict[str, Any]:
        return self.answers.pop(0)


def test_an_older_answer_arriving_late_changes_nothing() -> None:
    offered = {"status": "offered", "mine": False, "offered_by": 1, "match_id": None, "event_count": 9}
    older = {"status": "none", "mine": False, "offered_by": None, "match_id": None, "event_count": 8}
    accepted = {**offered, "status": "accepted", "match_id": "m_2", "event_count": 10}
    talk = RematchTalk(Answers(offered, older, accepted, older), "m_1", 8)  # type: ignore[arg-type]
    assert talk.wait(0) and talk.status == "offered"
    assert not talk.wait(0) and talk.status == "offered"  # the late, older answer is not taken
    assert talk.wait(0) and talk.final and talk.state["match_id"] == "m_2"
    assert not talk.wait(0) and talk.state["match_id"] == "m_2"  # settled: nothing replaces it
    assert talk.line("en", "Bob") == "Rematch accepted: the new match is starting…"
