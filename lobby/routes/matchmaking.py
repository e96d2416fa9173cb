"""Matchmaking: seeks (paired by rating window and terms), challenges by code, accepting one."""

import json
from typing import Annotated, Any

from fastapi import Depends, FastAPI
from sqlmodel import Session

from lobby import models
from lobby import service as svc
from lobby.routes import Context
from lobby.schemas import SIGNED_IN_OP, Terms


def seek_json(s: models.Seek) -> dict[str, Any]:
    return {"id": s.id, "status": s.status, "rated": s.rated, "time_control": s.time_control,
            "variants": json.loads(s.variants), "match_id": s.match_id}


def own_seek(db: Session, seek_id: str, player: models.Player) -> models.Seek:
    s = db.get(models.Seek, seek_id)
    if s is None or s.player_id != player.id:
        raise svc.LobbyError(404, "no such seek")
    return s


def add_routes(api: FastAPI, ctx: Context) -> None:
    """This resource's operations, on the app itself (flat routes: the hot ones can be tried first)."""
    clk = ctx.clock
    DB = Annotated[Session, Depends(ctx.get_db, scope="function")]
    Me = Annotated[models.Player, Depends(ctx.me)]

    @api.post("/seeks", status_code=201, **SIGNED_IN_OP)
    def seek(body: Terms, player: Me, db: DB) -> dict[str, Any]:
        return seek_json(svc.create_seek(db, clk, player, body.rated, body.time_control, body.variants))

    @api.get("/seeks/{seek_id}", **SIGNED_IN_OP)
    def seek_status(seek_id: str, player: Me, db: DB) -> dict[str, Any]:
        """The seek as it stands: the sweeper pairs seeks (every second), so a poll reads one row
        however many seeks are open; a seek past its lifetime is said to have expired."""
        s = own_seek(db, seek_id, player)
        if svc.seek_expired(s, clk):
            s.status = "expired"
            db.add(s)
        return seek_json(s)

    @api.delete("/seeks/{seek_id}", **SIGNED_IN_OP)
    def cancel_seek(seek_id: str, player: Me, db: DB) -> dict[str, Any]:
        s = own_seek(db, seek_id, player)
        if s.status == "open":
            s.status = "cancelled"
            db.add(s)
        return seek_json(s)

    @api.post("/challenges", status_code=201, **SIGNED_IN_OP)
    def challenge(body: Terms, player: Me, db: DB) -> dict[str, Any]:
        c = svc.create_challenge(db, clk, player, body.rated, body.time_control, body.variants)
        return {"code": c.code, "rated": c.rated, "time_control": c.time_control, "variants": json.loads(c.variants)}

    @api.get("/challenges/{code}", **SIGNED_IN_OP)
    def challenge_status(code: str, player: Me, db: DB) -> dict[str, Any]:
        """The challenger waits here for a friend to accept (only the challenger may look)."""
        c = db.get(models.Challenge, code.upper())
        if c is None or c.player_id != player.id:
            raise svc.LobbyError(404, "no challenge with that code")
        return {"code": c.code, "match_id": c.match_id, "expired": svc.challenge_expired(c, clk)}

    @api.post("/challenges/{code}/accept", **SIGNED_IN_OP)
    def accept(code: str, player: Me, db: DB) -> dict[str, Any]:
        m = svc.accept_challenge(db, clk, player, code)
        db.flush()
        return svc.view_for(db, clk, m, svc.seat_of(m, player))

