"""The rematch on an online match's result screen (docs/lobby.md, "Rematch"): offer one, or accept
or decline the opponent's, and go straight to the new match once both want it.

:class:`RematchTalk` holds where the negotiation stands, as the lobby says (no Flet: plain tests);
its calls go over the network, so the screen runs them in a worker thread. :class:`RematchPanel`
is its part of the result dialog: one line saying where things stand and the buttons that fit."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypedDict, cast

import flet as ft

from storage.lobby_client import LobbyClient, LobbyRefused, LobbyUnavailable
from views.ui import theme
from views.ui.i18n import t
from views.ui.reconcile import send
from views.ui.widgets import text


class RematchState(TypedDict):
    """The lobby's answer about a rematch (docs/lobby.md, "Rematch")."""

    status: str  # none | offered | accepted | declined | expired
    mine: bool  # the offer is this player's
    offered_by: int | None
    match_id: str | None  # the new match, once accepted
    event_count: int  # the ended match's events so far: a newer answer has at least as many


#: the steps after which nothing more can happen to this match's rematch
FINAL = ("accepted", "declined", "expired")


class RematchTalk:
    """The rematch of one ended match, as the lobby last answered (only a newer answer replaces it:
    the long poll and a tapped offer may answer in either order)."""

    def __init__(self, client: LobbyClient, match_id: str, event_count: int = 0) -> None:
        self.client, self.match_id = client, match_id
        self.state: RematchState = {"status": "none", "mine": False, "offered_by": None, "match_id": None,
                                      "event_count": event_count}
        #: True while the lobby cannot be reached (the panel says so; the offer is tried again by a tap)
        self.lost = False
        self._lock = threading.Lock()

    @property
    def status(self) -> str:
        return str(self.state["status"])

    @property
    def final(self) -> bool:
        return self.status in FINAL

    def _take(self, answer: object) -> bool:
        """Take the lobby's answer unless the one held is newer; True when what it says changed."""
        if not isinstance(answer, dict) or "status" not in answer:
            return False
        body = cast("RematchState", answer)
        with self._lock:
            old = self.state
            if int(body.get("event_count", 0)) < int(old["event_count"]) or old["status"] in FINAL:
                return False
            self.state = body
            return (body["status"], body.get("mine"), body.get("match_id")) != \
                (old["status"], old.get("mine"), old.get("match_id"))

    def _ask(self, call: Callable[[], object]) -> bool:
        try:
            changed = self._take(call())
        except LobbyRefused as exc:  # declined or expired meanwhile: the refusal says how it stands
            changed = self._take(exc.body.get("detail") if isinstance(exc.body, dict) else None)
        except LobbyUnavailable:
            changed, self.lost = not self.lost, True
            return changed
        was_lost, self.lost = self.lost, False
        return changed or was_lost

    def offer(self) -> bool:
        """Offer a rematch, or accept the opponent's (network: off the UI loop)."""
        return self._ask(lambda: self.client.rematch(self.match_id))

    def decline(self) -> bool:
        """Decline, withdraw, or say this player left the result screen (network)."""
        return self._ask(lambda: self.client.decline_rematch(self.match_id))

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` s for the opponent's offer or answer (network; a long poll)."""
        since = int(self.state["event_count"])
        return self._ask(lambda: self.client.rematch_status(self.match_id, since, timeout))

    def line(self, lang: str, opponent: str) -> str:
        """Where things stand, in the player's words ("" before anyone offered)."""
        s, mine = self.status, bool(self.state.get("mine"))
        if self.lost:
            return t(lang, "ol_lost")
        if s == "offered":
            return t(lang, "rematch_waiting" if mine else "rematch_from", name=opponent)
        if s == "accepted":
            return t(lang, "rematch_starting")
        if s == "declined":
            theirs = self.state.get("offered_by") is not None and not mine
            return t(lang, "rematch_withdrawn" if theirs else "rematch_declined", name=opponent)
        if s == "expired":
            return t(lang, "rematch_expired")
        return ""


class RematchPanel:
    """The result dialog's rematch part: a line and the buttons the state allows (Rematch; Accept
    and Decline when the opponent offered; none once it is settled or while I wait)."""

    def __init__(self, lang: str, talk: RematchTalk, opponent: str, on_offer: Callable[[], object],
                 on_decline: Callable[[], object]) -> None:
        self.lang, self.talk, self.opponent = lang, talk, opponent
        self.on_offer, self.on_decline = on_offer, on_decline
        self.said = text(lang, "", theme.TYPE_BODY, True)
        self.buttons = ft.Row(wrap=True, spacing=theme.SPACE_TIGHT, alignment=ft.MainAxisAlignment.CENTER)
        self.control = ft.Column([self.said, self.buttons], tight=True, spacing=theme.SPACE_SNUG,
                                 horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        self.describe()

    def describe(self) -> None:
        """Set the line and the buttons from the talk's state (not sent: see :meth:`redraw`)."""
        lang, talk = self.lang, self.talk
        self.said.value = talk.line(lang, self.opponent)
        self.said.visible = bool(self.said.value)
        offer = ft.FilledButton(t(lang, "rematch"), icon=ft.Icons.REPLAY, on_click=lambda e: self.on_offer())
        buttons: list[ft.Control] = []
        if talk.status == "none" or talk.lost and not talk.final:
            buttons = [ft.Semantics(identifier="online-rematch", content=offer)]
        elif talk.status == "offered" and not talk.state.get("mine"):
            offer.content = t(lang, "rematch_accept")
            buttons = [ft.Semantics(identifier="online-rematch", content=offer),
                       ft.Semantics(identifier="online-rematch-decline", content=ft.TextButton(
                           t(lang, "rematch_decline"), on_click=lambda e: self.on_decline()))]
        self.buttons.controls = buttons

    def redraw(self) -> str:
        """Show the state anew; returns the line, for the screen to announce (a screen reader hears
        the offer, the answer, the expiry)."""
        self.describe()
        send(self.said, self.buttons)
        return str(self.said.value or "")
