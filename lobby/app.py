"""The lobby's HTTP API (FastAPI). Run with ``python -m lobby``; see docs/lobby.md."""


import asyncio
import gc
import json
import logging
import math
import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Annotated, Any, TypeVar

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.routing import APIRoute
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, create_engine
from starlette.exceptions import HTTPException as StarletteHTTPException

from engine.lanes.options import VARIANTS
from lobby import (
    hot,
    models,
)
from lobby import service as svc
from lobby.clock import Clock, SystemClock
from lobby.models import Match, Seek
from lobby.notify import Bells, Listener
from lobby.ratelimit import RateLimit, RateLimiter, trusted_proxies_from_env
from lobby.rows import MatchRow, Tx

LOG = logging.getLogger("lobby")

DEFAULT_DB = "sqlite:///lobby.sqlite"
#: the highest event number a client may name (a signed 64-bit column holds the numbers; a larger
#: one is refused at the edge instead of overflowing in the database driver)
MAX_EVENT = 2**62


def event_number(last_event_id: str | None, since: int) -> int:
    """The event a reconnecting stream resumes after: ``Last-Event-ID`` when it is a plain number
    in range, else ``since``. A header that is not one is refused (422), never guessed."""
    if not last_event_id:
        return since
    if not last_event_id.isdecimal() or len(last_event_id) > 19 or int(last_event_id) > MAX_EVENT:
        raise svc.LobbyError(422, "Last-Event-ID must be an event number", {"max": MAX_EVENT})
    return int(last_event_id)


#: an open stream or long poll marks its player present this often (well inside AWAY_WARN_S, so
#: the opponent never sees a waiting player as away)
TOUCH_S = 5.0
#: SQLite: the write-ahead log is copied into the database file this often (see ``checkpoint``)
CHECKPOINT_S = float(os.environ.get("LOBBY_CHECKPOINT_S", 1.0))
#: the garbage collector: young generations collected and frozen this often; a full collection this often
GC_FREEZE_S, GC_FULL_S = 1.0, 600.0
T = TypeVar("T")


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
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


def pg_dsn(url: str) -> str:
    """The libpq form of a PostgreSQL URL (SQLAlchemy's ``+psycopg`` driver tag removed)."""
    for prefix in ("postgresql+psycopg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


class FastJSON(JSONResponse):
    """A JSON response encoded by orjson (a view is the bulk of every hot answer)."""

    def render(self, content: Any) -> bytes:
        return svc.to_json(content)


def finite(obj: Any) -> Any:
    """``obj`` (JSON-like) with NaN and the infinities replaced by None, which JSON can carry."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [finite(v) for v in obj]
    return obj


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # not only spaces (what str.strip removes: Unicode spaces and the separators \x1c-\x1f)
    name: str = Field(min_length=1, max_length=24, pattern=r"[^\s\x1c-\x1f]")


def one_of(values: tuple[str, ...], what: str) -> Callable[[str], str]:
    """A validator: the text must be one of ``values``."""
    def check(value: str) -> str:
        if value not in values:
            raise ValueError(f"{what} must be one of {', '.join(values)}")
        return value
    return check


TimeControl = Annotated[str, Field(strict=True), AfterValidator(one_of(tuple(svc.TIME_CONTROLS), "the time control")),
                        WithJsonSchema({"type": "string", "enum": list(svc.TIME_CONTROLS)})]
Variant = Annotated[str, Field(strict=True), AfterValidator(one_of(tuple(VARIANTS), "a variant")),
                    WithJsonSchema({"type": "string", "enum": list(VARIANTS)})]


class Terms(BaseModel):
    """A seek's or a challenge's terms. Strict types (``"rated": 0`` is not a yes or no), known time
    controls and variants only, no unknown fields (a body of only unknown fields used to create a
    default rated seek), and no variants in a rated game (L-8.5) — all of it in the schema too."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "if": {"required": ["rated"], "properties": {"rated": {"const": False}}},
        "else": {"properties": {"variants": {"maxItems": 0}}}})
    rated: bool = Field(True, strict=True)
    time_control: TimeControl = "5+3"
    variants: list[Variant] = Field(default_factory=list, max_length=12)

    @model_validator(mode="after")
    def _never_rated_with_variants(self) -> "Terms":
        if self.rated and self.variants:
            raise ValueError("variants are never rated (L-8.5): make it a casual game or remove the variants")
        return self


def _whole_number(value: Any) -> Any:
    """A JSON integer — ``12`` or ``12.0``, as JSON Schema counts them — but never ``true`` (move 1
    to Python) and never the text ``"12"``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("must be a whole number")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError("must be a whole number")
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole_number)]


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expected_move: WholeNumber = Field(ge=0)
    client_move_id: str = Field(min_length=1, max_length=hot.CLIENT_MOVE_ID_MAX, strict=True)
    action: dict[str, Any]


class ErrorBody(BaseModel):
    """Every error the lobby answers: a sentence for people and the details for programs (a 422's
    field errors, a move's engine code, a stale move's current view)."""

    error: str
    detail: Any = None


_WHY = {400: "the body is not JSON", 401: "no token, or one that is not valid", 403: "not your match or seek",
        404: "no such player, seek, challenge or match", 409: "the state changed (a stale move, a finished "
        "match, a taken challenge)", 422: "a field or a move is not valid", 429: "too many requests (Retry-After)"}
PUBLIC = (400, 404, 409, 422, 429)
SIGNED_IN = (400, 401, 403, 404, 409, 422, 429)


def errors(codes: tuple[int, ...]) -> dict[int | str, dict[str, Any]]:
    """The error answers an operation declares in the OpenAPI schema (all of them ``ErrorBody``)."""
    return {code: {"model": ErrorBody, "description": _WHY[code]} for code in codes}


#: an operation for a signed-in player: its errors, and the bearer token it needs
SIGNED_IN_OP: dict[str, Any] = {"responses": errors(SIGNED_IN), "openapi_extra": {"security": [{"bearer": []}]}}


def with_security_scheme(app: FastAPI) -> None:
    """Declare ``Authorization: Bearer <token>`` as the schema's security scheme."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        schema = plain()
        schema.setdefault("components", {}).setdefault("securitySchemes", {})["bearer"] = {
            "type": "http", "scheme": "bearer", "description": "the token POST /players answers"}
        return schema
    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend the schema


class LobbyAPI(FastAPI):
    """FastAPI, with the two hot requests served first by :class:`lobby.hot.HotRoutes` when they
    are plainly well formed (everything else, and the schema, is FastAPI's)."""

    hot_routes: hot.HotRoutes | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.hot_routes is not None:
            receive = await self.hot_routes.serve(scope, receive, send)
            if receive is None:
                return
        await super().__call__(scope, receive, send)


def create_app(db_url: str | None = None, clock: Clock | None = None, run_sweeper: bool = True,
               rate: float = 20.0, burst: float = 60.0, touch_s: float = TOUCH_S,
               fallback_s: float | None = None) -> FastAPI:
    url = db_url or os.environ.get("LOBBY_DB", DEFAULT_DB)
    engine = make_engine(url)
    clk: Clock = clock or SystemClock()
    # SQLite has one writer at a time. Queue our own transactions on a lock instead of letting
    # SQLite's busy handler sleep-and-retry (which adds tens of milliseconds under load).
    serial = threading.Lock() if url.startswith("sqlite") else None

    # Requests queue on an asyncio lock *before* they take a worker thread: a thread-level lock held
    # across a request's dependency and endpoint let 40 waiting requests fill the thread pool while
    # the holder waited for a thread to run its endpoint — a deadlock under load (found by the
    # load benchmark). Background work (sweeper, polls) uses the thread lock; the two meet in
    # SQLite's own busy wait, which is correct, just slower, and rare.
    aserial = asyncio.Lock() if serial is not None else None

    bells = Bells()
    # waiters re-read after this long even without a ring: other workers' writes ring nobody here
    recheck_s = fallback_s if fallback_s is not None else 5.0
    # PostgreSQL: other workers' commits ring here too (LISTEN/NOTIFY)
    listener = Listener(pg_dsn(url), svc.NOTIFY_CHANNEL, bells) if serial is None else None

    @contextmanager
    def one_writer(locked: bool = True) -> Iterator[None]:
        """SQLite: this process's transactions one at a time (PostgreSQL: row locks instead)."""
        if serial is None or not locked:
            yield
            return
        with serial:
            yield

    def ring(info: dict[str, Any]) -> None:
        """After a commit: wake the waiters of the matches the transaction wrote events for."""
        for match_id in info.pop("rang", ()):
            bells.ring(match_id)

    @contextmanager
    def transaction(locked: bool = True) -> Iterator[Session]:
        with one_writer(locked), Session(engine, expire_on_commit=False) as db:
            try:
                yield db
                db.commit()
            except BaseException:
                db.rollback()
                raise
            ring(db.info)
    limiter = RateLimiter(float(os.environ.get("LOBBY_RATE", rate)), float(os.environ.get("LOBBY_BURST", burst)),
                          trusted_proxies=trusted_proxies_from_env(), player_of=svc.known_player)

    SQLModel.metadata.create_all(engine)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        bells.bind(asyncio.get_running_loop())
        if listener is not None:
            listener.start()
        with transaction() as db:
            svc.resume_after_restart(db, clk)
        tasks = [asyncio.create_task(sweeper()), asyncio.create_task(collector())] if run_sweeper else []
        if run_sweeper and aserial is not None:
            tasks.append(asyncio.create_task(checkpointer()))
        if run_sweeper:  # a serving process (tests without the background tasks leave the collector be)
            gc.collect()
            gc.freeze()
        yield
        for task in tasks:
            task.cancel()
        if listener is not None:
            listener.stop()
        if run_sweeper:
            gc.unfreeze()
        for conn in hot_conn:
            conn.close()
        hot_conn.clear()
        engine.dispose()

    async def sweeper() -> None:
        while True:
            try:  # the sweeper must survive one bad pass, and say what went wrong
                await asyncio.to_thread(sweep_once)
            except Exception:
                LOG.exception("lobby sweeper: a pass failed (the time rules run again in a second)")
            await asyncio.sleep(1.0)

    async def collector() -> None:
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

    async def checkpointer() -> None:
        while True:
            try:  # like the sweeper, it survives one bad pass, and says what went wrong
                await checkpoint()
            except Exception:
                LOG.exception("lobby checkpointer: a WAL checkpoint failed (tried again shortly)")
            await asyncio.sleep(CHECKPOINT_S)

    async def checkpoint() -> None:
        """SQLite: copy the write-ahead log into the database file — never inside a request's commit
        (the automatic checkpoint every ~1,000 pages, about every 100 moves, stalled the request
        that happened to trigger it, tens of ms with its fsync). The bulk is copied beside the
        requests; then, with the requests held for a moment, what they wrote meanwhile (a few pages
        and the fsync), so that the next write starts the log afresh. Checkpoints that always race
        a writer never finish, and the log then only grows — every read gets slower."""
        await asyncio.to_thread(wal_checkpoint)
        assert aserial is not None
        async with aserial:
            await asyncio.to_thread(wal_checkpoint)

    def sweep_once() -> None:
        """One short transaction per match, so a sweep never holds many match locks at once."""
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

    def wal_checkpoint() -> tuple[int, int, int]:
        """One PASSIVE checkpoint: (busy, pages in the log, pages copied)."""
        conn = engine.raw_connection()  # autocommit: a checkpoint cannot run inside a transaction
        try:
            return tuple(conn.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone())
        finally:
            conn.close()

    app = LobbyAPI(title="Card Table lobby", version="1.0", lifespan=lifespan,
                  description="Online rated, timed Lanes matches. Every match response is the viewer's own view.")
    with_security_scheme(app)
    app.state.engine = engine
    app.state.clock = clk
    app.state.sweep_once = sweep_once
    app.state.wal_checkpoint = wal_checkpoint
    app.state.bells = bells
    app.state.listener = listener

    @app.exception_handler(svc.LobbyError)
    async def lobby_error(request: Request, exc: svc.LobbyError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        """FastAPI's 422, encoded so that any input it quotes can be sent back: a body such as
        ``{"expected_move": NaN}`` (Python's JSON reader takes it) made the standard encoder raise
        while answering, and the client got a 500 (found by tests/lobby/test_hot.py). Non-finite
        numbers are sent as ``null``; the standard encoder keeps the rest, integers of any size
        included (orjson refuses those beyond 64 bits: schemathesis found that), and escapes what
        is not ASCII (a lone surrogate in a name was a 500)."""
        # ASCII-escaped: the input quoted may hold a lone surrogate, which UTF-8 cannot carry
        problems = finite(jsonable_encoder(exc.errors()))
        first = problems[0] if problems else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
        words = f"{where}: {first.get('msg', 'not valid')}" if where else str(first.get("msg", "not valid"))
        body = json.dumps({"error": words, "detail": problems}, ensure_ascii=True)
        return Response(body, status_code=422, media_type="application/json")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """Starlette's own answers (an unknown path, a method a path does not have, a body that is
        not JSON) in the lobby's error shape; a 405 lists in ``Allow`` every method of the path,
        not only those of the first route that matched it."""
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(allowed_methods(request.scope))
        return JSONResponse({"error": str(exc.detail), "detail": None}, status_code=exc.status_code, headers=headers)

    def allowed_methods(scope: Any) -> list[str]:
        methods: set[str] = set()
        for route in app.router.routes:
            if isinstance(route, APIRoute) and route.path_regex.match(scope["path"]):
                methods |= route.methods or set()
        return sorted(methods)

    app.add_middleware(RateLimit, limiter=limiter)

    async def request_slot() -> AsyncIterator[None]:
        if aserial is None:  # PostgreSQL: row locks do the work, requests run in parallel
            yield
            return
        async with aserial:
            yield

    # scope="function": the transaction commits (and the SQLite slot is freed) when the endpoint
    # returns, *before* the response is sent. FastAPI's default ("request") ends a yield dependency
    # after the response, so a client could be told "created" before the commit — and act on it
    # through another worker that cannot see the row yet (found by the two-worker PostgreSQL test).
    def get_db(_slot: Annotated[None, Depends(request_slot, scope="function")]) -> Iterator[Session]:
        with transaction(locked=False) as db:
            yield db

    DB = Annotated[Session, Depends(get_db, scope="function")]

    def me(db: DB, authorization: Annotated[str | None, Header(include_in_schema=False)] = None) -> models.Player:
        token = authorization[7:] if authorization and authorization.lower().startswith("bearer ") else None
        return svc.authenticate(db, token)

    Me = Annotated[models.Player, Depends(me)]

    # The hot endpoints take the Authorization header as a plain parameter and authenticate inside
    # their own short transaction (no database transaction stays open while they wait); a
    # dependency per request cost more than the header parameter (sampled under the benchmark).
    # The header is declared in the schema as the bearer security scheme, not as a parameter.
    Auth = Annotated[str | None, Header(include_in_schema=False)]

    bearer = hot.bearer

    @app.get("/health", responses=errors(PUBLIC))
    def health() -> dict[str, Any]:
        return {"ok": True, "time": clk.now()}

    @app.post("/players", status_code=201, responses=errors(PUBLIC))
    def new_player(body: NewPlayer, db: DB) -> dict[str, Any]:
        p, token = svc.create_player(db, clk, body.name)
        return {"player": svc.player_json(p), "token": token}

    @app.get("/players/me", **SIGNED_IN_OP)
    def whoami(player: Me) -> dict[str, Any]:
        return svc.player_json(player)

    @app.patch("/players/me", **SIGNED_IN_OP)
    def rename(body: NewPlayer, player: Me, db: DB) -> dict[str, Any]:
        player.name = svc.display_name(body.name)
        db.add(player)
        svc.forget_player(player.id)
        return svc.player_json(player)

    @app.post("/players/me/revoke", **SIGNED_IN_OP)
    def revoke(player: Me, db: DB) -> dict[str, Any]:
        player.revoked = True
        db.add(player)
        db.flush()
        svc.forget_tokens_of(player.id)
        return {"ok": True}

    @app.get("/players/{player_id}", responses=errors(PUBLIC))
    def player_profile(player_id: str, db: DB) -> dict[str, Any]:
        return svc.profile(db, player_id)

    @app.get("/leaderboard", responses=errors(PUBLIC))
    def board(db: DB, limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[dict[str, Any]]:
        return svc.leaderboard(db, limit)

    @app.post("/seeks", status_code=201, **SIGNED_IN_OP)
    def seek(body: Terms, player: Me, db: DB) -> dict[str, Any]:
        s = svc.create_seek(db, clk, player, body.rated, body.time_control, body.variants)
        return _seek_json(s)

    def own_seek(db: Session, seek_id: str, player: models.Player) -> Seek:
        s = db.get(Seek, seek_id)
        if s is None or s.player_id != player.id:
            raise svc.LobbyError(404, "no such seek")
        return s

    @app.get("/seeks/{seek_id}", **SIGNED_IN_OP)
    def seek_status(seek_id: str, player: Me, db: DB) -> dict[str, Any]:
        s = own_seek(db, seek_id, player)
        if s.status == "open":
            svc.pair_seeks(db, clk)
        return _seek_json(s)

    @app.delete("/seeks/{seek_id}", **SIGNED_IN_OP)
    def cancel_seek(seek_id: str, player: Me, db: DB) -> dict[str, Any]:
        s = own_seek(db, seek_id, player)
        if s.status == "open":
            s.status = "cancelled"
            db.add(s)
        return _seek_json(s)

    @app.post("/challenges", status_code=201, **SIGNED_IN_OP)
    def challenge(body: Terms, player: Me, db: DB) -> dict[str, Any]:
        c = svc.create_challenge(db, clk, player, body.rated, body.time_control, body.variants)
        return {"code": c.code, "rated": c.rated, "time_control": c.time_control, "variants": json.loads(c.variants)}

    @app.get("/challenges/{code}", **SIGNED_IN_OP)
    def challenge_status(code: str, player: Me, db: DB) -> dict[str, Any]:
        """The challenger waits here for a friend to accept (only the challenger may look)."""
        c = db.get(models.Challenge, code.upper())
        if c is None or c.player_id != player.id:
            raise svc.LobbyError(404, "no challenge with that code")
        return {"code": c.code, "match_id": c.match_id}

    @app.post("/challenges/{code}/accept", **SIGNED_IN_OP)
    def accept(code: str, player: Me, db: DB) -> dict[str, Any]:
        m = svc.accept_challenge(db, clk, player, code)
        db.flush()
        return svc.view_for(db, clk, m, svc.seat_of(m, player))

    async def run_db(fn: Callable[[Tx], T]) -> T:
        """One transaction for a hot request (a match's view, a move, a poll), in one step.

        SQLite: the transactions are serialised anyway, so the work runs right here on the event
        loop, queued on the async lock and holding the thread lock the sweeper takes — no hop to
        the thread pool and back per dependency (those hops, not the work, were most of a move's
        time). PostgreSQL: in a worker thread, in parallel, with the row locks doing the ordering."""
        if aserial is None:
            return await asyncio.to_thread(run_tx, fn)
        async with aserial:
            return run_tx(fn)

    hot_conn: list[Any] = []

    def run_tx(fn: Callable[[Tx], T]) -> T:
        """``fn`` in one transaction straight on a pooled DBAPI connection (:class:`lobby.rows.Tx`:
        no ORM session to begin and commit), then the bells of the matches it wrote."""
        with one_writer():
            if serial is not None and not hot_conn:
                hot_conn.append(engine.raw_connection())  # SQLite: one connection for every hot transaction
            tx = Tx.open(engine, hot_conn[0] if hot_conn else None)
            try:
                result = fn(tx)
            except BaseException:
                tx.rollback()
                raise
            tx.commit()
        ring(tx.info)
        return result

    def _match_for(db: Tx, match_id: str, player: models.Player | svc.Caller) -> tuple[MatchRow, int]:
        m = svc.locked_match(db, match_id)  # locked: a view also touches and enforces
        seat = svc.seat_of(m, player)
        svc.touch(db, clk, m, seat)
        svc.enforce(db, clk, m)
        return m, seat

    async def view_of(match_id: str, token: str | None) -> dict[str, Any]:
        """The caller's own view of the match (the hot path and the route below)."""
        def work(db: Tx) -> dict[str, Any]:
            m, seat = _match_for(db, match_id, svc.authenticate_id(db, token))
            return svc.view_for(db, clk, m, seat)
        return await run_db(work)

    async def move_in(match_id: str, token: str | None, expected_move: int, client_move_id: str,
                      action: dict[str, Any]) -> svc.MoveResult:
        """A move (the hot path and the route below)."""
        def work(db: Tx) -> svc.MoveResult:
            return svc.make_move(db, clk, svc.authenticate_id(db, token), match_id, expected_move,
                                 client_move_id, action)
        return await run_db(work)

    app.hot_routes = hot.HotRoutes(view_of, move_in, limiter.over)

    # The two routes below are what the schema documents; well-formed requests are answered by
    # ``app.hot_routes`` with the same functions before they get here (lobby/hot.py says why).
    @app.get("/matches/{match_id}", response_model=None, **SIGNED_IN_OP)
    async def match_view(match_id: str, authorization: Auth = None) -> JSONResponse:
        """The caller's own view of the match (as a JSONResponse: FastAPI's generic encoder walks a
        view dict field by field and cost more than building it)."""
        return FastJSON(await view_of(match_id, bearer(authorization)))

    @app.post("/matches/{match_id}/moves", **SIGNED_IN_OP)
    async def move(match_id: str, body: MoveIn, authorization: Auth = None) -> Response:
        r = await move_in(match_id, bearer(authorization), body.expected_move, body.client_move_id, body.action)
        if r.text is not None:
            return Response(r.text, status_code=r.status, media_type="application/json")
        return FastJSON(r.body, status_code=r.status)

    @app.post("/matches/{match_id}/resign", **SIGNED_IN_OP)
    def resign(match_id: str, player: Me, db: DB) -> dict[str, Any]:
        return svc.resign(db, clk, player, match_id)

    async def present(match_id: str, token: str | None, since: int) -> dict[str, Any]:
        """Presence, the time rules, then the caller's seat, events and view (one locked transaction)."""
        def work(db: Tx) -> dict[str, Any]:
            m, seat = _match_for(db, match_id, svc.authenticate_id(db, token))
            return {"seat": seat, "events": svc.events_for(db, m.id, seat, since),
                    "view": svc.view_for(db, clk, m, seat)}
        return await run_db(work)

    async def quiet_wait(match_id: str, seat: int, since: int, until: float) -> tuple[list[dict[str, Any]], str]:
        """Wait for ``seat``'s events after ``since`` (or until the monotonic time ``until``):
        armed on the match's bell before each cheap read, so a ring between the two is not lost."""
        while True:
            ring = bells.arm(match_id)
            events, status = await run_db(lambda db: svc.events_after(db, match_id, seat, since))
            left = until - time.monotonic()
            if events or status != "running" or left <= 0:
                bells.disarm(match_id, ring)
                return events, status
            await bells.until(match_id, ring, min(recheck_s, left))

    @app.get("/matches/{match_id}/poll", **SIGNED_IN_OP)
    async def poll(match_id: str, authorization: Auth = None, since: Annotated[int, Query(ge=0, le=MAX_EVENT)] = 0,
                   timeout: Annotated[float, Query(ge=0, le=30)] = 25.0) -> JSONResponse:
        """Long-poll fallback: answers at once when events after ``since`` exist, else waits for
        them (woken by the match's bell, marking the caller present every ``touch_s``)."""
        token = bearer(authorization)
        deadline = time.monotonic() + timeout
        while True:
            body = await present(match_id, token, since)
            left = deadline - time.monotonic()
            if body["events"] or left <= 0 or body["view"]["status"] != "running":
                del body["seat"]
                return FastJSON(body)
            await quiet_wait(match_id, body["seat"], since, time.monotonic() + min(touch_s, left))

    @app.get("/matches/{match_id}/events", **SIGNED_IN_OP)
    async def stream(match_id: str, authorization: Auth = None, since: Annotated[int, Query(ge=0, le=MAX_EVENT)] = 0,
                     last_event_id: Annotated[str, Header(pattern=r"^[0-9]{1,18}$")] = "") -> StreamingResponse:
        """Server-sent events, numbered; reconnect with ``Last-Event-ID`` or ``?since=`` to catch up.
        An open stream also counts as being present (no disconnect loss)."""
        token = bearer(authorization)
        start = event_number(last_event_id, since)
        seat = (await present(match_id, token, start))["seat"]  # 401/403/404 before streaming

        async def gen() -> AsyncIterator[str]:
            cursor = start
            touched = quiet = time.monotonic()
            while True:
                now = time.monotonic()
                if now - touched >= touch_s:
                    await present(match_id, token, cursor)
                    touched = now
                events, status = await quiet_wait(match_id, seat, cursor, min(touched + touch_s, quiet + 15))
                for e in events:
                    cursor = e["n"]
                    yield f"id: {e['n']}\nevent: {e['type']}\ndata: {json.dumps(e)}\n\n"
                    quiet = time.monotonic()
                if status != "running" and not events:
                    yield "event: closed\ndata: {}\n\n"
                    return
                if time.monotonic() - quiet >= 15:
                    yield ": keep-alive\n\n"
                    quiet = time.monotonic()

        return StreamingResponse(gen(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    @app.get("/matches/{match_id}/replay", responses=errors(PUBLIC))
    def match_replay(match_id: str, db: DB) -> dict[str, Any]:
        m = db.get(Match, match_id)
        if m is None:
            raise svc.LobbyError(404, "no such match")
        return svc.replay_record(m)

    # The hot routes first: the router tries routes in order, matching each path's pattern.
    hot_paths = ("/matches/{match_id}", "/matches/{match_id}/moves", "/matches/{match_id}/poll")
    app.router.routes.sort(key=lambda r: getattr(r, "path", "") not in hot_paths)
    return app


def _seek_json(s: Seek) -> dict[str, Any]:
    return {"id": s.id, "status": s.status, "rated": s.rated, "time_control": s.time_control,
            "variants": json.loads(s.variants), "match_id": s.match_id}
