"""The end of a game, the same for every table: who won and why it ended, the score where the game
keeps one, and what to do next — Rematch first, then Review (where the expert can review the
game), Replay, Home."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import flet as ft

from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import Tap, tagged, text


@dataclass(frozen=True)
class Outcome:
    won: bool | None  # None: nobody won (an aborted or capped game)
    reason: str  # why it ended, in the player's words
    score: str = ""  # the score or places, where the game keeps them


def result_dialog(lang: str, outcome: Outcome, *, on_rematch: Callable[[], None], on_home: Callable[[], None],
                  on_review: Callable[[], None] | None = None,
                  on_replay: Callable[[], None] | None = None) -> ft.AlertDialog:
    icon = ft.Icons.EMOJI_EVENTS if outcome.won else ft.Icons.FLAG if outcome.won is False else ft.Icons.HANDSHAKE
    title = t(lang, "won") if outcome.won else t(lang, "lost") if outcome.won is False else t(lang, "draw_result")
    lines: list[ft.Control] = [text(lang, outcome.reason, theme.TYPE_BODY)]
    if outcome.score:
        lines.append(ft.Semantics(identifier="result-score", content=text(lang, outcome.score, theme.TYPE_BODY, True)))

    def act(fn: Callable[[], None]) -> Tap:
        return lambda e: fn()

    actions: list[ft.Control] = [tagged("result-rematch", ft.FilledButton(
        t(lang, "rematch"), icon=ft.Icons.REPLAY, on_click=act(on_rematch)))]
    if on_review is not None:
        actions.append(ft.TextButton(t(lang, "review"), on_click=act(on_review)))
    if on_replay is not None:
        actions.append(ft.TextButton(t(lang, "replay"), on_click=act(on_replay)))
    actions.append(ft.TextButton(t(lang, "home"), on_click=act(on_home)))
    return ft.AlertDialog(
        modal=True, icon=ft.Icon(icon, size=40, color=theme.PAGE_GOOD if outcome.won else theme.PAGE_MUTED),
        title=text(lang, title, theme.TYPE_TITLE, True, align=ft.TextAlign.CENTER),
        content=ft.Column(lines, tight=True, spacing=theme.SPACE_SNUG,
                          horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        actions=[ft.Row(actions, wrap=True, spacing=theme.SPACE_TIGHT, run_spacing=theme.SPACE_TIGHT,
                        alignment=ft.MainAxisAlignment.CENTER)])
