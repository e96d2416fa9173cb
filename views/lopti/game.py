"""Lopti's part of the app (its record in views/games.py): every table is a session of deals; home
offers quick tables of 2–5 seats with the bots' level, the set-up of a table seat by seat, and
"Continue" for a session between deals."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from engine.lopti import RULES
from storage import api
from views.game_views import GameViews
from views.lopti.controller import LoptiMatch
from views.lopti.play import QUICK_PLAYERS, new_game, new_session, resume_deal, session
from views.lopti.setup import lopti_setup
from views.lopti.table import LoptiTable
from views.screens.in_progress import ask_before_new
from views.table.modes import LessonMode, ReplayMode
from views.table.timeline import Stepper, Timeline
from views.ui.i18n import counted, t
from views.ui.prefs import LOPTI_BOTS

if TYPE_CHECKING:
    from engine.tutorial import Lesson
    from views.host import Host


def session_route(app: Host, rest: list[str]) -> bool:
    """``/lopti/session/<id>``: a session's deal, or the screen between deals."""
    if len(rest) == 2 and rest[0] == "session" and rest[1].isdecimal() and len(rest[1]) < 12:
        return session(app, int(rest[1]))
    return False


def lesson_table(app: Host, lesson: Lesson) -> LoptiTable:
    return LoptiTable(app, LoptiMatch(LessonMode(RULES, lesson, app.storage)), new_game(app))


def replay(timeline: Timeline, levels: list[str], seat: int, game_id: int) -> tuple[LoptiMatch, Stepper]:
    mode = ReplayMode(RULES, timeline, levels, seat, game_id)
    return LoptiMatch(mode), mode


def replay_table(app: Host, controller: LoptiMatch) -> LoptiTable:
    return LoptiTable(app, controller, new_game(app))


def home_starts(app: Host) -> list[ft.Control]:
    """Quick tables of 2–5 seats (their bots at the level chosen beside them) and the set-up."""
    lang = app.lang
    out: list[ft.Control] = [ft.Button(t(lang, counted("players_n", n), n=n), on_click=lambda e, n=n: ask_before_new(
        app, "lopti", lambda: new_session(app, n))) for n in (2, 3, 4, 5)]
    out.append(ft.OutlinedButton(t(lang, "lopti_table_setup"), icon=ft.Icons.GROUPS,
                                 on_click=lambda e: app.go("/lopti/new")))
    return [lopti_bots(app), *out]


def between(app: Host) -> str | None:
    """A session between deals, still running: where "Continue" goes."""
    running = next((s for s in api.sessions(app.storage) if s["status"] == "running"), None)
    return None if running is None else f"/lopti/session/{int(running['id'])}"


def lopti_bots(app: Host) -> ft.Control:
    """The level of the bots at a quick Lopti table: one level for every seat, or the mixed table;
    remembered in the settings (seat by seat: "Set up a table")."""
    lang = app.lang

    def chosen(e: ft.Event[ft.Dropdown]) -> None:
        value = e.control.value
        if value in LOPTI_BOTS:
            app.settings = api.update_profile(app.storage, lopti_bots=value)

    dd = ft.Dropdown(label=t(lang, "lp_bots"), value=app.prefs.lopti_bots, width=200, on_select=chosen,
                     options=[ft.DropdownOption(key=k, text=t(lang, "lp_bots_mixed" if k == "mixed" else k))
                              for k in LOPTI_BOTS])
    return ft.Semantics(identifier="lopti-bots", content=dd)


GAME = GameViews("lopti", new_screen=lopti_setup, begin=lambda app, level: new_session(app, QUICK_PLAYERS),
                 resume=resume_deal, lesson_table=lesson_table, replay=replay, replay_table=replay_table,
                 routes=session_route,
                 home_starts=home_starts, between=between)
