"""One module per resource of the lobby's API (players, matchmaking, matches), each adding its
operations to the app over the :class:`Context` the app wires: its database, its clock and the
waiting streams' timings. (Flat routes on the app rather than included ``APIRouter``s: FastAPI
wraps an included router in one route, and the hot paths must be tried first.)

No ``from __future__ import annotations`` in these modules: FastAPI reads the routes' annotations
at run time, and the dependency aliases (``DB``, ``Me``) are made per app."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Header
from sqlmodel import Session

from lobby import hot, models
from lobby import service as svc
from lobby.clock import Clock
from lobby.database import Database


@dataclass
class Context:
    database: Database
    clock: Clock
    #: an open stream or long poll marks its player present this often
    touch_s: float
    #: waiters re-read after this long even without a ring (a listener reconnecting)
    recheck_s: float
    #: open event streams one player may hold on one worker process; the next gets 429
    max_streams: int = 4
    #: FastAPI dependencies: a route's transaction (``get_db``) and its signed-in player (``me``)
    get_db: Callable[..., Iterator[Session]] = field(init=False)
    me: Callable[..., models.Player] = field(init=False)

    def __post_init__(self) -> None:
        database = self.database

        # scope="function": the transaction commits (and the SQLite slot is freed) when the
        # endpoint returns, *before* the response is sent. FastAPI's default ("request") ends a
        # yield dependency after the response, so a client could be told "created" before the
        # commit — and act on it through another worker that cannot see the row yet (found by the
        # two-worker PostgreSQL test).
        def get_db(_slot: Annotated[None, Depends(database.request_slot, scope="function")]) -> Iterator[Session]:
            with database.transaction(locked=False) as db:
                yield db

        def me(db: Annotated[Session, Depends(get_db, scope="function")],
               authorization: Annotated[str | None, Header(include_in_schema=False)] = None) -> models.Player:
            return svc.authenticate(db, hot.bearer(authorization))

        self.get_db, self.me = get_db, me
