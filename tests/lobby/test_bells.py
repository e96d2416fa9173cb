"""Open streams and long polls wait on the match's bell (lobby/notify.py), not on a database
poll: a move wakes them at once, and a quiet wait reads the database only when rung."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lobby import service as svc
from lobby.app import create_app
from lobby.clock import FakeClock
from lobby.notify import Bells
from tests.lobby.conftest import Lobby
from tests.lobby.test_lobby import both_first_moves


def test_a_ring_from_another_thread_wakes_the_waiter_and_a_ring_after_arming_is_not_lost() -> None:
    async def scenario() -> tuple[bool, bool, bool, int]:
        bells = Bells()
        bells.bind(asyncio.get_running_loop())
        f = bells.arm("m1")
        threading.Thread(target=bells.ring, args=("m1",)).start()
        woken = await bells.until("m1", f, 10)
        g = bells.arm("m2")
        bells.ring("m2")  # rung between arming and waiting (e.g. during the database read)
        early = await bells.until("m2", g, 10)
        h = bells.arm("m3")
        bells.ring("other")
        idle = await bells.until("m3", h, 0.05)
        return woken, early, idle, bells.waiting()

    woken, early, idle, left = asyncio.run(scenario())
    assert woken and early and not idle and left == 0


@pytest.fixture()
def quiet_lobby(tmp_path: Any) -> Any:
    """A lobby whose waiters never re-read on their own within a test: only a ring wakes them."""
    clock = FakeClock()
    app = create_app(f"sqlite:///{tmp_path / 'bells.sqlite'}", clock=clock, run_sweeper=False,
                     touch_s=60, fallback_s=60)
    with TestClient(app) as c:
        yield Lobby(c, clock, app)


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads: list[int] = []
    real = svc.events_after

    def counted(*args: Any) -> Any:
        reads.append(1)
        return real(*args)
    monkeypatch.setattr(svc, "events_after", counted)
    return reads


def _wait_for_waiter(lobby: Lobby) -> None:
    deadline = time.monotonic() + 20
    while lobby.app.state.bells.waiting() == 0:
        assert time.monotonic() < deadline, "the long poll never started waiting"
        time.sleep(0.02)


def _running(lobby: Lobby) -> tuple[str, dict[str, str], dict[str, str], int]:
    """A match past both first moves: (id, the player to move, the other, the other's last event)."""
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    both_first_moves(lobby, mid, a, b)
    mover, other = lobby.to_move(mid, a, b)
    return mid, mover, other, lobby.view(other, mid)["event_count"]


def test_a_long_poll_is_woken_by_the_opponents_move(quiet_lobby: Lobby, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = quiet_lobby
    mid, mover, waiter, since = _running(lobby)
    reads = _count_reads(monkeypatch)
    got: dict[str, Any] = {}

    def long_poll() -> None:
        got["body"] = lobby.c.get(f"/matches/{mid}/poll?since={since}&timeout=30", headers=lobby.h(waiter)).json()

    t = threading.Thread(target=long_poll)
    t.start()
    _wait_for_waiter(lobby)
    assert lobby.move(mover, mid).status_code == 200
    t.join(20)
    assert not t.is_alive(), "the move did not wake the long poll"
    events = got["body"]["events"]
    assert events and events[0]["n"] == since + 1
    assert len(reads) == 2  # one read before waiting, one after the ring: no polling loop


def test_an_event_stream_delivers_a_move_when_it_happens(quiet_lobby: Lobby) -> None:
    lobby = quiet_lobby
    mid, mover, watcher, since = _running(lobby)
    seen: list[str] = []

    def watch() -> None:
        with lobby.c.stream("GET", f"/matches/{mid}/events?since={since}", headers=lobby.h(watcher)) as r:
            for line in r.iter_lines():
                if line.startswith("id: "):
                    seen.append(line)
                    return

    t = threading.Thread(target=watch)
    t.start()
    _wait_for_waiter(lobby)
    assert lobby.move(mover, mid).status_code == 200
    t.join(10)  # a quiet stream re-reads on its own only after 15 s (its keep-alive)
    assert not t.is_alive() and seen == [f"id: {since + 1}"]


def test_an_open_stream_keeps_its_player_present(tmp_path: Any) -> None:
    """No request for 70 s of match time, but the stream touches every ``touch_s``: the opponent
    never sees this player away, and the sweeper does not flag them (L-8.4 disconnect rule)."""
    clock = FakeClock()
    app = create_app(f"sqlite:///{tmp_path / 'present.sqlite'}", clock=clock, run_sweeper=False,
                     touch_s=0.05, fallback_s=60)
    with TestClient(app) as c:
        lobby = Lobby(c, clock, app)
        a, b = lobby.player("Ann"), lobby.player("Bob")
        mid = lobby.match(a, b)
        both_first_moves(lobby, mid, a, b)
        stop = threading.Event()
        since = lobby.view(a, mid)["event_count"]

        def watch() -> None:
            with c.stream("GET", f"/matches/{mid}/events?since={since}", headers=lobby.h(a)) as r:
                for _ in r.iter_lines():
                    if stop.is_set():
                        return

        t = threading.Thread(target=watch, daemon=True)
        t.start()
        _wait_for_waiter(lobby)
        for _ in range(7):  # 70 s of match time in 10 s steps, each long enough for a touch
            clock.advance(10)
            deadline = time.monotonic() + 20
            while lobby.view(b, mid)["opponent_away_s"] is not None:
                assert time.monotonic() < deadline, "the open stream did not mark its player present"
                time.sleep(0.05)
        app.state.sweep_once()
        assert lobby.view(b, mid)["status"] == "running"
        stop.set()
        who, _ = lobby.to_move(mid, a, b)
        assert lobby.move(who, mid).status_code == 200  # its event lets the stream's reader stop
        t.join(10)
        assert not t.is_alive()


def test_a_failing_sweep_is_logged_and_the_sweeper_goes_on(tmp_path, monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    """A pass of the background sweeper that raises is logged with its traceback (never swallowed
    in silence), and the next pass runs."""
    import logging
    import time as _time

    from fastapi.testclient import TestClient

    from lobby import service as svc
    from lobby.app import create_app
    from lobby.clock import FakeClock

    calls: list[int] = []

    def broken(*args):  # type: ignore[no-untyped-def]
        calls.append(1)
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(svc, "due_ids", broken)
    app = create_app(f"sqlite:///{tmp_path / 'sweep.sqlite'}", clock=FakeClock(), run_sweeper=True)
    with caplog.at_level(logging.ERROR, logger="lobby"), TestClient(app):
        deadline = _time.monotonic() + 10
        while len(calls) < 2 and _time.monotonic() < deadline:
            _time.sleep(0.1)
    assert len(calls) >= 2  # the sweeper survived the first failure
    assert any("sweeper" in r.getMessage() and r.exc_info for r in caplog.records)
