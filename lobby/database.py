"""The lobby's database: the engine, and the transactions every request and task runs in.

SQLite has one writer at a time: this process's transactions queue on a lock instead of letting
SQLite's busy handler sleep-and-retry (which adds tens of milliseconds under load), and requests
queue on an asyncio lock *before* they take a worker thread (a thread-level lock held across a
request's dependency and endpoint let 40 waiting requests fill the thread pool while the holder
waited for a thread to run its endpoint — a deadlock under load, found by the load benchmark).
Background work (sweeper, polls) takes the thread lock; the two meet in SQLite's own busy wait,
which is correct, just slower, and rare. PostgreSQL: row locks order the work instead, the hot
requests' transactions run side by side on the event loop (``lobby.pgloop``), and other workers'
commits reach this one by LISTEN/NOTIFY.

After a commit, the bells of the matches the transaction wrote events for are rung
(``lobby.notify``). Which of the three ways to reach a match row to use is said in ``lobby.rows``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.util import greenlet_spawn
from sqlmodel import Session, SQLModel, create_engine

from lobby import service as svc
from lobby.notify import Bells, Listener
from lobby.pgloop import LoopTx, Pool
from lobby.rows import HOT_CHECKOUT, LostConnection, Tx

T = TypeVar("T")
LOG = logging.getLogger("lobby")
#: the advisory lock key under which a PostgreSQL worker creates the tables
SCHEMA_LOCK = 0x10BB1
#: PostgreSQL connections a worker's hot transactions hold at most (the cold paths' pool has its own)
HOT_CONNECTIONS = 20
#: the cold paths' pool (the ORM sessions of the other routes and the sweeper): kept open, and at most
COLD_POOL, COLD_CONNECTIONS = 5, 15


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_con: Any, _record: Any) -> None:
            dbapi_con.isolation_level = None
            cur = dbapi_con.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute("PRAGMA synchronous=NORMAL")
            # a match's row, events and receipts stay in this process's page cache (64 MB) instead of
            # being read back through the OS on every request
            cur.execute("PRAGMA cache_size=-65536")
            # no checkpoint inside a request's commit: a task of the app copies the log into the
            # database every second (``checkpoint`` in create_app: an automatic checkpoint every
            # ~1,000 pages — about every 100 moves — made the request that crossed the mark wait)
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Any) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")  # one writer at a time; others wait, never fail
        return engine
    if url.startswith(("postgresql://", "postgres://")):  # the installed driver is psycopg 3
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    # the cold paths (docs/lobby.md, "Connections")
    engine = create_engine(url, pool_size=COLD_POOL, max_overflow=COLD_CONNECTIONS - COLD_POOL)

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_con: Any, _record: Any, _proxy: Any) -> None:
        """SQLAlchemy's pre-ping, for every checkout but the hot path's (:data:`lobby.rows.HOT_CHECKOUT`),
        which retries on a dead connection instead (:meth:`Database.run_tx`): a dead connection is
        replaced before an ORM session (the cold paths, which cannot be run again) gets it."""
        if HOT_CHECKOUT.on:
            return
        try:
            engine.dialect.do_ping(dbapi_con)
        except Exception as exc:
            raise DisconnectionError() from exc  # the pool tries another connection
    return engine


def within(tx: Tx, fn: Callable[[Tx], T]) -> T:
    """``fn`` in ``tx``: begun, then committed, or rolled back when anything fails. A connection
    found dead is raised as :class:`lobby.rows.LostConnection`: nothing was committed, so the
    work may run again on another."""
    try:
        tx.begin()
        result = fn(tx)
    except BaseException as exc:
        lost = tx.lost()
        tx.rollback(exc)
        if lost:
            raise LostConnection() from exc
        raise
    tx.commit()
    return result


def pg_dsn(url: str) -> str:
    """The libpq form of a PostgreSQL URL (SQLAlchemy's ``+psycopg`` driver tag removed)."""
    for prefix in ("postgresql+psycopg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


class Database:
    """The engine, its locks (SQLite), the bells and the PostgreSQL listener of one worker."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.serial = threading.Lock() if url.startswith("sqlite") else None
        self.aserial = asyncio.Lock() if self.serial is not None else None
        #: the FastAPI routes' turns (``request_slot``): SQLite's one writer; on PostgreSQL one per
        #: connection of the cold pool
        self.route_turns: asyncio.Lock | asyncio.Semaphore = self.aserial or asyncio.Semaphore(COLD_CONNECTIONS)
        self.bells = Bells()
        self.listener = Listener(pg_dsn(url), svc.NOTIFY_CHANNEL, self.bells) if self.serial is None else None
        self.hot_pool = Pool(pg_dsn(url), HOT_CONNECTIONS) if self.serial is None else None
        self.hot_conn: list[Any] = []
        self.notify_always = os.environ.get("LOBBY_NOTIFY") == "always"
        self.create_tables()

    def create_tables(self) -> None:
        """The tables that do not exist yet. PostgreSQL: under an advisory lock, because several
        workers start at once on one database, and two ``CREATE TABLE`` of one name race (the loser
        fails on the catalogue's unique index and its worker dies at start); the second worker
        waits, then finds the tables made. The server's one ``serverstate`` row is made here too:
        two sweepers inserting it at their first heartbeat raced the same way."""
        with self.engine.begin() as conn:
            if self.serial is None:
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            SQLModel.metadata.create_all(conn)
            conn.execute(text("INSERT INTO serverstate (id, last_alive) VALUES (1, 0) ON CONFLICT DO NOTHING"))

    @contextmanager
    def one_writer(self, locked: bool = True) -> Iterator[None]:
        """SQLite: this process's transactions one at a time (PostgreSQL: row locks instead)."""
        if self.serial is None or not locked:
            yield
            return
        with self.serial:
            yield

    def alone(self) -> bool:
        """PostgreSQL: no other worker listens on this database now, so a commit needs to notify
        nobody (:class:`lobby.notify.Listener`). ``LOBBY_NOTIFY=always`` notifies anyway (to measure
        what the notes cost, or where the workers' database role may not read ``pg_locks``)."""
        return not self.notify_always and self.listener is not None and self.listener.alone

    def ring(self, info: dict[str, Any]) -> None:
        """After a commit: wake the waiters of the matches the transaction wrote events for."""
        for match_id in info.pop("rang", ()):
            self.bells.ring(match_id)

    @contextmanager
    def transaction(self, locked: bool = True) -> Iterator[Session]:
        with self.one_writer(locked), Session(self.engine, expire_on_commit=False) as db:
            db.info["alone"] = self.alone()
            try:
                yield db
                db.commit()
            except BaseException:
                db.rollback()
                raise
            self.ring(db.info)

    async def run_db(self, fn: Callable[[Tx], T], read: bool = False) -> T:
        """One transaction for a hot request (a match's view, a move, a poll), in one step, on the
        event loop: no hop to the thread pool and back (those hops, not the work, were most of a
        move's time on SQLite, and on PostgreSQL they contended with the loop for the interpreter).

        SQLite: the transactions are serialised anyway, queued on the async lock and holding the
        thread lock the sweeper takes. PostgreSQL: in parallel on asynchronous connections
        (:mod:`lobby.pgloop`), the row locks doing the ordering; a connection found dead while
        ``fn`` ran held no committed work, so ``fn`` runs once more on a new one (as
        :meth:`run_tx`). ``read``: work that writes nothing (:meth:`lobby.rows.Tx.open`)."""
        if self.hot_pool is not None:
            try:
                return await self._on_loop(fn, read)
            except LostConnection:
                LOG.warning("a pooled PostgreSQL connection was dead: the pool is renewed and the request retried")
                await self.hot_pool.renew()
                return await self._on_loop(fn, read)
        assert self.aserial is not None
        async with self.aserial:
            return self.run_tx(fn, read)

    async def _on_loop(self, fn: Callable[[Tx], T], read: bool) -> T:
        assert self.hot_pool is not None
        aconn = await self.hot_pool.take()
        try:
            tx = LoopTx(aconn, read)
            tx.info["alone"] = self.alone()
            result = await greenlet_spawn(within, tx, fn)  # each wait for the database goes to the loop
        finally:
            await self.hot_pool.give_back(aconn)
        self.ring(tx.info)
        return result

    def run_tx(self, fn: Callable[[Tx], T], read: bool = False) -> T:
        """``fn`` in one transaction straight on a pooled DBAPI connection (:class:`lobby.rows.Tx`:
        no ORM session to begin and commit), then the bells of the matches it wrote. The hot
        requests' form on SQLite; on PostgreSQL the synchronous form of what :meth:`run_db` does
        on the event loop (``tests/bench_lobby_tx.py`` times the transactions with it).

        PostgreSQL: the hot path's connections are not pinged at checkout (a round trip per
        request); a connection found dead while ``fn`` ran (the server restarted, or closed it) held
        no committed work, so ``fn`` runs once more on a new one, after the pool has dropped the
        others of its age (they died with it). A connection lost at the commit is not retried: the
        commit may have happened (a client retries a move with its client move id)."""
        try:
            return self._run_once(fn, read)
        except LostConnection:
            LOG.warning("a pooled PostgreSQL connection was dead: the pool is renewed and the request retried")
            self.engine.dispose()
            return self._run_once(fn, read)

    def _run_once(self, fn: Callable[[Tx], T], read: bool) -> T:
        with self.one_writer():
            if self.serial is not None and not self.hot_conn:
                self.hot_conn.append(self.engine.raw_connection())  # SQLite: one connection for every hot one
            tx = Tx.open(self.engine, self.hot_conn[0] if self.hot_conn else None, read)
            tx.info["alone"] = self.alone()
            result = within(tx, fn)
        self.ring(tx.info)
        return result

    async def request_slot(self) -> AsyncIterator[None]:
        """A FastAPI route's turn: SQLite, one at a time; PostgreSQL, as many at once as the cold
        pool has connections. Why the bound: a route takes its connection in one of AnyIO's 40
        threads (its player's token is read there) and runs its body in another, so without it a
        burst left every connection held by a route waiting for a thread and every thread held by
        a route waiting for a connection, until the pool's 30 s timeout failed them all
        (``tests/lobby/test_cold_routes.py``). With at most one route per connection, a route that
        holds one always finds a thread free."""
        async with self.route_turns:
            yield

    def close(self) -> None:
        for conn in self.hot_conn:
            conn.close()
        self.hot_conn.clear()
        self.engine.dispose()
