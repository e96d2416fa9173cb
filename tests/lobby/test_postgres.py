"""The PostgreSQL path with several workers: a real `python -m lobby --workers 2` server on a
throwaway PostgreSQL cluster, and the races that several workers make possible — the same move sent
to both workers at once, two sweepers on one flagged match, two workers restarting together."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from sqlmodel import Session, create_engine, select

from engine.lanes import RULES
from lobby import service as svc
from lobby.app import create_app
from lobby.clock import FakeClock
from lobby.models import Match, MatchEvent, Player, ServerState
from storage.lobby_client import LobbyClient
from tests.conftest import ROOT
from tests.helpers import free_port
from tests.lobby.conftest import postgres_url
from tests.lobby.test_e2e import find_each_other, play_rated_match_and_check_ratings

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg() -> str:
    return postgres_url()


def two_workers(pg: str) -> tuple[subprocess.Popen[bytes], int]:
    """``python -m lobby --workers 2`` on ``pg``, once it answers."""
    import socket

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "lobby", "--port", str(port), "--db", pg, "--workers", "2"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.2)
    return proc, port


def test_two_workers_play_a_rated_match_and_both_ratings_change(pg: str) -> None:
    proc, port = two_workers(pg)
    try:
        url = f"http://127.0.0.1:{port}"
        a, b, mid = find_each_other(url)
        play_rated_match_and_check_ratings(a, b, mid)
        # the same move sent many times at once, spread over both workers: applied exactly once
        code = a.challenge(rated=False)
        vb = b.accept(code)
        mid2 = vb["match_id"]
        mover = a if a.view(mid2)["clock"]["to_move"] == a.view(mid2)["seat"] else b
        v = mover.view(mid2)
        action = RULES.action_to_json(RULES.parse_action(v["legal"][0]))
        results: list[Any] = []

        def send(i: int) -> None:
            c = LobbyClient(url)
            c.token = mover.token
            try:
                results.append(c.move(mid2, v["move_count"], action, client_move_id="same-move"))
            except Exception as exc:  # noqa: BLE001 - collected and checked below
                results.append(exc)
            finally:
                c.close()

        threads = [threading.Thread(target=send, args=(i,)) for i in range(8)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert all(isinstance(r, dict) for r in results), results
        assert len({json.dumps(r, sort_keys=True) for r in results}) == 1  # every answer: the original result
        assert mover.view(mid2)["move_count"] == v["move_count"] + 1
        a.close()
        b.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _flagged_match(url: str, clock: FakeClock) -> str:
    from fastapi.testclient import TestClient

    app = create_app(url, clock=clock, run_sweeper=False, rate=1000, burst=5000)
    with TestClient(app) as c:
        ids = []
        for name in ("Ann", "Bob"):
            r = c.post("/players", json={"name": name}).json()
            ids.append({"Authorization": "Bearer " + r["token"]})
        code = c.post("/challenges", json={"rated": True, "time_control": "3+2", "variants": []},
                      headers=ids[0]).json()["code"]
        mid = str(c.post(f"/challenges/{code}/accept", headers=ids[1]).json()["match_id"])
        for _ in range(2):  # both first moves, so the match is rated when it ends
            for h in ids:
                v = c.get(f"/matches/{mid}", headers=h).json()
                if v["clock"]["to_move"] == v["seat"]:
                    c.post(f"/matches/{mid}/moves", headers=h, json={
                        "expected_move": v["move_count"], "client_move_id": f"x{v['move_count']}",
                        "action": v["legal"][0]})
                    break
    return mid


def race(engine: Any, n: int, work: Any) -> list[Any]:
    """Run ``work(db)`` in ``n`` threads released at the same instant, each in its own transaction
    (as ``n`` workers would); returns their results."""
    barrier = threading.Barrier(n)
    results: list[Any] = []

    def one() -> None:
        barrier.wait()
        with Session(engine) as db:
            results.append(work(db))
            db.commit()

    threads = [threading.Thread(target=one) for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return results


def test_two_sweepers_cannot_flag_a_match_twice(pg: str) -> None:
    clock = FakeClock()
    mid = _flagged_match(pg, clock)
    clock.advance(4 * 60)  # far past the 3-minute clock
    engine = create_engine(pg)
    ended = race(engine, 4, lambda db: svc.sweep_match(db, clock, mid))
    with Session(engine) as db:
        m = db.get(Match, mid)
        assert m is not None and m.status == "finished" and m.reason in ("timeout", "disconnected")
        ends = [json.loads(e.data) for e in db.exec(select(MatchEvent).where(MatchEvent.match_id == mid)).all()]
        assert sum(1 for e in ends if e.get("type") == "end") == 1
        assert all(p.rated_games == 1 for p in db.exec(select(Player)).all())  # rated once, not twice
    assert ended.count(True) == 1
    engine.dispose()


def test_workers_restarting_together_shift_the_clocks_once(pg: str) -> None:
    clock = FakeClock()
    mid = _flagged_match(pg, clock)
    engine = create_engine(pg)
    with Session(engine) as db:
        before = db.get(Match, mid)
        assert before is not None
        started = before.turn_started_at
        st = db.get(ServerState, 1) or ServerState(id=1)
        st.last_alive = clock.now()
        db.add(st)
        db.commit()
    clock.advance(100.0)  # the server was down for 100 s
    race(engine, 3, lambda db: svc.resume_after_restart(db, clock))
    with Session(engine) as db:
        m = db.get(Match, mid)
        assert m is not None and abs(m.turn_started_at - (started + 100.0)) < 1e-6  # once, not 3 times
    engine.dispose()


def test_a_move_on_one_worker_wakes_a_long_poll_on_the_other_at_once(pg: str) -> None:
    """#21: LISTEN/NOTIFY — two workers on one database, the waiters' own re-check set to a minute,
    so only the other worker's note can wake the poll in time."""
    from fastapi.testclient import TestClient

    from tests.lobby.conftest import Lobby

    clock = FakeClock()
    one = create_app(pg, clock=clock, run_sweeper=False, rate=1e6, burst=1e6, fallback_s=60)
    two = create_app(pg, clock=clock, run_sweeper=False, rate=1e6, burst=1e6, fallback_s=60)
    with TestClient(one) as c1, TestClient(two) as c2:
        l1, l2 = Lobby(c1, clock, one), Lobby(c2, clock, two)
        a, b = l1.player("Ann"), l1.player("Bob")
        mid = l1.match(a, b, rated=False)
        who, other = l1.to_move(mid, a, b)
        since = l1.view(other, mid)["event_count"]
        answer: dict[str, Any] = {}

        def wait() -> None:
            start = time.monotonic()
            r = c1.get(f"/matches/{mid}/poll", params={"since": since, "timeout": 20}, headers=l1.h(other))
            answer["s"], answer["events"] = time.monotonic() - start, r.json()["events"]

        waiter = threading.Thread(target=wait)
        waiter.start()
        time.sleep(0.5)  # the poll is waiting on worker one
        assert l2.move(who, mid).status_code == 200  # the move is made on worker two
        waiter.join(timeout=30)
        assert answer["events"] and answer["s"] < 5, answer
        assert one.state.listener is not None and one.state.listener.heard >= 1


def _workers(pid: int) -> list[int]:
    """uvicorn's worker processes under ``pid`` (not multiprocessing's resource tracker)."""
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            for child in f.read().split():
                with open(f"/proc/{child}/cmdline", "rb") as c:
                    if b"resource_tracker" not in c.read():
                        out.append(int(child))
    return out


def test_kill_9_of_one_of_two_workers_mid_match_loses_and_doubles_no_move(pg: str) -> None:
    """#21: two workers; one is killed hard in the middle of a match; the other keeps serving (the
    clients retry a lost answer with the same client move id), and the record holds every
    acknowledged move exactly once — and replays."""
    import signal

    from tests.lobby.test_e2e import step

    proc, port = two_workers(pg)
    try:
        deadline = time.monotonic() + 40
        while len(_workers(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        victims = _workers(proc.pid)
        assert len(victims) == 2, victims
        url = f"http://127.0.0.1:{port}"
        a, b = LobbyClient(url), LobbyClient(url)
        a.sign_up("Ann")
        b.sign_up("Bob")
        mid = b.accept(a.challenge(rated=False, time_control="10+5"))["match_id"]
        acked = 0
        for i in range(24):
            if i == 8:
                os.kill(victims[0], signal.SIGKILL)  # no goodbye: connections drop mid-request
            answer = step(a, b, mid)
            if answer.get("ok"):
                acked += 1
            if a.view(mid)["status"] != "running":
                break
        assert acked >= 10 and proc.poll() is None  # the server is still serving
        v = a.view(mid)
        assert v["move_count"] == acked  # every acknowledged move, none twice
        engine = create_engine(pg)
        with Session(engine) as db:
            m = db.get(Match, mid)
            assert m is not None and len(json.loads(m.actions)) == acked
            state = RULES.new_game(RULES.parse_options(json.loads(m.options)), m.seed, 2)
            for action in json.loads(m.actions):
                state, _ = RULES.apply(state, RULES.parse_action(action))
        engine.dispose()
        a.close()
        b.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
