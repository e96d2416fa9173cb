"""Lopti's new-game screen (``/lopti/new``): a table of 2–5 seats, seat 1 you, each other seat a
person on this device or a bot of any level; the session opens before its first deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from storage.seats import PERSON
from views.lopti.session import SessionFlow
from views.screens.new_game import LEVELS
from views.screens.rules import rules_dialog
from views.ui import theme
from views.ui.i18n import counted, t
from views.ui.reconcile import send
from views.ui.widgets import icon_button, labelled_switch, pad, text

if TYPE_CHECKING:
    from views.host import Host


def new_table(app: Host, levels: list[str], first_out_ends: bool = False) -> None:
    """A table set up seat by seat: the session opens before its first deal, so the table may use
    that deal's rule vote first (P-9.1: a base rule changed for the session) or start dealing.
    ``first_out_ends``: each deal stops at its first player out (P-7.4)."""
    flow = SessionFlow(app.storage, levels, app.new_seed())
    if first_out_ends:
        flow.stop_at_first_out()
    flow.save()
    app.go(f"/lopti/session/{flow.session_id}")


def lopti_setup(app: Host) -> None:
    """A Lopti table of 2–5 seats: seat 1 is you; every other seat is a person on this device
    (pass-and-play, with a privacy screen between people) or a bot of any level."""
    lang = app.lang
    choices = [PERSON, *LEVELS]
    seats = ["casual", "casual"]

    def seat_row(i: int) -> ft.Control:
        dd = ft.Dropdown(value=seats[i], width=200, label=t(lang, "player_n", n=i + 2),
                         options=[ft.DropdownOption(key=c, text=t(lang, c))
                                  for c in choices])

        def changed(e: ft.Event[ft.Dropdown], i: int = i) -> None:
            seats[i] = e.control.value or "casual"

        dd.on_select = changed
        return ft.Semantics(identifier=f"seat-{i + 2}", content=dd)

    rows = ft.Column(spacing=theme.SPACE)

    def redraw() -> None:
        rows.controls = [text(lang, t(lang, "player_n", n=1) + " — " + t(lang, "you"), theme.TYPE_LEAD, True),
                         *[seat_row(i) for i in range(len(seats))]]

    def count(n: int) -> None:
        while len(seats) < n - 1:
            seats.append("casual")
        del seats[n - 1:]
        redraw()
        send(rows)

    redraw()
    # P-7.4: play may continue to rank the places, or the table may stop at the first player out
    stop = {"first_out": False}

    def stop_changed(e: ft.Event[ft.Switch]) -> None:
        stop["first_out"] = bool(e.control.value)

    first_out = labelled_switch(lang, t(lang, "first_out_ends"), app.page.width, False, stop_changed)
    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: app.back()),
                ft.Container(text(lang, t(lang, "lopti_table_setup"), theme.TYPE_TITLE, True), expand=True),
                icon_button(ft.Icons.MENU_BOOK, t(lang, "rules"), lambda e: rules_dialog(app, "lopti"))]),
        ft.Row([ft.OutlinedButton(t(lang, counted("players_n", n), n=n), on_click=lambda e, n=n: count(n))
                for n in (2, 3, 4, 5)], wrap=True),
        rows,
        text(lang, t(lang, "lopti_pass_note"), theme.TYPE_SMALL, color=theme.PAGE_MUTED),
        ft.Semantics(identifier="first-out-ends", content=first_out),
        ft.FilledButton(t(lang, "start"), on_click=lambda e: new_table(app, list(seats), stop["first_out"])),
    ], spacing=theme.SPACE_LOOSE, scroll=ft.ScrollMode.AUTO)
    app.show(ft.Container(body, padding=pad(theme.SPACE_WIDE)))
