"""The lobby's HTTP API (FastAPI): the wiring. Run with ``python -m lobby``; see docs/lobby.md.

What lives where: the request bodies and what each operation declares in the schema
(``lobby.schemas``), the database and its transactions (``lobby.database``), the background tasks
(``lobby.background``), rate limiting (``lobby.ratelimit``), one module of routes per resource
(``lobby.routes.players``, ``.matchmaking``, ``.matches``), the hot path for views and moves
(``lobby.hot``) and the logic over the database (``lobby.service`` and the modules it names)."""

import asyncio
import json
import logging
import math
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException

from lobby import hot
from lobby import service as svc
from lobby.background import Background
from lobby.clock import Clock, SystemClock
from lobby.database import Database, make_engine, pg_dsn
from lobby.ratelimit import RateLimit, RateLimiter, trusted_proxies_from_env
from lobby.routes import Context, matches, matchmaking, players
from lobby.routes.matches import MAX_EVENT, event_number
from lobby.schemas import MoveIn, Terms, with_security_scheme

LOG = logging.getLogger("lobby")

DEFAULT_DB = "sqlite:///lobby.sqlite"
#: an open stream or long poll marks its player present this often (well inside AWAY_WARN_S, so
#: the opponent never sees a waiting player as away)
TOUCH_S = 5.0
#: open event streams per player and worker process (docs/lobby.md, "Security and limits")
MAX_STREAMS = 4

__all__ = ["MAX_EVENT", "LobbyAPI", "MoveIn", "Terms", "create_app", "event_number", "make_engine", "pg_dsn"]


class LobbyAPI(FastAPI):
    """FastAPI, with the two hot requests served first by :class:`lobby.hot.HotRoutes` when they
    are plainly well formed (everything else, and the schema, is FastAPI's)."""

    hot_routes: hot.HotRoutes | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        receive = await hot.capped(scope, receive, send)  # a body over the cap is never read: 413
        if receive is None:
            return
        if self.hot_routes is not None:
            receive = await self.hot_routes.serve(scope, receive, send)
            if receive is None:
                return
        await super().__call__(scope, receive, send)


def finite(obj: Any) -> Any:
    """``obj`` (JSON-like) with NaN and the infinities replaced by None, which JSON can carry."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [finite(v) for v in obj]
    return obj


def create_app(db_url: str | None = None, clock: Clock | None = None, run_sweeper: bool = True,
               rate: float = 20.0, burst: float = 60.0, touch_s: float | None = None,
               fallback_s: float | None = None) -> LobbyAPI:
    database = Database(db_url or os.environ.get("LOBBY_DB", DEFAULT_DB))
    clk: Clock = clock or SystemClock()
    background = Background(database, clk)
    if fallback_s is None:  # LOBBY_FALLBACK_S: how often waiting streams re-read (docs/lobby.md)
        fallback_s = float(os.environ.get("LOBBY_FALLBACK_S", 5.0))
    if touch_s is None:  # LOBBY_TOUCH_S: how often an open stream or poll marks its player present
        touch_s = float(os.environ.get("LOBBY_TOUCH_S", TOUCH_S))
    ctx = Context(database, clk, touch_s, fallback_s, int(os.environ.get("LOBBY_MAX_STREAMS", MAX_STREAMS)))
    limiter = RateLimiter(float(os.environ.get("LOBBY_RATE", rate)), float(os.environ.get("LOBBY_BURST", burst)),
                          trusted_proxies=trusted_proxies_from_env(), player_of=svc.known_player)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        database.bells.bind(asyncio.get_running_loop())
        if database.listener is not None:
            database.listener.start()
        with database.transaction() as db:
            svc.resume_after_restart(db, clk)
        if run_sweeper:
            background.start()
        yield
        background.stop()
        if database.listener is not None:
            database.listener.stop()
        if database.hot_pool is not None:
            await database.hot_pool.close()
        database.close()

    app = LobbyAPI(title="Card Table lobby", version="1.0", lifespan=lifespan,
                   description="Online rated, timed Lanes matches. Every match response is the viewer's own view.")
    with_security_scheme(app)
    app.state.engine = database.engine
    app.state.clock = clk
    app.state.sweep_once = background.sweep_once
    app.state.wal_checkpoint = background.wal_checkpoint
    app.state.bells = database.bells
    app.state.listener = database.listener
    handle_errors(app)
    app.add_middleware(RateLimit, limiter=limiter)
    hot_calls = matches.Hot(ctx)
    players.add_routes(app, ctx)
    matchmaking.add_routes(app, ctx)
    matches.add_routes(app, ctx, hot_calls)
    app.hot_routes = hot.HotRoutes(hot_calls.view_of, hot_calls.move_in, limiter.over)
    # The hot routes first: the router tries routes in order, matching each path's pattern.
    hot_paths = ("/matches/{match_id}", "/matches/{match_id}/moves", "/matches/{match_id}/poll")
    app.router.routes.sort(key=lambda r: getattr(r, "path", "") not in hot_paths)
    return app


def handle_errors(app: FastAPI) -> None:
    """Every error answer in the one shape ``{"error": <a sentence>, "detail": …}``."""

    @app.exception_handler(svc.LobbyError)
    async def lobby_error(request: Request, exc: svc.LobbyError) -> JSONResponse:
        wait = exc.detail.get("retry_after_s") if isinstance(exc.detail, dict) else None
        headers = {"Retry-After": str(math.ceil(wait))} if exc.status == 429 and wait else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

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
            methods: set[str] = set()
            for route in app.router.routes:
                if isinstance(route, APIRoute) and route.path_regex.match(request.scope["path"]):
                    methods |= route.methods or set()
            headers["Allow"] = ", ".join(sorted(methods))
        return JSONResponse({"error": str(exc.detail), "detail": None}, status_code=exc.status_code, headers=headers)
