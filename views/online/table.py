"""The Lanes table against a person at the lobby: both clocks, the opponent's connection state,
the banner while the lobby cannot be reached, and the catch-up when it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from storage import api
from storage.lobby_client import LobbyClient, LobbyRefused, LobbyUnavailable
from views.lanes.controller import LanesMatch
from views.lanes.ending import ending_said
from views.lanes.table import LanesTable, Remote
from views.online.controller import OnlineMode
from views.online.quick import Bubbles, bubble, chooser, words
from views.online.rematch import RematchPanel, RematchTalk
from views.table.screen import Table
from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import felt, icon_button, table_button, tagged, text

if TYPE_CHECKING:
    from views.host import Host
from views.online.common import LOG
from views.ui.reconcile import send


def open_online_table(app: Host, client: LobbyClient, view: dict[str, Any]) -> None:
    mode = OnlineMode(client, view, time.monotonic(), clock=time.monotonic, storage=app.storage)
    seat = OnlineSeat(app, mode)
    # another game from this table is found at the lobby
    table = LanesTable(app, LanesMatch(mode), lambda level: app.go("/online"), remote=seat)
    app.show(felt(table.build(), app.page.width), bg=theme.FELT, screen=table)
    app.local_back = table.leave  # Android's back and Escape, like the table's own arrow


class OnlineSeat:
    """What a match at the lobby adds to the Lanes table (its ``Remote``: the table is the one
    every mode uses): both clocks (ticking locally, corrected by every server answer), the
    opponent's connection state, a clear banner while the lobby cannot be reached, catch-up from the
    last event number when it comes back, and the result as the lobby reports it."""

    def __init__(self, app: Host, mode: OnlineMode) -> None:
        self.app = app
        self.online = mode
        self.active = True
        self.clocks = text(app.lang, "", theme.TYPE_LEAD, True, theme.ON_FELT, align=ft.TextAlign.CENTER)
        self.shown_result = False
        #: the quick message each seat is showing
        self.bubbles = Bubbles()
        #: the rematch while the result shows (None before, and once settled or left)
        self.rematch: RematchTalk | None = None
        self.panel: RematchPanel

    #: the table this seat belongs to (set by ``join`` when the table is made with it)
    table: Table

    @property
    def lang(self) -> str:
        return self.app.lang

    def join(self, table: Table) -> None:
        self.table = table

    def _clock_text(self) -> str:
        m, lang = self.online, self.lang
        rem = m.remaining(time.monotonic())
        names = self.online.names()
        me, opp = m.seat, 1 - m.seat

        def fmt(ms: int) -> str:
            return f"{ms // 60000}:{ms // 1000 % 60:02d}"

        mine = names[me] if m.watching else t(lang, "you")
        if rem is None:
            line = f"{names[opp]} · {mine} ({t(lang, 'ol_untimed')})"
        else:
            line = f"{names[opp]} {fmt(rem[opp])}  ·  {fmt(rem[me])} {mine}"
        variants = m.view["observation"]["options"].get("variants", [])
        if variants:  # L-8.5: the match and its card say so
            line += "  ·  " + t(lang, "ol_friendly_tag")
        elif not m.view.get("rated"):
            line += "  ·  " + t(lang, "ol_casual_tag")
        if m.queued():
            line += "  ·  " + t(lang, "ol_sending")
        if m.connection == "lost":
            return line + "  ·  " + t(lang, "ol_lost")
        # the server's time rules, ticking here (a spectator's line names both players instead)
        for kind, seconds in [] if m.watching else m.countdowns(time.monotonic()):
            line += "  ·  " + t(lang, "ol_opponent_away" if kind == "away" else f"ol_{kind}", s=seconds)
        return line

    def before_refresh(self) -> None:
        self.clocks.value = self._clock_text()

    def rows(self) -> list[ft.Control]:
        if not self.online.can_abort():
            return [self.clocks]
        abort = table_button(t(self.lang, "abort"), self.on_abort, kind="text", icon=ft.Icons.CLOSE,
                             ident="online-abort")
        return [ft.Row([ft.Container(self.clocks, expand=True), abort])]

    # --- quick messages ----------------------------------------------------------------------------
    def seat_name(self, seat: int) -> str:
        return self.online.names()[seat]

    def said_by(self, seat: int) -> list[ft.Control]:
        phrase = self.bubbles.of(seat)
        if phrase is None or not self.app.prefs.quick_messages:
            return []
        mine = seat == self.online.seat and not self.online.watching
        who = t(self.lang, "you") if mine else self.online.names()[seat]
        return [bubble(self.lang, phrase, who)]

    def bar(self) -> list[ft.Control]:
        if not self.app.prefs.quick_messages or self.online.status().over:
            return []
        return [icon_button(ft.Icons.CHAT_BUBBLE_OUTLINE, t(self.lang, "qm_say"), self.on_say, color=theme.ON_FELT,
                            ident="online-say")]

    def on_say(self, e: object) -> None:
        """The phrases and emotes to choose from; the chosen one is sent off the loop."""
        def pick(phrase: str) -> None:
            self.app.page.pop_dialog()
            self.app.page.run_task(self._say, phrase)

        lang = self.lang
        self.app.page.show_dialog(ft.AlertDialog(
            title=text(lang, t(lang, "qm_say"), theme.TYPE_STRONG, True), content=chooser(lang, pick),
            actions=[ft.TextButton(t(lang, "cancel"), on_click=lambda ev: self.app.page.pop_dialog())]))

    async def _say(self, phrase: str) -> None:
        why = await asyncio.to_thread(self.online.say, phrase)
        if why is None:
            self._show_said(self.online.seat, phrase)
        else:
            self.app.tell(t(self.lang, f"qm_{why}"))

    def _hear(self) -> None:
        """The opponent's quick messages the last answer brought (mine were shown when sent)."""
        for seat, phrase in self.online.take_heard():
            theirs = seat != self.online.seat or self.online.watching
            if theirs and self.app.prefs.quick_messages and words(self.lang, phrase):
                self._show_said(seat, phrase)

    def _show_said(self, seat: int, phrase: str) -> None:
        """Show ``phrase`` beside ``seat`` for a few seconds; a screen reader hears the opponent's."""
        self.bubbles.put(seat, phrase)
        self.table.refresh()
        if seat != self.online.seat or self.online.watching:
            self.app.feedback.say(f"{self.online.names()[seat]}: {words(self.lang, phrase)}", self.lang)
        self.app.page.run_task(self._fade)

    async def _fade(self) -> None:
        await asyncio.sleep(theme.QUICK_MESSAGE_S + theme.SETTLE_S)
        if self._on_top():
            self.table.refresh()

    def on_abort(self, e: object) -> None:
        """Abort after the confirmation (before both have moved: no result, no rating), off the loop."""
        self._confirm_then("abort_confirm", "abort", self.online.abort, ident="abort-confirm")

    def _confirm_then(self, question: str, verb: str, call: Callable[[], object], ident: str | None = None) -> None:
        """Ask ``question``; on ``verb`` the lobby is called off the loop (``call``) and the table redrawn."""
        async def run() -> None:
            await asyncio.to_thread(call)
            self.table.refresh()

        def confirm(ev: object) -> None:
            self.app.page.pop_dialog()
            self.app.page.run_task(run)

        yes: ft.Control = ft.TextButton(t(self.lang, verb), on_click=confirm)
        self.app.page.show_dialog(ft.AlertDialog(
            title=text(self.lang, t(self.lang, question), theme.TYPE_STRONG, True),
            actions=[ft.TextButton(t(self.lang, "cancel"), on_click=lambda ev: self.app.page.pop_dialog()),
                     yes if ident is None else tagged(ident, yes)]))

    def start(self) -> None:
        self.app.page.run_task(self.follow)
        self.app.page.run_task(self.tick)

    def leave(self) -> None:
        """Back from the table: the match goes on at the lobby (its clock runs); the table stops
        following it, and the Online screen lists it to come back to."""
        self.active = False
        self.app.local_back = None
        self.app.go("/online")

    def stop(self) -> None:
        self.active = False

    def _home(self) -> None:
        self._leave_result()
        self.app.go("/")

    def _again(self) -> None:
        self._leave_result()
        self.app.go("/online")

    def _leave_result(self) -> None:
        """The result screen closes: the table stops, and a rematch not yet settled is declined at
        the lobby (off the loop), so the opponent is not left waiting on an offer."""
        self.active = False
        self.app.page.pop_dialog()
        talk = self.rematch
        if talk is not None and not talk.final:
            self.rematch = None

            async def leave() -> None:
                await asyncio.to_thread(talk.decline)
            self.app.page.run_task(leave)

    def show_result(self) -> None:
        if self.shown_result:
            return
        self.shown_result = True
        self.app.page.run_task(self.keep)
        v, lang = self.online.view, self.lang
        won = v.get("winner") == self.online.seat
        change = (v.get("rating_change") or {}).get(str(self.online.seat))
        names = self.online.names()
        lines = [ending_said(lang, v.get("reason"), v.get("winner"), self.online.seat, names.__getitem__)]
        if change:
            lines.append(t(lang, "ol_rating_change", before=change["before"], after=change["after"]))
        elif not v.get("rated"):
            lines.append(t(lang, "ol_unrated"))
        self.rematch = RematchTalk(self.online.client, self.online.match_id, int(v.get("event_count", 0)))
        self.panel = RematchPanel(lang, self.rematch, names[1 - self.online.seat],
                                  on_offer=lambda: self.app.page.run_task(self._rematch_step, "offer"),
                                  on_decline=lambda: self.app.page.run_task(self._rematch_step, "decline"))
        self.app.page.show_dialog(ft.AlertDialog(
            modal=True, title=text(lang, t(lang, "won") if won else t(lang, "lost") if v.get("winner") is not None
                                   else t(lang, "ol_aborted"), theme.TYPE_TITLE, True),
            content=ft.Column([text(lang, "\n".join(lines), theme.TYPE_BODY), self.panel.control], tight=True,
                              spacing=theme.SPACE_SNUG),
            actions=[*([ft.TextButton(t(lang, "review"), on_click=self._review_match)] if v.get("winner") is not None
                       else []),
                     ft.TextButton(t(lang, "online"), on_click=lambda e: self._again()),
                     ft.TextButton(t(lang, "home"), on_click=lambda e: self._home())]))
        self.app.page.run_task(self._watch_rematch)

    async def _rematch_step(self, step: str) -> None:
        """A tapped Rematch / Accept / Decline, sent off the loop."""
        talk = self.rematch
        if talk is not None and await asyncio.to_thread(talk.offer if step == "offer" else talk.decline):
            await self._rematch_changed(talk)

    async def _watch_rematch(self) -> None:
        """While the result shows: the opponent's offer or answer, by long poll (backing off while
        the lobby cannot be reached)."""
        while (talk := self.rematch) is not None and not talk.final:
            changed = await asyncio.to_thread(talk.wait, theme.LOBBY_WAIT_S)
            if changed:
                await self._rematch_changed(talk)
            if talk.lost:
                await asyncio.sleep(theme.LOBBY_RETRY_S)

    async def _rematch_changed(self, talk: RematchTalk) -> None:
        """Show where the rematch stands; once accepted, open the new match (the same for both)."""
        if talk is not self.rematch:
            return  # the result screen was left meanwhile
        said = self.panel.redraw()
        if said:
            self.app.feedback.say(said, self.lang)
        new_id = talk.state.get("match_id")
        if talk.status != "accepted" or not new_id:
            return
        self.rematch = None
        try:
            view = await asyncio.to_thread(self.online.client.view, str(new_id))
        except (LobbyUnavailable, LobbyRefused):
            self.app.tell(t(self.lang, "ol_lost"))  # the new match is listed on the Online screen
            return
        self.active = False
        self.app.page.pop_dialog()
        open_online_table(self.app, self.online.client, view)

    async def _review_match(self, e: object) -> None:
        """The expert's review of the match just played, from its copy in the local history."""
        if self.online.game_id is None:
            await self.keep()
        self._leave_result()
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

    def _on_top(self) -> bool:
        return self.active and self.app.screen is self.table

    async def follow(self) -> None:
        """The opponent's moves: long polls from the last event number (so a lost connection catches
        up on return); backs off while the lobby is unreachable."""
        backoff = 1.0
        while self._on_top():
            changed = await asyncio.to_thread(self.online.sync, time.monotonic(), theme.LOBBY_WAIT_S)
            if self.online.connection == "lost":
                self.table.refresh()
                await asyncio.sleep(backoff)
                backoff = min(10.0, backoff * 2)
                continue
            backoff = 1.0
            self._tell_dropped()
            if changed:
                self.table.refresh()
            self._hear()
            if self.online.status().over:
                break

    async def tick(self) -> None:
        """The clocks tick locally twice a second (one text changed in place)."""
        while self._on_top() and not self.online.status().over:
            self.clocks.value = self._clock_text()
            with contextlib.suppress(AssertionError):  # the table is being left this instant
                send(self.clocks)
            await asyncio.sleep(theme.CLOCK_TICK_S)

    def moved(self) -> None:
        """My move is in the outbox ("sending…" on the clock line, the hand waits): it goes in a
        worker thread, so the loop every player shares stays free while the lobby answers."""
        self.table.refresh()
        self.app.page.run_task(self.send)

    async def send(self) -> None:
        await asyncio.to_thread(self.online.flush, time.monotonic())
        self._tell_dropped()
        self.table.refresh()

    def _tell_dropped(self) -> None:
        if self.online.notice is not None:  # a queued move the lobby no longer took
            self.app.tell(t(self.lang, "ol_move_dropped", why=self.online.notice))
            self.online.notice = None

    def resign(self, call: Callable[[], object]) -> None:
        """Resign after the confirmation, the lobby called off the loop (L-8.3)."""
        self._confirm_then("resign_confirm", "resign", call)

    async def resync(self) -> None:
        """Back from the background: fetch what happened meanwhile (off the loop; the answer is
        taken only if it is newer than what the follow loop took meanwhile)."""
        await asyncio.to_thread(self.online.sync, time.monotonic())
        self.table.refresh()


def _is_a_remote(seat: OnlineSeat) -> Remote:
    return seat  # mypy checks here that OnlineSeat keeps the table's Remote contract
