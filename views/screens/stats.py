"""History & stats (per game and opponent level, the recent games) and the replay of a finished
game step by step on its own table, seen from the player's seat as it was played."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from engine.bots.review import GameReview, reviewable
from storage import api
from storage.damage import DAMAGE
from views.lanes.controller import LanesMatch
from views.lanes.table import LanesTable
from views.lopti.controller import LoptiMatch
from views.lopti.table import LoptiTable
from views.screens import review as rv
from views.screens.in_progress import in_progress_section
from views.spit.table import SpitTable
from views.table.replay import open_replay
from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import felt, icon_button, text

if TYPE_CHECKING:
    from views.app import App


def stats(app: App) -> None:
    """The games in progress; per game and opponent level: played, won, streaks, average length;
    recent results."""
    lang = app.lang
    rows: list[ft.Control] = []
    for key, e in sorted(api.stats(app.storage).items()):
        game, _, levels = key.partition("/")
        names = ", ".join(t(lang, lv) for lv in levels.split("+"))
        rows.append(ft.Card(content=ft.Container(padding=12, content=ft.Column([
            text(lang, f"{t(lang, game)} · {t(lang, 'vs', who=names)}", 16, True),
            text(lang, f"{t(lang, 'played')} {e['played']} · {t(lang, 'wonn')} {e['won']} · "
                       f"{t(lang, 'streak')} {e['streak']} · {t(lang, 'best_streak')} {e['best_streak']} · "
                       f"{t(lang, 'avg_len')} {e['avg_actions']:.0f}", 13),
        ], spacing=4))))
    recent: list[ft.Control] = []
    for i, g in enumerate(api.history(app.storage, limit=10)):
        res = "result_none" if g.winner is None else ("result_won" if g.winner == 0 else "result_lost")
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.finished_at or g.started_at))
        recent.append(ft.Row([
            ft.Container(text(lang, f"{t(lang, g.game)} — {t(lang, res)} · {when} · "
                                    f"{t(lang, 'moves_n', n=len(g.actions))}", 13), expand=True),
            ft.Semantics(identifier=f"replay-game-{i}", button=True, content=ft.TextButton(
                t(lang, "replay"), icon=ft.Icons.REPLAY, on_click=lambda e, gid=g.id: app.replay_screen(gid))),
            *([ft.Semantics(identifier=f"review-game-{i}", button=True, content=ft.TextButton(
                t(lang, "review"), icon=ft.Icons.INSIGHTS, on_click=lambda e, gid=g.id: app.review_screen(gid)))]
              if reviewable(g.game) and g.finished_at is not None else []),
        ], wrap=True))
    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: app.back()),
                text(lang, t(lang, "stats"), 20, True)]),
        *in_progress_section(app, lambda: stats(app)),
        *(rows or [text(lang, t(lang, "no_games"), 14)]),
        text(lang, t(lang, "recent"), 16, True) if recent else ft.Container(),
        *recent,
    ], spacing=10, scroll=ft.ScrollMode.AUTO)
    app.show(ft.Container(body, padding=ft.Padding.all(16)))


def replay(app: App, game_id: int, review: GameReview | None = None) -> None:
    """The bar below the table steps back and forth; back returns to the stats. A damaged record
    is refused in words and nothing is written. With the expert's ``review`` the bar also says,
    at each of the player's decisions, what the move did to their chances, jumps between the
    marked mistakes and shows the expert's move on the table."""
    lang = app.lang
    try:
        controller, mode = open_replay(app.storage, game_id)
    except DAMAGE as exc:  # a damaged stored record: say so, keep the app
        app.turn_back(t(lang, "replay_broken", why=str(exc)), "/stats")
        return
    table: LanesTable | LoptiTable | SpitTable
    if isinstance(controller, LanesMatch):
        table = LanesTable(app, controller)
    elif isinstance(controller, LoptiMatch):
        table = LoptiTable(app, controller)
    else:
        table = SpitTable(app, controller, time.monotonic())
    step = text(lang, f"0 / {mode.timeline.last}", 14, True, theme.ON_FELT)
    notes = rv.ReviewBar(lang, review, controller, mode) \
        if review is not None and isinstance(controller, (LanesMatch, LoptiMatch)) else None

    def go(k: int, update: bool = True) -> None:
        mode.seek(k)
        step.value = f"{mode.step} / {mode.timeline.last}"
        if notes is not None:
            notes.at(mode.step)
        if update:
            table.refresh()
            step.update()  # the counter sits outside the table's own controls

    def button(ident: str, icon: ft.IconData, label: str, target: Callable[[], int]) -> ft.Control:
        return ft.Semantics(identifier=f"replay-{ident}", button=True, label=label, content=ft.IconButton(
            icon, icon_color=theme.ON_FELT, tooltip=label, on_click=lambda e: go(target())))

    steps: list[ft.Control] = [
        button("first", ft.Icons.FIRST_PAGE, t(lang, "replay_first"), lambda: 0),
        button("prev", ft.Icons.CHEVRON_LEFT, t(lang, "replay_prev"), lambda: mode.step - 1),
        step,
        button("next", ft.Icons.CHEVRON_RIGHT, t(lang, "replay_next"), lambda: mode.step + 1),
        button("last", ft.Icons.LAST_PAGE, t(lang, "replay_last"), lambda: mode.timeline.last)]
    bar: list[ft.Control] = [ft.Row(steps, alignment=ft.MainAxisAlignment.CENTER, wrap=True, spacing=0)]
    if notes is not None:
        bar = notes.controls(steps, lambda forward: button(
            f"mistake-{'next' if forward else 'prev'}", ft.Icons.SKIP_NEXT if forward else ft.Icons.SKIP_PREVIOUS,
            t(lang, "review_next" if forward else "review_prev"), lambda: notes.mistake(forward, mode.step)))
        go(notes.first(), update=False)
    app.show(felt(ft.Column([table.build(), *bar], expand=True, spacing=0), app.page.width), bg=theme.FELT,
             screen=table)
