"""The PostgreSQL path with several workers: a real `python -m lobby --workers 2` server on a
throwaway PostgreSQL cluster, and the races that several workers make possible — the same move sent
to both workers at once, two sweepers on one flagged match, two workers restarting together."""

from __future__ import annotations

import json
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


@pytest.fixture
def pg() -> str:
    return postgres_url()


def test_two_workers_play_a_rated_match_and_both_ratings_change(pg: str) -> None:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "lobby", "--port", str(port), "--db", pg, "--workers", "2"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        import socket

        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
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
