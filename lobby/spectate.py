"""Spectators (#45): a public list of running rated matches and a table anyone may watch, built
from public information only — the engine's :func:`engine.lanes.notation.spectate` (the table, no
hand), the public events (a draw is each player's own event and not sent to spectators: the
view's hand and deck sizes show it), the clocks and the names. Never a hand, a deck order, the seed or a
move's receipt. A player may opt out (``PUT /players/me/spectators``); a match either player
opted out of is neither listed nor watchable (404, as if it did not exist).

Only rated matches are listed: a casual match between friends (house rules, a challenge code) is
private. Watching touches nothing: no presence, no lock, no time rule applied (the players' own
requests and the sweeper do that)."""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session, col, select

from engine.lanes.notation import spectate
from lobby.accounts import players_json
from lobby.clock import Clock
from lobby.common import AnyMatch, LobbyError
from lobby.matches import clock_json, events_for
from lobby.models import Match, Player, Privacy
from lobby.rows import Db, load, run
from lobby.states import state_of
from lobby.timerules import time_control_of

#: the most matches the public list shows
LIVE_LIMIT = 50
#: events a spectator gets: the public ones only (a seat no player has)
SPECTATOR = -1


def allows_spectators(db: Db, player_id: str) -> bool:
    row = run(db, "SELECT spectators FROM privacy WHERE player_id = :p", {"p": player_id}).fetchone()
    return row is None or bool(row[0])


def set_spectators(db: Session, player: Player, allowed: bool) -> dict[str, Any]:
    """The player's wish: may others watch my rated matches?"""
    row = db.get(Privacy, player.id) or Privacy(player_id=player.id)
    row.spectators = allowed
    db.add(row)
    return {"spectators": allowed}


def live_matches(db: Session, clock: Clock, limit: int = LIVE_LIMIT) -> list[dict[str, Any]]:
    """Running rated matches anyone may watch, newest first: the players' names and ratings, the
    time control and how far the match has gone."""
    hidden = select(Privacy.player_id).where(col(Privacy.spectators).is_(False))
    rows = db.exec(select(Match).where(Match.status == "running", col(Match.rated).is_(True),
                                       col(Match.player0).not_in(hidden), col(Match.player1).not_in(hidden))
                   .order_by(col(Match.created_at).desc()).limit(limit)).all()
    return [{"match_id": m.id, "players": players_json(db, (m.player0, m.player1)),
             "time_control": time_control_of(m), "move_count": m.move_count, "started_at": m.created_at}
            for m in rows]


def _watchable(db: Db, match_id: str) -> AnyMatch:
    m = load(db, match_id, lock="")
    if m is None or not m.rated or not (allows_spectators(db, m.player0) and allows_spectators(db, m.player1)):
        raise LobbyError(404, "no such match to watch")
    return m


def spectator_view(db: Db, clock: Clock, m: AnyMatch) -> dict[str, Any]:
    """What a spectator sees: the shape of a player's view (so the app's table reads both) from the
    public side only — no hand, no legal moves, seat 0's side of the table at the bottom."""
    s = state_of(m)
    return {
        "match_id": m.id, "seat": 0, "spectator": True, "status": m.status, "winner": m.winner, "reason": m.reason,
        "rated": m.rated, "time_control": time_control_of(m), "move_count": m.move_count,
        "event_count": m.event_count, "players": players_json(db, (m.player0, m.player1)),
        "observation": spectate(s), "legal": [], "clock": clock_json(clock, m, s, clock.now()),
        "opponent_away_s": None, "opponent_loses_in_s": None,
        "rating_change": json.loads(m.rating_change) if m.rating_change else None, "can_abort": False,
    }


def watch_view(db: Db, clock: Clock, match_id: str) -> dict[str, Any]:
    """The spectator's view of ``match_id`` (a plain read; 404 when it may not be watched)."""
    return spectator_view(db, clock, _watchable(db, match_id))


def watch(db: Db, clock: Clock, match_id: str, since: int) -> dict[str, Any]:
    """The spectator's view and the public events after ``since`` (a plain read)."""
    m = _watchable(db, match_id)
    return {"events": events_for(db, m.id, SPECTATOR, since), "view": spectator_view(db, clock, m)}

