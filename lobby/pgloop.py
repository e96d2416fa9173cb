"""PostgreSQL's hot transactions on the event loop: psycopg's asynchronous connection, no thread.

Why: a worker thread per hot transaction (``asyncio.to_thread``) cost a hop out and back per
request, and the threads contended with the event loop for the interpreter: one PostgreSQL worker
topped out near 400-500 moves/s with the machine half idle (docs/lobby.md, "Running at scale").
Here the transaction runs on the event loop itself, its round trips awaited like any other I/O.
Measured against the thread hop in alternated runs: one worker offered 400 moves/s held them at
1.97-2.22 ms of CPU a move, where the threaded worker answered 322-363 at 2.75-3.14 ms
(docs/lobby.md, "Load").

The service's functions (``lobby.matches``) stay plain functions of a transaction, shared with
SQLite and the cold ORM paths. They run in a greenlet (``greenlet_spawn``, as SQLAlchemy's own
asyncio layer runs its synchronous core); where one needs the database, :class:`_Cursor` waits for
the asynchronous call with ``await_only``, which hands control to the event loop until the answer
is in. Everything else about a hot transaction is :class:`lobby.rows.Tx`'s: one pipeline,
committed by its Sync (a move is two round trips), a read-only view in autocommit (one).

:class:`Pool` keeps the connections: at most ``size`` at once, a request waiting for one when all
are taken. A connection found dead (the server restarted, or closed it) is not given back; the
caller renews the pool and runs the transaction once more (:meth:`lobby.database.Database.run_db`).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from sqlalchemy.util import await_only

from lobby.rows import Tx


class _Cursor:
    """A cursor of an asynchronous connection with the blocking interface the helpers of
    :mod:`lobby.rows` call (``execute``, ``fetchone``, ...): each call waits in the greenlet."""

    __slots__ = ("cur",)

    def __init__(self, cur: psycopg.AsyncCursor[Any]) -> None:
        self.cur = cur

    def execute(self, statement: str, params: Any = None) -> _Cursor:
        await_only(self.cur.execute(statement, params))
        return self

    def executemany(self, statement: str, params: Any) -> None:
        await_only(self.cur.executemany(statement, params))

    def fetchone(self) -> Any:
        return await_only(self.cur.fetchone())

    def fetchall(self) -> list[Any]:
        return await_only(self.cur.fetchall())


class _Connection:
    """What :class:`lobby.rows.Tx` reaches through ``conn``: cursors that wait in the greenlet."""

    __slots__ = ("aconn",)

    def __init__(self, aconn: psycopg.AsyncConnection[Any]) -> None:
        self.aconn = aconn

    def cursor(self) -> _Cursor:
        return _Cursor(self.aconn.cursor())


class LoopTx(Tx):
    """A hot transaction on an asynchronous connection, inside a greenlet: :class:`lobby.rows.Tx`'s
    statements, pipelining, commit and rollback, with each wait handed to the event loop."""

    __slots__ = ("aconn",)

    def __init__(self, aconn: psycopg.AsyncConnection[Any], read: bool) -> None:
        super().__init__(_Connection(aconn), pg=True)
        self.aconn = aconn
        self.info["read"] = read

    def begin(self) -> None:
        """Pipeline mode, whose Sync commits (see :class:`lobby.rows.Tx`); nothing for a read."""
        if not self.info["read"]:
            self.pipe = self.aconn.pipeline()
            await_only(self.pipe.__aenter__())

    def _session(self) -> psycopg.AsyncConnection[Any]:
        return self.aconn

    def _send(self, statement: str) -> None:
        await_only(self.aconn.execute(statement))

    def _end_pipe(self, pipe: Any, cause: BaseException | None) -> None:
        await_only(pipe.__aexit__(type(cause) if cause else None, cause, None))

    def _release(self) -> None:
        """Nothing: :class:`Pool` takes the connection back."""


class Pool:
    """At most ``size`` asynchronous connections to ``dsn``, kept for the next transaction."""

    def __init__(self, dsn: str, size: int) -> None:
        self.dsn, self.size = dsn, size
        self.idle: list[psycopg.AsyncConnection[Any]] = []
        self.open = 0
        self._free: asyncio.Condition | None = None  # made on the event loop, at first use
        self._loop: asyncio.AbstractEventLoop | None = None

    async def take(self) -> psycopg.AsyncConnection[Any]:
        loop = asyncio.get_running_loop()
        if self._free is None or self._loop is not loop:  # first use, or a new loop (a test's)
            for aconn in self.idle:
                aconn.pgconn.finish()  # made on the other loop: closed without it
            self.idle, self.open, self._loop, self._free = [], 0, loop, asyncio.Condition()
        async with self._free:
            await self._free.wait_for(lambda: bool(self.idle) or self.open < self.size)
            if self.idle:
                return self.idle.pop()
            self.open += 1
        try:
            return await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        except BaseException:
            await self._forget()
            raise

    async def give_back(self, aconn: psycopg.AsyncConnection[Any]) -> None:
        """A connection back for the next transaction, or closed when it is not fit (dead, or left
        inside a transaction by a failure)."""
        if aconn.closed or aconn.info.transaction_status != TransactionStatus.IDLE:
            with contextlib.suppress(psycopg.Error):
                await aconn.close()
            await self._forget()
            return
        assert self._free is not None
        async with self._free:
            self.idle.append(aconn)
            self._free.notify()

    async def renew(self) -> None:
        """Close the idle connections: after one was found dead, the others of its age are too."""
        idle, self.idle = self.idle, []
        for aconn in idle:
            with contextlib.suppress(psycopg.Error):
                await aconn.close()
            await self._forget()

    async def _forget(self) -> None:
        """One connection fewer open: a waiting request may open another."""
        if self._free is None:
            return
        async with self._free:
            self.open -= 1
            self._free.notify()

    async def close(self) -> None:
        await self.renew()
