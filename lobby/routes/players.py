"""Players: sign-up (a guest account and its bearer token), the signed-in player, renaming,
revoking the token, profiles and the leaderboard."""

from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query
from sqlmodel import Session

from lobby import models
from lobby import service as svc
from lobby.routes import Context
from lobby.schemas import PUBLIC, SIGNED_IN_OP, NewPlayer, SpectatorsIn, errors


def add_routes(api: FastAPI, ctx: Context) -> None:
    """This resource's operations, on the app itself (flat routes: the hot ones can be tried first)."""
    clk = ctx.clock
    DB = Annotated[Session, Depends(ctx.get_db, scope="function")]
    Me = Annotated[models.Player, Depends(ctx.me)]

    @api.get("/health", responses=errors(PUBLIC))
    def health() -> dict[str, Any]:
        return {"ok": True, "time": clk.now()}

    @api.post("/players", status_code=201, responses=errors(PUBLIC))
    def new_player(body: NewPlayer, db: DB) -> dict[str, Any]:
        p, token = svc.create_player(db, clk, body.name)
        return {"player": svc.player_json(p), "token": token}

    @api.get("/players/me", **SIGNED_IN_OP)
    def whoami(player: Me, db: DB) -> dict[str, Any]:
        return {**svc.player_json(player), "spectators": svc.allows_spectators(db, player.id)}

    @api.put("/players/me/spectators", **SIGNED_IN_OP)
    def spectators(body: SpectatorsIn, player: Me, db: DB) -> dict[str, Any]:
        """Whether others may watch my rated matches (listed under ``GET /live``); off hides them."""
        return svc.set_spectators(db, player, body.spectators)

    @api.patch("/players/me", **SIGNED_IN_OP)
    def rename(body: NewPlayer, player: Me, db: DB) -> dict[str, Any]:
        player.name = svc.display_name(body.name)
        db.add(player)
        svc.forget_player(player.id)
        return svc.player_json(player)

    @api.get("/players/me/matches", **SIGNED_IN_OP)
    def my_matches(player: Me, db: DB) -> list[dict[str, Any]]:
        """The caller's running matches, to come back to one (its clock runs meanwhile)."""
        return svc.running_matches(db, clk, player)

    @api.post("/players/me/revoke", **SIGNED_IN_OP)
    def revoke(player: Me, db: DB) -> dict[str, Any]:
        player.revoked = True
        db.add(player)
        db.flush()
        svc.forget_tokens_of(player.id)
        return {"ok": True}

    @api.get("/players/{player_id}", responses=errors(PUBLIC))
    def player_profile(player_id: str, db: DB) -> dict[str, Any]:
        return svc.profile(db, player_id)

    @api.get("/leaderboard", responses=errors(PUBLIC))
    def board(db: DB, limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[dict[str, Any]]:
        return svc.leaderboard(db, limit)

