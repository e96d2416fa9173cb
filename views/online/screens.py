"""The Online screen (``/online``): sign in as a guest at the lobby address, or, signed in, the
lobby — my rating and running matches, finding a game (views/online/find.py), the leaderboard and
profile (standings.py); the table against a person is views/online/table.py.

Offline first: nothing here runs unless the player opens Online; an unreachable lobby is said in
words and the rest of the app is untouched. Network calls run off the UI loop (``asyncio.to_thread``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import flet as ft

from storage import api
from storage.lobby_address import BadAddress
from storage.lobby_client import LobbyClient
from views.online.address import account_here, checked, lobby_url, refusal, use_lobby
from views.ui import theme
from views.ui.i18n import t
from views.ui.reconcile import send
from views.ui.widgets import tagged, text

if TYPE_CHECKING:
    from storage.models import Account
    from views.host import Host
from views.online.common import FAILED, TIME_CONTROLS, ask, client_for, me_said, page
from views.online.find import challenge_row, find_game, online_variants, running_match_button
from views.online.standings import leaderboard, profile
from views.online.watch import live_list


def online_home(app: Host, notice: str = "") -> None:
    """Sign in (guest) or, when signed in, the lobby: find a game, challenge, leaderboard, profile."""
    acc = account_here(app)
    status = text(app.lang, notice, theme.TYPE_SMALL, True, theme.PAGE_ERROR)
    if acc is None:
        sign_inpage(app, status)
    else:
        lobbypage(app, acc, status)


def sign_inpage(app: Host, status: ft.Text) -> None:
    """A guest account at the lobby address given (the one in use; Settings → Online also sets it).
    A bad address is refused before anything is called or stored."""
    lang = app.lang
    url = ft.TextField(label=t(lang, "ol_url"), value=lobby_url(app), hint_text="https://…", width=320,
                       keyboard_type=ft.KeyboardType.URL)
    name = ft.TextField(label=t(lang, "name"), value=app.name, max_length=40, width=320)

    async def sign_in(e: object) -> None:
        try:
            address = checked(url.value or "")
        except BadAddress as exc:
            url.error = status.value = refusal(lang, exc)
            status.color = theme.PAGE_ERROR
            send(url, status)
            return
        url.error = None
        use_lobby(app, address)
        status.value, status.color = t(lang, "ol_connecting"), theme.PAGE_MUTED  # progress, not an error
        send(url, status)
        client = LobbyClient(address, timeout=8.0)
        body = await ask(app, status, client.sign_up, (name.value or "Player").strip())
        client.close()
        if body is FAILED:
            return
        assert client.token is not None
        api.set_account(app.storage, address, body["id"], client.token, body["name"])
        online_home(app)

    intro = [text(lang, t(lang, "ol_intro"), theme.TYPE_BODY)]
    if not lobby_url(app):
        intro.append(text(lang, t(lang, "addr_none"), theme.TYPE_BODY))
    page(app, t(lang, "online"), [*intro, url, name,
                                     ft.FilledButton(t(lang, "ol_sign_in"), on_click=sign_in), status])


def lobbypage(app: Host, acc: Account, status: ft.Text) -> None:
    """Signed in: find a rated or casual game, challenge by code, leaderboard, profile, sign out."""
    lang = app.lang
    tc = ft.Dropdown(label=t(lang, "ol_time_control"), value="5+3", width=200,
                     options=[ft.DropdownOption(key=k, text=t(lang, "ol_untimed") if k == "untimed" else k)
                              for k in TIME_CONTROLS])
    code = ft.TextField(label=t(lang, "ol_code"), width=160, max_length=6,
                        capitalization=ft.TextCapitalization.CHARACTERS)
    me_line = text(lang, f"{acc.display_name} · {acc.lobby_url}", theme.TYPE_SMALL, color=theme.PAGE_MUTED)

    running = ft.Column(spacing=theme.SPACE_TIGHT)
    retry, load_me = _loader(app, acc, status, me_line, running)

    def sign_out(e: object) -> None:
        api.clear_account(app.storage, acc.lobby_url)
        online_home(app)

    def home(notice: str) -> None:
        online_home(app, notice)

    house_rules = online_variants(app)
    page(app, t(lang, "online"), [
        me_line,
        status,  # up top, where a phone shows it without scrolling
        retry,
        running,
        ft.Row([tc], wrap=True),
        ft.Row([ft.FilledButton(t(lang, "ol_find_rated"),
                                on_click=lambda e: find_game(app, home, True, tc.value or "5+3")),
                tagged("ol-find-casual", ft.Button(
                    t(lang, "ol_find_casual"), on_click=lambda e: find_game(app, home, False, tc.value or "5+3",
                                                                             sorted(app.drafts.online_variants))))],
               wrap=True),
        house_rules,
        text(lang, t(lang, "ol_rated_note"), theme.TYPE_NOTE, color=theme.PAGE_MUTED),
        challenge_row(app, tc, code, status),
        ft.Row([ft.TextButton(t(lang, "ol_leaderboard"), on_click=lambda e: app.page.run_task(leaderboard, app, home)),
                ft.TextButton(t(lang, "ol_profile"), on_click=lambda e: app.page.run_task(profile, app, home)),
                ft.Semantics(identifier="ol-watch", content=ft.TextButton(
                    t(lang, "watch_title"), icon=ft.Icons.VISIBILITY,
                    on_click=lambda e: app.page.run_task(live_list, app, home))),
                ft.TextButton(t(lang, "ol_sign_out"), on_click=sign_out)], wrap=True),
    ])
    app.page.run_task(load_me)


def _loader(app: Host, acc: Account, status: ft.Text, me_line: ft.Text,
            running: ft.Column) -> tuple[ft.Control, Callable[[], Awaitable[None]]]:
    """The lobby screen's call for my rating and my running matches, and the Retry button shown
    when it fails (an unreachable lobby is said in ``status``; a tap tries again)."""
    lang = app.lang

    async def load_me() -> None:
        client = client_for(app)
        if client is None:
            return
        retry.visible = False
        if not status.value:  # a slow lobby: the screen says it is asking
            status.value, status.color = t(lang, "ol_connecting"), theme.PAGE_MUTED
            send(status, retry)
        me = await ask(app, status, client.me)
        mine = await ask(app, status, client.my_matches) if me is not FAILED else FAILED
        if me is not FAILED and me.get("spectators", True) != app.prefs.spectators:
            await ask(app, status, client.set_spectators, app.prefs.spectators)  # the Settings switch
        client.close()
        # what the answers change is changed here, at once, and sent: a change made before an await
        # would wait unsent (and the screen still say "connecting" until the last answer, as it does)
        retry.visible = me is FAILED
        if me is not FAILED and status.value == t(lang, "ol_connecting"):
            status.value = ""
        if me is not FAILED:
            me_line.value = me_said(lang, me) + " · " + acc.lobby_url
        if mine is not FAILED and mine:
            running.controls = [text(lang, t(lang, "ol_running"), theme.TYPE_LEAD, True),
                                *(running_match_button(app, m) for m in mine)]
        send(status, retry, me_line, running)

    async def try_again(e: object) -> None:
        status.value, status.color = t(lang, "ol_connecting"), theme.PAGE_MUTED
        send(status)
        await load_me()
        if not retry.visible:
            status.value = ""
            send(status)

    retry = tagged("ol-retry", ft.OutlinedButton(t(lang, "retry"), icon=ft.Icons.REFRESH, on_click=try_again),
                   visible=False)
    return retry, load_me
