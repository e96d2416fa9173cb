"""In-process wake-ups for open event streams and long polls.

An open stream used to re-read its match from the database every 0.3 s (locking the row and
writing a presence touch each time): with a thousand matches that is thousands of transactions
a second doing nothing. Now whoever commits new events for a match — a move, a resignation, the
sweeper's flag — rings that match's bell after the commit, and the waiting streams read once.

With several workers (PostgreSQL) another worker's commit reaches this one by ``LISTEN/NOTIFY``
(:class:`Listener`), so its waiters wake too. Waiters still re-check after ``fallback_s`` (long on
both now: it only covers a listener that is reconnecting). A missed or spurious ring only costs a
cheap read: the database stays the truth, the bell is a hint.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

LOG = logging.getLogger("lobby")


class Bells:
    """A version counter per match; ``wait`` returns when it moves past what the caller saw."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: dict[str, set[asyncio.Future[None]]] = {}
        self._lock = threading.Lock()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop the waiters live on (set when the app starts)."""
        self._loop = loop

    def ring(self, match_id: str) -> None:
        """Wake every waiter of ``match_id``. Safe from any thread (the sweeper and the cold
        routes commit in worker threads; the hot requests on the event loop)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._wake(match_id)
        else:
            loop.call_soon_threadsafe(self._wake, match_id)

    def _wake(self, match_id: str) -> None:
        with self._lock:
            waiters = self._waiters.pop(match_id, set())
        for f in waiters:
            if not f.done():
                f.set_result(None)

    def arm(self, match_id: str) -> asyncio.Future[None]:
        """Register a waiter *before* reading the database, then :meth:`until` it: a ring that
        comes between the read and the wait is not lost."""
        f: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._waiters.setdefault(match_id, set()).add(f)
        return f

    async def until(self, match_id: str, f: asyncio.Future[None], timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the ring ``f`` was armed for; True if it came."""
        try:
            await asyncio.wait_for(asyncio.shield(f), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            self.disarm(match_id, f)

    def disarm(self, match_id: str, f: asyncio.Future[None]) -> None:
        """Forget a waiter that no longer waits."""
        with self._lock:
            waiters = self._waiters.get(match_id)
            if waiters is not None:
                waiters.discard(f)
                if not waiters:
                    del self._waiters[match_id]

    def waiting(self) -> int:
        """How many waiters are registered (for tests)."""
        with self._lock:
            return sum(len(w) for w in self._waiters.values())


#: the advisory lock every worker's listener holds (shared) while it listens: how many hold it says
#: how many workers would hear a note (``pg_locks`` is readable by every role)
LISTENING_LOCK = 0x10BB2
#: how often a listener counts the workers listening (the one alone stops sending notes within this)
COUNT_EVERY_S = 1.0


class Listener:
    """PostgreSQL ``LISTEN``: another worker's commit that wrote a match's events rings that
    match's bell here too (the writer sends ``pg_notify`` inside its transaction, so the note is
    delivered exactly when — and only if — the transaction commits). One thread per worker on its
    own connection; if the connection drops it reconnects, and until then the waiters' re-check
    (``fallback_s``) keeps them correct.

    **A worker alone sends no notes.** Its own listener would only hear its own commits (whose
    bells it rings itself after the commit), and that wake-up cost 0.16–0.26 ms of the worker's CPU
    per move (about 10–15 %: ``tests/bench_lobby.py --db pg --rate 400 --matches 300 --seconds 10``
    with ``LOBBY_NOTIFY=always`` and without, two runs each). Each listener
    holds a shared advisory lock while it listens and counts the holders every second
    (:attr:`alone`). A listener that starts says so on the channel ``<channel>_hello`` as soon as
    it listens, so the others notify again at once, not a second later; only a commit already
    under way then can miss the newcomer, and its waiters re-read within ``fallback_s``. Until the
    first count, or while reconnecting, a worker is not alone."""

    def __init__(self, dsn: str, channel: str, bells: Bells) -> None:
        self.dsn, self.channel, self.bells = dsn, channel, bells
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="lobby-listen", daemon=True)
        self.heard = 0  # notes received (the two-worker test reads it)
        self.alone = False

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    self._listen(conn)
            except Exception:
                LOG.warning("LISTEN %s failed; reconnecting", self.channel, exc_info=True)
                self._stop.wait(1.0)
            finally:
                self.alone = False

    def _listen(self, conn: Any) -> None:
        hello = f"{self.channel}_hello"
        conn.execute(f"LISTEN {self.channel}")
        conn.execute(f"LISTEN {hello}")
        conn.execute("SELECT pg_advisory_lock_shared(%s)", (LISTENING_LOCK,))
        conn.execute(f"NOTIFY {hello}")
        counted = 0.0
        while not self._stop.is_set():
            if time.monotonic() - counted >= COUNT_EVERY_S:
                self.alone = self._count(conn) <= 1
                counted = time.monotonic()
            for note in conn.notifies(timeout=COUNT_EVERY_S):
                if note.channel == hello:
                    if note.pid != conn.info.backend_pid:
                        self.alone = False  # a worker has just started listening
                    continue
                self.heard += 1
                self.bells.ring(note.payload)

    @staticmethod
    def _count(conn: Any) -> int:
        """How many workers listen on this database (their listeners hold the shared lock)."""
        row = conn.execute("SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database "
                           "WHERE l.locktype = 'advisory' AND l.classid = 0 AND l.objid = %s AND l.objsubid = 1 "
                           "AND l.granted AND d.datname = current_database()", (LISTENING_LOCK,)).fetchone()
        return int(row[0]) if row else 0
