"""Matches: moves (idempotent, ordered, refused when the server alone may make them), resignation,
every ending through an engine action, the time rules enforced on each request, and each
player's own view and events."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import or_
from sqlmodel import Session, col, select

from engine.core import EngineError
from engine.lanes import RULES
from engine.lanes.actions import EXTERNAL, Abort, Away, LanesAction, Resign, Timeout
from engine.lanes.state import LanesState
from lobby.accounts import Caller, players_json
from lobby.clock import Clock
from lobby.common import AnyMatch, LobbyError, dumps
from lobby.models import Match, Player
from lobby.ratings import rate_match
from lobby.rows import (
    Db,
    MatchRow,
    for_update,
    insert_many,
    later,
    load,
    load_for_move,
    mark_present,
    queue_event,
    receipt,
    run,
    write_events,
)
from lobby.states import STATES, state_of
from lobby.timerules import clock_running, remaining_ms, time_control_of

#: the PostgreSQL channel on which a commit that wrote a match's events names the match
NOTIFY_CHANNEL = "lobby_events"


#: the engine actions only the server makes (its clock and its sweeper), never a client's move
SERVER_ONLY = EXTERNAL


def seat_of(m: AnyMatch, player: Player | Caller) -> int:
    if player.id == m.player0:
        return 0
    if player.id == m.player1:
        return 1
    raise LobbyError(403, "you are not a player in this match")


def add_event(db: Db, m: AnyMatch, data: dict[str, Any], private: dict[int, dict[str, Any]] | None = None) -> int:
    """Append event number ``m.event_count + 1`` (per-seat variants when some of it is private)."""
    m.event_count += 1
    rang = db.info.setdefault("rang", set())
    if m.id not in rang:  # the app rings this match's bell after the commit
        rang.add(m.id)
        if for_update(db) and not db.info.get("alone"):  # PostgreSQL: the other workers hear of it at
            # the commit (LISTEN/NOTIFY); a worker alone has nobody to tell (lobby.notify.Listener)
            later(db, "SELECT pg_notify(:channel, :m)", {"channel": NOTIFY_CHANNEL, "m": m.id})
    # queued, and written with the transaction's other events in one INSERT (lobby.rows.write_events)
    parts = private.items() if private else [(None, data)]
    for seat, d in parts:
        queue_event(db, (m.id, m.event_count, seat, dumps(d)))
    return m.event_count


def _end(db: Db, clock: Clock, m: AnyMatch, action: LanesAction) -> None:
    """End a running match by an engine action (a resignation, or the server's timeout, away loss
    or abort): the action joins the record like any move, so replaying the record gives exactly
    the stored result (the engine decides winner and reason)."""
    if m.status != "running":
        return
    state, events = RULES.apply(state_of(m), action)
    actions = [*orjson.loads(m.actions), RULES.action_to_json(action)]
    m.actions = dumps(actions)
    STATES.put(m, len(actions), state)
    for e in events:
        add_event(db, m, e.to_json())
    _finish(db, clock, m, state.winner, state.reason or "aborted")


def _finish(db: Db, clock: Clock, m: AnyMatch, winner: int | None, reason: str) -> None:
    """Store the end the engine reached (``winner``/``reason`` from the final state) and rate it."""
    if m.status != "running":
        return
    m.status = "aborted" if reason == "aborted" else "finished"
    m.winner, m.reason, m.finished_at = winner, reason, clock.now()
    change = None
    if m.rated and m.moved0 and m.moved1 and m.status == "finished":
        change = rate_match(db, clock, m)
    add_event(db, m, {"type": "end", "winner": winner, "reason": reason, "rating_change": change})


def enforce(db: Db, clock: Clock, m: AnyMatch) -> None:
    """Apply the time rule that ran out first, if any has by now (on every request and by the
    sweeper)."""
    rule = due_rule(clock, m)
    if rule is None:
        return
    reason, loser = rule
    if reason == "aborted":
        _end(db, clock, m, Abort())
    elif reason == "timeout":
        _timeout(db, clock, m, loser)
    else:
        _end(db, clock, m, Away(loser))


def due_rule(clock: Clock, m: AnyMatch) -> tuple[str, int] | None:
    """The time rule that has run out by now, as ``(reason, loser)``, or None (a plain function of
    the row and the clock: a view asks it before deciding it needs no lock). Each rule has a moment
    at which it fires; the earliest one decides."""
    if m.status != "running":
        return None
    now = clock.now()
    p = state_of(m).to_move
    if not (m.moved0, m.moved1)[p]:
        return ("aborted", p) if now - m.turn_started_at >= clock.rules.first_move_s else None
    due: list[tuple[float, str, int]] = []
    for seat, seen in ((0, m.last_seen0), (1, m.last_seen1)):
        due.append((seen + clock.rules.away_s, "disconnected", seat))
    if clock_running(m):
        if m.base_ms:
            rem = m.remaining0 if p == 0 else m.remaining1
            due.append((m.turn_started_at + rem / 1000 + clock.rules.lag_allowance_s, "timeout", p))
        else:
            due.append((m.turn_started_at + clock.rules.untimed_move_s, "timeout", p))
    when, reason, loser = min(due)
    return (reason, loser) if when <= now else None


def _timeout(db: Db, clock: Clock, m: AnyMatch, p: int) -> None:
    if m.base_ms:
        if p == 0:
            m.remaining0 = 0
        else:
            m.remaining1 = 0
    _end(db, clock, m, Timeout(p))


def touch(db: Db, clock: Clock, m: MatchRow, seat: int) -> None:
    """The player is here (a request, or an open event stream): noted in memory and written by the
    sweeper within a second (:class:`lobby.rows.Presence`)."""
    if m.status == "running":
        mark_present(db, m, seat, clock.now())


@dataclass
class MoveResult:
    status: int
    body: dict[str, Any]
    text: str | None = None  # the body as JSON, when it was encoded already (for the receipt)


def make_move(db: Db, clock: Clock, player: Player | Caller, match_id: str, expected_move: int,
              client_move_id: str, action: Any) -> MoveResult:
    """Idempotent, ordered moves: a repeated client move id gets the original answer; a stale move
    number gets 409 with the current state; the flag is checked before the move."""
    if not client_move_id or len(client_move_id) > 64:
        raise LobbyError(422, "client_move_id: 1 to 64 characters")
    m, earlier = load_for_move(db, match_id, player.id, client_move_id)
    if m is None:
        raise _not_yours(db, match_id)
    seat = seat_of(m, player)
    if earlier is not None:
        return _retry(player, earlier)
    touch(db, clock, m, seat)
    enforce(db, clock, m)
    refused = _stale(db, clock, m, seat, expected_move)
    if refused is not None:  # a retry whose first try committed while this one waited for the lock
        again = receipt(db, m.id, client_move_id)
        return _retry(player, again) if again is not None else refused
    parsed, new_state, events = _engine_move(m, seat, action)
    now = clock.now()
    _charge_clock(clock, m, seat, now)
    actions = [*orjson.loads(m.actions), RULES.action_to_json(parsed)]
    m.actions = dumps(actions)
    STATES.put(m, len(actions), new_state)
    m.move_count += 1
    m.turn_started_at = now
    _move_events(db, m, events)
    if new_state.over:
        _finish(db, clock, m, new_state.winner, new_state.reason or "sold")
    body = {"ok": True, "move_no": m.move_count - 1, "view": view_for(db, clock, m, seat)}
    text = dumps(body)  # encoded once: the receipt and the response
    insert_many(db, "movereceipt", [{"match_id": m.id, "player_id": player.id, "client_move_id": client_move_id,
                                     "move_no": m.move_count - 1, "response": text}])
    return MoveResult(200, body, text)


def _retry(player: Player | Caller, earlier: tuple[str, str]) -> MoveResult:
    """The stored answer to a move already made with this client move id (a retry)."""
    if earlier[0] != player.id:
        raise LobbyError(409, "that client move id was used by the other player")
    return MoveResult(200, orjson.loads(earlier[1]), earlier[1])


def _stale(db: Db, clock: Clock, m: MatchRow, seat: int, expected_move: int) -> MoveResult | None:
    """409 with the current view when the match is over or the move number is not the next one."""
    if m.status != "running":
        return MoveResult(409, {"error": "the match is over", "view": view_for(db, clock, m, seat)})
    if expected_move != m.move_count:
        return MoveResult(409, {"error": f"expected move {m.move_count}, got {expected_move}",
                                "view": view_for(db, clock, m, seat)})
    return None


def _engine_move(m: MatchRow, seat: int, action: Any) -> tuple[LanesAction, Any, list[Any]]:
    """The engine judges the move (a resignation may come out of turn, L-8.3a); only the server's
    clock times out, aborts or declares a player away (L-8.3–L-8.5)."""
    s = state_of(m)
    if s.to_move != seat and not (isinstance(action, dict) and action.get("resign")):
        raise LobbyError(409, "it is not your turn")
    try:
        parsed = RULES.parse_action({**action, "player": seat} if isinstance(action, dict) else action)
        if isinstance(parsed, SERVER_ONLY):
            raise LobbyError(422, "only the server's clock ends a match on time or aborts it",
                             {"code": "server_only"})
        new_state, events = RULES.apply(s, parsed)
    except EngineError as exc:
        raise LobbyError(422, exc.message, {"code": exc.code}) from None
    return parsed, new_state, events


def _charge_clock(clock: Clock, m: MatchRow, seat: int, now: float) -> None:
    """The mover's thinking time (less the lag allowance) off their clock, plus the increment; the
    mover has now moved (the first-move rule)."""
    if clock_running(m) and m.base_ms:
        spent = max(0.0, now - m.turn_started_at - clock.rules.lag_allowance_s) * 1000
        if seat == 0:
            m.remaining0 = int(m.remaining0 - spent + m.inc_ms)
        else:
            m.remaining1 = int(m.remaining1 - spent + m.inc_ms)
    if seat == 0:
        m.moved0 = True
    else:
        m.moved1 = True


def _move_events(db: Db, m: MatchRow, events: list[Any]) -> None:
    """The move's engine events (a draw names its card to the drawer only), then the move marker."""
    for e in events:
        data = e.to_json()
        if data["type"] == "draw":
            hidden = {k: v for k, v in data.items() if k != "card"}
            add_event(db, m, data, {data["player"]: data, 1 - data["player"]: hidden})
        else:
            add_event(db, m, data)
    add_event(db, m, {"type": "move", "move_count": m.move_count, "remaining_ms": [m.remaining0, m.remaining1]})


def resign(db: Db, clock: Clock, player: Player, match_id: str) -> dict[str, Any]:
    m, seat = locked_match(db, match_id, player)
    _end(db, clock, m, Resign(seat))
    return view_for(db, clock, m, seat)


def can_abort(m: AnyMatch) -> bool:
    """Either player may abort a match until both have made their first move (as lichess allows):
    unrated, and an engine action in the record like every other ending."""
    return m.status == "running" and not (m.moved0 and m.moved1)


def abort(db: Db, clock: Clock, player: Player, match_id: str) -> dict[str, Any]:
    m, seat = locked_match(db, match_id, player)
    if m.status != "running":
        raise LobbyError(409, "the match is over")
    if not can_abort(m):
        raise LobbyError(409, "both players have moved: the match can no longer be aborted (resign instead)")
    _end(db, clock, m, Abort())
    return view_for(db, clock, m, seat)


def quiet_view(db: Db, clock: Clock, player: Player | Caller, match_id: str) -> dict[str, Any] | None:
    """``player``'s view from a plain read — no row lock, nothing written (presence is noted in
    memory) — or None when a time rule has run out, which only the locked path may apply.

    A view is half of every move's requests; locking the row for it made it a write transaction
    that queued behind the opponent's moves and sweeps, for what is almost always a read."""
    m = load(db, match_id, lock="", player=player.id)
    if m is None:
        raise _not_yours(db, match_id)
    seat = seat_of(m, player)
    touch(db, clock, m, seat)
    if due_rule(clock, m) is not None:
        return None
    return view_for(db, clock, m, seat)


def locked_match(db: Db, match_id: str, player: Player | Caller) -> tuple[MatchRow, int]:
    """The match and ``player``'s seat in it, the row locked until the transaction ends (PostgreSQL
    ``FOR UPDATE``; SQLite has one writer anyway): moves, resignations, touches and the sweeper of
    several workers serialise per match, so a move and a flag can never both win. Its changes are
    written when the transaction commits (:mod:`lobby.rows`).

    A stranger's request is refused (403) without ever queueing for the players' row lock (running
    match ids are public: profiles list them): the seat is part of the locked read's condition,
    which PostgreSQL checks before it takes the lock. Only a refusal reads the row again, to tell
    403 from 404."""
    m = load(db, match_id, player=player.id)
    if m is None:
        raise _not_yours(db, match_id)
    return m, seat_of(m, player)


def _not_yours(db: Db, match_id: str) -> LobbyError:
    """Why a match was not read for this player: there is none (404), or they do not play in it (403)."""
    if run(db, 'SELECT 1 FROM "match" WHERE id = :id', {"id": match_id}).fetchone() is None:
        return LobbyError(404, "no such match")
    return LobbyError(403, "you are not a player in this match")


def view_for(db: Db, clock: Clock, m: AnyMatch, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know about the match — the only way match data leaves the server."""
    now = clock.now()
    s = state_of(m)
    seen = [m.last_seen0, m.last_seen1]
    opp = 1 - seat
    away_for = now - seen[opp]
    tc = time_control_of(m)
    return {
        "match_id": m.id, "seat": seat, "status": m.status, "winner": m.winner, "reason": m.reason,
        "rated": m.rated, "time_control": tc, "move_count": m.move_count, "event_count": m.event_count,
        "players": players_json(db, (m.player0, m.player1)),
        "observation": RULES.observe(s, seat),
        "legal": [RULES.action_to_json(a) for a in RULES.legal_actions(s, seat)] if m.status == "running" else [],
        "clock": clock_json(clock, m, s, now),
        "opponent_away_s": round(away_for, 1) if m.status == "running" and away_for >= clock.rules.away_warn_s
        else None,
        "opponent_loses_in_s": round(clock.rules.away_s - away_for, 1)
        if m.status == "running" and away_for >= clock.rules.away_warn_s
        else None,
        "rating_change": json.loads(m.rating_change) if m.rating_change else None,
        "can_abort": can_abort(m),
    }


def clock_json(clock: Clock, m: AnyMatch, s: LanesState, now: float) -> dict[str, Any]:
    """Both clocks as of ``now`` and the deadlines of the time rules running (state ``s``)."""
    first_deadline = None
    if m.status == "running" and not (m.moved0, m.moved1)[s.to_move]:
        first_deadline = m.turn_started_at + clock.rules.first_move_s
    return {"remaining_ms": remaining_ms(m, now) if m.base_ms else None, "running": clock_running(m),
            "to_move": s.to_move, "turn_started_at": m.turn_started_at, "server_now": now,
            "first_move_deadline": first_deadline,
            "move_deadline": m.turn_started_at + clock.rules.untimed_move_s if not m.base_ms and clock_running(m)
            else None}


def events_for(db: Db, match_id: str, seat: int, since: int) -> list[dict[str, Any]]:
    """``seat``'s events after number ``since``: the public ones and its own private variants
    (including those this transaction added: they are written first)."""
    write_events(db)
    rows = run(db, "SELECT n, seat, data FROM matchevent WHERE match_id = :m AND n > :since ORDER BY n",
               {"m": match_id, "since": since}).fetchall()
    return [{"n": n, **orjson.loads(data)} for n, s, data in rows if s is None or s == seat]


def events_after(db: Db, match_id: str, seat: int, since: int) -> tuple[list[dict[str, Any]], str]:
    """A waiting stream's cheap read: ``seat``'s events after ``since`` and the match's status,
    without locking the row, touching presence or building a view."""
    row = run(db, 'SELECT status FROM "match" WHERE id = :m', {"m": match_id}).fetchone()
    if row is None:
        raise LobbyError(404, "no such match")
    return events_for(db, match_id, seat, since), row[0]


def replay_record(m: AnyMatch) -> dict[str, Any]:
    if m.status == "running":
        raise LobbyError(409, "the full record (with the deal) is published only after the match ends")
    return {"game": "lanes", "options": json.loads(m.options), "seed": m.seed, "players": 2,
            "actions": json.loads(m.actions), "winner": m.winner, "reason": m.reason}


def running_matches(db: Session, clock: Clock, player: Player) -> list[dict[str, Any]]:
    """The caller's matches still running, newest first, as the app lists them to come back to:
    the opponent, the terms, whose move it is and both clocks (read only: no presence, no lock)."""
    rows = db.exec(select(Match).where(Match.status == "running",
                                       or_(col(Match.player0) == player.id, col(Match.player1) == player.id))
                   .order_by(col(Match.created_at).desc()).limit(20)).all()
    now = clock.now()
    out = []
    for m in rows:
        seat = 0 if m.player0 == player.id else 1
        names = players_json(db, (m.player0, m.player1))
        opponent = names[1 - seat]
        tc = time_control_of(m)
        out.append({"match_id": m.id, "seat": seat, "opponent": opponent["name"] if opponent else None,
                    "rated": m.rated, "time_control": tc, "to_move": state_of(m).to_move,
                    "remaining_ms": remaining_ms(m, now) if m.base_ms else None, "move_count": m.move_count})
    return out
