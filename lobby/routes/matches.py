"""Matches: the player's own view, moves, resignation, the long poll and the event stream, and
the published record. The view and the move are also answered by ``lobby.hot`` with the same two
functions (:class:`Hot`) when a request is plainly well formed."""

import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Query
from fastapi.responses import JSONResponse, Response, StreamingResponse
from sqlmodel import Session

from lobby import hot, models
from lobby import service as svc
from lobby.routes import Context
from lobby.rows import PRESENCE, MatchRow, Tx
from lobby.schemas import PUBLIC, SIGNED_IN_OP, MoveIn, SayIn, errors

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


class FastJSON(JSONResponse):
    """A JSON response encoded by orjson (a view is the bulk of every hot answer)."""

    def render(self, content: Any) -> bytes:
        return svc.to_json(content)


@dataclass
class Hot:
    """The match requests the hot path serves too: one function each for both paths."""

    ctx: Context
    #: open event streams per bearer token (one token per player), on this worker process
    streams: dict[str, int] = field(default_factory=dict)

    def release(self, token: str) -> None:
        """One of ``token``'s open streams ended: the player may open another."""
        left = self.streams.get(token, 1) - 1
        if left > 0:
            self.streams[token] = left
        else:
            self.streams.pop(token, None)

    def note_present(self, match_id: str, seat: int) -> None:
        """An open stream's player is here: noted in memory only (no transaction, no lock), written
        with every other note by the sweeper's one statement (:func:`lobby.rows.flush_presence`)."""
        PRESENCE.note(match_id, seat, self.ctx.clock.now())

    def match_for(self, db: Tx, match_id: str, player: models.Player | svc.Caller) -> tuple[MatchRow, int]:
        clk = self.ctx.clock
        m, seat = svc.locked_match(db, match_id, player)  # locked: a view also touches and enforces
        svc.touch(db, clk, m, seat)
        svc.enforce(db, clk, m)
        return m, seat

    async def view_of(self, match_id: str, token: str | None) -> dict[str, Any]:
        """The caller's own view of the match."""
        def quiet(db: Tx) -> dict[str, Any] | None:
            return svc.quiet_view(db, self.ctx.clock, svc.authenticate_id(db, token), match_id)

        def work(db: Tx) -> dict[str, Any]:  # a time rule ran out: applied under the row's lock
            m, seat = self.match_for(db, match_id, svc.authenticate_id(db, token))
            return svc.view_for(db, self.ctx.clock, m, seat)
        view = await self.ctx.database.run_db(quiet, read=True)
        return view if view is not None else await self.ctx.database.run_db(work)

    async def move_in(self, match_id: str, token: str | None, expected_move: int, client_move_id: str,
                      action: dict[str, Any]) -> svc.MoveResult:
        """A move."""
        def work(db: Tx) -> svc.MoveResult:
            return svc.make_move(db, self.ctx.clock, svc.authenticate_id(db, token), match_id, expected_move,
                                 client_move_id, action)
        return await self.ctx.database.run_db(work)

    async def present(self, match_id: str, token: str | None, since: int) -> dict[str, Any]:
        """Presence, the time rules, then the caller's seat, events and view (one locked transaction)."""
        def work(db: Tx) -> dict[str, Any]:
            m, seat = self.match_for(db, match_id, svc.authenticate_id(db, token))
            return {"seat": seat, "events": svc.events_for(db, m.id, seat, since),
                    "view": svc.view_for(db, self.ctx.clock, m, seat)}
        return await self.ctx.database.run_db(work)

    async def quiet_wait(self, match_id: str, seat: int, since: int, until: float) -> tuple[list[dict[str, Any]], str]:
        """Wait for ``seat``'s events after ``since`` (or until the monotonic time ``until``):
        armed on the match's bell before each cheap read, so a ring between the two is not lost."""
        bells = self.ctx.database.bells
        while True:
            ring = bells.arm(match_id)
            events, status = await self.ctx.database.run_db(lambda db: svc.events_after(db, match_id, seat, since))
            left = until - time.monotonic()
            if events or status != "running" or left <= 0:
                bells.disarm(match_id, ring)
                return events, status
            await bells.until(match_id, ring, min(self.ctx.recheck_s, left))


def add_routes(api: FastAPI, ctx: Context, hot_calls: Hot) -> None:
    """This resource's operations, on the app itself (flat routes: the hot ones can be tried first)."""
    clk = ctx.clock
    DB = Annotated[Session, Depends(ctx.get_db, scope="function")]
    Me = Annotated[models.Player, Depends(ctx.me)]
    # The match endpoints take the Authorization header as a plain parameter and authenticate inside
    # their own short transaction (no database transaction stays open while they wait); a
    # dependency per request cost more than the header parameter (sampled under the benchmark).
    # The header is declared in the schema as the bearer security scheme, not as a parameter.
    Auth = Annotated[str | None, Header(include_in_schema=False)]
    bearer = hot.bearer

    # The two routes below are what the schema documents; well-formed requests are answered by
    # ``app.hot_routes`` with the same functions before they get here (lobby/hot.py says why).
    @api.get("/matches/{match_id}", response_model=None, **SIGNED_IN_OP)
    async def match_view(match_id: str, authorization: Auth = None) -> JSONResponse:
        """The caller's own view of the match (as a JSONResponse: FastAPI's generic encoder walks a
        view dict field by field and cost more than building it)."""
        return FastJSON(await hot_calls.view_of(match_id, bearer(authorization)))

    @api.post("/matches/{match_id}/moves", **SIGNED_IN_OP)
    async def move(match_id: str, body: MoveIn, authorization: Auth = None) -> Response:
        r = await hot_calls.move_in(match_id, bearer(authorization), body.expected_move, body.client_move_id,
                                    body.action)
        if r.text is not None:
            return Response(r.text, status_code=r.status, media_type="application/json")
        return FastJSON(r.body, status_code=r.status)

    @api.post("/matches/{match_id}/resign", **SIGNED_IN_OP)
    def resign(match_id: str, player: Me, db: DB) -> dict[str, Any]:
        return svc.resign(db, clk, player, match_id)

    @api.post("/matches/{match_id}/abort", **SIGNED_IN_OP)
    def abort(match_id: str, player: Me, db: DB) -> dict[str, Any]:
        """Abort before both players have made their first move: unrated, no winner (409 after)."""
        return svc.abort(db, clk, player, match_id)

    @api.post("/matches/{match_id}/say", **SIGNED_IN_OP)
    def say(match_id: str, body: SayIn, player: Me, db: DB) -> dict[str, Any]:
        """A quick message (one of the fixed phrases) to the match while it runs; rate-limited (429)."""
        return svc.say(db, clk, player, match_id, body.phrase)

    add_rematch_routes(api, ctx)
    add_live_routes(api, ctx)
    add_waiting_routes(api, ctx, hot_calls)

    @api.get("/matches/{match_id}/replay", responses=errors(PUBLIC))
    def match_replay(match_id: str, db: DB) -> dict[str, Any]:
        m = db.get(models.Match, match_id)
        if m is None:
            raise svc.LobbyError(404, "no such match")
        return svc.replay_record(m)


#: a rematch's steps after which nothing more happens (the long poll answers at once)
FINAL = ("accepted", "declined", "expired")


def add_rematch_routes(api: FastAPI, ctx: Context) -> None:
    """Rematch once a match has ended (lobby/rematch.py): offer or accept, decline or leave, and a
    long poll for the other player's answer, woken by the match's bell."""
    clk = ctx.clock
    DB = Annotated[Session, Depends(ctx.get_db, scope="function")]
    Me = Annotated[models.Player, Depends(ctx.me)]
    Auth = Annotated[str | None, Header(include_in_schema=False)]

    @api.post("/matches/{match_id}/rematch", **SIGNED_IN_OP)
    def rematch_offer(match_id: str, player: Me, db: DB) -> dict[str, Any]:
        """Offer a rematch of an ended match, or accept the other player's offer: the new match has
        the seats swapped and the same terms (409 while it runs, or once declined or expired)."""
        return svc.offer_rematch(db, clk, player, match_id)

    @api.delete("/matches/{match_id}/rematch", **SIGNED_IN_OP)
    def rematch_decline(match_id: str, player: Me, db: DB) -> dict[str, Any]:
        """Decline the offer, withdraw one's own, or leave the result screen: no rematch of this match."""
        return svc.decline_rematch(db, clk, player, match_id)

    @api.get("/matches/{match_id}/rematch", **SIGNED_IN_OP)
    async def rematch_state(match_id: str, authorization: Auth = None,
                            since: Annotated[int, Query(ge=0, le=MAX_EVENT)] = 0,
                            timeout: Annotated[float, Query(ge=0, le=30)] = 0.0) -> JSONResponse:
        """Where the rematch stands; with ``timeout``, waits until the match has an event after
        ``since`` (an offer, an answer) or the offer expires."""
        token = hot.bearer(authorization)
        deadline = time.monotonic() + timeout
        bells = ctx.database.bells
        while True:
            ring = bells.arm(match_id)
            body = await ctx.database.run_db(
                lambda db: svc.rematch_status(db, clk, svc.authenticate_id(db, token), match_id))
            left = deadline - time.monotonic()
            if body["event_count"] > since or body["status"] in FINAL or left <= 0:
                bells.disarm(match_id, ring)
                return FastJSON(body)
            wait = min(ctx.recheck_s, left)
            if body["expires_at"] is not None:  # wake when the offer runs out
                wait = min(wait, max(0.05, body["expires_at"] - clk.now()))
            await bells.until(match_id, ring, wait)


def add_live_routes(api: FastAPI, ctx: Context) -> None:
    """Spectators (lobby/spectate.py): the public list of running rated matches, a match's public
    view, and a long poll of its public events. No account needed; nothing private is ever read."""
    clk = ctx.clock
    DB = Annotated[Session, Depends(ctx.get_db, scope="function")]

    @api.get("/live", responses=errors(PUBLIC))
    def live(db: DB, limit: Annotated[int, Query(ge=1, le=svc.LIVE_LIMIT)] = svc.LIVE_LIMIT) -> list[dict[str, Any]]:
        """Running rated matches anyone may watch (neither player opted out), newest first."""
        return svc.live_matches(db, clk, limit)

    @api.get("/live/{match_id}", responses=errors(PUBLIC))
    async def watch_view(match_id: str) -> JSONResponse:
        """A spectator's view: the table (no hand), clocks, names, the result once over."""
        return FastJSON(await ctx.database.run_db(lambda db: svc.watch_view(db, clk, match_id)))

    @api.get("/live/{match_id}/poll", responses=errors(PUBLIC))
    async def watch_poll(match_id: str, since: Annotated[int, Query(ge=0, le=MAX_EVENT)] = 0,
                         timeout: Annotated[float, Query(ge=0, le=30)] = 25.0) -> JSONResponse:
        """The public events after ``since`` and the spectator's view; waits for them up to
        ``timeout`` s (woken by the match's bell)."""
        deadline = time.monotonic() + timeout
        bells = ctx.database.bells
        while True:
            ring = bells.arm(match_id)
            body = await ctx.database.run_db(lambda db: svc.watch(db, clk, match_id, since))
            left = deadline - time.monotonic()
            if body["events"] or left <= 0 or body["view"]["status"] != "running":
                bells.disarm(match_id, ring)
                return FastJSON(body)
            await bells.until(match_id, ring, min(ctx.recheck_s, left))


def add_waiting_routes(api: FastAPI, ctx: Context, hot_calls: Hot) -> None:
    """The long poll and the event stream: both wait on the match's bell."""
    touch_s = ctx.touch_s
    Auth = Annotated[str | None, Header(include_in_schema=False)]
    bearer = hot.bearer

    @api.get("/matches/{match_id}/poll", **SIGNED_IN_OP)
    async def poll(match_id: str, authorization: Auth = None, since: Annotated[int, Query(ge=0, le=MAX_EVENT)] = 0,
                   timeout: Annotated[float, Query(ge=0, le=30)] = 25.0) -> JSONResponse:
        """Long-poll fallback: answers at once when events after ``since`` exist, else waits for
        them (woken by the match's bell, marking the caller present every ``touch_s``)."""
        token = bearer(authorization)
        deadline = time.monotonic() + timeout
        while True:
            body = await hot_calls.present(match_id, token, since)
            left = deadline - time.monotonic()
            if body["events"] or left <= 0 or body["view"]["status"] != "running":
                del body["seat"]
                return FastJSON(body)
            await hot_calls.quiet_wait(match_id, body["seat"], since, time.monotonic() + min(touch_s, left))

    @api.get("/matches/{match_id}/events", **SIGNED_IN_OP)
    async def stream(match_id: str, authorization: Auth = None, since: Annotated[int, Query(ge=0, le=MAX_EVENT)] = 0,
                     last_event_id: Annotated[str, Header(pattern=r"^[0-9]{1,18}$")] = "") -> Response:
        """Server-sent events, numbered; reconnect with ``Last-Event-ID`` or ``?since=`` to catch up.
        An open stream also counts as being present (no disconnect loss)."""
        token = bearer(authorization)
        start = event_number(last_event_id, since)
        seat = (await hot_calls.present(match_id, token, start))["seat"]  # 401/403/404 before streaming
        key = token or ""
        if hot_calls.streams.get(key, 0) >= ctx.max_streams:
            return JSONResponse({"error": "too many open event streams",
                                 "detail": f"at most {ctx.max_streams} at once: close one"},
                                status_code=429, headers={"Retry-After": "5"})
        hot_calls.streams[key] = hot_calls.streams.get(key, 0) + 1
        return CountedStream(events(hot_calls, match_id, seat, start, touch_s), lambda: hot_calls.release(key),
                             media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


class CountedStream(StreamingResponse):
    """A stream that gives its player's slot back however it ends: closed, finished, or the client
    gone before the first event (a generator never started runs no ``finally``, so the release
    belongs to the response, not to the events)."""

    def __init__(self, content: AsyncIterator[str], release: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self.release = release

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


async def events(hot_calls: Hot, match_id: str, seat: int, start: int, touch_s: float) -> AsyncIterator[str]:
    """An open stream: the events as they come, presence every ``touch_s`` (in memory: no locked
    transaction per stream), a keep-alive comment after 15 quiet seconds, and ``closed`` once the
    match is over."""
    cursor = start
    touched = quiet = time.monotonic()
    while True:
        now = time.monotonic()
        if now - touched >= touch_s:
            hot_calls.note_present(match_id, seat)
            touched = now
        new, status = await hot_calls.quiet_wait(match_id, seat, cursor, min(touched + touch_s, quiet + 15))
        for e in new:
            cursor = e["n"]
            yield f"id: {e['n']}\nevent: {e['type']}\ndata: {json.dumps(e)}\n\n"
            quiet = time.monotonic()
        if status != "running" and not new:
            yield "event: closed\ndata: {}\n\n"
            return
        if time.monotonic() - quiet >= 15:
            yield ": keep-alive\n\n"
            quiet = time.monotonic()
