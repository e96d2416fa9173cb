"""Online screens: sign in as a guest, the lobby address, finding a game (rated or casual, a time
control, a waiting indicator), challenges by code, leaderboard and profile, and the Lanes table
against a person with both clocks and the opponent's connection state.

Offline first: nothing here runs unless the player opens Online; an unreachable lobby is said in
words and the rest of the app is untouched. Network calls run off the UI loop (``asyncio.to_thread``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import flet as ft
import flet.canvas as cv

from engine.lanes import VARIANTS
from storage import api
from storage.lobby_address import BadAddress
from storage.lobby_client import LobbyClient, LobbyRefused, LobbyUnavailable
from views.lanes.controller import LanesMatch
from views.lanes.table import LanesTable
from views.online.address import account_here, checked, lobby_url, refusal, use_lobby
from views.online.controller import OnlineMode
from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import felt, icon_button, text

if TYPE_CHECKING:
    from views.host import Host

LOG = logging.getLogger("cardtable")
TIME_CONTROLS = ("3+2", "5+3", "10+5", "1+0", "untimed")


def client_for(app: Host) -> LobbyClient | None:
    """A client signed in at the lobby in use, or None when the player has no account there."""
    acc = account_here(app)
    if acc is None:
        return None
    return LobbyClient(acc.lobby_url, acc.token, timeout=8.0)


def _screen(app: Host, title: str, controls: list[ft.Control], back: Any = None) -> None:
    lang = app.lang
    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), back or (lambda e: app.back())),
                ft.Container(text(lang, title, 20, True), expand=True)]),
        *controls,
    ], spacing=12, scroll=ft.ScrollMode.AUTO)
    app.show(ft.Container(body, padding=ft.Padding.all(16)), back=(lambda: back(None)) if back else None)


def _problem(app: Host, exc: Exception) -> str:
    lang = app.lang
    if isinstance(exc, LobbyUnavailable):
        return t(lang, "ol_unreachable")
    if isinstance(exc, LobbyRefused):
        return t(lang, "ol_refused", why=exc.message)
    return str(exc)


FAILED = object()


async def _ask(app: Host, status: ft.Text, call: Any, *args: Any) -> Any:
    """One lobby call off the UI loop; when it fails, ``status`` says why and FAILED is returned."""
    try:
        return await asyncio.to_thread(call, *args)
    except (LobbyUnavailable, LobbyRefused) as exc:
        status.value, status.color = _problem(app, exc), theme.PAGE_ERROR
        app.page.update()
        return FAILED


def online_home(app: Host, notice: str = "") -> None:
    """Sign in (guest) or, when signed in, the lobby: find a game, challenge, leaderboard, profile."""
    acc = account_here(app)
    status = text(app.lang, notice, 13, True, theme.PAGE_ERROR)
    if acc is None:
        sign_in_screen(app, status)
    else:
        lobby_screen(app, acc, status)


def sign_in_screen(app: Host, status: ft.Text) -> None:
    """A guest account at the lobby address given (the one in use; Settings → Online also sets it).
    A bad address is refused before anything is called or stored."""
    lang = app.lang
    url = ft.TextField(label=t(lang, "ol_url"), value=lobby_url(app), hint_text="https://…", width=320,
                       keyboard_type=ft.KeyboardType.URL)
    name = ft.TextField(label=t(lang, "name"), value=app.name, max_length=40, width=320)

    async def sign_in(e: Any) -> None:
        try:
            address = checked(url.value or "")
        except BadAddress as exc:
            url.error = status.value = refusal(lang, exc)
            status.color = theme.PAGE_ERROR
            app.page.update()
            return
        url.error = None
        use_lobby(app, address)
        status.value, status.color = t(lang, "ol_connecting"), theme.PAGE_MUTED  # progress, not an error
        app.page.update()
        client = LobbyClient(address, timeout=8.0)
        body = await _ask(app, status, client.sign_up, (name.value or "Player").strip())
        client.close()
        if body is FAILED:
            return
        assert client.token is not None
        api.set_account(app.storage, address, body["id"], client.token, body["name"])
        online_home(app)

    intro = [text(lang, t(lang, "ol_intro"), 14)]
    if not lobby_url(app):
        intro.append(text(lang, t(lang, "addr_none"), 14))
    _screen(app, t(lang, "online"), [*intro, url, name,
                                     ft.FilledButton(t(lang, "ol_sign_in"), on_click=sign_in), status])


def lobby_screen(app: Host, acc: Any, status: ft.Text) -> None:
    """Signed in: find a rated or casual game, challenge by code, leaderboard, profile, sign out."""
    lang = app.lang
    tc = ft.Dropdown(label=t(lang, "ol_time_control"), value="5+3", width=200,
                     options=[ft.DropdownOption(key=k, text=t(lang, "ol_untimed") if k == "untimed" else k)
                              for k in TIME_CONTROLS])
    code = ft.TextField(label=t(lang, "ol_code"), width=160, max_length=6,
                        capitalization=ft.TextCapitalization.CHARACTERS)
    me_line = text(lang, f"{acc.display_name} · {acc.lobby_url}", 13, color=ft.Colors.ON_SURFACE_VARIANT)

    running = ft.Column(spacing=4)
    retry, load_me = _loader(app, acc, status, me_line, running)

    def sign_out(e: Any) -> None:
        api.clear_account(app.storage, acc.lobby_url)
        online_home(app)

    house_rules = online_variants(app)
    _screen(app, t(lang, "online"), [
        me_line,
        status,  # up top, where a phone shows it without scrolling
        retry,
        running,
        ft.Row([tc], wrap=True),
        ft.Row([ft.FilledButton(t(lang, "ol_find_rated"), on_click=lambda e: find_game(app, True, tc.value or "5+3")),
                ft.Semantics(identifier="ol-find-casual", button=True, content=ft.Button(
                    t(lang, "ol_find_casual"), on_click=lambda e: find_game(app, False, tc.value or "5+3",
                                                                             sorted(app.drafts.online_variants))))],
               wrap=True),
        house_rules,
        text(lang, t(lang, "ol_rated_note"), 12, color=ft.Colors.ON_SURFACE_VARIANT),
        _challenge_row(app, tc, code, status),
        ft.Row([ft.TextButton(t(lang, "ol_leaderboard"), on_click=lambda e: app.page.run_task(leaderboard, app)),
                ft.TextButton(t(lang, "ol_profile"), on_click=lambda e: app.page.run_task(profile, app)),
                ft.TextButton(t(lang, "ol_sign_out"), on_click=sign_out)], wrap=True),
    ])
    app.page.run_task(load_me)


def _loader(app: Host, acc: Any, status: ft.Text, me_line: ft.Text,
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
            app.page.update()
        me = await _ask(app, status, client.me)
        retry.visible = me is FAILED
        if me is not FAILED and status.value == t(lang, "ol_connecting"):
            status.value = ""
        mine = await _ask(app, status, client.my_matches) if me is not FAILED else FAILED
        client.close()
        if me is not FAILED:
            me_line.value = t(lang, "ol_me", name=me["name"], rating=me["rating"],
                              games=me.get("rated_games", 0)) + " · " + acc.lobby_url
        if mine is not FAILED and mine:
            running.controls = [text(lang, t(lang, "ol_running"), 15, True),
                                *(running_match_button(app, m) for m in mine)]
        app.page.update()

    async def try_again(e: Any) -> None:
        status.value, status.color = t(lang, "ol_connecting"), theme.PAGE_MUTED
        app.page.update()
        await load_me()
        if not retry.visible:
            status.value = ""
            app.page.update()

    retry = ft.Semantics(identifier="ol-retry", button=True, visible=False, content=ft.OutlinedButton(
        t(lang, "retry"), icon=ft.Icons.REFRESH, on_click=try_again))
    return retry, load_me


def running_match_button(app: Host, m: dict[str, Any]) -> ft.Control:
    """A running match to come back to (its clock runs meanwhile): the opponent, the terms, whose
    move; a tap reopens its table from the lobby's view."""
    lang = app.lang
    turn = t(lang, "ol_your_turn" if m["to_move"] == m["seat"] else "ol_their_turn")
    tc = t(lang, "ol_untimed") if m["time_control"] == "untimed" else m["time_control"]
    return ft.Semantics(identifier=f"ol-running-{m['match_id']}", button=True, content=ft.OutlinedButton(
        t(lang, "ol_running_row", name=m["opponent"] or "?", tc=tc, turn=turn), icon=ft.Icons.PLAY_ARROW,
        on_click=lambda e: app.page.run_task(rejoin, app, str(m["match_id"]))))


async def rejoin(app: Host, match_id: str) -> None:
    """Open a running match again: its current view from the lobby, then its table."""
    client = client_for(app)
    if client is None:
        return
    try:
        view = await asyncio.to_thread(client.view, match_id)
    except (LobbyUnavailable, LobbyRefused) as exc:
        client.close()
        app.tell(_problem(app, exc))
        return
    open_online_table(app, client, view)


def online_variants(app: Host) -> ft.Control:
    """The L-9 house rules of a casual seek or challenge (L-8.5: any of them makes it friendly,
    never rated); the choice stays for this visit of the app."""
    lang = app.lang

    def toggle(e: Any, name: str) -> None:
        if e.control.value:
            app.drafts.online_variants.add(name)
        else:
            app.drafts.online_variants.discard(name)

    boxes: list[ft.Control] = [ft.Semantics(identifier=f"ol-variant-{v}", content=ft.Checkbox(
        label=t(lang, f"variant_{v}"), value=v in app.drafts.online_variants, on_change=lambda e, v=v: toggle(e, v)))
        for v in VARIANTS]
    return ft.ExpansionTile(title=text(lang, t(lang, "variants"), 14), controls=boxes)


def _challenge_row(app: Host, tc: ft.Dropdown, code: ft.TextField, status: ft.Text) -> ft.Control:
    """Challenge a friend (a code to pass on; rated with the standard rules, or casual with the
    house rules chosen above) or accept a friend's code."""
    lang = app.lang
    rated_switch = ft.Switch(value=False)
    rated = ft.Row([ft.Semantics(identifier="ol-rated-challenge", content=rated_switch),
                    ft.Container(text(lang, t(lang, "ol_rated_challenge"), 13), expand=True)])  # wraps on a phone

    async def challenge(e: Any) -> None:
        client = client_for(app)
        assert client is not None
        is_rated = bool(rated_switch.value)
        c = await _ask(app, status, client.challenge, is_rated, tc.value or "5+3",
                       [] if is_rated else sorted(app.drafts.online_variants))
        client.close()
        if c is FAILED:
            return
        status.value = t(lang, "ol_your_code", code=c)
        status.color = theme.PAGE_GOOD
        app.page.update()
        app.page.run_task(wait_for_challenge, app, c)  # the tap is answered; the wait goes on beside

    async def accept(e: Any) -> None:
        client = client_for(app)
        assert client is not None
        view = await _ask(app, status, client.accept, (code.value or "").strip().upper())
        if view is FAILED:
            client.close()
            return
        open_online_table(app, client, view)  # the table keeps the client

    return ft.Column([rated, ft.Row([
        ft.Semantics(identifier="ol-challenge", button=True, content=ft.OutlinedButton(
            t(lang, "ol_challenge"), on_click=challenge)), code,
        ft.OutlinedButton(t(lang, "ol_accept"), on_click=accept)], wrap=True)], spacing=4)


async def wait_for_challenge(app: Host, code: str) -> None:
    """The challenger waits until a friend accepts the code, then the table opens."""
    client = client_for(app)
    assert client is not None
    scope = app.scope
    for _ in range(600):
        await asyncio.sleep(1.0)
        if not scope.open:
            client.close()
            return
        try:
            status = await asyncio.to_thread(client.challenge_status, code)
        except (LobbyUnavailable, LobbyRefused):
            continue
        mid = status.get("match_id")
        if mid:
            view = await asyncio.to_thread(client.view, mid)
            open_online_table(app, client, view)
            return
    client.close()


def find_game(app: Host, rated: bool, time_control: str, variants: list[str] | None = None) -> None:
    """A seek with a waiting indicator; the lobby pairs by rating with a window that widens."""
    lang = app.lang
    client = client_for(app)
    if client is None:
        online_home(app)
        return
    scope = app.scope
    info = text(lang, t(lang, "ol_waiting", tc=time_control), 15)
    state: dict[str, Any] = {"seek": None}

    async def cancel(e: Any) -> None:
        scope.close()
        online_home(app)
        if state["seek"]:  # withdrawn off the loop; an unreachable lobby drops it when it expires
            with contextlib.suppress(LobbyUnavailable, LobbyRefused):
                await asyncio.to_thread(client.cancel_seek, state["seek"])

    _screen(app, t(lang, "ol_find_rated") if rated else t(lang, "ol_find_casual"), [
        ft.Row([ft.ProgressRing(width=28, height=28), info], spacing=12),
        ft.Button(t(lang, "cancel"), on_click=cancel)], back=lambda e: app.page.run_task(cancel, e))

    async def wait() -> None:
        try:
            seek = await asyncio.to_thread(client.seek, rated, time_control, [] if rated else variants)
        except (LobbyUnavailable, LobbyRefused) as exc:
            online_home(app, _problem(app, exc))
            return
        state["seek"] = seek["id"]
        started = time.monotonic()
        while scope.open:
            await asyncio.sleep(1.0)
            try:
                s = await asyncio.to_thread(client.seek_status, seek["id"])
            except LobbyUnavailable:
                info.value = t(lang, "ol_lost")
                app.page.update()
                continue
            if s.get("match_id"):
                view = await asyncio.to_thread(client.view, s["match_id"])
                open_online_table(app, client, view)
                return
            info.value = t(lang, "ol_waiting_for", tc=time_control, s=int(time.monotonic() - started))
            app.page.update()

    app.page.run_task(wait)


async def _fetch(app: Host, title: str, call: Any, *args: Any) -> Any:
    """A lobby read for a screen of its own: the screen shows a progress ring while the call runs
    off the loop; on failure the Online screen says why (with Retry) and FAILED is returned; if
    the player left meanwhile, FAILED too and nothing is shown."""
    scope = app.scope
    _screen(app, title, [ft.ProgressRing(width=28, height=28)], back=lambda e: online_home(app))
    try:
        body = await asyncio.to_thread(call, *args)
    except (LobbyUnavailable, LobbyRefused) as exc:
        if scope.open:
            online_home(app, _problem(app, exc))
        return FAILED
    return body if scope.open else FAILED


async def leaderboard(app: Host) -> None:
    lang = app.lang
    client = client_for(app) or (LobbyClient(lobby_url(app)) if lobby_url(app) else None)
    if client is None:
        online_home(app)
        return
    rows = await _fetch(app, t(lang, "ol_leaderboard"), client.leaderboard)
    client.close()
    if rows is FAILED:
        return
    items: list[ft.Control] = [
        text(lang, f"{i + 1}. {r['name']} — {r['rating']}" + (" ?" if r.get("provisional") else ""), 15)
        for i, r in enumerate(rows)]
    _screen(app, t(lang, "ol_leaderboard"), items or [text(lang, t(lang, "ol_nobody"), 14)],
            back=lambda e: online_home(app))


async def profile(app: Host) -> None:
    lang = app.lang
    acc = account_here(app)
    client = client_for(app)
    if acc is None or client is None:
        online_home(app)
        return
    p = await _fetch(app, t(lang, "ol_profile"), client.profile, acc.player_id)
    client.close()
    if p is FAILED:
        return
    lines: list[ft.Control] = [text(lang, t(lang, "ol_me", name=p.get("name", ""), rating=p.get("rating", ""),
                                             games=p.get("rated_games", 0)), 16, True)]
    hist = p.get("history", [])
    if hist:
        ratings = [int(h["rating"]) for h in hist[-40:]]
        lines.append(text(lang, t(lang, "ol_history") + ": " + " → ".join(map(str, ratings[-12:])), 13))
        lines.append(rating_plot(ratings, t(lang, "ol_history")))
    for m in p.get("recent", [])[:15]:
        res = "result_none" if m.get("winner") is None else (
            "result_won" if m.get("winner") == m.get("seat") else "result_lost")
        lines.append(text(lang, f"{t(lang, res)} · {t(lang, 'reason_' + str(m.get('reason')))} · "
                                f"{t(lang, 'ol_rated' if m.get('rated') else 'ol_casual')}", 13))
    _screen(app, t(lang, "ol_profile"), lines, back=lambda e: online_home(app))


def rating_plot(ratings: list[int], label: str, width: float = 320, height: float = 110) -> ft.Control:
    """The rating after each rated match as a small line plot (drawn on a canvas: no chart package),
    with the lowest and highest rating written beside it; a screen reader hears the whole series."""
    lo, hi = min(ratings), max(ratings)
    span = max(hi - lo, 1)
    step = width / max(len(ratings) - 1, 1)
    points = [(i * step, height - 8 - (r - lo) / span * (height - 16)) for i, r in enumerate(ratings)]
    path = [cv.Path.MoveTo(*points[0]), *(cv.Path.LineTo(x, y) for x, y in points[1:])]
    paint = ft.Paint(color=theme.PAGE_GOOD, stroke_width=2.5, style=ft.PaintingStyle.STROKE)  # light and dark
    dots = [cv.Circle(x, y, 3, ft.Paint(color=theme.PAGE_GOOD)) for x, y in points]
    return ft.Semantics(identifier="rating-plot", label=f"{label}: {', '.join(map(str, ratings))}", content=ft.Row([
        cv.Canvas([cv.Path(path, paint), *dots], width=width, height=height),
        ft.Column([ft.Text(str(hi), size=11), ft.Text(str(lo), size=11)],
                  alignment=ft.MainAxisAlignment.SPACE_BETWEEN, height=height)], spacing=6))


def open_online_table(app: Host, client: LobbyClient, view: dict[str, Any]) -> None:
    mode = OnlineMode(client, view, time.monotonic(), clock=time.monotonic, storage=app.storage)
    table = OnlineLanesTable(app, mode)
    app.show(felt(table.build(), app.page.width), bg=theme.FELT, screen=table)
    app.local_back = table.leave  # Android's back and Escape, like the table's own arrow


class OnlineLanesTable(LanesTable):
    """The Lanes table against a person: both clocks (ticking locally, corrected by every server
    answer), the opponent's connection state, a clear banner while the lobby cannot be reached, and
    catch-up from the last event number when it comes back."""

    def __init__(self, app: Host, mode: OnlineMode) -> None:
        super().__init__(app, LanesMatch(mode))
        self.online = mode
        self.active = True
        self.clocks = text(app.lang, "", 15, True, theme.ON_FELT, align=ft.TextAlign.CENTER)
        self.shown_result = False

    def _clock_text(self) -> str:
        m, lang = self.online, self.lang
        rem = m.remaining(time.monotonic())
        names = [p["name"] if p else "?" for p in m.view.get("players", [None, None])]
        me, opp = m.seat, 1 - m.seat

        def fmt(ms: int) -> str:
            return f"{ms // 60000}:{ms // 1000 % 60:02d}"

        if rem is None:
            line = f"{names[opp]} · {names[me]} ({t(lang, 'ol_untimed')})"
        else:
            line = f"{names[opp]} {fmt(rem[opp])}  ·  {fmt(rem[me])} {t(lang, 'you')}"
        variants = m.view["observation"]["options"].get("variants", [])
        if variants:  # L-8.5: the match and its card say so
            line += "  ·  " + t(lang, "ol_friendly_tag")
        elif not m.view.get("rated"):
            line += "  ·  " + t(lang, "ol_casual_tag")
        if m.queued():
            line += "  ·  " + t(lang, "ol_sending")
        if m.connection == "lost":
            return line + "  ·  " + t(lang, "ol_lost")
        for kind, seconds in m.countdowns(time.monotonic()):  # the server's time rules, ticking here
            line += "  ·  " + t(lang, "ol_opponent_away" if kind == "away" else f"ol_{kind}", s=seconds)
        return line

    def refresh(self, update: bool = True) -> None:
        self.clocks.value = self._clock_text()
        super().refresh(update)

    def top_rows(self) -> list[ft.Control]:
        return [self.clocks]

    def build(self) -> ft.Control:
        ctl = super().build()
        self.app.page.run_task(self.follow)
        self.app.page.run_task(self.tick)
        return ctl

    def leave(self) -> None:
        """Back from the table: the match goes on at the lobby (its clock runs); the table stops
        following it, and the Online screen lists it to come back to."""
        self.active = False
        self.app.local_back = None
        online_home(self.app)

    def stop(self) -> None:
        super().stop()
        self.active = False

    def _home(self) -> None:
        self.active = False
        self.app.page.pop_dialog()
        self.app.go("/")

    def _again(self) -> None:
        self.active = False
        self.app.page.pop_dialog()
        online_home(self.app)

    def show_result(self, obs: dict[str, Any]) -> None:
        if self.shown_result:
            return
        self.shown_result = True
        self.app.page.run_task(self.keep)
        v, lang = self.online.view, self.lang
        won = v.get("winner") == self.online.seat
        change = (v.get("rating_change") or {}).get(str(self.online.seat))
        lines = [t(lang, f"reason_{v.get('reason')}")]
        if change:
            lines.append(t(lang, "ol_rating_change", before=change["before"], after=change["after"]))
        elif not v.get("rated"):
            lines.append(t(lang, "ol_unrated"))
        self.app.page.show_dialog(ft.AlertDialog(
            modal=True, title=text(lang, t(lang, "won") if won else t(lang, "lost") if v.get("winner") is not None
                                   else t(lang, "ol_aborted"), 20, True),
            content=text(lang, "\n".join(lines), 14),
            actions=[*([ft.TextButton(t(lang, "review"), on_click=self._review_match)] if v.get("winner") is not None
                       else []),
                     ft.TextButton(t(lang, "online"), on_click=lambda e: self._again()),
                     ft.TextButton(t(lang, "home"), on_click=lambda e: self._home())]))

    async def _review_match(self, e: Any) -> None:
        """The expert's review of the match just played, from its copy in the local history."""
        if self.online.game_id is None:
            await self.keep()
        self.app.page.pop_dialog()
        if self.online.game_id is not None:
            self.app.go(f"/review/{self.online.game_id}")
        else:
            self.app.tell(t(self.lang, "ol_not_kept"))

    async def keep(self) -> None:
        """The finished match into the local history (its published record, replayed by the
        storage before it is kept); quiet if the lobby cannot be reached now."""
        m = self.online
        names = [p["name"] if p else None for p in m.view.get("players", [None, None])]
        try:
            record = await asyncio.to_thread(m.client.record, m.match_id)
            m.game_id = await asyncio.to_thread(api.keep_online_match, self.app.storage, record, m.seat,
                                                names[1 - m.seat], m.match_id)
        except (LobbyUnavailable, LobbyRefused, api.ImportError_):
            LOG.warning("a finished online match could not be kept locally", exc_info=True)

    async def follow(self) -> None:
        """The opponent's moves: long polls from the last event number (so a lost connection catches
        up on return); backs off while the lobby is unreachable."""
        backoff = 1.0
        while self.active and self.app.screen is self:
            changed = await asyncio.to_thread(self.online.sync, time.monotonic(), 10.0)
            if self.online.connection == "lost":
                self.refresh()
                await asyncio.sleep(backoff)
                backoff = min(10.0, backoff * 2)
                continue
            backoff = 1.0
            self._tell_dropped()
            if changed:
                self.refresh()
            if self.online.status().over:
                break

    async def tick(self) -> None:
        """The clocks tick locally twice a second (one text changed in place)."""
        while self.active and self.app.screen is self and not self.online.status().over:
            self.clocks.value = self._clock_text()
            with contextlib.suppress(AssertionError, RuntimeError):  # the table is being left this instant
                self.clocks.update()
            await asyncio.sleep(0.5)

    def _after_human(self) -> None:
        """My move is in the outbox ("sending…" on the clock line, the hand waits): it goes in a
        worker thread, so the loop every player shares stays free while the lobby answers."""
        self.refresh()
        self.app.page.run_task(self.send)

    async def send(self) -> None:
        await asyncio.to_thread(self.online.flush, time.monotonic())
        self._tell_dropped()
        self.refresh()

    def _tell_dropped(self) -> None:
        if self.online.notice is not None:  # a queued move the lobby no longer took
            self.app.tell(t(self.lang, "ol_move_dropped", why=self.online.notice))
            self.online.notice = None

    def on_resign(self, e: Any) -> None:
        """Resign after the confirmation, the lobby called off the loop (L-8.3)."""
        async def resign() -> None:
            await asyncio.to_thread(self.match.resign)
            self.refresh()

        def confirm(ev: Any) -> None:
            self.app.page.pop_dialog()
            self.app.page.run_task(resign)

        self.app.page.show_dialog(ft.AlertDialog(
            title=text(self.lang, t(self.lang, "resign_confirm"), 16, True),
            actions=[ft.TextButton(t(self.lang, "cancel"), on_click=lambda ev: self.app.page.pop_dialog()),
                     ft.TextButton(t(self.lang, "resign"), on_click=confirm)]))

    async def resync(self) -> None:
        """Back from the background: fetch what happened meanwhile (off the loop; the answer is
        taken only if it is newer than what the follow loop took meanwhile)."""
        await asyncio.to_thread(self.online.sync, time.monotonic())
        self.refresh()
