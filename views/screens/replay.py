"""A finished game step by step (``/replay/<id>``), with the expert's review when there is one
(``/review/<id>`` makes it first: views/screens/review.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from engine.bots.review import GameReview
from storage.damage import DAMAGE
from views.games import games
from views.lanes.controller import LanesMatch
from views.lopti.controller import LoptiMatch
from views.screens.review_bar import ReviewBar
from views.table.replay import open_replay
from views.ui import theme
from views.ui.i18n import t
from views.ui.reconcile import send
from views.ui.widgets import felt, icon_button, text

if TYPE_CHECKING:
    from views.host import Host


def replay(app: Host, game_id: int, review: GameReview | None = None) -> None:
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
    table = games()[mode.timeline.game].replay_table(app, controller)
    step = text(lang, f"0 / {mode.timeline.last}", theme.TYPE_BODY, True, theme.ON_FELT)
    notes = ReviewBar(lang, review, controller, mode) \
        if review is not None and isinstance(controller, (LanesMatch, LoptiMatch)) else None

    def go(k: int, update: bool = True) -> None:
        mode.seek(k)
        step.value = f"{mode.step} / {mode.timeline.last}"
        if notes is not None:
            notes.at(mode.step)
        if update:
            table.refresh()
            send(step)  # the counter sits outside the table's own controls

    def button(ident: str, icon: ft.IconData, label: str, target: Callable[[], int]) -> ft.Control:
        return icon_button(icon, label, lambda e: go(target()), theme.ON_FELT, ident=f"replay-{ident}")

    steps: list[ft.Control] = [
        button("first", ft.Icons.FIRST_PAGE, t(lang, "replay_first"), lambda: 0),
        button("prev", ft.Icons.CHEVRON_LEFT, t(lang, "replay_prev"), lambda: mode.step - 1),
        step,
        button("next", ft.Icons.CHEVRON_RIGHT, t(lang, "replay_next"), lambda: mode.step + 1),
        button("last", ft.Icons.LAST_PAGE, t(lang, "replay_last"), lambda: mode.timeline.last)]
    bar: list[ft.Control] = [ft.Row(steps, alignment=ft.MainAxisAlignment.CENTER, wrap=True, spacing=theme.SPACE_NONE)]
    if notes is not None:
        bar = notes.controls(steps, lambda forward: button(
            f"mistake-{'next' if forward else 'prev'}", ft.Icons.SKIP_NEXT if forward else ft.Icons.SKIP_PREVIOUS,
            t(lang, "review_next" if forward else "review_prev"), lambda: notes.mistake(forward, mode.step)))
        go(notes.first(), update=False)
    app.show(felt(ft.Column([table.build(), *bar], expand=True, spacing=theme.SPACE_NONE), app.page.width),
             bg=theme.FELT,
             screen=table)
