"""Online calls never hold the event loop every browser session shares (#41): while one player's
move waits on a slow lobby, another player's tap on their own table is handled at once; and two
syncs of one match that answer out of order leave the table on the newer answer.

The slow lobby is a real one behind a transport that holds a request until the test lets it go,
so nothing here depends on timing: the other player's tap must finish while the move is held."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from engine.bots import decide
from engine.lanes import RULES
from storage.lobby_client import LobbyClient
from tests.views.modes import online_seat
from tests.views.online_lobby import ann_and_bob
from tests.views.screen import Screen
from views.app import start
from views.online.controller import OnlineMode
from views.online.table import OnlineSeat, open_online_table


class Held(httpx.BaseTransport):
    """Requests whose path ends with ``suffix`` wait until :attr:`release` is set: before they
    reach the lobby, or (``answer=True``) after it answered, the answer held back."""

    def __init__(self, suffix: str, answer: bool = False) -> None:
        self.inner = httpx.HTTPTransport()
        self.suffix, self.answer = suffix, answer
        self.holding, self.release = threading.Event(), threading.Event()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not request.url.path.endswith(self.suffix):
            return self.inner.handle_request(request)
        if self.answer:
            response = self.inner.handle_request(request)
            response.read()
        self.holding.set()
        self.release.wait(60)
        return response if self.answer else self.inner.handle_request(request)


@pytest.fixture
def match(tmp_path: Path) -> Iterator[tuple[str, LobbyClient, LobbyClient, str]]:
    """A running casual match at a real lobby, Ann (the app's player) to move."""
    with ann_and_bob(tmp_path, rated=False, time_control="untimed") as (url, ann, bob, mid):
        for _ in range(2):
            v = bob.view(mid)
            if v["clock"]["to_move"] == v["seat"]:
                act = decide("lanes", v["observation"], "beginner", v["move_count"])
                bob.move(mid, v["move_count"], RULES.action_to_json(act))
        yield url, ann, bob, mid


def online_table(s: Screen, client: LobbyClient, mid: str) -> OnlineSeat:
    """The lobby's part of the online table opened on ``s`` for match ``mid``."""
    s.call(lambda: open_online_table(s.app, client, client.view(mid)))
    return s.wait_for(lambda: online_seat(s.app.screen), what="the online table")


def my_play(view: dict[str, Any]) -> dict[str, Any]:
    """A card played onto one of my own lanes, from the server's legal list."""
    return next(a for a in view["legal"] if "play" in a and "owner" not in a and "stack" not in a)


def test_a_move_waiting_on_the_lobby_leaves_every_other_table_responsive(tmp_path: Path, match: Any) -> None:
    url, ann, bob, mid = match
    held = Held(f"/matches/{mid}/moves")
    slow = LobbyClient(url, ann.token, transport=held)
    mine = Screen(tmp_path / "ann.sqlite", start)
    other = Screen(tmp_path / "cleo.sqlite", start, route="/lanes/new", beside=mine)  # another browser
    try:
        table = online_table(mine, slow, mid)
        play = my_play(table.online.view)
        card, lane = play["play"], play["lane"]
        seq = table.online.seq
        mine.tap(ident=f"hand-{table.online.observation()['hand'].index(card)}")
        mine.tap(ident=f"lane-{table.online.seat}-{lane}", timeout=0)  # the move goes to the held lobby
        assert held.holding.wait(20), "the move never reached the lobby"
        other.tap("Beginner", timeout=20)  # Cleo starts a game and picks a card while Ann's move is held
        other.wait_for(lambda: other.find(ident="hand-0") and other.app.screen.match.my_turn,
                       what="Cleo's turn (her bot may open)")  # the bot's turn runs on the same loop
        other.tap(ident="hand-0", timeout=20)
        assert other.app.screen.match.selected is not None
        assert table.online.queued() and "…" in table.clocks.value  # Ann sees her move being sent
        held.release.set()
        mine.wait_for(lambda: table.online.seq == seq + 1 and not table.online.queued(), what="Ann's move taken")
        assert bob.view(mid)["move_count"] == seq + 1
    finally:
        held.release.set()
        other.close()
        mine.close()
        slow.close()


def test_two_syncs_answering_out_of_order_leave_the_newer_view(match: Any) -> None:
    """A long poll that started before the opponent moved answers last, with the older view; the
    re-sync on return from the background answered first with the newer one. The table keeps the
    newer: move count, clocks and hand as the lobby has them now."""
    url, ann, bob, mid = match
    held = Held("/poll", answer=True)
    online = OnlineMode(LobbyClient(url, ann.token, transport=held), ann.view(mid), now=0.0)
    old_poll = threading.Thread(target=online.sync, args=(1.0,))
    old_poll.start()  # the lobby answers at once, with the view from before the moves below: held back
    assert held.holding.wait(20)
    ann.move(mid, online.seq, my_play(online.view))  # Ann moves from her other device
    v = bob.view(mid)
    bob.move(mid, v["move_count"], RULES.action_to_json(decide("lanes", v["observation"], "beginner",
                                                                v["move_count"])))
    newest = ann.view(mid)
    fresh = OnlineMode(ann, newest, now=0.0)  # what a re-sync sees now
    online.client = ann
    assert online.sync(2.0)
    assert online.seq == newest["move_count"]
    held.release.set()  # the old poll's answer arrives last
    old_poll.join(timeout=30)
    assert not old_poll.is_alive()
    assert online.seq == newest["move_count"] == fresh.seq
    assert online.observation()["hand"] == newest["observation"]["hand"]
    assert online.view["clock"]["to_move"] == newest["clock"]["to_move"]


def test_abort_before_both_have_moved_ends_the_match_on_the_table(tmp_path: Path, match: Any) -> None:
    """#45 item 2: the online table offers Abort until both players have moved; confirmed, the lobby
    ends the match with no winner and the button goes (against a real lobby process)."""
    url, ann, bob, mid = match
    assert ann.view(mid)["can_abort"]  # Ann has not moved yet
    s = Screen(tmp_path / "ann.sqlite", start)
    try:
        table = online_table(s, LobbyClient(url, ann.token), mid)
        s.tap(ident="online-abort")
        s.wait_for(lambda: s.find(ident="abort-confirm"), what="the question")
        s.tap(ident="abort-confirm")
        s.wait_for(lambda: table.online.view["status"] == "aborted", what="the match aborted")
        s.wait_for(lambda: not s.find(ident="online-abort"), what="the button gone")
    finally:
        s.close()
    v = bob.view(mid)
    assert v["status"] == "aborted" and v["winner"] is None and v["reason"] == "aborted"
