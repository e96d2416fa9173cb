"""Watching a running rated match (docs/lobby.md, "Spectators"): the list of live matches and the
spectator's table — the Lanes table every mode uses, read-only, fed by the lobby's public view (no
hand) and its public events. Seat 0's side is at the bottom; the status line names whose move it
is; the result says who won. Nothing a spectator does reaches the match."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

import flet as ft

from engine.lanes.actions import LanesAction
from storage.lobby_client import LobbyClient, LobbyRefused, LobbyUnavailable
from views.lanes.controller import LanesMatch
from views.lanes.ending import ending_said
from views.lanes.table import LanesTable
from views.online.common import FAILED, Home, any_client, client_for, fetch, open_from_lobby, page
from views.online.controller import LobbyJson, OnlineMode
from views.online.table import OnlineSeat
from views.table.contract import Powers, Refused
from views.ui import theme
from views.ui.i18n import counted, t
from views.ui.widgets import felt, text

if TYPE_CHECKING:
    from engine.core import Event
    from views.host import Host


class WatchMode(OnlineMode):
    """A match at the lobby seen by a spectator: the public view, nothing to play."""

    powers = Powers(hint=False, resign=False, read_only=True)

    def legal(self) -> list[LanesAction]:
        return []

    def submit(self, action: LanesAction, now: float | None = None) -> list[Event]:
        raise Refused(None)  # never reached: a read-only table takes no move

    def _poll(self, wait: float) -> LobbyJson:
        return self.client.watch_poll(self.match_id, self.since, timeout=wait)

    def say(self, phrase: str) -> str | None:
        return "refused"  # spectators are not heard (the table offers no button)

    def caption(self, lang: str) -> str | None:
        """Whose move it is, or who won, by name (the status line of a player's table says "you")."""
        v = self.view
        names = self.names()
        if v["status"] != "running":
            won = v.get("winner")
            return t(lang, "ol_aborted") if won is None else t(lang, "watch_won", name=names[int(won)])
        return t(lang, "watch_to_move", name=names[int(v["clock"]["to_move"])])


class WatchSeat(OnlineSeat):
    """The lobby's part of the spectator's table: the clocks by both names, the follow loop, and a
    result that says who won (no rematch, nothing kept, no quick messages to send)."""

    def bar(self) -> list[ft.Control]:
        return []

    def show_result(self) -> None:
        if self.shown_result:
            return
        self.shown_result = True
        lang = self.lang
        self.app.page.show_dialog(ft.AlertDialog(
            modal=True, title=text(lang, self.online.caption(lang) or "", theme.TYPE_TITLE, True),
            content=text(lang, ending_said(lang, self.online.view.get("reason"), self.online.view.get("winner"), None,
                                           self.online.names().__getitem__), theme.TYPE_BODY),
            actions=[ft.TextButton(t(lang, "online"), on_click=lambda e: self._again()),
                     ft.TextButton(t(lang, "home"), on_click=lambda e: self._home())]))


def open_watch_table(app: Host, client: LobbyClient, view: LobbyJson) -> None:
    mode = WatchMode(client, view, time.monotonic(), clock=time.monotonic)
    seat = WatchSeat(app, mode)
    table = LanesTable(app, LanesMatch(mode, names=mode.names()), lambda level: app.go("/online"), remote=seat)
    app.show(felt(table.build(), app.page.width), bg=theme.FELT, screen=table)
    app.local_back = table.leave


async def live_list(app: Host, home: Home) -> None:
    """The running rated matches anyone may watch; a tap opens one."""
    lang = app.lang
    client = any_client(app)
    if client is None:
        home("")
        return
    rows = await fetch(app, home, t(lang, "watch_title"), client.live)
    client.close()
    if rows is FAILED:
        return
    items: list[ft.Control] = [_row(app, i, m) for i, m in enumerate(rows)]
    page(app, t(lang, "watch_title"), items or [text(lang, t(lang, "watch_none"), theme.TYPE_BODY)],
         back=lambda e: home(""))


def moves_said(lang: str, n: object) -> str:
    """A live match's moves so far, in the count's number form (a lobby's answer without a whole
    count says "?" in the general form)."""
    return t(lang, counted("moves_n", n), n=n if isinstance(n, int) else "?")


def _row(app: Host, i: int, m: LobbyJson) -> ft.Control:
    lang = app.lang
    names = [f"{p['name']} ({p['rating']})" if p else "?" for p in m["players"]]
    tc = t(lang, "ol_untimed") if m["time_control"] == "untimed" else m["time_control"]
    words = t(lang, "watch_row", a=names[0], b=names[1], tc=tc, moves=moves_said(lang, m["move_count"]))
    return ft.Semantics(identifier=f"live-{i}", content=ft.OutlinedButton(
        words, icon=ft.Icons.VISIBILITY, on_click=lambda e: app.page.run_task(watch, app, str(m["match_id"]))))


async def watch(app: Host, match_id: str) -> None:
    """Open a live match's spectator table from the lobby's public view."""
    await open_from_lobby(app, any_client(app), LobbyClient.watch, match_id, open_watch_table)


async def tell_lobby_spectators(app: Host, allowed: bool) -> None:
    """Settings changed the wish to be watched: tell the lobby (off the loop). Unreachable now, it
    is told when the Online screen next finds it disagreeing."""
    client = client_for(app)
    if client is None:
        return
    try:
        await asyncio.to_thread(client.set_spectators, allowed)
    except (LobbyUnavailable, LobbyRefused):
        pass
    finally:
        client.close()
