"""A game on its table, at ``/play/<id>``: a new one is stored first, so reopening the app (or
the route) continues it exactly where it stopped — the stored record is the game. Each game opens
its own table (views/games.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage import api
from storage.damage import DAMAGE, DamagedRecord
from views.games import games
from views.ui.i18n import t

if TYPE_CHECKING:
    from views.host import Host


def resume(app: Host, game_id: int) -> bool:
    """The stored game ``game_id`` on its table (a Lopti deal with its session); False if there
    is no such game. A damaged record is refused in words."""
    try:
        info = api.load_game(app.storage, game_id)
    except LookupError:
        return False
    except DamagedRecord as exc:
        app.turn_back(t(app.lang, "replay_broken", why=str(exc)))
        return True
    game = games().get(info.game)
    if game is None:
        app.turn_back(t(app.lang, "replay_broken", why=f"no game {info.game!r} in this app"))
        return True
    try:
        game.resume(app, game_id)
    except DAMAGE as exc:  # a damaged stored record: say so, keep the app
        app.turn_back(t(app.lang, "replay_broken", why=str(exc)))
    return True
