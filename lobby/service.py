"""Lobby logic over the database, with time from an injected clock.

Every response about a match is built by :func:`view_for` from the engine's
``observe(state, seat)``: a player never receives the opponent's hand, any deck order or the seed
(until the match is over). Clocks are never ticked: remaining time is computed from the stored
remaining time and the moment the side to move started thinking.

Rules enforced here (L-8.3 … L-8.5, ../shared/notes/lobby.md):
* first-move rule: each player has 1 minute for their first move, else the match is aborted (no
  result, no rating change); the clocks start only after both first moves;
* timed matches: the flag is checked *before* a move is applied; a small lag allowance per move;
  the increment is added after the move;
* untimed matches: 5 minutes on one move loses;
* a player away (no request, no open event stream) for 1 minute loses, and the opponent sees the
  countdown;
* resign at any time; only standard-rules matches in which both players moved are rated.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import and_, case, not_, or_
from sqlmodel import Session, col, select

from engine.cards import Rng
from engine.core import EngineError, GameRecord, replay
from engine.lanes import RULES, LanesOptions
from engine.lanes.actions import EXTERNAL, Abort, Away, LanesAction, Resign, Timeout
from engine.lanes.state import LanesState
from lobby.clock import Clock, TimeRules
from lobby.glicko2 import Rating, after_game
from lobby.models import Challenge, Match, Player, RatingHistory, Seek, ServerState
from lobby.rows import Db, MatchRow, flush_presence, for_update, insert_many, load, mark_present, run

#: a match as the hot path holds it (a plain row) or as the cold paths do (the ORM object)
AnyMatch = Match | MatchRow

#: the PostgreSQL channel on which a commit that wrote a match's events names the match
NOTIFY_CHANNEL = "lobby_events"
#: the rules' durations (the defaults of :class:`lobby.clock.TimeRules`; a server enforces its clock's)
FIRST_MOVE_S = TimeRules.first_move_s
AWAY_S = TimeRules.away_s
AWAY_WARN_S = TimeRules.away_warn_s
UNTIMED_MOVE_S = TimeRules.untimed_move_s
LAG_ALLOWANCE_S = TimeRules.lag_allowance_s
TIME_CONTROLS: dict[str, tuple[int, int]] = {"1+0": (60, 0), "3+2": (180, 2), "5+3": (300, 3), "10+5": (600, 5),
                                             "untimed": (0, 0)}
RATING_PERIOD_S = 86400.0 * 0.21436  # lichess's rating period, in seconds


#: the engine actions only the server makes (its clock and its sweeper), never a client's move
SERVER_ONLY = EXTERNAL


class LobbyError(Exception):
    def __init__(self, status: int, message: str, detail: Any = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.detail = detail

    def body(self) -> dict[str, Any]:
        """The answer's JSON: the same from the FastAPI routes and the hot path."""
        return {"error": self.message, "detail": self.detail}


def to_json(obj: Any) -> bytes:
    """JSON for the hot path (orjson: a move encodes a view, its events and the action list, and
    the standard encoder was the largest single cost left in a sampled profile)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS)


def dumps(obj: Any) -> str:
    return to_json(obj).decode()


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(8)


# --- players --------------------------------------------------------------------------------

def display_name(name: str | None) -> str:
    """A display name as stored: trimmed, 1 to 24 characters of real text (a lone surrogate, which
    JSON can spell but UTF-8 cannot store, is refused)."""
    name = (name or "").strip()
    if not 1 <= len(name) <= 24:
        raise LobbyError(422, "a display name has 1 to 24 characters")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise LobbyError(422, "a display name must be text (no lone surrogate)") from None
    return name


def create_player(db: Session, clock: Clock, name: str) -> tuple[Player, str]:
    name = display_name(name)
    token = secrets.token_urlsafe(32)
    p = Player(id=_new_id("p_"), name=name, token_hash=_hash(token), created_at=clock.now())
    db.add(p)
    return p, token


def authenticate(db: Session, token: str | None) -> Player:
    """The caller as a player row (for the requests that change or show the player)."""
    p = db.get(Player, authenticate_id(db, token).id)
    assert p is not None  # the row the token was just found in
    return p


@dataclass(frozen=True)
class Caller:
    """Who sent a match request: the player id is all the hot paths (view, move, poll) need."""

    id: str


def authenticate_id(db: Db, token: str | None) -> Caller:
    """Who holds ``token``: one plain row query, no ORM object to build (the hot paths need no more;
    :func:`authenticate` loads the row for the others). The hash is compared in constant time."""
    if not token:
        raise LobbyError(401, "sign in first: send 'Authorization: Bearer <token>'")
    h = _hash(token)
    now = time.monotonic()
    with _tokens_lock:
        hit = _tokens.get(h)
    if hit is not None and now - hit[0] < TOKEN_TTL_S:
        return Caller(hit[1])
    row = run(db, "SELECT id, token_hash, revoked FROM player WHERE token_hash = :h", {"h": h}).fetchone()
    if row is None or not hmac.compare_digest(row[1], h) or row[2]:
        raise LobbyError(401, "that token is not valid (unknown or revoked)")
    with _tokens_lock:
        if len(_tokens) > 50_000:
            _tokens.clear()
        _tokens[h] = (now, row[0])
    return Caller(row[0])


#: a valid token is remembered this long (a request then needs no token query). Revoking forgets
#: it in this process at once; another worker (PostgreSQL) honours a revocation within this time.
TOKEN_TTL_S = 5.0
_tokens: dict[str, tuple[float, str]] = {}
_tokens_lock = threading.Lock()


def known_player(token: str) -> str | None:
    """The player a token was verified for in this process (no database read: the rate limiter asks
    on every request, and an unknown or junk token must not cost a query)."""
    h = _hash(token)
    with _tokens_lock:
        hit = _tokens.get(h)
    return hit[1] if hit is not None else None


def forget_tokens_of(player_id: str) -> None:
    """A revoked token stops working here at once."""
    with _tokens_lock:
        for h in [h for h, (_, pid) in _tokens.items() if pid == player_id]:
            del _tokens[h]


#: how long a player's name and rating may be shown from memory: this process forgets a player the
#: moment it renames or rates them; another worker's change (PostgreSQL) shows within this time
PLAYER_TTL_S = 5.0
_players: dict[str, tuple[float, dict[str, Any]]] = {}
_players_lock = threading.Lock()


def forget_player(player_id: str) -> None:
    with _players_lock:
        _players.pop(player_id, None)


def players_json(db: Db, ids: tuple[str, str]) -> list[dict[str, Any] | None]:
    """Both players of a match as the views show them (every view carries them; they change only on a
    rename or a rated result, so they are kept briefly instead of read on every request)."""
    now = time.monotonic()
    with _players_lock:
        cached = {i: _players[i][1] for i in ids if i in _players and now - _players[i][0] < PLAYER_TTL_S}
    missing = [i for i in ids if i not in cached]
    if missing:
        rows = run(db, "SELECT id, name, rating, rd, vol, rated_games FROM player WHERE id IN (:a, :b)",
                   {"a": missing[0], "b": missing[-1]}).fetchall()
        fresh = {r[0]: _player_dict(*r) for r in rows}
        with _players_lock:
            if len(_players) > 50_000:
                _players.clear()
            for i, d in fresh.items():
                _players[i] = (now, d)
        cached.update(fresh)
    return [cached.get(i) for i in ids]


def player_json(p: Player) -> dict[str, Any]:
    return _player_dict(p.id, p.name, p.rating, p.rd, p.vol, p.rated_games)


def _player_dict(pid: str, name: str, rating: float, rd: float, vol: float, rated_games: int) -> dict[str, Any]:
    """A player as every answer shows them (rating and deviation rounded; provisional per Glicko-2)."""
    return {"id": pid, "name": name, "rating": round(rating), "rd": round(rd),
            "provisional": Rating(rating, rd, vol).provisional, "rated_games": rated_games}


# --- seeks, matchmaking, challenges ----------------------------------------------------------

def _check_terms(rated: bool, time_control: str, variants: list[str]) -> str:
    if time_control not in TIME_CONTROLS:
        raise LobbyError(422, f"time control must be one of {', '.join(TIME_CONTROLS)}")
    try:
        options = LanesOptions.from_json({"variants": variants})
    except EngineError as exc:
        raise LobbyError(422, exc.message) from None
    if rated and not options.ranked:
        raise LobbyError(422, "variants are never rated (L-8.5): make it a casual game or remove the variants")
    return json.dumps(sorted(set(variants)))  # the same terms however often a variant is named


def window(waited_s: float) -> float:
    """Rating gap accepted for a pairing; widens while waiting."""
    return 100.0 + 50.0 * (waited_s // 5)


def create_seek(db: Session, clock: Clock, player: Player, rated: bool, time_control: str,
                variants: list[str]) -> Seek:
    v = _check_terms(rated, time_control, variants)
    for old in db.exec(select(Seek).where(Seek.player_id == player.id, Seek.status == "open")).all():
        old.status = "cancelled"
        db.add(old)
    seek = Seek(id=_new_id("s_"), player_id=player.id, rated=rated, time_control=time_control, variants=v,
                rating=player.rating, created_at=clock.now())
    db.add(seek)
    db.flush()
    pair_seeks(db, clock)
    return seek


def pair_seeks(db: Session, clock: Clock) -> int:
    """Pair open seeks: same terms, closest rating within a window that widens while waiting."""
    now = clock.now()
    # SKIP LOCKED: two workers' sweepers pair disjoint sets of seeks, never one seek twice
    opened = list(db.exec(select(Seek).where(Seek.status == "open").order_by(col(Seek.created_at))
                          .with_for_update(skip_locked=True)).all())
    made = 0
    used: set[str] = set()
    for s in opened:
        if s.id in used:
            continue
        best: Seek | None = None
        for o in opened:
            if o.id == s.id or o.id in used or o.player_id == s.player_id:
                continue
            if (o.rated, o.time_control, o.variants) != (s.rated, s.time_control, s.variants):
                continue
            gap = abs(o.rating - s.rating)
            if gap > max(window(now - s.created_at), window(now - o.created_at)):
                continue
            if best is None or gap < abs(best.rating - s.rating):
                best = o
        if best is not None:
            m = start_match(db, clock, s.player_id, best.player_id, s.rated, s.time_control, json.loads(s.variants))
            for x in (s, best):
                x.status, x.match_id = "matched", m.id
                db.add(x)
                used.add(x.id)
            made += 1
    return made


def create_challenge(db: Session, clock: Clock, player: Player, rated: bool, time_control: str,
                     variants: list[str]) -> Challenge:
    v = _check_terms(rated, time_control, variants)
    code = "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    c = Challenge(code=code, player_id=player.id, rated=rated, time_control=time_control, variants=v,
                  created_at=clock.now())
    db.add(c)
    return c


def accept_challenge(db: Session, clock: Clock, player: Player, code: str) -> Match:
    c = db.get(Challenge, code.upper(), with_for_update=True)  # two accepts: one match
    if c is None:
        raise LobbyError(404, "no challenge with that code")
    if c.match_id:
        raise LobbyError(409, "that challenge was already accepted")
    if c.player_id == player.id:
        raise LobbyError(422, "you cannot accept your own challenge")
    m = start_match(db, clock, c.player_id, player.id, c.rated, c.time_control, json.loads(c.variants))
    c.match_id = m.id
    db.add(c)
    return m


def start_match(db: Session, clock: Clock, a: str, b: str, rated: bool, time_control: str,
                variants: list[str]) -> Match:
    base, inc = TIME_CONTROLS[time_control]
    seed = clock.new_seed()
    seats = [a, b]
    if Rng(seed).below(2):
        seats.reverse()
    now = clock.now()
    m = Match(id=_new_id("m_"), seed=seed, options=json.dumps(LanesOptions.from_json({"variants": variants}).to_json()),
              player0=seats[0], player1=seats[1], rated=rated, base_ms=base * 1000, inc_ms=inc * 1000,
              remaining0=base * 1000, remaining1=base * 1000, turn_started_at=now, last_seen0=now, last_seen1=now,
              created_at=now)
    db.add(m)
    _event(db, m, {"type": "start", "time_control": time_control, "rated": rated})
    return m


# --- matches ----------------------------------------------------------------------------------

class StateCache:
    """The engine state of each recently used match, kept per match id with its action list.

    The stored record (options, seed, actions) is the truth; this only saves replaying it. A hit
    needs the same options and seed and a stored action list that *starts with* the cached one:
    then only the new actions are applied (one per move, however long the match), else the match is
    replayed from its record. So a cache that another worker's move made stale (PostgreSQL, several
    workers) is caught up, never trusted. Least recently used matches are dropped beyond ``size``."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        # per match: options, seed, the stored action list's text, its length, the state after it.
        # The text, not the parsed list: a thousand matches' lists of action dicts were most of the
        # objects the garbage collector walked (pauses of tens of ms under the load benchmark).
        self.entries: OrderedDict[str, tuple[str, int, str, int, LanesState]] = OrderedDict()
        self.replays = 0  # whole-record replays (a benchmark and the tests read it)
        self.lock = threading.Lock()  # requests run in a thread pool

    def get(self, m: AnyMatch) -> LanesState:
        with self.lock:
            hit = self.entries.get(m.id)
        if hit is not None and hit[2] == m.actions and hit[0] == m.options and hit[1] == m.seed:
            return hit[4]  # the usual case: the stored record is the one cached (no parsing)
        actions: list[Any] = orjson.loads(m.actions)
        if (hit is not None and hit[0] == m.options and hit[1] == m.seed and hit[3] <= len(actions)
                and actions[:hit[3]] == orjson.loads(hit[2])):  # rare: parsing both is fine
            state = hit[4]
            for raw in actions[hit[3]:]:
                state, _ = RULES.apply(state, RULES.parse_action(raw, state))
        else:
            self.replays += 1
            state, _ = replay(RULES, GameRecord("lanes", json.loads(m.options), m.seed, 2, tuple(actions)))
        self.put(m, len(actions), state)
        return state

    def put(self, m: AnyMatch, n_actions: int, state: LanesState) -> None:
        """Remember ``state`` as the state after the match's ``n_actions`` stored actions (a move
        stores the state it computed, after setting ``m.actions``)."""
        with self.lock:
            self.entries[m.id] = (m.options, m.seed, m.actions, n_actions, state)
            self.entries.move_to_end(m.id)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)


STATES = StateCache()


def state_of(m: AnyMatch) -> LanesState:
    return STATES.get(m)


def seat_of(m: AnyMatch, player: Player | Caller) -> int:
    if player.id == m.player0:
        return 0
    if player.id == m.player1:
        return 1
    raise LobbyError(403, "you are not a player in this match")


def _event(db: Db, m: AnyMatch, data: dict[str, Any], private: dict[int, dict[str, Any]] | None = None) -> int:
    """Append event number ``m.event_count + 1`` (per-seat variants when some of it is private)."""
    m.event_count += 1
    rang = db.info.setdefault("rang", set())
    if m.id not in rang:  # the app rings this match's bell after the commit
        rang.add(m.id)
        if for_update(db):  # PostgreSQL: the other workers hear of it at the commit (LISTEN/NOTIFY)
            run(db, "SELECT pg_notify(:channel, :m)", {"channel": NOTIFY_CHANNEL, "m": m.id})
    # plain INSERTs, not ORM objects: a move writes three or four events, and the unit of work
    # around each added object cost more than the statement (measured with tests/bench_lobby.py)
    parts = private.items() if private else [(None, data)]
    insert_many(db, "matchevent", [{"match_id": m.id, "n": m.event_count, "seat": seat, "data": dumps(d)}
                                   for seat, d in parts])
    return m.event_count


def clock_running(m: AnyMatch) -> bool:
    return m.status == "running" and m.moved0 and m.moved1


def remaining_ms(m: AnyMatch, now: float) -> list[int]:
    rem = [m.remaining0, m.remaining1]
    if m.base_ms and clock_running(m):
        p = state_of(m).to_move
        rem[p] = int(rem[p] - (now - m.turn_started_at) * 1000)
    return rem


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
        _event(db, m, e.to_json())
    _finish(db, clock, m, state.winner, state.reason or "aborted")


def _finish(db: Db, clock: Clock, m: AnyMatch, winner: int | None, reason: str) -> None:
    """Store the end the engine reached (``winner``/``reason`` from the final state) and rate it."""
    if m.status != "running":
        return
    m.status = "aborted" if reason == "aborted" else "finished"
    m.winner, m.reason, m.finished_at = winner, reason, clock.now()
    change = None
    if m.rated and m.moved0 and m.moved1 and m.status == "finished":
        change = _rate(db, clock, m)
    _event(db, m, {"type": "end", "winner": winner, "reason": reason, "rating_change": change})


def _rate(db: Db, clock: Clock, m: AnyMatch) -> dict[str, Any]:
    # lock both players in a fixed order (two of a player's matches may end at the same moment)
    players = {}
    for pid in sorted((m.player0, m.player1)):
        players[pid] = run(db, "SELECT rating, rd, vol, last_rated_at FROM player WHERE id = :id" + for_update(db),
                           {"id": pid}).fetchone()
    now = clock.now()
    score0 = 0.5 if m.winner is None else (1.0 if m.winner == 0 else 0.0)

    def periods(last_rated_at: float | None) -> float:
        return 0.0 if last_rated_at is None else min(1.0, (now - last_rated_at) / RATING_PERIOD_S)
    (a0, d0, v0, t0), (a1, d1, v1, t1) = players[m.player0], players[m.player1]
    r0, r1 = after_game(Rating(a0, d0, v0), Rating(a1, d1, v1), score0, periods_a=periods(t0), periods_b=periods(t1))
    change = {}
    for seat, pid, before, r in ((0, m.player0, a0, r0), (1, m.player1, a1, r1)):
        change[str(seat)] = {"before": round(before), "after": round(r.rating)}
        run(db, "UPDATE player SET rating = :rating, rd = :rd, vol = :vol, rated_games = rated_games + 1, "
                "last_rated_at = :at WHERE id = :id",
            {"rating": r.rating, "rd": r.rd, "vol": r.vol, "at": now, "id": pid})
        forget_player(pid)
        insert_many(db, "ratinghistory",
                    [{"player_id": pid, "match_id": m.id, "rating": r.rating, "rd": r.rd, "at": now}])
    m.rating_change = dumps(change)
    return change


def enforce(db: Db, clock: Clock, m: AnyMatch) -> None:
    """Apply the time rule that ran out first, if any has by now (on every request and by the
    sweeper). Each rule has a moment at which it fires; the earliest one decides."""
    if m.status != "running":
        return
    now = clock.now()
    p = state_of(m).to_move
    moved = [m.moved0, m.moved1]
    if not moved[p]:
        if now - m.turn_started_at >= clock.rules.first_move_s:
            _end(db, clock, m, Abort())
        return
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
    if when > now:
        return
    if reason == "timeout":
        _timeout(db, clock, m, loser)
    else:
        _end(db, clock, m, Away(loser))


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
    m = _match(db, match_id)
    seat = seat_of(m, player)
    if not client_move_id or len(client_move_id) > 64:
        raise LobbyError(422, "client_move_id: 1 to 64 characters")
    receipt = run(db, "SELECT player_id, response FROM movereceipt WHERE match_id = :m AND client_move_id = :c",
                  {"m": m.id, "c": client_move_id}).fetchone()
    if receipt is not None:
        if receipt[0] != player.id:
            raise LobbyError(409, "that client move id was used by the other player")
        return MoveResult(200, orjson.loads(receipt[1]), receipt[1])
    touch(db, clock, m, seat)
    enforce(db, clock, m)
    if m.status != "running":
        return MoveResult(409, {"error": "the match is over", "view": view_for(db, clock, m, seat)})
    if expected_move != m.move_count:
        return MoveResult(409, {"error": f"expected move {m.move_count}, got {expected_move}",
                                "view": view_for(db, clock, m, seat)})
    s = state_of(m)
    if s.to_move != seat and not (isinstance(action, dict) and action.get("resign")):
        raise LobbyError(409, "it is not your turn")
    try:
        parsed = RULES.parse_action({**action, "player": seat} if isinstance(action, dict) else action)
        if isinstance(parsed, SERVER_ONLY):  # L-8.3-L-8.5: only the server's clock times out or aborts
            raise LobbyError(422, "only the server's clock ends a match on time or aborts it",
                             {"code": "server_only"})
        new_state, events = RULES.apply(s, parsed)
    except EngineError as exc:
        raise LobbyError(422, exc.message, {"code": exc.code}) from None
    now = clock.now()
    if clock_running(m) and m.base_ms:
        spent = max(0.0, now - m.turn_started_at - clock.rules.lag_allowance_s) * 1000
        rem = m.remaining0 if seat == 0 else m.remaining1
        rem = int(rem - spent + m.inc_ms)
        if seat == 0:
            m.remaining0 = rem
        else:
            m.remaining1 = rem
    if seat == 0:
        m.moved0 = True
    else:
        m.moved1 = True
    actions = [*orjson.loads(m.actions), RULES.action_to_json(parsed)]
    m.actions = dumps(actions)
    STATES.put(m, len(actions), new_state)
    m.move_count += 1
    m.turn_started_at = now
    for e in events:
        data = e.to_json()
        if data["type"] == "draw":  # only the drawer sees which card
            hidden = {k: v for k, v in data.items() if k != "card"}
            _event(db, m, data, {data["player"]: data, 1 - data["player"]: hidden})
        else:
            _event(db, m, data)
    _event(db, m, {"type": "move", "move_count": m.move_count, "remaining_ms": [m.remaining0, m.remaining1]})
    if new_state.over:
        _finish(db, clock, m, new_state.winner, new_state.reason or "sold")
    body = {"ok": True, "move_no": m.move_count - 1, "view": view_for(db, clock, m, seat)}
    text = dumps(body)  # encoded once: the receipt and the response
    insert_many(db, "movereceipt", [{"match_id": m.id, "player_id": player.id, "client_move_id": client_move_id,
                                     "move_no": m.move_count - 1, "response": text}])
    return MoveResult(200, body, text)


def resign(db: Db, clock: Clock, player: Player, match_id: str) -> dict[str, Any]:
    m = _match(db, match_id)
    seat = seat_of(m, player)
    _end(db, clock, m, Resign(seat))
    return view_for(db, clock, m, seat)


def _match(db: Db, match_id: str) -> MatchRow:
    """The match, row-locked until the transaction ends (PostgreSQL ``FOR UPDATE``; SQLite has one
    writer anyway): moves, resignations, touches and the sweeper of several workers serialise per
    match, so a move and a flag can never both win. Its changes are written when the transaction
    commits (:mod:`lobby.rows`)."""
    m = load(db, match_id)
    if m is None:
        raise LobbyError(404, "no such match")
    return m


def view_for(db: Db, clock: Clock, m: AnyMatch, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know about the match — the only way match data leaves the server."""
    now = clock.now()
    s = state_of(m)
    seen = [m.last_seen0, m.last_seen1]
    opp = 1 - seat
    away_for = now - seen[opp]
    moved = [m.moved0, m.moved1]
    first_deadline = None
    if m.status == "running" and not moved[s.to_move]:
        first_deadline = m.turn_started_at + clock.rules.first_move_s
    tc = next((k for k, v in TIME_CONTROLS.items() if v == (m.base_ms // 1000, m.inc_ms // 1000)), "custom")
    return {
        "match_id": m.id, "seat": seat, "status": m.status, "winner": m.winner, "reason": m.reason,
        "rated": m.rated, "time_control": tc, "move_count": m.move_count, "event_count": m.event_count,
        "players": players_json(db, (m.player0, m.player1)),
        "observation": RULES.observe(s, seat),
        "legal": [RULES.action_to_json(a) for a in RULES.legal_actions(s, seat)] if m.status == "running" else [],
        "clock": {"remaining_ms": remaining_ms(m, now) if m.base_ms else None, "running": clock_running(m),
                  "to_move": s.to_move, "turn_started_at": m.turn_started_at, "server_now": now,
                  "first_move_deadline": first_deadline,
                  "move_deadline": m.turn_started_at + clock.rules.untimed_move_s if not m.base_ms and clock_running(m)
                  else None},
        "opponent_away_s": round(away_for, 1) if m.status == "running" and away_for >= clock.rules.away_warn_s
        else None,
        "opponent_loses_in_s": round(clock.rules.away_s - away_for, 1)
        if m.status == "running" and away_for >= clock.rules.away_warn_s
        else None,
        "rating_change": json.loads(m.rating_change) if m.rating_change else None,
    }


def events_for(db: Db, match_id: str, seat: int, since: int) -> list[dict[str, Any]]:
    """``seat``'s events after number ``since``: the public ones and its own private variants."""
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


def due_ids(db: Session, now: float, rules: TimeRules | None = None) -> list[str]:
    """The running matches on which some time rule *may* have fired by ``now``: one indexed query
    instead of a transaction per running match every second (with 1,000 matches the sweeper alone
    filled the server). It is a superset — the side to move is not known to SQL, so the smaller of
    the two clocks stands for it — and :func:`enforce` decides exactly."""
    r = rules or TimeRules()
    both_moved = and_(col(Match.moved0), col(Match.moved1))
    smaller = case((col(Match.remaining0) < col(Match.remaining1), col(Match.remaining0)),
                   else_=col(Match.remaining1))
    due = or_(
        col(Match.last_seen0) + r.away_s <= now,
        col(Match.last_seen1) + r.away_s <= now,
        and_(not_(both_moved), col(Match.turn_started_at) + r.first_move_s <= now),
        and_(both_moved, col(Match.base_ms) > 0,
             col(Match.turn_started_at) + smaller / 1000.0 + r.lag_allowance_s <= now),
        and_(both_moved, col(Match.base_ms) == 0, col(Match.turn_started_at) + r.untimed_move_s <= now),
    )
    return list(db.exec(select(Match.id).where(Match.status == "running", due)).all())


def sweep_match(db: Db, clock: Clock, match_id: str) -> bool:
    """Enforce the time rules on one match; True if it ended. A match locked by a move or by another
    worker's sweeper is skipped (``SKIP LOCKED``): whoever holds the lock enforces the clock itself."""
    m = load(db, match_id, lock="skip", running_only=True)
    if m is None:
        return False
    enforce(db, clock, m)
    return m.status != "running"


def mark_alive(db: Session, clock: Clock) -> None:
    st = db.get(ServerState, 1, with_for_update=True) or ServerState(id=1)
    st.last_alive = clock.now()
    db.add(st)


def sweep(db: Session, clock: Clock) -> int:
    """Enforce time rules on every running match, pair seeks, and note that the server is alive
    (the app's sweeper does the same with one short transaction per match)."""
    flush_presence(db)
    n = sum(sweep_match(db, clock, mid) for mid in due_ids(db, clock.now(), clock.rules))
    pair_seeks(db, clock)
    mark_alive(db, clock)
    return n


def resume_after_restart(db: Session, clock: Clock) -> float:
    """After downtime, shift every running match's timestamps by the downtime, so nobody is flagged,
    aborted or marked away for the time the server was gone. Returns the downtime in seconds."""
    # several workers start at once: the first to lock the server row shifts the clocks and moves
    # last_alive to now, so the others see no downtime and shift nothing
    st = db.get(ServerState, 1, with_for_update=True)
    if st is None or not st.last_alive:
        return 0.0
    down = max(0.0, clock.now() - st.last_alive)
    if down < 1.0:
        return down
    for m in db.exec(select(Match).where(Match.status == "running").with_for_update()).all():
        m.turn_started_at += down
        m.last_seen0 += down
        m.last_seen1 += down
        db.add(m)
    st.last_alive = clock.now()
    db.add(st)
    return down


def leaderboard(db: Session, limit: int = 50) -> list[dict[str, Any]]:
    rows = db.exec(select(Player).where(Player.rated_games > 0, col(Player.revoked).is_(False))
                   .order_by(col(Player.rating).desc()).limit(limit)).all()
    return [player_json(p) for p in rows]


def profile(db: Session, player_id: str) -> dict[str, Any]:
    p = db.get(Player, player_id)
    if p is None:
        raise LobbyError(404, "no such player")
    hist = db.exec(select(RatingHistory).where(RatingHistory.player_id == p.id).order_by(col(RatingHistory.at))).all()
    matches = db.exec(select(Match).where((Match.player0 == p.id) | (Match.player1 == p.id))
                      .order_by(col(Match.created_at).desc()).limit(20)).all()
    return {**player_json(p),
            "history": [{"rating": round(h.rating), "at": h.at, "match_id": h.match_id} for h in hist],
            "recent": [{"match_id": m.id, "status": m.status, "winner": m.winner, "reason": m.reason,
                        "rated": m.rated, "seat": 0 if m.player0 == p.id else 1} for m in matches]}
