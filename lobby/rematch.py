"""Rematch after a match ends (#45): either player offers, the other accepts or declines, and an
accepted offer starts a new match between the same two with the seats swapped (seat 0 opens in
Lanes, so the one who answered first now opens), on the same time control, rating and house
rules.

One negotiation per ended match, never reopened (a :class:`lobby.models.Rematch` row): an offer
ends when it is accepted, when either player declines it or leaves the result screen (both say
``DELETE``), or :data:`REMATCH_LIFETIME_S` after it was made. Offering when the other has offered
accepts; offering twice, or asking again after acceptance, answers the same (a retry is safe).
Each step is an event of the ended match, so a player waiting on the match's bell hears of it at
once (``GET /matches/{id}/rematch?since=n&timeout=s``).

Written in plain statements (``lobby.rows.run``), so the same functions serve the routes' ORM
sessions and the long poll's raw transactions."""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session

from lobby.accounts import Caller
from lobby.clock import Clock, TimeRules
from lobby.common import LobbyError
from lobby.matches import add_event, locked_match
from lobby.matchmaking import start_match
from lobby.models import Player
from lobby.rows import Db, MatchRow, insert_many, run
from lobby.timerules import time_control_of

#: how long an offer waits for an answer, by default (docs/lobby.md, "Rematch"; a server's own
#: is its clock's ``rules.rematch_lifetime_s``)
REMATCH_LIFETIME_S = TimeRules.rematch_lifetime_s


def _row(db: Db, match_id: str) -> dict[str, Any] | None:
    row = run(db, "SELECT status, offered_by, offered_at, new_match_id FROM rematch WHERE match_id = :m",
              {"m": match_id}).fetchone()
    if row is None:
        return None
    return {"status": row[0], "offered_by": row[1], "offered_at": float(row[2]), "new_match_id": row[3]}


def _current(db: Db, clock: Clock, match_id: str) -> dict[str, Any] | None:
    """The match's rematch row, an offer past its lifetime marked expired (and so written)."""
    r = _row(db, match_id)
    if r is not None and r["status"] == "offered" and clock.now() - r["offered_at"] > clock.rules.rematch_lifetime_s:
        _set(db, match_id, status="expired")
        r["status"] = "expired"
    return r


def _set(db: Db, match_id: str, **values: Any) -> None:
    sets = ", ".join(f"{k} = :{k}" for k in values)
    run(db, f"UPDATE rematch SET {sets} WHERE match_id = :m", {"m": match_id, **values})


def rematch_json(r: dict[str, Any] | None, seat: int, event_count: int,
                 lifetime: float = REMATCH_LIFETIME_S) -> dict[str, Any]:
    """What a player is told: the status ("none" before anyone offered), who offered (a seat, and
    whether it was the caller), until when, and the new match once accepted."""
    if r is None:
        return {"status": "none", "offered_by": None, "mine": False, "expires_at": None, "match_id": None,
                "event_count": event_count}
    by = r["offered_by"]
    return {"status": r["status"], "offered_by": by, "mine": by == seat,
            "expires_at": r["offered_at"] + lifetime if r["status"] == "offered" else None,
            "match_id": r["new_match_id"], "event_count": event_count}


def _first(db: Db, clock: Clock, m: MatchRow, status: str, by: int | None) -> dict[str, Any]:
    """The match's rematch row, made by its first step (an offer by ``by``, or a leave), and its event."""
    r = {"status": status, "offered_by": by, "offered_at": clock.now(), "new_match_id": None}
    insert_many(db, "rematch", [{"match_id": m.id, **r}])
    add_event(db, m, {"type": "rematch", "status": status, "by": by})
    return r


def _ended(db: Db, player: Player | Caller, match_id: str) -> tuple[MatchRow, int]:
    m, seat = locked_match(db, match_id, player)  # locked: two offers at once make one match
    if m.status == "running":
        raise LobbyError(409, "the match is still being played: a rematch is offered once it ends")
    return m, seat


def offer(db: Session, clock: Clock, player: Player | Caller, match_id: str) -> dict[str, Any]:
    """Offer a rematch, or accept the other player's offer (then the new match starts)."""
    m, seat = _ended(db, player, match_id)
    r = _current(db, clock, match_id)
    if r is None:
        r = _first(db, clock, m, "offered", seat)
    elif r["status"] == "offered" and r["offered_by"] != seat:
        new = start_match(db, clock, m.player1, m.player0, m.rated, time_control_of(m),
                          list(json.loads(m.options).get("variants", [])), seats_by_seed=False)
        r.update(status="accepted", new_match_id=new.id)
        _set(db, match_id, status="accepted", new_match_id=new.id)
        add_event(db, m, {"type": "rematch", "status": "accepted", "by": r["offered_by"], "match_id": new.id})
    answer = rematch_json(r, seat, m.event_count, clock.rules.rematch_lifetime_s)
    if r["status"] in ("declined", "expired"):
        raise LobbyError(409, f"no rematch: the offer was {r['status']}", answer)
    return answer


def decline(db: Db, clock: Clock, player: Player | Caller, match_id: str) -> dict[str, Any]:
    """Decline the other's offer, withdraw one's own, or leave the result screen before either
    offered: the negotiation ends (an accepted rematch stays accepted)."""
    m, seat = _ended(db, player, match_id)
    r = _current(db, clock, match_id)
    if r is None:
        r = _first(db, clock, m, "declined", None)
    elif r["status"] == "offered":
        r["status"] = "declined"
        _set(db, match_id, status="declined")
        add_event(db, m, {"type": "rematch", "status": "declined", "by": r["offered_by"]})
    return rematch_json(r, seat, m.event_count, clock.rules.rematch_lifetime_s)


def status(db: Db, clock: Clock, player: Player | Caller, match_id: str) -> dict[str, Any]:
    """Where the rematch of ``match_id`` stands, for one of its players (a plain read: no lock)."""
    row = run(db, 'SELECT player0, player1, status, event_count FROM "match" WHERE id = :m',
              {"m": match_id}).fetchone()
    if row is None:
        raise LobbyError(404, "no such match")
    if player.id not in (row[0], row[1]):
        raise LobbyError(403, "you are not a player in this match")
    seat = (row[0], row[1]).index(player.id)
    if row[2] == "running":
        return rematch_json(None, seat, int(row[3]))
    return rematch_json(_current(db, clock, match_id), seat, int(row[3]), clock.rules.rematch_lifetime_s)
