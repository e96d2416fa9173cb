"""Spit on its table: a new game against a bot or two people on one device, a stored game, a lesson
and a replay (its record in views/games.py)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import flet as ft

from engine.spit import RULES, SpitOptions
from views.game_views import GameViews
from views.screens.in_progress import ask_before_new
from views.screens.new_game import level_screen, points_switch
from views.spit.controller import SpitGame
from views.spit.modes import SpitLessonMode, SpitReplayMode
from views.spit.table import SpitTable
from views.table.screen import NewGame
from views.table.timeline import Stepper, Timeline
from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import BACK_SRC, face_src, felt

if TYPE_CHECKING:
    from engine.tutorial import Lesson
    from views.host import Host


def _options(app: Host) -> SpitOptions:
    """The points game (S-8) when chosen on the opponent screen, else the standard one."""
    return SpitOptions(scoring="points") if app.drafts.spit_points else SpitOptions()


def begin(app: Host, level: str) -> None:
    """A new game, stored before it is shown."""
    open_table(app, SpitGame.new(app.storage, level, app.new_seed(), 0.0, _options(app)), ready=True)


def start_pictures(app: Host, seed: int) -> list[str]:
    """What a new round from ``seed`` shows at once: every stock's top card, both sides (S-2, as
    seat 0 sees them), and the backs. Loaded on the opponent screen, not the home: a Spit table
    waited, before its first frame, on decoding its ten faces."""
    sides = RULES.observe(RULES.new_game(_options(app), seed), 0)["players"]
    return [BACK_SRC, *dict.fromkeys(face_src(card) for side in sides for card in side["stock_tops"] if card)]


def resume(app: Host, game_id: int) -> None:
    open_table(app, SpitGame.resume(app.storage, game_id, 0.0), ready=False)


def new_game(app: Host) -> NewGame:
    """A new game against a level from a table (a rematch, "play for real" after the last lesson);
    asked first when another Spit game is in progress."""
    return lambda level: ask_before_new(app, "spit", lambda: begin(app, level))


def open_table(app: Host, game: SpitGame, ready: bool) -> None:
    table = SpitTable(app, game, time.monotonic(), new_game(app))
    content = felt(table.build(), app.page.width)
    if ready:
        app.open(f"/play/{game.mode.game_id}", content, table)
    else:
        app.show(content, bg=theme.FELT, screen=table)


def lesson_table(app: Host, lesson: Lesson) -> SpitTable:
    return SpitTable(app, SpitGame(SpitLessonMode(lesson, app.storage)), time.monotonic(), new_game(app))


def replay_table(app: Host, controller: SpitGame) -> SpitTable:
    return SpitTable(app, controller, time.monotonic(), new_game(app))


def new_screen(app: Host) -> None:
    """The opponent screen: the way of scoring first (S-8), then a bot or two people on one device."""
    level_screen(app, "spit", points_switch(app), t(app.lang, "sp_split"), ft.Icons.PEOPLE,
                 ahead=start_pictures(app, app.coming_seed()))


def replay(timeline: Timeline, levels: list[str], seat: int, game_id: int) -> tuple[SpitGame, Stepper]:
    mode = SpitReplayMode(timeline, levels, game_id)  # Spit is drawn from seat 0's side
    return SpitGame(mode), mode


GAME = GameViews("spit", new_screen=new_screen, begin=begin, resume=resume,
                 lesson_table=lesson_table, replay=replay, replay_table=replay_table)
