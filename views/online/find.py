"""Finding a game: a seek with its waiting indicator, a challenge by code and its acceptance, the
casual game's house rules, and a running match to come back to.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

import flet as ft

from engine.lanes import VARIANTS
from storage.lobby_client import LobbyClient, LobbyRefused, LobbyUnavailable
from views.ui import theme
from views.ui.i18n import t
from views.ui.reconcile import send
from views.ui.widgets import tagged, text

if TYPE_CHECKING:
    from views.host import Host
from views.online.common import FAILED, Home, ask, client_for, open_from_lobby, page, problem
from views.online.table import open_online_table


def running_match_button(app: Host, m: dict[str, Any]) -> ft.Control:
    """A running match to come back to (its clock runs meanwhile): the opponent, the terms, whose
    move; a tap reopens its table from the lobby's view."""
    lang = app.lang
    turn = t(lang, "ol_your_turn" if m["to_move"] == m["seat"] else "ol_their_turn")
    tc = t(lang, "ol_untimed") if m["time_control"] == "untimed" else m["time_control"]
    return tagged(f"ol-running-{m['match_id']}", ft.OutlinedButton(
        t(lang, "ol_running_row", name=m["opponent"] or "?", tc=tc, turn=turn), icon=ft.Icons.PLAY_ARROW,
        on_click=lambda e: app.page.run_task(rejoin, app, str(m["match_id"]))))


async def rejoin(app: Host, match_id: str) -> None:
    """Open a running match again: its current view from the lobby, then its table."""
    await open_from_lobby(app, client_for(app), LobbyClient.view, match_id, open_online_table)


def online_variants(app: Host) -> ft.Control:
    """The L-9 house rules of a casual seek or challenge (L-8.5: any of them makes it friendly,
    never rated); the choice stays for this visit of the app."""
    lang = app.lang

    def toggle(e: ft.Event[ft.Checkbox], name: str) -> None:
        if e.control.value:
            app.drafts.online_variants.add(name)
        else:
            app.drafts.online_variants.discard(name)

    boxes: list[ft.Control] = [ft.Semantics(identifier=f"ol-variant-{v}", content=ft.Checkbox(
        label=t(lang, f"variant_{v}"), value=v in app.drafts.online_variants, on_change=lambda e, v=v: toggle(e, v)))
        for v in VARIANTS]
    return ft.ExpansionTile(title=text(lang, t(lang, "variants"), theme.TYPE_BODY), controls=boxes)


def challenge_row(app: Host, tc: ft.Dropdown, code: ft.TextField, status: ft.Text) -> ft.Control:
    """Challenge a friend (a code to pass on; rated with the standard rules, or casual with the
    house rules chosen above) or accept a friend's code."""
    lang = app.lang
    rated_switch = ft.Switch(value=False)
    rated = ft.Row([ft.Semantics(identifier="ol-rated-challenge", content=rated_switch),
                    ft.Container(text(lang, t(lang, "ol_rated_challenge"), theme.TYPE_SMALL),
                                 expand=True)])  # wraps on a phone

    async def challenge(e: object) -> None:
        client = client_for(app)
        assert client is not None
        is_rated = bool(rated_switch.value)
        c = await ask(app, status, client.challenge, is_rated, tc.value or "5+3",
                       [] if is_rated else sorted(app.drafts.online_variants))
        client.close()
        if c is FAILED:
            return
        status.value = t(lang, "ol_your_code", code=c)
        status.color = theme.PAGE_GOOD
        send(status)
        app.page.run_task(wait_for_challenge, app, c)  # the tap is answered; the wait goes on beside

    async def accept(e: object) -> None:
        client = client_for(app)
        assert client is not None
        view = await ask(app, status, client.accept, (code.value or "").strip().upper())
        if view is FAILED:
            client.close()
            return
        open_online_table(app, client, view)  # the table keeps the client

    return ft.Column([rated, ft.Row([
        tagged("ol-challenge", ft.OutlinedButton(
            t(lang, "ol_challenge"), on_click=challenge)), code,
        ft.OutlinedButton(t(lang, "ol_accept"), on_click=accept)], wrap=True)], spacing=theme.SPACE_TIGHT)


async def wait_for_challenge(app: Host, code: str) -> None:
    """The challenger waits until a friend accepts the code, then the table opens; a code nobody
    accepted in time expires at the lobby (docs/lobby.md), and the player is told."""
    client = client_for(app)
    assert client is not None
    scope = app.scope
    while scope.open:
        await asyncio.sleep(theme.LOBBY_POLL_S)
        if not scope.open:
            break
        try:
            status = await asyncio.to_thread(client.challenge_status, code)
        except (LobbyUnavailable, LobbyRefused):
            continue
        mid = status.get("match_id")
        if mid:
            view = await asyncio.to_thread(client.view, mid)
            open_online_table(app, client, view)
            return
        if status.get("expired"):
            app.tell(t(app.lang, "ol_challenge_expired", code=code))
            break
    client.close()


def find_game(app: Host, home: Home, rated: bool, time_control: str, variants: list[str] | None = None) -> None:
    """A seek with a waiting indicator; the lobby pairs by rating with a window that widens."""
    lang = app.lang
    client = client_for(app)
    if client is None:
        home("")
        return
    scope = app.scope
    info = text(lang, t(lang, "ol_waiting", tc=time_control), theme.TYPE_LEAD)
    state: dict[str, str | None] = {"seek": None}

    async def cancel(e: object) -> None:
        scope.close()
        home("")
        if state["seek"]:  # withdrawn off the loop; an unreachable lobby drops it when it expires
            with contextlib.suppress(LobbyUnavailable, LobbyRefused):
                await asyncio.to_thread(client.cancel_seek, state["seek"])

    page(app, t(lang, "ol_find_rated") if rated else t(lang, "ol_find_casual"), [
        ft.Row([ft.ProgressRing(width=28, height=28), info], spacing=theme.SPACE_LOOSE),
        ft.Button(t(lang, "cancel"), on_click=cancel)], back=lambda e: app.page.run_task(cancel, e))

    async def wait() -> None:
        try:
            seek = await asyncio.to_thread(client.seek, rated, time_control, [] if rated else variants)
        except (LobbyUnavailable, LobbyRefused) as exc:
            home(problem(app, exc))
            return
        state["seek"] = seek["id"]
        started = time.monotonic()
        while scope.open:
            await asyncio.sleep(theme.LOBBY_POLL_S)
            try:
                s = await asyncio.to_thread(client.seek_status, seek["id"])
            except LobbyUnavailable:
                info.value = t(lang, "ol_lost")
                send(info)
                continue
            if s.get("match_id"):
                view = await asyncio.to_thread(client.view, s["match_id"])
                open_online_table(app, client, view)
                return
            if s.get("status") == "expired":  # nobody with these terms came in time
                client.close()
                home(t(lang, "ol_seek_expired"))
                return
            info.value = t(lang, "ol_waiting_for", tc=time_control, s=int(time.monotonic() - started))
            send(info)

    app.page.run_task(wait)
