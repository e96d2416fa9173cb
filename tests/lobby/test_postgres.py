"""The PostgreSQL path with several workers: a real `python -m lobby --workers 2` server on a
throwaway PostgreSQL cluster, and the races that several workers make possible — the same move sent
to both workers at once, two sweepers on one flagged match, two workers restarting together."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlmodel import Session, create_engine, select

from engine.lanes import RULES
from lobby import service as svc
from lobby.app import create_app
from lobby.clock import FakeClock
from lobby.models import Match, MatchEvent, Player, ServerState
from storage.lobby_client import LobbyClient
from tests.conftest import ROOT
from tests.helpers import free_port
from tests.lobby.conftest import Lobby, postgres_url
from tests.lobby.test_e2e import find_each_other, play_rated_match_and_check_ratings

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg() -> str:
    return postgres_url()


@contextlib.contextmanager
def one_match(pg: str) -> Iterator[tuple[Lobby, dict[str, str], dict[str, str], str]]:
    """An app on ``pg`` (no sweeper, a fake clock), two players and a fresh rated match of theirs."""
    from fastapi.testclient import TestClient

    clock = FakeClock()
    app = create_app(pg, clock=clock, run_sweeper=False, rate=1000, burst=5000)
    with TestClient(app) as client:
        lobby = Lobby(client, clock, app)
        a, b = lobby.player("a"), lobby.player("b")
        yield lobby, a, b, lobby.match(a, b)


def lobby_process(pg: str, workers: int = 1, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """``python -m lobby --workers N`` on ``pg`` with ``env`` added to ours, once it answers."""
    import socket

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "lobby", "--port", str(port), "--db", pg, "--workers", str(workers)],
                            cwd=ROOT, env={**os.environ, **(env or {})},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the lobby process did not start")


def test_two_workers_play_a_rated_match_and_both_ratings_change(pg: str) -> None:
    proc, port = lobby_process(pg, workers=2)
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


#: each worker on its own: its waiters' re-reads (the safety net, and the poll's presence touch) set to
#: a minute and half a minute, so that within a 20 s poll only another process's NOTIFY wakes them
ALONE = {"LOBBY_FALLBACK_S": "60", "LOBBY_TOUCH_S": "30", "LOBBY_RATE": "1000000", "LOBBY_BURST": "1000000"}


class _Poll(threading.Thread):
    """A long poll waiting in the background: its events, or the error its client got, and how long."""

    def __init__(self, client: LobbyClient, mid: str, since: int) -> None:
        super().__init__()
        self.client, self.mid, self.since = client, mid, since
        self.events: list[Any] | None = None
        self.error: Exception | None = None
        self.seconds = 0.0

    def run(self) -> None:
        start = time.monotonic()
        try:
            self.events = self.client.poll(self.mid, self.since, timeout=20)["events"]
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            self.error = exc
        self.seconds = time.monotonic() - start


def _sides(clients: tuple[LobbyClient, LobbyClient], mid: str) -> tuple[int, int]:
    """(the mover's index, the other's) in the pair (Ann, Bob)."""
    v = clients[0].view(mid)
    return (0, 1) if v["clock"]["to_move"] == v["seat"] else (1, 0)


def test_two_worker_processes_wake_each_others_polls_and_a_kill_9_mid_request_loses_nothing(pg: str) -> None:
    """#21, #39: two worker processes sharing only the database. A move on one wakes a long poll
    waiting on the other at once (LISTEN/NOTIFY: the re-read is a minute away). Then the worker
    holding a long poll and a move in flight is killed with ``kill -9``: the poll's client gets an
    error, the move — retried with its client move id on the other worker — counts exactly once,
    and the stored record replays to the match the survivor shows."""
    import signal

    from storage.lobby_client import LobbyUnavailable

    (one, port1), (two, port2) = lobby_process(pg, env=ALONE), lobby_process(pg, env=ALONE)
    url1, url2 = f"http://127.0.0.1:{port1}", f"http://127.0.0.1:{port2}"
    try:
        on1 = (LobbyClient(url1), LobbyClient(url1))
        on1[0].sign_up("Ann")
        on1[1].sign_up("Bob")
        mid = on1[1].accept(on1[0].challenge(rated=False, time_control="10+5"))["match_id"]
        on2 = (LobbyClient(url2, token=on1[0].token), LobbyClient(url2, token=on1[1].token))  # tokens: the DB's

        # 1. a poll waiting on process one, woken by a move made on process two
        mover, other = _sides(on2, mid)
        v = on2[mover].view(mid)
        poll = _Poll(on1[other], mid, v["event_count"])
        poll.start()
        time.sleep(1.0)  # the poll is waiting on process one
        on2[mover].move(mid, v["move_count"], RULES.action_to_json(RULES.parse_action(v["legal"][0])))
        poll.join(timeout=30)
        assert poll.events and poll.seconds < 10, (poll.events, poll.seconds, poll.error)  # a re-read: 20 s

        # 2. process one frozen with a poll and a move in flight on it, then killed
        mover, other = _sides(on2, mid)
        v = on2[mover].view(mid)
        action = RULES.action_to_json(RULES.parse_action(v["legal"][0]))
        poll = _Poll(on1[other], mid, v["event_count"])
        poll.start()
        time.sleep(1.0)
        os.kill(one.pid, signal.SIGSTOP)
        stuck = LobbyClient(url1, token=on1[mover].token, timeout=2.0)
        with pytest.raises(LobbyUnavailable):
            stuck.move(mid, v["move_count"], action, client_move_id="in-flight")
        os.kill(one.pid, signal.SIGKILL)
        one.wait(timeout=20)
        poll.join(timeout=30)
        assert poll.error is not None and poll.events is None
        first = on2[mover].move(mid, v["move_count"], action, client_move_id="in-flight")
        assert on2[mover].move(mid, v["move_count"], action, client_move_id="in-flight") == first
        after = on2[0].view(mid)
        assert after["move_count"] == v["move_count"] + 1 == 2  # each acknowledged move once

        engine = create_engine(pg)
        with Session(engine) as db:
            m = db.get(Match, mid)
            assert m is not None and len(json.loads(m.actions)) == 2
            state = RULES.new_game(RULES.parse_options(json.loads(m.options)), m.seed, 2)
            for act in json.loads(m.actions):
                state, _events = RULES.apply(state, RULES.parse_action(act))
        engine.dispose()
        assert RULES.observe(state, after["seat"]) == after["observation"]
        for c in (*on1, *on2, stuck):
            c.close()
    finally:
        for proc in (one, two):
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=20)


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

    proc, port = lobby_process(pg, workers=2)
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


def test_workers_starting_together_make_the_tables_and_the_server_row_one_at_a_time(pg: str) -> None:
    """Several workers start at once on one database (``--workers N``): two ``CREATE TABLE`` of
    one name, or two first heartbeats inserting the server's row, raced, and the loser's worker
    died at start (seen as a flake of the kill -9 test above). A worker makes the tables under an
    advisory lock — one held elsewhere holds it back — and makes the server row with them."""
    from sqlalchemy import text

    from lobby.database import SCHEMA_LOCK, Database

    engine = create_engine(pg)
    made: list[Database] = []
    with engine.connect() as holder:
        holder.execute(text("SELECT pg_advisory_lock(:k)"), {"k": SCHEMA_LOCK})
        starting = threading.Thread(target=lambda: made.append(Database(pg)))
        starting.start()
        starting.join(timeout=2.0)
        assert starting.is_alive() and not made  # waiting for the lock, creating nothing yet
        holder.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": SCHEMA_LOCK})
        holder.commit()
    starting.join(timeout=30)
    assert made
    second = Database(pg)  # the tables exist: nothing to race for
    with Session(engine) as db:
        assert [s.id for s in db.exec(select(ServerState)).all()] == [1]  # before any heartbeat
    for d in (made[0], second):
        d.close()
    engine.dispose()


def test_rematch_quick_messages_and_spectators_across_two_workers(pg: str) -> None:
    """#45 against a real two-worker lobby on PostgreSQL: each request may reach either worker, so
    an offer made on one is accepted through the other, a rematch long poll is woken by the other
    worker's commit (LISTEN/NOTIFY), a quick message is heard, and a spectator's view and events
    hold no hand."""
    proc, port = lobby_process(pg, workers=2)
    try:
        url = f"http://127.0.0.1:{port}"
        a, b, watcher = LobbyClient(url), LobbyClient(url), LobbyClient(url)
        a.sign_up("Ann")
        b.sign_up("Bob")
        mid = str(b.accept(a.challenge(rated=True, time_control="5+3"))["match_id"])
        assert [m["match_id"] for m in watcher.live()] == [mid]
        a.say(mid, "good_luck")
        assert [(e["phrase"]) for e in b.poll(mid, 0)["events"] if e["type"] == "say"] == ["good_luck"]
        seen = watcher.watch_poll(mid, 0)
        assert seen["view"]["observation"]["hand"] == [] and all(e["type"] != "draw" for e in seen["events"])
        hands = [a.view(mid)["observation"]["hand"], b.view(mid)["observation"]["hand"]]
        assert all(json.dumps(h) not in json.dumps(seen) for h in hands)
        b.resign(mid)
        waited: dict[str, Any] = {}
        since = a.rematch_status(mid)["event_count"]
        waiter = threading.Thread(target=lambda: waited.update(a.rematch_status(mid, since, timeout=20)))
        waiter.start()
        time.sleep(0.5)  # the wait is open (were it not, it answers at once with the offer: the same)
        assert b.rematch(mid)["status"] == "offered"
        waiter.join(timeout=30)
        assert waited["status"] == "offered" and waited["mine"] is False
        new_id = a.rematch(mid)["match_id"]
        assert new_id and b.rematch_status(mid)["match_id"] == new_id
        assert a.view(new_id)["seat"] == 1 - a.view(mid)["seat"]
        for c in (a, b, watcher):
            c.close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_retry_that_waited_for_its_first_tries_lock_gets_the_first_answer(pg: str) -> None:
    """Exactly once with the receipt read inside the locked read (#34): the second try's statement
    sees the database as it was before it waited, so without a second look it would answer 409
    (stale move number) to a move that was made. It gets the first try's answer, byte for byte."""
    from lobby.matches import make_move
    from lobby.rows import Tx

    with one_match(pg) as (lobby, a, b, mid):
        clock, app = lobby.clock, lobby.app
        mover, _ = lobby.to_move(mid, a, b)
        view = lobby.view(mover, mid)
        engine = app.state.engine
        caller = svc.Caller(mover["id"])
        args = (clock, caller, mid, view["move_count"], "the-same-id", view["legal"][0])
        first = Tx.open(engine)
        answered = make_move(first, *args)
        second: list[Any] = []

        def retry() -> None:
            tx = Tx.open(engine)
            second.append(make_move(tx, *args))
            tx.commit()
        thread = threading.Thread(target=retry)
        thread.start()
        waiting = text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        # the retry is queued on the row lock before the first commits. Each look in a transaction of
        # its own: PostgreSQL reads pg_stat_activity once per transaction, so a first look taken
        # before the retry reached the lock saw no waiter for the rest of the loop (a CI failure on
        # a loaded machine, where the retry's thread started late)
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as watch:
            deadline = time.monotonic() + 20
            while not watch.execute(waiting).scalar():
                assert time.monotonic() < deadline, "the retry never waited for the lock"
                time.sleep(0.05)
        first.commit()
        thread.join(20)
        assert answered.status == 200
        assert second and (second[0].status, second[0].text) == (200, answered.text)
        assert lobby.view(mover, mid)["move_count"] == view["move_count"] + 1  # one move, made once


def test_a_view_neither_locks_the_match_nor_waits_for_its_lock(pg: str) -> None:
    """#34: a view is a plain read. While a move of the opponent holds the match's row lock (a
    transaction not yet committed), the player's view answers at once, from what is committed;
    once a time rule has run out, a view applies it under the lock as before."""
    from lobby.rows import Tx

    with one_match(pg) as (lobby, a, b, mid):
        clock, client, app = lobby.clock, lobby.c, lobby.app
        mover, other = lobby.to_move(mid, a, b)
        before = lobby.view(other, mid)
        holder = Tx.open(app.state.engine)
        svc.locked_match(holder, mid, svc.Caller(mover["id"]))
        answers: list[Any] = []
        thread = threading.Thread(target=lambda: answers.append(client.get(f"/matches/{mid}", headers=lobby.h(other))))
        thread.start()
        thread.join(10)
        try:
            assert answers and answers[0].status_code == 200, "the view waited for the row lock"
            assert answers[0].json()["move_count"] == before["move_count"]
        finally:
            holder.rollback()
            thread.join(20)
        clock.advance(2 * 60)  # past the first-move rule: the next view aborts the match, under the lock
        ended = lobby.view(other, mid)
        assert (ended["status"], ended["reason"]) == ("aborted", "aborted")


def test_requests_after_the_database_dropped_every_connection_are_served(pg: str) -> None:
    """#34: the hot path's connections are not pinged at checkout. When PostgreSQL has closed every
    pooled connection (a restart, a failover), the next view and move find theirs dead and run once
    more on a fresh one; the cold paths (ORM sessions) still get a pinged connection."""


    killer = create_engine(pg, isolation_level="AUTOCOMMIT")

    def drop_every_connection() -> None:
        with killer.connect() as c:
            c.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
    with one_match(pg) as (lobby, a, b, mid):
        mover, _ = lobby.to_move(mid, a, b)
        drop_every_connection()
        assert lobby.view(mover, mid)["move_count"] == 0  # hot: retried on a new connection
        drop_every_connection()
        assert lobby.move(mover, mid).status_code == 200  # its view, then the move itself
        drop_every_connection()
        assert lobby.player("c")["id"]  # cold: an ORM session on a pinged connection
        drop_every_connection()
        assert lobby.move(*lobby.to_move(mid, a, b)[:1], mid).status_code == 200
    killer.dispose()


def test_a_worker_alone_sends_no_notes_and_notifies_again_as_soon_as_another_listens(pg: str) -> None:
    """#34: a worker's own listener only heard its own commits (7–12 % of its CPU per move). Alone
    on the database it sends no ``pg_notify``; a second worker's listener says hello when it starts,
    and the first notifies again at once (not at its next count); when the second stops, the first
    is alone again."""
    import psycopg
    from fastapi.testclient import TestClient

    from lobby.database import pg_dsn

    def until(what: Callable[[], bool], within: float) -> bool:
        deadline = time.monotonic() + within
        while not what():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    spy = psycopg.connect(pg_dsn(pg), autocommit=True)  # listens, but is no worker (holds no lock)
    spy.execute(f"LISTEN {svc.NOTIFY_CHANNEL}")

    def notes() -> int:
        return sum(1 for _ in spy.notifies(timeout=0.5))
    with one_match(pg) as (lobby, a, b, mid):
        first, clock = lobby.app, lobby.clock
        assert until(lambda: first.state.listener.alone, 5)
        notes()
        assert lobby.move(lobby.to_move(mid, a, b)[0], mid).status_code == 200
        assert notes() == 0
        second = create_app(pg, clock=clock, run_sweeper=False)
        with TestClient(second):
            assert until(lambda: not first.state.listener.alone, 0.5)  # the hello, not the next count
            assert lobby.move(lobby.to_move(mid, a, b)[0], mid).status_code == 200
            assert notes() >= 1
        assert until(lambda: first.state.listener.alone, 5)
    spy.close()


def test_a_view_is_one_statement_and_a_move_one_pipeline(pg: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """#34: what the hot requests send PostgreSQL, counted at psycopg's cursor (the asynchronous one:
    the hot transactions run on the event loop, lobby/pgloop.py). A view: one SELECT in autocommit
    (no BEGIN, no COMMIT). A move: two statements, in one pipeline that its Sync commits, whose only
    wait for an answer before the commit is the locked read (the receipt in the same statement); its writes
    (the note to other workers, the receipt, the events, the row) are one statement
    (lobby.rows.later)."""
    import psycopg

    sent: list[tuple[str, bool]] = []
    fetched: list[int] = []
    execute, fetchone = psycopg.AsyncCursor.execute, psycopg.AsyncCursor.fetchone

    writes: list[str] = []  # the parts of the joined write: WITH w0 AS (…), … main

    async def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append((str(query).split()[0].upper(), self.connection._pipeline is not None))
        if str(query).startswith("WITH "):
            writes.extend(re.findall(r"w\d+ AS \((\w+)", str(query)))
            writes.append(str(query).rsplit(") ", 1)[1])
        return await execute(self, query, *args, **kwargs)

    async def counted_fetchone(self: Any) -> Any:
        fetched.append(len(sent))
        return await fetchone(self)
    monkeypatch.setenv("LOBBY_NOTIFY", "always")  # the note is sent whether or not the worker is alone yet
    with one_match(pg) as (lobby, a, b, mid):
        mover, _ = lobby.to_move(mid, a, b)
        view = lobby.view(mover, mid)
        monkeypatch.setattr(psycopg.AsyncCursor, "execute", counted_execute)
        monkeypatch.setattr(psycopg.AsyncCursor, "fetchone", counted_fetchone)
        lobby.view(mover, mid)
        assert sent == [("SELECT", False)] and fetched == [1]
        sent.clear()
        fetched.clear()
        body = {"expected_move": view["move_count"], "client_move_id": "counted", "action": view["legal"][0]}
        assert lobby.c.post(f"/matches/{mid}/moves", headers=lobby.h(mover), json=body).status_code == 200
        monkeypatch.setattr(psycopg.AsyncCursor, "execute", execute)
        monkeypatch.setattr(psycopg.AsyncCursor, "fetchone", fetchone)
    assert [s for s, _ in sent] == ["SELECT", "WITH"]  # no BEGIN, no COMMIT: the pipeline's Sync commits
    assert [w.split()[0] for w in writes] == ["INSERT", "INSERT", "UPDATE", "SELECT"]
    assert all(piped for _, piped in sent)
    assert fetched == [1]  # the locked read; the writes went with the Sync


def test_hot_transactions_run_side_by_side_on_the_event_loop_within_their_pool(pg: str) -> None:
    """#34: PostgreSQL's hot transactions run on the event loop itself (lobby/pgloop.py), never in a
    worker thread; while one waits for the database another runs, and no more run at once than
    the pool has connections (the others wait for one, then run)."""
    import asyncio
    from functools import partial

    from lobby.database import Database, pg_dsn
    from lobby.pgloop import Pool
    from lobby.rows import Tx, run

    db = Database(pg)
    db.hot_pool = Pool(pg_dsn(pg), 2)
    threads: set[int] = set()
    inside, most = [0], [0]

    def slow_read(tx: Tx, i: int) -> int:
        threads.add(threading.get_ident())
        inside[0] += 1
        most[0] = max(most[0], inside[0])
        run(tx, "SELECT pg_sleep(0.1)").fetchone()
        inside[0] -= 1
        return i

    async def five() -> tuple[int, list[int]]:
        done = await asyncio.gather(*(db.run_db(partial(slow_read, i=i), read=True) for i in range(5)))
        assert db.hot_pool is not None
        await db.hot_pool.close()
        return threading.get_ident(), list(done)

    try:
        loop_thread, done = asyncio.run(five())
    finally:
        db.close()
    assert done == [0, 1, 2, 3, 4]
    assert threads == {loop_thread}, "a hot transaction ran off the event loop"
    assert most[0] == 2, f"{most[0]} transactions at once with a pool of two"


def test_held_writes_go_as_one_statement_before_the_next_read_and_fail_together(pg: str) -> None:
    """#34: ``lobby.rows.later`` holds a PostgreSQL transaction's writes and sends them as one
    statement: each keeps its own parameters (the same names in two writes), a read later in the
    transaction sees them (they are sent first), and when one fails (a duplicate receipt) the
    transaction writes none of them. A transaction is a pipeline that its Sync commits (no BEGIN):
    work that fails after its writes were sent still writes nothing."""
    import psycopg

    from lobby.database import Database
    from lobby.rows import later, run

    db = Database(pg)
    db.create_tables()
    receipt = ("INSERT INTO movereceipt (match_id, player_id, client_move_id, move_no, response) "
               "VALUES (:m, :p, :c, 0, '{}')")
    held: list[int] = []

    def write_then_read(tx: Any) -> Any:
        later(tx, receipt, {"m": "x", "p": "a", "c": "1"})
        later(tx, receipt, {"m": "x", "p": "b", "c": "2"})
        later(tx, "SELECT pg_notify(:channel, :m)", {"channel": "held_test", "m": "x"})
        held.append(len(tx.info["later"]))
        return run(tx, "SELECT player_id, client_move_id FROM movereceipt WHERE match_id = 'x' "
                       "ORDER BY player_id").fetchall()

    assert db.run_tx(write_then_read) == [("a", "1"), ("b", "2")]
    assert held == [3]

    def one_fails(tx: Any) -> None:
        later(tx, receipt, {"m": "y", "p": "a", "c": "1"})
        later(tx, receipt, {"m": "x", "p": "c", "c": "1"})  # match x already has client move id 1

    with pytest.raises(psycopg.errors.UniqueViolation):
        db.run_tx(one_fails)

    def sent_then_fails(tx: Any) -> None:  # the write is sent before the read; then the work fails
        later(tx, receipt, {"m": "z", "p": "a", "c": "1"})
        assert run(tx, "SELECT count(*) FROM movereceipt WHERE match_id = 'z'").fetchone() == (1,)
        raise ValueError("the work failed after writing")

    with pytest.raises(ValueError):
        db.run_tx(sent_then_fails)
    with Session(db.engine) as s:
        assert s.execute(text("SELECT match_id, player_id FROM movereceipt ORDER BY player_id")).all() == [
            ("x", "a"), ("x", "b")]
    db.close()
