"""Games in progress: every unfinished game played on this device, listed on the home and in
History with Resume and Delete, so none is lost by starting another; and the question asked before
a new game starts over one of the same game (#42)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from storage import api
from storage.seats import SeatKind
from views.ui import theme
from views.ui.i18n import counted, listed, t
from views.ui.widgets import Tap, icon_button, tagged, text

if TYPE_CHECKING:
    from views.host import Host


def described(app: Host, g: api.GameInfo) -> str:
    """"Lanes · vs Beginner · 12 moves" in the player's language."""
    lang = app.lang
    bots = [seat.get("level", "") for seat in g.seats if seat.get("kind") == SeatKind.BOT]
    who = t(lang, "vs", who=listed(lang, (t(lang, lv) for lv in bots))) if bots else t(lang, "pass_and_play")
    return f"{t(lang, g.game)} · {who} · {t(lang, counted('moves_n', len(g.actions)), n=len(g.actions))}"


def in_progress_section(app: Host, redraw: Callable[[], None],
                        games: list[api.GameInfo] | None = None) -> list[ft.Control]:
    """The title and one row per game in progress (nothing when there is none); ``games`` when the
    screen read them already. ``redraw`` shows the screen again after a deletion."""
    if games is None:
        games = api.local_games_in_progress(app.storage)
    if not games:
        return []
    lang = app.lang
    rows: list[ft.Control] = [text(lang, t(lang, "in_progress"), theme.TYPE_HEADING, True)]
    for g in games:
        actions: list[ft.Control] = [tagged(f"resume-{g.id}", ft.FilledButton(
            t(lang, "resume"), on_click=lambda e, gid=g.id: app.go(f"/play/{gid}")))]
        if g.session_id is None:  # a Lopti session's deal goes with its session, never alone
            actions.append(icon_button(ft.Icons.DELETE_OUTLINE, t(lang, "delete_game"), deleter(app, g.id, redraw),
                                       ident=f"delete-{g.id}"))
        else:  # its place kept empty, so that every row's Resume stands in one column
            actions.append(ft.Container(width=theme.BUTTON_HEIGHT, height=theme.BUTTON_HEIGHT))
        rows.append(ft.Semantics(identifier=f"in-progress-{g.id}", container=True, content=ft.Row(
            [ft.Container(text(lang, described(app, g), theme.TYPE_BODY), expand=True), *actions],
            vertical_alignment=ft.CrossAxisAlignment.CENTER)))
    return rows


def deleter(app: Host, game_id: int, redraw: Callable[[], None]) -> Tap:
    return lambda e: confirm_delete(app, game_id, redraw)


def confirm_delete(app: Host, game_id: int, redraw: Callable[[], None]) -> None:
    lang = app.lang

    def delete(e: object) -> None:
        app.page.pop_dialog()
        api.delete_game(app.storage, game_id)
        redraw()

    app.page.show_dialog(ft.AlertDialog(
        title=text(lang, t(lang, "delete_game_confirm"), theme.TYPE_STRONG, True),
        actions=[ft.TextButton(t(lang, "cancel"), on_click=lambda e: app.page.pop_dialog()),
                 ft.TextButton(t(lang, "delete_game"), on_click=delete)]))


def ask_before_new(app: Host, game: str, begin: Callable[[], None]) -> None:
    """Start a new game of ``game`` with ``begin``, but first, when one is in progress, ask: resume
    it, start the new one anyway (the other stays in Games in progress), or cancel."""
    open_games = api.local_games_in_progress(app.storage, game)
    if not open_games:
        begin()
        return
    lang, newest = app.lang, open_games[0]
    chosen: list[Callable[[], None]] = []

    def choose(then: Callable[[], None]) -> Tap:
        def pick(e: object) -> None:
            chosen.append(then)
            app.page.pop_dialog()
        return pick

    def closed(e: object) -> None:
        # only once the client has closed the dialog: a new view pushed while it was still closing
        # left the dialog on screen in the browser, to come back over the home screen later
        if chosen:
            chosen.pop()()

    app.page.show_dialog(ft.AlertDialog(
        title=text(lang, t(lang, "new_over_open", what=described(app, newest)), theme.TYPE_LEAD,
                   True), on_dismiss=closed,
        actions=[ft.TextButton(t(lang, "cancel"), on_click=lambda e: app.page.pop_dialog()),
                 ft.TextButton(t(lang, "resume_it"), on_click=choose(lambda: app.go(f"/play/{newest.id}"))),
                 ft.FilledButton(t(lang, "start_new"), on_click=choose(begin))]))
