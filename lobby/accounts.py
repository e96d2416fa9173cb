"""Accounts: guest players with bearer tokens, display names, the token and player caches, the
leaderboard and profiles."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from lobby.clock import Clock
from lobby.common import LobbyError, new_id, token_hash_of
from lobby.glicko2 import Rating
from lobby.models import Match, Player, RatingHistory
from lobby.rows import Db, run

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
    p = Player(id=new_id("p_"), name=name, token_hash=token_hash_of(token), created_at=clock.now())
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
    h = token_hash_of(token)
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
    h = token_hash_of(token)
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
