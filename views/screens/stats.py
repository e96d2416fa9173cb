"""History & stats: the games in progress, per game and opponent level, and the recent games, each
with its replay (views/screens/replay.py) and review."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import flet as ft

from engine.bots.review import reviewable
from storage import api
from views.screens.in_progress import in_progress_section
from views.ui import theme
from views.ui.i18n import counted, listed, t
from views.ui.widgets import icon_button, pad, tagged, text

if TYPE_CHECKING:
    from views.host import Host


def stats(app: Host) -> None:
    """The games in progress; per game and opponent level: played, won, streaks, average length;
    recent results."""
    lang = app.lang
    rows: list[ft.Control] = []
    for key, e in sorted(api.stats(app.storage).items()):
        game, _, levels = key.partition("/")
        names = listed(lang, (t(lang, lv) for lv in levels.split("+")))
        rows.append(ft.Card(content=ft.Container(padding=theme.SPACE_LOOSE, content=ft.Column([
            text(lang, f"{t(lang, game)} · {t(lang, 'vs', who=names)}", theme.TYPE_STRONG, True),
            text(lang, f"{t(lang, 'played')} {e['played']} · {t(lang, 'wonn')} {e['won']} · "
                       f"{t(lang, 'streak')} {e['streak']} · {t(lang, 'best_streak')} {e['best_streak']} · "
                       f"{t(lang, 'avg_len')} {e['avg_actions']:.0f}", theme.TYPE_SMALL),
        ], spacing=theme.SPACE_TIGHT))))
    recent: list[ft.Control] = []
    for i, g in enumerate(api.history(app.storage, limit=10)):
        res = "result_none" if g.winner is None else ("result_won" if g.winner == 0 else "result_lost")
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.finished_at or g.started_at))
        moves = t(lang, counted("moves_n", len(g.actions)), n=len(g.actions))
        recent.append(ft.Row([
            ft.Container(text(lang, f"{t(lang, g.game)} — {t(lang, res)} · {when} · {moves}", theme.TYPE_SMALL),
                         expand=True),
            tagged(f"replay-game-{i}", ft.TextButton(
                t(lang, "replay"), icon=ft.Icons.REPLAY, on_click=lambda e, gid=g.id: app.go(f"/replay/{gid}"))),
            *([tagged(f"review-game-{i}", ft.TextButton(
                t(lang, "review"), icon=ft.Icons.INSIGHTS, on_click=lambda e, gid=g.id: app.go(f"/review/{gid}")))]
              if reviewable(g.game) and g.finished_at is not None else []),
        ], wrap=True))
    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: app.back()),
                text(lang, t(lang, "stats"), theme.TYPE_TITLE, True)]),
        *in_progress_section(app, lambda: stats(app)),
        *(rows or [text(lang, t(lang, "no_games"), theme.TYPE_BODY)]),
        text(lang, t(lang, "recent"), theme.TYPE_STRONG, True) if recent else ft.Container(),
        *recent,
    ], spacing=theme.SPACE_LOOSE, scroll=ft.ScrollMode.AUTO)
    app.show(ft.Container(body, padding=pad(theme.SPACE_WIDE)))
