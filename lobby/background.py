"""The lobby's background tasks: the sweeper (the time rules without any request, seeks paired,
presence written), the garbage collector kept to short pauses, and SQLite's WAL checkpoints outside
requests. Each survives a failed pass and logs it (logger ``lobby``)."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time

from lobby import service as svc
from lobby.clock import Clock
from lobby.database import Database

LOG = logging.getLogger("lobby")

#: SQLite: the write-ahead log is copied into the database file this often (see ``checkpoint``)
CHECKPOINT_S = float(os.environ.get("LOBBY_CHECKPOINT_S", 1.0))
#: the garbage collector: young generations collected and frozen this often; a full collection this often
GC_FREEZE_S, GC_FULL_S = 1.0, 600.0


class Background:
    def __init__(self, database: Database, clock: Clock) -> None:
        self.db, self.clock = database, clock
        self.tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """The tasks of a serving process (tests without them run passes by hand)."""
        self.tasks = [asyncio.create_task(self.sweeper()), asyncio.create_task(self.collector())]
        if self.db.aserial is not None:
            self.tasks.append(asyncio.create_task(self.checkpointer()))
        gc.collect()
        gc.freeze()

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        if self.tasks:
            gc.unfreeze()
        self.tasks = []

    def sweep_once(self) -> None:
        """One short transaction per match, so a sweep never holds many match locks at once."""
        clk, transaction = self.clock, self.db.transaction
        with transaction() as db:
            svc.flush_presence(db)  # the presence noted since the last sweep, before the time rules
        with transaction() as db:
            ids = svc.due_ids(db, clk.now(), clk.rules)
        for mid in ids:
            with transaction() as db:
                svc.sweep_match(db, clk, mid)
        with transaction() as db:
            svc.pair_seeks(db, clk)
            svc.mark_alive(db, clk)

    async def sweeper(self) -> None:
        while True:
            try:  # the sweeper must survive one bad pass, and say what went wrong
                await asyncio.to_thread(self.sweep_once)
            except Exception:
                LOG.exception("lobby sweeper: a pass failed (the time rules run again in a second)")
            await asyncio.sleep(1.0)

    async def collector(self) -> None:
        """Keep the garbage collector's pauses short. Python's cyclic collector walks every tracked
        object of the generations it collects, and a lobby holds many: each cached match state is
        ~40 lists and objects, so with 1,000 matches its collections of the older generations
        paused every request for 20–100 ms (measured under the load benchmark). Every second the
        young generations are collected (a few ms: only what the last second made) and whatever
        survived is *frozen*: moved where the collector never walks. Frozen objects are still freed
        the usual way when nothing refers to them — a replaced match state goes at once — only
        reference cycles among them would wait, so every ten minutes everything is unfrozen and
        collected once."""
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(GC_FREEZE_S)
            if time.monotonic() - last_full >= GC_FULL_S:
                gc.unfreeze()
                gc.collect()
                last_full = time.monotonic()
            else:
                gc.collect(1)
            gc.freeze()

    async def checkpointer(self) -> None:
        while True:
            try:  # like the sweeper, it survives one bad pass, and says what went wrong
                await self.checkpoint()
            except Exception:
                LOG.exception("lobby checkpointer: a WAL checkpoint failed (tried again shortly)")
            await asyncio.sleep(CHECKPOINT_S)

    async def checkpoint(self) -> None:
        """SQLite: copy the write-ahead log into the database file — never inside a request's commit
        (the automatic checkpoint every ~1,000 pages, about every 100 moves, stalled the request
        that happened to trigger it, tens of ms with its fsync). The bulk is copied beside the
        requests; then, with the requests held for a moment, what they wrote meanwhile (a few pages
        and the fsync), so that the next write starts the log afresh. Checkpoints that always race
        a writer never finish, and the log then only grows — every read gets slower."""
        await asyncio.to_thread(self.wal_checkpoint)
        assert self.db.aserial is not None
        async with self.db.aserial:
            await asyncio.to_thread(self.wal_checkpoint)

    def wal_checkpoint(self) -> tuple[int, int, int]:
        """One PASSIVE checkpoint: (busy, pages in the log, pages copied)."""
        conn = self.db.engine.raw_connection()  # autocommit: a checkpoint cannot run inside a transaction
        try:
            return tuple(conn.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())
        finally:
            conn.close()
