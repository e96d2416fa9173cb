"""The two requests every move makes — the mover's view and the move — served straight from ASGI.

Why: at 200 moves/s the lobby's single SQLite worker spent about as much CPU in the web framework
as in its own work. Sampled under ``tests/bench_lobby.py``: of the worker's time, ~44 % was the
view and the move themselves and ~40 % FastAPI and Starlette around them — the middleware stack,
routing by trying each route's pattern, solving dependencies, validating the body with pydantic,
building the response. Served here, the worker needs ~50 % of a core at 200 moves/s instead of
~70 % (docs/lobby.md, "Load: measured").

So :class:`HotRoutes` looks at each HTTP request first. It serves ``GET /matches/{id}`` and
``POST /matches/{id}/moves`` itself **only when the request is plainly well formed**: the path has
exactly that shape, and a move's body is a JSON object whose fields already have exactly the types
and bounds the FastAPI model declares (:class:`lobby.schemas.MoveIn`). Anything else — a body that is
not JSON, a string where a number belongs, a missing field, another method — goes on to FastAPI
unchanged (with the body it read handed on), so every validation error, the 404 and 405 answers
and the OpenAPI schema stay FastAPI's own. Both routes call the same functions
(``view``/``move`` given to the constructor); a test plays a whole match with and without this path
and compares every answer byte for byte (tests/lobby/test_hot.py).

What stays the same on this path: the rate limit (the same limiter, the same 429), the lobby's
error answers (:class:`lobby.service.LobbyError` → ``{"error", "detail"}`` with its status), and an
unexpected exception answers 500 and is raised on for the server to log, as Starlette does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from starlette.responses import PlainTextResponse

from lobby import service as svc

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

#: the bounds of :class:`lobby.schemas.MoveIn` (a test checks they agree with its schema)
CLIENT_MOVE_ID_MAX = 64
_JSON = b"application/json"
#: the answer to a request over its rate limit (429, here and in :class:`lobby.ratelimit.RateLimit`)
TOO_MANY_REQUESTS = {"error": "too many requests: slow down"}
#: the largest request body the lobby reads, in bytes (docs/lobby.md, "Security and limits"): a move
#: is about 150 bytes and the largest body, a challenge with every house rule, under 1 KiB
MAX_BODY = 16 * 1024
TOO_LARGE = {"error": "request body too large", "detail": f"at most {MAX_BODY} bytes"}
#: marks a request the hot path already counted against the rate limit (the middleware skips it)
COUNTED = "lobby.rate_counted"


def header(scope: Scope, name: bytes) -> bytes | None:
    """The first value of the header ``name`` (lower case), as Starlette's ``Headers.get``."""
    for k, v in scope["headers"]:
        if k == name:
            return bytes(v)
    return None


def bearer(authorization: str | bytes | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None when there is none)."""
    if isinstance(authorization, bytes):
        authorization = authorization.decode("latin-1")
    return authorization[7:] if authorization and authorization.lower().startswith("bearer ") else None


def move_fields(body: bytes) -> tuple[int, str, dict[str, Any]] | None:
    """``(expected_move, client_move_id, action)`` when ``body`` is a move exactly as the schema
    declares it; None for anything FastAPI should judge (it may coerce, or answer 422)."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if type(data) is not dict or data.keys() != {"expected_move", "client_move_id", "action"}:
        return None  # an unknown field: FastAPI's model refuses it
    n, cid, action = data.get("expected_move"), data.get("client_move_id"), data.get("action")
    if type(n) is not int or n < 0 or type(cid) is not str or not 1 <= len(cid) <= CLIENT_MOVE_ID_MAX:
        return None
    if type(action) is not dict:
        return None
    return n, cid, action


async def respond(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", str(len(body)).encode()), (b"content-type", _JSON), *(headers or ())]})
    await send({"type": "http.response.body", "body": body})


class HotRoutes:
    """Serves the view and the move when it can; :meth:`serve` says whether it did."""

    def __init__(self, view: Callable[[str, str | None], Awaitable[dict[str, Any]]],
                 move: Callable[[str, str | None, int, str, dict[str, Any]], Awaitable[svc.MoveResult]],
                 limited: Callable[[Scope], bool]) -> None:
        self.view, self.move, self.limited = view, move, limited
        self.enabled = True  # tests switch it off to compare with FastAPI's answers

    async def serve(self, scope: Scope, receive: Receive, send: Send) -> Receive | None:
        """None when the request was answered here; else the ``receive`` to hand on to FastAPI
        (the original, or one that replays the body read here)."""
        if not self.enabled or scope["type"] != "http" or scope.get("root_path"):
            return receive
        path: str = scope["path"]
        if not path.startswith("/matches/"):
            return receive
        rest = path[9:]
        method = scope["method"]
        if method == "GET" and rest and "/" not in rest:
            match_id, is_move = rest, False
        elif method == "POST" and rest.endswith("/moves") and len(rest) > 6 and "/" not in rest[:-6]:
            match_id = rest[:-6]
            if (header(scope, b"content-type") or b"").split(b";")[0].strip().lower() != _JSON:
                return receive  # FastAPI's rules for other types (+json, none at all) are its own
            is_move = True
        else:
            return receive
        scope[COUNTED] = True  # the limit first: a request over it is not read, let alone parsed
        if self.limited(scope):
            await respond(send, 429, svc.to_json(TOO_MANY_REQUESTS), [(b"retry-after", b"1")])
            return None
        fields = None
        if is_move:
            body = await read_upto(receive, MAX_BODY) or b""  # within the cap already (capped)
            fields = move_fields(body)
            if fields is None:
                return replay(body, receive)
        token = bearer(header(scope, b"authorization"))
        try:
            if fields is None:
                await respond(send, 200, svc.to_json(await self.view(match_id, token)))
            else:
                r = await self.move(match_id, token, *fields)
                await respond(send, r.status, r.text.encode() if r.text is not None else svc.to_json(r.body))
        except svc.LobbyError as exc:
            await respond(send, exc.status, svc.to_json(exc.body()))
        except Exception:
            await PlainTextResponse("Internal Server Error", status_code=500)(scope, receive, send)  # type: ignore[arg-type]  # Starlette types send as MutableMapping; ours passes plain dicts
            raise
        return None


async def capped(scope: Scope, receive: Receive, send: Send) -> Receive | None:
    """Every HTTP request's body held to :data:`MAX_BODY` before anything reads it: a declared
    length over it is answered 413 at once, unread (the connection is closed); a chunked body is
    read only up to the cap. None when answered here; else the ``receive`` to hand on."""
    if scope["type"] != "http":
        return receive
    length = header(scope, b"content-length")
    if length is not None:
        if length.strip().isdigit() and int(length) <= MAX_BODY:
            return receive  # the server hands on no more than the declared length
    elif header(scope, b"transfer-encoding") is None:
        return receive  # no body at all
    else:
        body = await read_upto(receive, MAX_BODY)
        if body is not None:
            return replay(body, receive)
    await respond(send, 413, svc.to_json(TOO_LARGE), [(b"connection", b"close")])
    return None


async def read_upto(receive: Receive, cap: int) -> bytes | None:
    """The body, or None as soon as it passes ``cap`` bytes (the rest is never read)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b"".join(chunks)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > cap:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands on ``body`` (already read here) once, then the client's own messages
    (its disconnect)."""
    sent = False

    async def again() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return again
