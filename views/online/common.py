"""What the Online screens share: the signed-in client, a screen's frame, lobby calls off the UI
loop with their failures said in words.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, Literal, ParamSpec, TypeVar

import flet as ft

from storage.lobby_client import LobbyClient, LobbyRefused, LobbyUnavailable
from views.online.address import account_here, lobby_url
from views.ui import theme
from views.ui.i18n import counted, t
from views.ui.reconcile import send
from views.ui.widgets import Tap, icon_button, pad, text

if TYPE_CHECKING:
    from views.host import Host


LOG = logging.getLogger("cardtable")
TIME_CONTROLS = ("3+2", "5+3", "10+5", "1+0", "untimed")


def me_said(lang: str, me: dict[str, Any]) -> str:
    """A player as the lobby gives them: name, rating and rated games, the count in its number
    form (a lobby's answer without a whole count is said in the general form)."""
    games = me.get("rated_games", 0)
    return t(lang, counted("ol_me", games), name=me.get("name", ""), rating=me.get("rating", ""), games=games)


def client_for(app: Host) -> LobbyClient | None:
    """A client signed in at the lobby in use, or None when the player has no account there."""
    acc = account_here(app)
    if acc is None:
        return None
    return LobbyClient(acc.lobby_url, acc.token, timeout=8.0)


def any_client(app: Host) -> LobbyClient | None:
    """For what needs no account (the leaderboard, watching): the signed-in client, else one for
    the lobby address in use; None when there is no address."""
    return client_for(app) or (LobbyClient(lobby_url(app), timeout=8.0) if lobby_url(app) else None)


async def open_from_lobby(app: Host, client: LobbyClient | None,
                          fetch_view: Callable[[LobbyClient, str], dict[str, Any]], match_id: str,
                          open_table: Callable[[Host, LobbyClient, dict[str, Any]], None]) -> None:
    """A match's table from the lobby's current view (``fetch_view``, e.g. ``LobbyClient.view``, run
    off the loop); a failure is said."""
    if client is None:
        return
    try:
        view = await asyncio.to_thread(fetch_view, client, match_id)
    except (LobbyUnavailable, LobbyRefused) as exc:
        client.close()
        app.tell(problem(app, exc))
        return
    open_table(app, client, view)


def page(app: Host, title: str, controls: list[ft.Control], back: Tap | None = None) -> None:
    lang = app.lang
    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), back or (lambda e: app.back())),
                ft.Container(text(lang, title, theme.TYPE_TITLE, True), expand=True)]),
        *controls,
    ], spacing=theme.SPACE_LOOSE, scroll=ft.ScrollMode.AUTO)
    def leave() -> None:  # the system's back does what the arrow does
        if back is not None:
            back(None)

    app.show(ft.Container(body, padding=pad(theme.SPACE_WIDE)), back=leave if back else None)


def problem(app: Host, exc: Exception) -> str:
    lang = app.lang
    if isinstance(exc, LobbyUnavailable):
        return t(lang, "ol_unreachable")
    if isinstance(exc, LobbyRefused):
        return t(lang, "ol_refused", why=exc.message)
    return str(exc)


class Failed(Enum):
    """A lobby call that failed (the screen it was made for already said why)."""

    FAILED = "failed"


FAILED: Final = Failed.FAILED
P = ParamSpec("P")
T = TypeVar("T")
#: back to the Online screen, with a notice on it ("" for none): the screens below it are given
#: this by the lobby screen that opened them (views/online/screens.py), so none imports it
Home = Callable[[str], None]


async def ask(app: Host, status: ft.Text, call: Callable[P, T], *args: P.args,
              **kwargs: P.kwargs) -> T | Literal[Failed.FAILED]:
    """One lobby call off the UI loop; when it fails, ``status`` says why and FAILED is returned."""
    try:
        return await asyncio.to_thread(call, *args, **kwargs)
    except (LobbyUnavailable, LobbyRefused) as exc:
        status.value, status.color = problem(app, exc), theme.PAGE_ERROR
        send(status)
        return FAILED


async def fetch(app: Host, home: Home, title: str, call: Callable[P, T], *args: P.args,
                **kwargs: P.kwargs) -> T | Literal[Failed.FAILED]:
    """A lobby read for a screen of its own: the screen shows a progress ring while the call runs
    off the loop; on failure the Online screen says why (with Retry) and FAILED is returned; if
    the player left meanwhile, FAILED too and nothing is shown."""
    scope = app.scope
    page(app, title, [ft.ProgressRing(width=28, height=28)], back=lambda e: home(""))
    try:
        body = await asyncio.to_thread(call, *args, **kwargs)
    except (LobbyUnavailable, LobbyRefused) as exc:
        if scope.open:
            home(problem(app, exc))
        return FAILED
    return body if scope.open else FAILED
