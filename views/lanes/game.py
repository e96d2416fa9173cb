"""Lanes on its tables: a new game against a bot or a friend on this device, a stored game, a
lesson and a replay (its record in views/games.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lanes import RULES, LanesOptions
from views.game_views import GameViews
from views.lanes.controller import LanesMatch
from views.lanes.table import LanesTable
from views.screens.in_progress import ask_before_new
from views.screens.new_game import level_screen, variant_picker
from views.table.modes import LessonMode, ReplayMode
from views.table.screen import NewGame
from views.table.timeline import Stepper, Timeline
from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import BACK_SRC, FACE_NAMES, face_src, felt

if TYPE_CHECKING:
    from engine.tutorial import Lesson
    from views.host import Host


def _options(app: Host) -> LanesOptions:
    """The house rules chosen on the opponent screen (L-9), which a new game is dealt under."""
    return LanesOptions(**{v: True for v in app.drafts.lanes_variants})


def begin(app: Host, level: str) -> None:
    """A new game under the chosen house rules, stored before it is shown."""
    open_table(app, LanesMatch.new(app.storage, level, app.new_seed(), _options(app)), ready=True)


def first_pictures(app: Host, seed: int) -> list[str]:
    """What a new game from ``seed`` draws first: the player's hand (seat 0, as ``begin`` seats
    them) and the decks' back."""
    hand = RULES.observe(RULES.new_game(_options(app), seed), 0)["hand"]
    return [BACK_SRC, *(face_src(card) for card in hand if card in FACE_NAMES)]


def resume(app: Host, game_id: int) -> None:
    open_table(app, LanesMatch.resume(app.storage, game_id), ready=False)


def new_game(app: Host) -> NewGame:
    """A new game against a level from a table (a rematch, "play for real" after the last lesson);
    asked first when another Lanes game is in progress."""
    return lambda level: ask_before_new(app, "lanes", lambda: begin(app, level))


def open_table(app: Host, match: LanesMatch, ready: bool) -> None:
    """``match`` on its table: a new game at its own route (``ready``), a stored one on this route."""
    table = LanesTable(app, match, new_game(app))
    content = felt(table.build(), app.page.width)
    if ready:
        app.open(f"/play/{match.mode.game_id}", content, table)
    else:
        app.show(content, bg=theme.FELT, screen=table)
    if not match.status.over and not match.my_turn:
        app.page.run_task(table.bot_turn)


def lesson_table(app: Host, lesson: Lesson) -> LanesTable:
    return LanesTable(app, LanesMatch(LessonMode(RULES, lesson, app.storage)), new_game(app))


def replay_table(app: Host, controller: LanesMatch) -> LanesTable:
    return LanesTable(app, controller, new_game(app))


def new_screen(app: Host, rules_open: bool = False) -> None:
    """The opponent screen: the house rules first (L-9), then a bot or a friend on this device.
    ``rules_open``: the house rules' list shown open (shown again after a set was saved)."""
    level_screen(app, "lanes", variant_picker(app, lambda: new_screen(app, rules_open=True), rules_open),
                 t(app.lang, "pass_and_play"))


def replay(timeline: Timeline, levels: list[str], seat: int, game_id: int) -> tuple[LanesMatch, Stepper]:
    mode = ReplayMode(RULES, timeline, levels, seat, game_id)
    return LanesMatch(mode), mode


GAME = GameViews("lanes", new_screen=new_screen, begin=begin, resume=resume,
                 lesson_table=lesson_table, replay=replay, replay_table=replay_table, first_pictures=first_pictures)
