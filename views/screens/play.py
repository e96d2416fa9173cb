"""A game on its table, at ``/play/<id>``: a new one is stored first, so reopening the app (or
the route) continues it exactly where it stopped — the stored record is the game."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from engine.lanes import LanesOptions
from engine.spit import SpitOptions
from storage import api
from storage.damage import DAMAGE, DamagedRecord
from views.lanes.controller import LanesMatch
from views.lanes.table import LanesTable
from views.spit.controller import SpitGame
from views.spit.table import SpitTable
from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import felt

if TYPE_CHECKING:
    from views.host import Host


def new_lanes(app: Host, level: str) -> None:
    options = LanesOptions(**{v: True for v in app.drafts.lanes_variants})
    match = LanesMatch.new(app.storage, level, app.new_seed(), options)
    _open_lanes(app, match, ready=True)


def new_spit(app: Host, level: str) -> None:
    options = SpitOptions(scoring="points") if app.drafts.spit_points else SpitOptions()
    _open_spit(app, SpitGame.new(app.storage, level, app.new_seed(), 0.0, options), ready=True)


def _open_lanes(app: Host, match: LanesMatch, ready: bool) -> None:
    table = LanesTable(app, match)
    content = felt(table.build(), app.page.width)
    if ready:
        app.open(f"/play/{match.mode.game_id}", content, table)
    else:
        app.show(content, bg=theme.FELT, screen=table)
    if not match.status.over and not match.my_turn:
        app.page.run_task(table.bot_turn)


def _open_spit(app: Host, game: SpitGame, ready: bool) -> None:
    table = SpitTable(app, game, time.monotonic())
    content = felt(table.build(), app.page.width)
    if ready:
        app.open(f"/play/{game.mode.game_id}", content, table)
    else:
        app.show(content, bg=theme.FELT, screen=table)


def resume(app: Host, game_id: int) -> bool:
    """The stored game ``game_id`` on its table (a Lopti deal with its session); False if there
    is no such game. A damaged record is refused in words."""
    from views.lopti.play import resume_deal

    try:
        info = api.load_game(app.storage, game_id)
    except LookupError:
        return False
    except DamagedRecord as exc:
        app.turn_back(t(app.lang, "replay_broken", why=str(exc)))
        return True
    try:
        if info.game == "lanes":
            _open_lanes(app, LanesMatch.resume(app.storage, game_id), ready=False)
        elif info.game == "spit":
            _open_spit(app, SpitGame.resume(app.storage, game_id, 0.0), ready=False)
        else:
            resume_deal(app, game_id)
    except DAMAGE as exc:  # a damaged stored record: say so, keep the app
        app.turn_back(t(app.lang, "replay_broken", why=str(exc)))
    return True
