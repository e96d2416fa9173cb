"""Abort (#45 item 2): either player may end a match before both have made their first move, as
lichess allows. Unrated, no winner, and an engine action in the record like every other ending, so
the published record replays to it. On SQLite and PostgreSQL (the db_url fixture)."""

from __future__ import annotations

from engine.core import GameRecord, replay
from engine.lanes import RULES
from tests.lobby.conftest import Lobby


def abort(lobby: Lobby, who: dict[str, str], mid: str) -> tuple[int, dict[str, object]]:
    r = lobby.c.post(f"/matches/{mid}/abort", headers=lobby.h(who))
    return r.status_code, r.json()


def test_a_match_is_aborted_before_any_move_unrated_and_replayable(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b, rated=True)
    assert lobby.view(a, mid)["can_abort"] is True
    status, v = abort(lobby, b, mid)
    assert status == 200 and v["status"] == "aborted" and v["winner"] is None and v["reason"] == "aborted"
    assert v["can_abort"] is False and v["rating_change"] is None and v["legal"] == []
    assert lobby.c.get("/players/me", headers=lobby.h(a)).json()["rated_games"] == 0
    record = lobby.c.get(f"/matches/{mid}/replay").json()
    assert record["actions"] == [{"abort": True}]
    state, _ = replay(RULES, GameRecord("lanes", record["options"], record["seed"], 2, tuple(record["actions"])))
    assert state.over and state.winner is None and state.reason == "aborted"


def test_after_one_first_move_either_player_may_still_abort(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    first, second = lobby.to_move(mid, a, b)
    lobby.move(first, mid)
    assert lobby.view(second, mid)["can_abort"] is True
    status, v = abort(lobby, first, mid)  # the one who moved, too
    assert status == 200 and v["status"] == "aborted"
    assert abort(lobby, second, mid)[0] == 409  # over: nothing more to abort


def test_once_both_have_moved_abort_is_refused_and_nothing_changes(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    for _ in range(2):
        who, _other = lobby.to_move(mid, a, b)
        lobby.move(who, mid)
    before = lobby.view(a, mid)
    assert before["can_abort"] is False
    status, body = abort(lobby, a, mid)
    assert status == 409 and "resign" in str(body)
    after = lobby.view(a, mid)
    assert after["status"] == "running" and after["move_count"] == before["move_count"]


def test_a_stranger_cannot_abort(lobby: Lobby) -> None:
    a, b, c = lobby.player("Ann"), lobby.player("Bob"), lobby.player("Cy")
    mid = lobby.match(a, b)
    assert abort(lobby, c, mid)[0] == 403
    assert lobby.view(a, mid)["status"] == "running"
