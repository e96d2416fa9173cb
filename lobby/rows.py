"""A match's row on the hot path (views, moves, polls, the sweeper): a plain object read with one
SQL statement and written back with one, when its transaction commits.

Why not the ORM ``Match``: profiling a move (``view`` + ``move``, in-process, 200 matches) showed
about 70 % of the service's time inside SQLAlchemy's ORM — loading the row into the identity map,
compiling statements, the unit of work at flush — and only a few percent in SQLite itself. Building
even a *detached* ``Match`` costs ~0.2 ms (instrumented attributes). So the hot path reads the
columns into :class:`MatchRow` (slots, no instrumentation) with a driver-level statement, and
:func:`save_rows` writes back only the columns that changed, in one ``UPDATE`` per match, just
before the session commits. The ORM model stays the schema and serves the cold paths (creating a
match, profiles, restart), which never share a transaction with a row of the same match.

The hot requests do not even open an ORM session: :class:`Tx` is a transaction straight on a
pooled DBAPI connection (an ORM session's begin and commit alone cost ~0.25 ms, the SQLite
transaction ~0.01 ms). The helpers here take either a :class:`Tx` or a ``Session`` (the cold paths
and the tests), so the service's functions serve both.

**Which of the three ways to reach a match, and when:**

* the ORM ``Match`` in a ``Session`` (``db.get``, ``select``): the cold paths — creating a match,
  seeks and challenges, profiles, leaderboards, the restart shift, tests. Clear code; one ORM
  object per request is cheap there.
* a :class:`MatchRow` from :func:`load` inside a ``Session``: the sweeper's pass over a due match, a
  resignation, FastAPI's fallback routes. The hot code (``lobby.matches``) runs on it unchanged; it
  is written back by :func:`save_rows` at the commit.
* a :class:`MatchRow` inside a raw :class:`Tx`: the view and the move on the hot path
  (``lobby.hot``), long polls and streams. No ORM session at all: the cheapest transaction there is.

Never mix an ORM ``Match`` and a :class:`MatchRow` of the same match in one transaction (the
later write would undo the earlier).

SQL is written once with ``:name`` parameters (SQLite's own style) and translated once per
statement to ``%(name)s`` for psycopg (PostgreSQL).
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session


@dataclass(slots=True)
class MatchRow:
    """The columns of :class:`lobby.models.Match` (a test checks the two agree), as plain attributes."""

    id: str
    seed: int
    options: str
    player0: str
    player1: str
    rated: bool
    base_ms: int
    inc_ms: int
    status: str
    winner: int | None
    reason: str | None
    remaining0: int
    remaining1: int
    turn_started_at: float
    last_seen0: float
    last_seen1: float
    actions: str
    move_count: int
    moved0: bool
    moved1: bool
    created_at: float
    finished_at: float | None
    rating_change: str | None
    event_count: int


COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(MatchRow))
_BOOLS = ("rated", "moved0", "moved1")  # SQLite hands booleans back as 0/1
_SELECT = "SELECT " + ", ".join(COLUMNS) + " FROM \"match\" WHERE id = :id"


class LostConnection(Exception):
    """A hot transaction's connection was found dead before anything was committed."""


class _HotCheckout(threading.local):
    on = False


#: set while a hot transaction checks a connection out: no ping (see :meth:`lobby.database.Database.run_tx`)
HOT_CHECKOUT = _HotCheckout()


class Tx:
    """A transaction on one DBAPI connection, begun by :meth:`open` and ended by :meth:`commit` or
    :meth:`rollback`. ``info`` plays the part of ``Session.info``: the rows loaded for writing and
    the matches whose bells to ring. SQLite keeps one connection for all hot transactions (they are
    serialised anyway); PostgreSQL takes one from the pool and gives it back.

    PostgreSQL: the transaction is one pipeline of psycopg's, and nothing more: no ``BEGIN``, no
    ``COMMIT``. The connection is in autocommit (so psycopg adds no ``BEGIN`` of its own), and the
    server runs everything a client sends up to a Sync message as one transaction, committed at the
    Sync (the protocol's "Pipelining"): a read waits for its answer with a flush request, which
    ends nothing, so a ``FOR UPDATE`` lock holds until the pipeline ends with its Sync. A
    statement that fails makes the server skip the rest up to the Sync and roll back. The client
    waits for the server only where it needs an answer: every write after the last read (a move's
    events, its receipt, the notification, the row's ``UPDATE``) is held (:func:`later`) and goes
    with the Sync as one statement, in one round trip. A queued write's error (a constraint)
    surfaces at the commit, which then rolls back like any other failure. A failure on the client's
    side after a write was sent sends ``ROLLBACK`` before the Sync (:meth:`rollback`). A read-only
    transaction (``read``: a view) sends its reads alone, in autocommit: one round trip each."""

    __slots__ = ("conn", "info", "keep", "pipe")

    def __init__(self, conn: Any, pg: bool, keep: bool = False) -> None:
        self.conn, self.keep = conn, keep
        self.info: dict[str, Any] = {"pg": pg}
        self.pipe: Any = None

    @classmethod
    def open(cls, engine: Engine, conn: Any = None, read: bool = False) -> Tx:
        """A transaction on ``conn`` (kept open afterwards) or on a pooled connection. ``read``:
        PostgreSQL sends no ``BEGIN`` and no ``COMMIT`` (each read sees what is committed when it
        runs); the work may not write (:meth:`commit` refuses a row or an event to write)."""
        if conn is None:
            HOT_CHECKOUT.on = True
            try:
                conn = engine.raw_connection()
            finally:
                HOT_CHECKOUT.on = False
            tx = cls(conn, engine.dialect.name == "postgresql")
        else:
            tx = cls(conn, engine.dialect.name == "postgresql", keep=True)
        tx.info["read"] = read
        if not tx.info["pg"]:
            tx.conn.cursor().execute("BEGIN IMMEDIATE")  # one writer at a time (autocommit otherwise)
            return tx
        try:
            pg = tx.conn.dbapi_connection
            pg.autocommit = True  # a client-side switch: nothing is sent
            if not read:  # (a read alone is one round trip already)
                tx.pipe = pg.pipeline()
                tx.pipe.__enter__()
        except BaseException as exc:
            tx.rollback(exc)
            raise
        return tx

    def begin(self) -> None:
        """Nothing more to do: :meth:`open` has begun the transaction (the event loop's form,
        :class:`lobby.pgloop.LoopTx`, begins here instead)."""

    def commit(self) -> None:
        try:
            if self.info["read"] and any(self.info.get(k) for k in ("rows", "rang", "events", "later")):
                raise RuntimeError("a read-only transaction has something to write")
            save_rows(self)
            send_later(self)
            if not self.info["pg"]:
                self.conn.commit()
            elif self.pipe is not None:
                self._leave_pipeline(None)  # the Sync: commits; a queued write's error is raised here
        except BaseException as exc:
            self.rollback(exc)
            raise
        self._release()

    def rollback(self, cause: BaseException | None = None) -> None:
        try:
            if not self.info["pg"]:
                self.conn.rollback()
                return
            pg = self._session()
            if self.pipe is not None and self.info.get("wrote") and not pg.closed:
                with contextlib.suppress(psycopg.Error):  # (a pipeline the server aborted rolls back)
                    self._send("ROLLBACK")  # or the Sync would commit what was sent
            self._leave_pipeline(cause or RuntimeError("rolled back"))
        finally:
            self._release()

    def _leave_pipeline(self, cause: BaseException | None) -> None:
        """End pipeline mode: what is queued is sent and waited for. After a failure (``cause``) an
        error here is only logged by psycopg, so the first error is the one raised."""
        pipe, self.pipe = self.pipe, None
        if pipe is not None:
            self._end_pipe(pipe, cause)

    def lost(self) -> bool:
        """The connection is dead (PostgreSQL: closed by the server or the network)."""
        pg = self._session() if self.info["pg"] else None
        return pg is not None and bool(pg.closed)

    # PostgreSQL's connection and its waits: what the event loop's form (lobby.pgloop.LoopTx) replaces

    def _session(self) -> Any:
        """The psycopg connection: whether it is dead, or inside a transaction."""
        return self.conn.dbapi_connection

    def _send(self, statement: str) -> None:
        """One of the transaction's own statements (``ROLLBACK``); queued in a pipeline."""
        self._session().execute(statement)

    def _end_pipe(self, pipe: Any, cause: BaseException | None) -> None:
        pipe.__exit__(type(cause) if cause else None, cause, None)

    def _release(self) -> None:
        if self.info["pg"]:
            pg = self.conn.dbapi_connection
            if pg is None or pg.closed:
                self.conn.invalidate()  # never back into the pool
                return
            if pg.info.transaction_status == TransactionStatus.IDLE:
                pg.autocommit = False  # as the pool's other users (ORM sessions) expect it
        if not self.keep:
            self.conn.close()


#: a transaction the helpers below accept
Db = Session | Tx
_named = re.compile(r":([a-z_][a-z0-9_]*)")
_pyformat: dict[str, str] = {}


def run(db: Db, statement: str, params: Mapping[str, Any] | None = None) -> Any:
    """One statement on the session's own DBAPI connection, inside its transaction; returns the
    DBAPI cursor (``fetchone``/``fetchall``). Below SQLAlchemy's execution layer on purpose: its
    per-statement context (result metadata, events, connection lookup) cost more than SQLite's
    work (sampled under the load benchmark). The transaction's held writes (:func:`later`) go first."""
    send_later(db)
    if isinstance(db, Tx) and not statement.startswith("SELECT"):
        db.info["wrote"] = True  # a failure now must roll back (Tx.rollback)
    return _cursor(db).execute(_text(db, statement), params if params is not None else {})


def run_many(db: Db, statement: str, params: list[dict[str, Any]]) -> None:
    send_later(db)
    if isinstance(db, Tx):
        db.info["wrote"] = True
    _cursor(db).executemany(_text(db, statement), params)


#: False: :func:`later` runs each write at once (``tests/bench_lobby_tx.py --joined`` compares the two)
JOIN_WRITES = True


def later(db: Db, statement: str, params: Mapping[str, Any]) -> None:
    """A write whose answer nobody waits for (an ``INSERT``, an ``UPDATE``, or ``SELECT
    pg_notify(…)``). In a PostgreSQL :class:`Tx` it is held, and the transaction's held writes are
    sent as **one** statement just before its next statement or at its commit (:func:`send_later`);
    elsewhere it runs at once.

    Why: psycopg sends each statement of a pipeline as it is queued, one ``send`` to the server
    and one turn of the event loop each; a profile of a PostgreSQL worker under load
    (``py-spy --native``) found half of its event loop's samples in the kernel's ``send``. A move
    wrote four statements after its locked read (the note, the receipt, the events, the row); now
    one."""
    if JOIN_WRITES and isinstance(db, Tx) and db.pipe is not None:
        db.info.setdefault("later", []).append((statement, params))
    else:
        run(db, statement, params)


def send_later(db: Db) -> None:
    """Send the writes :func:`later` held, as one statement: the data-modifying ones as ``WITH``
    queries of it (PostgreSQL runs each exactly once, whatever the main query reads), the
    ``SELECT``s (``pg_notify``) as its main query. They are independent writes: none reads
    another's effect (they all see the same snapshot) and none writes a row another writes."""
    writes = db.info.pop("later", None) if isinstance(db, Tx) else None
    if not writes:
        return
    db.info["wrote"] = True  # (a held pg_notify alone is a SELECT)
    if len(writes) == 1:
        run(db, *writes[0])
        return
    statement = _joined.get(key := tuple(s for s, _ in writes))
    if statement is None:
        statement = _joined[key] = _join(key)
    params = {f"w{i}_{k}": v for i, (_, p) in enumerate(writes) for k, v in p.items()}
    run(db, statement, params)


#: the joined statement of each sequence of held writes (a few shapes: a move's events 3-5, the
#: changed columns of its row)
_joined: dict[tuple[str, ...], str] = {}


def _join(statements: tuple[str, ...]) -> str:
    """One statement doing what ``statements`` do, each one's parameters renamed ``w{i}_…``."""
    mods, selects = [], []
    for i, statement in enumerate(statements):
        renamed = _named.sub(rf":w{i}_\1", statement)
        if renamed.startswith("SELECT "):
            assert " FROM " not in renamed, "only a SELECT of expressions (pg_notify) can be held"
            selects.append(renamed.removeprefix("SELECT "))
        else:
            mods.append(renamed)
    main = "SELECT " + ", ".join(selects) if selects else mods.pop()
    if len(_joined) > 1000:  # a bound, should some caller make shapes without end
        _joined.clear()
    return (f"WITH {', '.join(f'w{i} AS ({m})' for i, m in enumerate(mods))} {main}" if mods else main)


def _cursor(db: Db) -> Any:
    if isinstance(db, Tx):
        return db.conn.cursor()
    conn = db.info.get("dbapi")
    if conn is None:  # first statement of this transaction: SQLAlchemy begins it (BEGIN IMMEDIATE)
        sa_conn = db.connection()
        conn = db.info["dbapi"] = sa_conn.connection.dbapi_connection
        db.info["pg"] = sa_conn.dialect.name == "postgresql"
    assert conn is not None, "SQLAlchemy gave the transaction no DBAPI connection"
    return conn.cursor()


def _text(db: Db, statement: str) -> str:
    if not db.info.get("pg"):
        return statement  # sqlite3 takes :name parameters with a dict
    text = _pyformat.get(statement)  # psycopg: %(name)s
    if text is None:
        text = _pyformat[statement] = _named.sub(r"%(\1)s", statement)
    return text


def for_update(db: Db) -> str:
    """" FOR UPDATE" on PostgreSQL (a row lock until commit); nothing on SQLite (one writer)."""
    _cursor(db)  # learns the dialect
    return " FOR UPDATE" if db.info["pg"] else ""


def load(db: Db, match_id: str, lock: str = "update", running_only: bool = False,
         player: str | None = None) -> MatchRow | None:
    """The match, or None. ``lock``: "update" (row-locked until commit: moves, resignations, flags
    and touches of several PostgreSQL workers serialise per match), "skip" (``SKIP LOCKED``: None
    if another transaction holds it) or "" (a plain read). SQLite has one writer anyway.
    ``player``: only if they play in it (None otherwise, and never waiting for its lock: the
    filter comes before the lock, and a match's players never change)."""
    return _load(db, match_id, lock, running_only, player)[0]


_RECEIPT = (", (SELECT player_id FROM movereceipt r WHERE r.match_id = :id AND r.client_move_id = :cid)"
            ", (SELECT response FROM movereceipt r WHERE r.match_id = :id AND r.client_move_id = :cid)")


def load_for_move(db: Db, match_id: str, player: str, client_move_id: str) -> tuple[MatchRow | None, Any]:
    """The match locked for a move by ``player`` (as :func:`load`) and, in the same statement, the
    receipt of an earlier move with this client move id: ``(player_id, response)`` or None.

    The receipt comes from the statement's snapshot, taken before it waited for the lock: a receipt
    committed by the transaction it waited for is not in it. That transaction's move moved the
    match on, so a retry finds its move number stale or the match over: the caller looks again
    (:func:`receipt`) before it refuses a move as stale."""
    row, extra = _load(db, match_id, "update", False, player, client_move_id)
    return row, (tuple(extra) if extra and extra[0] is not None else None)


def receipt(db: Db, match_id: str, client_move_id: str) -> Any:
    """The receipt of a move already made with this client move id: ``(player_id, response)`` or None."""
    return run(db, "SELECT player_id, response FROM movereceipt WHERE match_id = :m AND client_move_id = :c",
               {"m": match_id, "c": client_move_id}).fetchone()


def _load(db: Db, match_id: str, lock: str, running_only: bool, player: str | None,
          client_move_id: str | None = None) -> tuple[MatchRow | None, Any]:
    """The row (as :func:`load`) and the receipt columns asked for (a move's, by client move id)."""
    statement = _SELECT if client_move_id is None else _SELECT.replace(" FROM ", _RECEIPT + " FROM ", 1)
    statement += " AND status = 'running'" if running_only else ""
    params = {"id": match_id, "cid": client_move_id}
    if player is not None:
        statement += " AND :player IN (player0, player1)"
        params["player"] = player
    if lock and for_update(db):
        statement += " FOR UPDATE SKIP LOCKED" if lock == "skip" else " FOR UPDATE"
    r = run(db, statement, params).fetchone()
    if r is None:
        return None, None
    row = MatchRow(*r[:len(COLUMNS)])
    for name in _BOOLS:
        setattr(row, name, bool(getattr(row, name)))
    seen0, seen1 = PRESENCE.of(row.id)  # presence not written yet counts (see Presence)
    row.last_seen0, row.last_seen1 = max(row.last_seen0, seen0), max(row.last_seen1, seen1)
    if lock:
        db.info.setdefault("rows", {})[row.id] = (row, _values(row))
    return row, r[len(COLUMNS):]


class Presence:
    """When each player of a match was last here, as far as this process saw, not yet written.

    A view or a poll used to write the player's ``last_seen`` and commit: one UPDATE and one log
    page per request, just to say "still here". Now it notes the time here, and the sweeper writes
    all notes once a second in one transaction (:func:`flush_presence`). Every row this process
    loads includes its notes, so its views, time rules and sweeps see presence at once; after a
    crash at most the last second of presence is lost (a restart shifts the clocks anyway), and
    another worker (PostgreSQL) sees it at most a second late — against a one-minute away rule."""

    def __init__(self) -> None:
        self.seen: dict[str, list[float]] = {}
        self.lock = threading.Lock()

    def note(self, match_id: str, seat: int, t: float) -> None:
        with self.lock:
            times = self.seen.setdefault(match_id, [0.0, 0.0])
            times[seat] = max(times[seat], t)

    def of(self, match_id: str) -> tuple[float, float]:
        with self.lock:
            times = self.seen.get(match_id)
            return (times[0], times[1]) if times else (0.0, 0.0)

    def take(self) -> dict[str, list[float]]:
        with self.lock:
            seen, self.seen = self.seen, {}
        return seen

    def give_back(self, seen: dict[str, list[float]]) -> None:
        """Notes whose writing failed are kept for the next flush."""
        for match_id, times in seen.items():
            for seat, t in enumerate(times):
                self.note(match_id, seat, t)


PRESENCE = Presence()


def mark_present(db: Db, row: MatchRow, seat: int, t: float) -> None:
    """The player of ``seat`` is here at ``t``: noted in memory, and in the row without making it
    a change to write (so a view that changes nothing else writes nothing)."""
    PRESENCE.note(row.id, seat, t)
    field = "last_seen0" if seat == 0 else "last_seen1"
    if t <= getattr(row, field):
        return
    setattr(row, field, t)
    held = db.info.get("rows", {}).get(row.id)
    if held is not None and held[0] is row:
        before = list(held[1])
        before[COLUMNS.index(field)] = t
        db.info["rows"][row.id] = (row, tuple(before))


#: how many matches one presence statement writes (three parameters each)
FLUSH_CHUNK = 500


def _flush_statement(n: int) -> str:
    """One ``UPDATE … FROM (VALUES …)`` for ``n`` matches: each seat's time, if later than stored."""
    values = ", ".join(f"(:id{i}, :a{i}, :b{i})" for i in range(n))
    return ('UPDATE "match" SET '
            "last_seen0 = CASE WHEN v.column2 > last_seen0 THEN v.column2 ELSE last_seen0 END, "
            "last_seen1 = CASE WHEN v.column3 > last_seen1 THEN v.column3 ELSE last_seen1 END "
            f'FROM (VALUES {values}) AS v WHERE "match".id = v.column1 AND status = \'running\' '
            "AND (v.column2 > last_seen0 OR v.column3 > last_seen1)")


def flush_presence(db: Db) -> int:
    """Write the noted presence of running matches (the sweeper, once a second). Returns how many.

    One statement per :data:`FLUSH_CHUNK` matches, not one per match. PostgreSQL: the rows are
    locked first in the order of their ids (``SELECT … ORDER BY id FOR UPDATE``), in the same round
    trip: with several workers two sweepers flush at once, and rows locked in two different orders
    deadlocked (measured by ``tests/bench_lobby.py --compare``: the pass failed and the waits
    reached the 1 s deadlock timeout, a move p99 of 1.1 s at 400 moves/s with two workers); one
    order for every writer cannot, and the ``UPDATE``'s own order follows its plan, not the list."""
    seen = PRESENCE.take()
    try:
        ids = sorted(seen)
        for at in range(0, len(ids), FLUSH_CHUNK):
            chunk = ids[at:at + FLUSH_CHUNK]
            params: dict[str, Any] = {}
            for i, match_id in enumerate(chunk):
                params[f"id{i}"], params[f"a{i}"], params[f"b{i}"] = match_id, *seen[match_id]
            if for_update(db):
                keys = ", ".join(f":id{i}" for i in range(len(chunk)))
                run(db, f'SELECT id FROM "match" WHERE id IN ({keys}) ORDER BY id FOR UPDATE', params)
            run(db, _flush_statement(len(chunk)), params)
    except BaseException:
        PRESENCE.give_back(seen)
        raise
    return len(seen)


def _values(row: MatchRow) -> tuple[Any, ...]:
    return tuple(getattr(row, c) for c in COLUMNS)


#: how many events one INSERT writes at most (four parameters each)
EVENT_CHUNK = 1000


def queue_event(db: Db, event: tuple[str, int, int | None, str]) -> None:
    """A match event ``(match_id, n, seat, data)`` to write with the transaction's others."""
    db.info.setdefault("events", []).append(event)


def write_events(db: Db) -> None:
    """The events this transaction queued, in one multi-row INSERT: at the commit, or before the
    transaction reads events. A move adds three to five events (its engine events, a private
    variant per seat of a draw, the move marker), which were as many statements."""
    events: list[tuple[str, int, int | None, str]] = db.info.pop("events", [])
    for at in range(0, len(events), EVENT_CHUNK):
        chunk = events[at:at + EVENT_CHUNK]
        params: dict[str, Any] = {}
        for i, (match_id, n, seat, data) in enumerate(chunk):
            params[f"m{i}"], params[f"n{i}"], params[f"s{i}"], params[f"d{i}"] = match_id, n, seat, data
        values = ", ".join(f"(:m{i}, :n{i}, :s{i}, :d{i})" for i in range(len(chunk)))
        later(db, f"INSERT INTO matchevent (match_id, n, seat, data) VALUES {values}", params)


def save_rows(db: Db) -> None:
    """Write the queued events, then what changed in the rows this transaction loaded (one UPDATE
    per changed match)."""
    write_events(db)
    rows: dict[str, tuple[MatchRow, tuple[Any, ...]]] = db.info.pop("rows", {})
    for row, before in rows.values():
        after = _values(row)
        changed = {c: a for c, a, b in zip(COLUMNS, after, before, strict=True) if a != b}
        if changed:
            sets = ", ".join(f"{c} = :{c}" for c in changed)
            later(db, f'UPDATE "match" SET {sets} WHERE id = :id_', {**changed, "id_": row.id})


@event.listens_for(Session, "before_commit")
def _before_commit(db: Session) -> None:
    if "rows" in db.info or "events" in db.info:
        save_rows(db)


@event.listens_for(Session, "after_commit")
@event.listens_for(Session, "after_rollback")
def _after_end(db: Session) -> None:
    """The next transaction of this session starts afresh (its own connection and rows)."""
    db.info.pop("rows", None)
    db.info.pop("events", None)
    db.info.pop("dbapi", None)


def insert_many(db: Db, table: str, rows: Iterable[dict[str, Any]]) -> None:
    """Plain INSERTs of rows with the same keys (events, a move's receipt)."""
    rows = list(rows)
    if rows:
        keys = list(rows[0])
        statement = f"INSERT INTO {table} ({', '.join(keys)}) VALUES ({', '.join(':' + k for k in keys)})"
        if len(rows) == 1:
            later(db, statement, rows[0])  # (executemany's own machinery costs more than one row)
        else:
            run_many(db, statement, rows)
