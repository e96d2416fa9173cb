"""Watching a live match (#45 item 3) in the app, against a real lobby process: the Online screen
lists the running rated matches, a tap opens the spectator's table — read-only, no hand, both names
on the clocks, whose move by name — which follows the moves and quick messages and shows who won;
and the Settings switch tells the lobby whether others may watch my matches. What the lobby lets a
spectator see is tested at the lobby (tests/lobby/test_spectate.py, the hidden-card property)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.bots import decide
from engine.lanes import RULES
from storage import api
from storage.db import open_storage
from storage.lobby_client import LobbyClient
from tests.helpers import free_port
from tests.lobby.test_e2e import start as start_lobby
from tests.views.modes import online_seat
from tests.views.test_screens import open_at
from views.online.watch import WatchSeat


@pytest.fixture
def lobby(tmp_path: Path) -> Iterator[tuple[str, LobbyClient, LobbyClient, str]]:
    """A rated 5+3 match between Ann and Bob at a real lobby, two moves in; and Cleo's app signed in."""
    port = free_port()
    proc = start_lobby(tmp_path / "lobby.sqlite", port)
    url = f"http://127.0.0.1:{port}"
    ann, bob, cleo = LobbyClient(url), LobbyClient(url), LobbyClient(url)
    try:
        ann.sign_up("Ann")
        bob.sign_up("Bob")
        me = cleo.sign_up("Cleo")
        mid = str(bob.accept(ann.challenge(rated=True, time_control="5+3"))["match_id"])
        for _ in range(2):
            play(ann, bob, mid)
        st = open_storage(tmp_path / "cleo.sqlite")
        assert cleo.token is not None
        api.set_account(st, url, me["id"], cleo.token, "Cleo")
        api.update_profile(st, lobby_url=url)
        st.close()
        yield url, ann, bob, mid
    finally:
        for c in (ann, bob, cleo):
            c.close()
        proc.kill()  # the spectator's table may be inside a 10 s long poll
        proc.wait(timeout=15)


def play(ann: LobbyClient, bob: LobbyClient, mid: str) -> None:
    """The player to move makes the beginner bot's move."""
    for c in (ann, bob):
        v = c.view(mid)
        if v["clock"]["to_move"] == v["seat"]:
            c.move(mid, v["move_count"], RULES.action_to_json(decide("lanes", v["observation"], "beginner",
                                                                     v["move_count"])))
            return


def test_a_spectator_finds_the_match_follows_it_and_sees_who_won(tmp_path: Path, lobby: Any) -> None:
    _url, ann, bob, mid = lobby
    s = open_at(tmp_path, "/online", db="cleo.sqlite")
    try:
        s.tap(ident="ol-watch", timeout=20)
        s.wait_for(lambda: s.find(ident="live-0"), what="the live match listed")
        assert s.shows("Ann (1500) – Bob (1500) · 5+3 · 2 moves") or s.shows("Bob (1500) – Ann (1500) · 5+3 · 2 moves")
        s.tap(ident="live-0")
        seat: WatchSeat = s.wait_for(lambda: online_seat(s.app.screen), what="the spectator's table")
        assert isinstance(seat, WatchSeat) and seat.online.match_id == mid
        names = [p["name"] for p in seat.online.view["players"]]
        assert not s.find(ident="hand-0") and not s.find(ident="online-say")  # no hand, nothing to say
        assert s.shows(f"Watching: {names[seat.online.view['clock']['to_move']]} to move")
        assert names[0] in seat.clocks.value and names[1] in seat.clocks.value and "You" not in seat.clocks.value
        before = seat.online.seq
        play(ann, bob, mid)
        s.wait_for(lambda: seat.online.seq == before + 1, what="the move followed")
        ann.say(mid, "hello")
        s.wait_for(lambda: [c.label for c in s.find(ident="said")] == ["Ann: Hello!"], what="Ann's phrase")
        ann.resign(mid)
        s.wait_text("Bob won")
        # the result dialog opens once the result has been announced (TurnBasedTable.after_said)
        s.wait_for(s.dialog_shown, what="the result dialog")
        assert s.shows("Ann resigned.")  # a spectator is told who, by name
    finally:
        s.close()


def test_the_settings_switch_tells_the_lobby_and_the_online_screen_keeps_it_so(tmp_path: Path, lobby: Any) -> None:
    url, ann, _bob, _mid = lobby
    st = open_storage(tmp_path / "cleo.sqlite")
    token = api.get_account(st, url).token  # type: ignore[union-attr]
    st.close()
    cleo = LobbyClient(url, token)
    s = open_at(tmp_path, "/settings", db="cleo.sqlite")
    try:
        switch = s.one(ident="setting-spectators")
        s.enter(switch.content, False)  # as the client reports a flipped switch
        s.tap("Save")
        s.wait_for(lambda: cleo.me()["spectators"] is False, what="the lobby told")
        cleo.set_spectators(True)  # the lobby disagrees (told from elsewhere)
        s.go("/online")
        s.wait_for(lambda: cleo.me()["spectators"] is False, what="the Online screen told it again")
    finally:
        s.close()
        cleo.close()
