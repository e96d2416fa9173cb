"""The lobby's limits in process (#41; the same against real processes: tests/lobby/test_abuse.py):
the rate limit is checked before a move's body is read or parsed, and the presence the sweeper
writes is one statement for every seat of every match noted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from lobby import hot, rows
from lobby.app import create_app
from lobby.clock import FakeClock
from lobby.models import Match
from tests.lobby.conftest import Lobby


def test_a_move_over_the_rate_limit_is_refused_before_its_body_is_parsed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    app = create_app(f"sqlite:///{tmp_path / 'l.sqlite'}", clock=clock, run_sweeper=False, rate=0.001, burst=6)
    parsed: list[bytes] = []
    real = hot.move_fields
    def counted(body: bytes) -> Any:
        parsed.append(body)
        return real(body)

    monkeypatch.setattr(hot, "move_fields", counted)
    with TestClient(app) as c:
        lobby = Lobby(c, clock, app)
        ann, bob = lobby.player("Ann"), lobby.player("Bob")
        mid = lobby.match(ann, bob, rated=False)
        move = {"expected_move": 0, "client_move_id": "m1", "action": {"discard": "AS"}}
        statuses = [c.post(f"/matches/{mid}/moves", json=move, headers=lobby.h(ann)).status_code for _ in range(8)]
    assert statuses[-1] == 429 and 429 in statuses
    assert len(parsed) == statuses.index(429)  # every move over the limit was refused unread


def test_a_body_over_the_cap_is_413_on_every_route(lobby: Lobby) -> None:
    ann = lobby.player("Ann")
    big = b'{"name": "' + b"x" * hot.MAX_BODY + b'"}'
    for path in ("/players", "/challenges", "/matches/nope/moves", "/seeks"):
        r = lobby.c.post(path, content=big, headers={**lobby.h(ann), "Content-Type": "application/json"})
        assert r.status_code == 413 and r.json()["error"] == "request body too large", (path, r.text)
    assert lobby.c.post("/players", json={"name": "Small"}).status_code == 201


def test_the_presence_of_every_seat_is_written_in_one_statement(lobby: Lobby, monkeypatch: pytest.MonkeyPatch) -> None:
    players = [lobby.player(f"P{i}") for i in range(6)]
    mids = [lobby.match(players[i], players[i + 1], rated=False) for i in range(0, 6, 2)]
    later = lobby.clock.now() + 30
    for mid in mids:  # every seat of three matches noted present, later than the rows say
        for seat in (0, 1):
            rows.PRESENCE.note(mid, seat, later + seat)
    singles: list[tuple[str, Any]] = []
    real_run = rows.run
    def run(db: Any, statement: str, params: Any = None) -> Any:
        singles.append((statement, params))
        return real_run(db, statement, params)

    monkeypatch.setattr(rows, "run", run)
    lobby.app.state.sweep_once()
    monkeypatch.undo()
    updates = [params for x, params in singles if "last_seen" in x and x.startswith("UPDATE")]
    assert len(updates) == 1  # every match noted in this process, in one statement
    assert set(mids) <= {v for k, v in updates[0].items() if k.startswith("id")}
    with Session(lobby.app.state.engine) as db:
        for mid in mids:
            m = db.get(Match, mid)
            assert m is not None and (m.last_seen0, m.last_seen1) == (later, later + 1)


def test_a_stream_gives_its_slot_back_even_if_the_client_left_before_the_first_event() -> None:
    """An event stream's slot (LOBBY_MAX_STREAMS) is released by the response however it ends; a
    generator that never started runs no ``finally``, so a client gone at once leaked a slot."""
    import asyncio

    from lobby.routes.matches import CountedStream

    released: list[bool] = []

    async def never_read() -> Any:
        yield "event"

    async def gone(message: Any) -> None:
        raise OSError("the client went away")

    async def disconnected() -> dict[str, str]:
        return {"type": "http.disconnect"}

    response = CountedStream(never_read(), lambda: released.append(True), media_type="text/event-stream")
    with pytest.raises(BaseException):  # noqa: B017 - whatever the server makes of the broken send
        asyncio.run(response({"type": "http", "asgi": {"spec_version": "2.4"}}, disconnected, gone))
    assert released == [True]
