"""Opening the database: pragmas, schema versions and migrations, and never losing a file.

* SQLite in WAL mode with a busy timeout; every transaction starts with ``BEGIN IMMEDIATE`` so two
  writers (the UI and a background task) queue instead of failing with "database is locked".
* The schema version is ``PRAGMA user_version``. An older file is migrated in place, step by step.
* A file from a newer app version, or a file that is not a readable database, is never
  overwritten: it is copied aside (``*.newer-<time>.bak`` / ``*.corrupt-<time>.bak``), the app
  starts with a fresh database and :attr:`Storage.notice` says what happened and where the old
  file is.
* The file is created owner-only (0600): it holds the online account's token.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, create_engine

from storage import models  # noqa: F401  (registers the tables)
from storage.paths import database_path

SCHEMA_VERSION = 3


def now() -> float:
    """The wall clock, for the times stored with rows (started, updated, finished)."""
    return time.time()


def _migrate_1_to_2(con: sqlite3.Connection) -> None:
    """Schema 2 added the profile's card style and the sync outbox."""
    con.execute("ALTER TABLE profile ADD COLUMN card_style VARCHAR NOT NULL DEFAULT 'classic'")
    con.execute("CREATE TABLE IF NOT EXISTS outbox (id INTEGER NOT NULL PRIMARY KEY, kind VARCHAR NOT NULL, "
                "payload VARCHAR NOT NULL, created_at FLOAT NOT NULL, attempts INTEGER NOT NULL)")


def _migrate_2_to_3(con: sqlite3.Connection) -> None:
    """Schema 3 keeps the expert's game reviews."""
    con.execute("CREATE TABLE IF NOT EXISTS gamereviewrow (game_id INTEGER NOT NULL PRIMARY KEY "
                "REFERENCES savedgame (id), seat INTEGER NOT NULL, data VARCHAR NOT NULL, created_at FLOAT NOT NULL)")


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _migrate_1_to_2, 2: _migrate_2_to_3}


@dataclass
class Storage:
    engine: Engine
    path: Path
    notice: str | None = None
    #: this thread's open `transaction`, if any (a bot's thread has its own)
    _outer: threading.local = field(default_factory=threading.local, repr=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A transaction: committed when the block ends, rolled back on an exception. Inside a
        `transaction` of this thread it is that one's, committed when that one ends."""
        outer: Session | None = getattr(self._outer, "session", None)
        if outer is not None:
            yield outer
            return
        with Session(self.engine, expire_on_commit=False) as s:
            try:
                yield s
                s.commit()
            except BaseException:
                s.rollback()
                raise

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Every storage call of this thread inside the block in one transaction: all of it is
        kept, or (on an exception) none of it — an import that fails half-way stores nothing."""
        if getattr(self._outer, "session", None) is not None:
            yield  # already inside one
            return
        with self.session() as s:
            self._outer.session = s
            try:
                yield
            finally:
                self._outer.session = None

    def close(self) -> None:
        self.engine.dispose()


def _set_aside(path: Path, why: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{why}-{stamp}.bak")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.{why}-{stamp}-{n}.bak")
        n += 1
    shutil.copy2(path, target)
    for suffix in ("", "-wal", "-shm"):
        p = Path(str(path) + suffix)
        if p.exists():
            p.unlink()
    return target


def _check_file(path: Path) -> tuple[int | None, str | None]:
    """(schema version, problem) of an existing file without changing it."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            version = con.execute("PRAGMA user_version").fetchone()[0]
            con.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
            ok = con.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        return None, str(exc)
    if ok != "ok":
        return None, f"integrity check failed: {ok}"
    return int(version), None


def _make_engine(path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_con: Any, _record: Any) -> None:
        dbapi_con.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_con.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def open_storage(path: str | os.PathLike[str] | None = None) -> Storage:
    """Open (creating, migrating or setting aside as needed) the app's database."""
    p = database_path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    notice = None
    if p.exists() and p.stat().st_size > 0:
        version, problem = _check_file(p)
        if problem is not None:
            kept = _set_aside(p, "corrupt")
            notice = (f"The saved data could not be read ({problem}). It was kept as {kept.name} and the app "
                      "started with fresh data.")
        elif version is not None and version > SCHEMA_VERSION:
            kept = _set_aside(p, "newer")
            notice = (f"The saved data was written by a newer version of the app (schema {version}). It was kept "
                      f"as {kept.name}; update the app to use it. The app started with fresh data.")
        elif version is not None and 0 < version < SCHEMA_VERSION:
            con = sqlite3.connect(p)
            try:
                with con:
                    for v in range(version, SCHEMA_VERSION):
                        MIGRATIONS[v](con)
                    con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            finally:
                con.close()
    if not p.exists():
        fd = os.open(p, os.O_CREAT | os.O_WRONLY, 0o600)
        os.close(fd)
    with suppress(OSError):
        os.chmod(p, 0o600)
    engine = _make_engine(p)
    SQLModel.metadata.create_all(engine)
    with engine.begin() as begun:
        begun.exec_driver_sql(f"PRAGMA user_version={SCHEMA_VERSION}")
    return Storage(engine, p, notice)
