"""Spectators (#45 item 3): the public list of running rated matches, a spectator's view and its
public events, the opt-out, and what survives a restart. Only public information: the hidden-card
property over random matches is in tests/lobby/test_lobby.py (players and spectators alike); here,
each way a spectator is turned away and the view after a restart. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session

from engine.lanes.notation import spectate
from lobby.clock import FakeClock
from lobby.models import Match
from lobby.service import state_of
from tests.lobby.conftest import Lobby
from tests.lobby.test_lobby import serving


def live(lobby: Lobby) -> list[dict[str, Any]]:
    r = lobby.c.get("/live")
    assert r.status_code == 200, r.text
    return list(r.json())


def spectators(lobby: Lobby, who: dict[str, str], allowed: bool) -> None:
    r = lobby.c.put("/players/me/spectators", json={"spectators": allowed}, headers=lobby.h(who))
    assert r.status_code == 200 and r.json() == {"spectators": allowed}, r.text


def hides_every_hand_and_deck(lobby: Lobby, mid: str, text: str) -> None:
    """No hand, no five cards of a deck in their order, no seed in ``text``."""
    with Session(lobby.app.state.engine) as db:
        m = db.get(Match, mid)
        assert m is not None
        state, seed = state_of(m), m.seed
    assert str(seed) not in text
    for side in state.sides:
        if len(side.hand) > 1:
            assert json.dumps([str(c) for c in side.hand]) not in text
        for cards in (side.hand, side.deck):
            names = [json.dumps(str(c)) for c in cards]
            for i in range(len(names) - 4):
                assert ", ".join(names[i:i + 5]) not in text


def test_running_rated_matches_are_listed_and_watched_without_an_account(lobby: Lobby) -> None:
    a, b, c, d = (lobby.player(n) for n in ("Ann", "Bob", "Cy", "Di"))
    rated = lobby.match(a, b, tc="5+3")
    casual = lobby.match(c, d, rated=False, tc="10+5")
    listed = live(lobby)
    assert [m["match_id"] for m in listed] == [rated]  # a casual match is private
    assert {p["name"] for p in listed[0]["players"]} == {"Ann", "Bob"} and listed[0]["time_control"] == "5+3"
    assert lobby.c.get(f"/live/{casual}").status_code == 404
    for _ in range(3):
        lobby.move(lobby.to_move(rated, a, b)[0], rated)
    view = lobby.c.get(f"/live/{rated}").json()  # no Authorization header at all
    assert view["spectator"] is True and view["move_count"] == 3 and view["legal"] == []
    assert view["observation"]["hand"] == [] and view["clock"]["remaining_ms"] is not None
    with Session(lobby.app.state.engine) as db:
        m = db.get(Match, rated)
        assert m is not None
        assert view["observation"] == spectate(state_of(m))
    public = lobby.c.get(f"/live/{rated}/poll", params={"since": 0, "timeout": 0}).json()
    mine = lobby.c.get(f"/matches/{rated}/poll", params={"since": 0, "timeout": 0}, headers=lobby.h(a)).json()
    # the same events but each player's own draws (the view's hand sizes say that a card was drawn)
    assert [e for e in mine["events"] if e["type"] != "draw"] == public["events"]
    assert public["events"] and {"move", "start"} <= {e["type"] for e in public["events"]}
    hides_every_hand_and_deck(lobby, rated, json.dumps(view) + json.dumps(public))
    later = lobby.c.get(f"/live/{rated}/poll", params={"since": public["view"]["event_count"], "timeout": 0})
    assert later.json()["events"] == []


def test_a_player_who_opts_out_is_neither_listed_nor_watched(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    assert lobby.c.get("/players/me", headers=lobby.h(a)).json()["spectators"] is True
    mid = lobby.match(a, b)
    spectators(lobby, b, False)
    assert lobby.c.get("/players/me", headers=lobby.h(b)).json()["spectators"] is False
    assert live(lobby) == []
    assert lobby.c.get(f"/live/{mid}").status_code == 404
    assert lobby.c.get(f"/live/{mid}/poll?timeout=0").status_code == 404
    spectators(lobby, b, True)
    assert [m["match_id"] for m in live(lobby)] == [mid]
    assert lobby.c.put("/players/me/spectators", json={"spectators": "no"}, headers=lobby.h(a)).status_code == 422
    assert lobby.c.put("/players/me/spectators", json={"spectators": False}).status_code == 401


def test_an_ended_match_leaves_the_list_and_shows_its_result(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    lobby.c.post(f"/matches/{mid}/resign", headers=lobby.h(a))
    assert live(lobby) == []
    view = lobby.c.get(f"/live/{mid}").json()
    assert view["status"] == "finished" and view["reason"] == "resigned" and view["winner"] is not None
    assert lobby.c.get("/live/m_nosuch").status_code == 404


def test_a_spectators_view_after_a_restart_is_the_same_and_still_public(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'lobby.sqlite'}"
    clock = FakeClock()
    with serving(url, clock) as lb:
        a, b = lb.player("Ann"), lb.player("Bob")
        mid = lb.match(a, b)
        for _ in range(4):
            lb.move(lb.to_move(mid, a, b)[0], mid)
        before = lb.c.get(f"/live/{mid}").json()
        lb.app.state.sweep_once()
    with serving(url, clock) as lb2:
        after = lb2.c.get(f"/live/{mid}").json()
        events = lb2.c.get(f"/live/{mid}/poll", params={"since": 0, "timeout": 0}).json()
        assert after["observation"] == before["observation"] and after["move_count"] == 4
        assert [m["match_id"] for m in lb2.c.get("/live").json()] == [mid]
        hides_every_hand_and_deck(lb2, mid, json.dumps(after) + json.dumps(events))
