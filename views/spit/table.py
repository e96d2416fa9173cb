"""The Spit table: the bot's five stocks on top, the two spit piles large in the middle, your five
stocks below. Tap a stock, then a pile (or an empty slot to fill it). When play is stuck a big
"Spit!" button appears; at the end of a round slap the smaller pile. A timer feeds the clock to
the driver, which plays the bot at its own human-like speed."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from engine.core import Event
from engine.spit.notation import SpitObservation
from views.screens.rules import rules_button
from views.spit.contract import SpitControls
from views.table.announce import Announcements
from views.table.coach import coach_for
from views.table.motion import TOWARD_ME, TOWARD_THEM, Arrivals, spit_landed, spit_taken
from views.table.result import Outcome, result_dialog
from views.table.screen import NewGame, Table
from views.ui import sizing, theme
from views.ui.i18n import card_name, counted, t, why_text
from views.ui.reconcile import anew_when, send, show
from views.ui.widgets import (
    FELT_DARK,
    HIGHLIGHT,
    card_back,
    card_face,
    card_slot,
    drag_ghost,
    dragged_card,
    handler,
    pad,
    radius,
    seat_plate,
    table_button,
    table_header,
    text,
)

if TYPE_CHECKING:
    from views.host import Host


class SpitTable(Table):
    def __init__(self, app: Host, game: SpitControls, t0: float, new_game: NewGame) -> None:
        self.app = app
        #: a rematch, or after the last lesson a game against the Beginner
        self.new_game = new_game
        self.game = game
        self.t0 = t0
        self.paused_at: float | None = None
        self.root = ft.Column(expand=True, spacing=theme.SPACE, horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        self.active = True
        #: when a drag started (the ticker holds its rebuilds until the drop), and a held rebuild
        self.drag_started: float | None = None
        self.stale = False
        #: the last events (a play grows onto its pile: views/table/motion.py)
        self.motion = Arrivals()
        self.taken: dict[int, int] = {}  # pile → who took it, in the batch being drawn
        self.sizes = self._sized()
        self.events: list[Event] = []
        self.landed: set[int] = set()
        #: one long-lived status line: the ticker changes its text in place (the countdown)
        self.status = text(app.lang, "", theme.TYPE_LEAD, True, theme.ON_FELT, align=ft.TextAlign.CENTER)
        #: what a screen reader has heard: only what concerns the player (the status line: play on,
        #: stuck, Spit!, a refusal, a round or the game won or lost), never each card the bot plays
        self.announcements = Announcements(lambda message: app.feedback.say(message, app.lang))

    @property
    def lang(self) -> str:
        return str(self.app.lang)

    def now(self) -> float:
        """Game time: wall time since the table opened, minus the time the app spent in the
        background (the Spit clock and the bot are paused there)."""
        if self.paused_at is not None:
            return self.paused_at - self.t0
        return time.monotonic() - self.t0

    def pause(self) -> None:
        if self.paused_at is None:
            self.paused_at = time.monotonic()

    def resume(self) -> None:
        if self.paused_at is not None:
            self.t0 += time.monotonic() - self.paused_at  # the pause never happened, for the game
            self.paused_at = None

    def _stock(self, player: int, slot: int, obs: SpitObservation) -> ft.Control:
        p = obs["players"][player]
        top, size = p["stock_tops"][slot], p["stock_sizes"][slot]
        sw, sh = self.sizes[0]
        mine = player == 0 or self.game.split  # split screen: both rows answer taps
        selected = mine and self.game.picked[player] == slot
        target = mine and slot in self.game.target_slots(player)
        if top:
            face = card_face(top, sw, sh, selected=selected, target=target)
            if size > 1:  # the stock's other cards lie face down beneath its top card
                face = ft.Stack([ft.Container(card_back(sw, sh), left=3, top=3), face], width=sw + 3, height=sh + 3)
        else:
            face = ft.Container(width=sw, height=sh, border=ft.Border.all(2, HIGHLIGHT if target else theme.SUCCESS),
                                border_radius=radius(6))
        # how many cards the stock holds, as under the centre piles (no sign: a "+3" needed a
        # direction mark in Arabic, which the bundled font's fallback then drew without its "+")
        under = text(self.lang, str(size) if size else " ", theme.TYPE_TINY, color=theme.ON_FELT_MUTED)
        # an ink well (when it answers taps) is what Tab visits and Enter activates; its words are the
        # stock's label, merged into the one node (its own contents are not read twice)
        body: ft.Control = ft.Container(ft.Semantics(exclude_semantics=True, content=ft.Column(
            [face, under], spacing=theme.SPACE_FINE, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)),
            on_click=(lambda e, s=slot, pl=player: self.on_stock(s, pl)) if mine else None, ink=mine)
        if mine and top:  # drag a stock onto a pile (or an empty slot) as well as tapping
            body = ft.Draggable(group="spit", data=f"{player}:{slot}", content=body,
                                content_feedback=dragged_card(top, 60, 84),
                                content_when_dragging=drag_ghost(sw, sh + 18),
                                on_drag_start=lambda e: self._drag(True),
                                on_drag_complete=lambda e: self._drag(False))
        elif mine:
            body = ft.DragTarget(group="spit", content=body,
                                 on_accept=lambda e, s=slot, pl=player: self.on_drop(str(e.src.data), slot=(pl, s)))
        # keyed by what it shows, like a lane (views/ui/reconcile.py): a changed stock is a new node
        said = t(self.lang, "sp_my_stock_said" if player == 0 else "sp_their_stock_said", n=slot + 1,
                 what=self._said(top, size))
        return anew_when(ft.MergeSemantics(ft.Semantics(identifier=f"stock-{player}-{slot}", container=True,
                                                        label=said, button=mine, selected=selected, content=body)),
                         (top, size))

    def _said(self, top: str | None, size: int) -> str:
        """A stock's or a pile's spoken contents: its top card by name and how many cards it holds."""
        if not top:
            return t(self.lang, "sp_empty_said")
        return t(self.lang, counted("sp_cards_said", size), card=card_name(self.lang, top), count=size)

    def _sized(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """(stock card, pile card) sizes from the page (views/ui/sizing.py)."""
        sizes = sizing.spit(self.app.page.width, self.app.page.height)
        return sizes.stock, sizes.pile

    def _deck(self, player: int, obs: SpitObservation) -> ft.Control:
        """A player's spit deck beside the centre piles (S-2): a card back with its count, the
        cards they turn up onto a pile when play is stuck."""
        w, h = self.sizes[0]
        n = obs["players"][player]["spit_count"]
        face = card_back(w, h, str(n)) if n else card_slot(w, h)
        return ft.Semantics(identifier=f"spit-deck-{player}", content=ft.Column(
            [face, text(self.lang, t(self.lang, "sp_spit_cards", n=n), theme.TYPE_TINY, color=theme.ON_FELT_MUTED)],
            spacing=theme.SPACE_FINE, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER))

    def _centre(self, obs: SpitObservation) -> ft.Control:
        """The two piles, each player's spit deck at their own side of them."""
        return ft.Row([self._deck(1, obs), self._pile(0, obs), self._pile(1, obs), self._deck(0, obs)],
                      spacing=theme.SPACE,
                      alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def _pile(self, i: int, obs: SpitObservation) -> ft.Control:
        top = obs["pile_tops"][i]
        target = (i in self.game.target_piles(0) or (self.game.split and i in self.game.target_piles(1))
                  or (obs["phase"] == "slap" and i in obs["piles_in_use"]))
        pw, ph = self.sizes[1]
        face = card_face(top, pw, ph, target=target) if top else ft.Container(
            width=pw, height=ph, border=ft.Border.all(2, theme.SUCCESS), border_radius=radius(8))
        if top and obs["pile_sizes"][i] > 1:  # the pile's thickness: the cards beneath show at its edge
            edge = ft.Container(width=pw, height=ph, bgcolor=theme.CARD_FACE, border=ft.Border.all(1, theme.CARD_EDGE),
                                border_radius=radius(max(3.0, pw * theme.CARD_RADIUS)))
            face = ft.Stack([ft.Container(edge, left=3, top=3), face], width=pw + 3, height=ph + 3)
        if top and i in self.landed:
            face = self.motion.wrap(face)
        before = self.motion.remember(f"pile-{i}", top)
        if i in self.taken and before:  # the slap: the pile goes to the one who took it (S-5)
            toward = TOWARD_ME if self.taken[i] == 0 else TOWARD_THEM
            face = ft.Stack([face, self.motion.ghost(card_face(before, pw, ph), toward)],
                            clip_behavior=ft.ClipBehavior.NONE)
        size = text(self.lang, str(obs["pile_sizes"][i]), theme.TYPE_NOTE, color=theme.ON_FELT_MUTED)
        body = ft.Container(ft.Semantics(exclude_semantics=True, content=ft.Column(
            [face, size], spacing=theme.SPACE_FINE, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)),
            on_click=lambda e, i=i: self.on_pile(i), padding=pad(theme.SPACE_TIGHT),
            border_radius=radius(10), bgcolor=FELT_DARK, ink=True)
        said = t(self.lang, "sp_pile_said", n=i + 1, what=self._said(top, obs["pile_sizes"][i]))
        return anew_when(ft.MergeSemantics(ft.Semantics(
            identifier=f"pile-{i}", container=True, label=said, button=True, content=ft.DragTarget(
                group="spit", content=body, on_accept=lambda e, i=i: self.on_drop(str(e.src.data), pile=i)))),
            (top, obs["pile_sizes"][i]))

    def _status(self, obs: SpitObservation) -> str:
        caption = self.game.mode.caption(self.lang)
        if caption is not None:
            return caption
        phase = obs["phase"]
        if self.game.refusal is not None and phase == "play":
            return t(self.lang, "not_possible", why=why_text(self.lang, self.game.refusal))
        if phase == "over":
            return t(self.lang, "sp_won") if obs["winner"] == 0 else t(self.lang, "sp_lost")
        if phase == "slap":
            return t(self.lang, "sp_slap")
        if phase == "round_over":
            return t(self.lang, "sp_round")
        if phase == "stalled":
            left = self._countdown_left(obs)
            if left is not None:
                return t(self.lang, "sp_countdown", s=f"{left:.0f}")
            return t(self.lang, "sp_stalled") if self.game.can_spit() else t(self.lang, "sp_waiting")
        return t(self.lang, "sp_play")

    def _countdown_left(self, obs: SpitObservation) -> float | None:
        """Seconds left of a stuck round's countdown to turning the spit cards; None when none runs."""
        ends = self.game.countdown_ends()
        if obs["phase"] != "stalled" or ends is None or ends <= self.now():
            return None
        return ends - self.now()

    def _heard(self, obs: SpitObservation, status: str) -> None:
        """Say the status line when it changed — not a lesson's (the coach speaks), nor the seconds
        of a countdown, which would be a message a second: the countdown is said when it ends."""
        if self.game.mode.coach is None and self._countdown_left(obs) is None:
            self.announcements.shown(status, "")

    def build(self) -> ft.Control:
        self.refresh(update=False)
        # a lesson has no clock (it moves only when the learner does), nor has a replay
        if self.game.mode.ticks:
            self.app.page.run_task(self.ticker)
        return self.root

    def refresh(self, update: bool = True) -> None:
        fresh = self.motion.fresh(self.events)
        self.sizes = self._sized()
        self.landed = spit_landed(self.events) if fresh else set()
        self.taken = spit_taken(self.events) if fresh else {}
        obs = self.game.observation
        coach = self.game.mode.coach
        lesson = coach is not None
        title = coach.lesson.title[self.lang] if coach else f"{t(self.lang, 'spit')} · " \
            f"{t(self.lang, 'sp_two_players' if self.game.split else self.game.level)}"
        header = table_header(self.lang, title, lambda e: self.leave(), t(self.lang, "back"),
                              rules_button(self.app, "spit"))
        def counts(p: int) -> str:
            """Spit cards and cards owned, and in the points game the player's score (S-8.1)."""
            d = obs["players"][p]
            words = t(self.lang, "sp_spit_cards", n=d["spit_count"]) + " · " + t(self.lang, "sp_total", n=d["total"])
            if obs["scoring"] == "points":
                words += " · " + t(self.lang, "sp_points", n=obs["scores"][p])
            return words

        def info(p: int) -> ft.Control:
            return ft.Row([seat_plate(self.lang, t(self.lang, "player_n", n=p + 1),
                                      text(self.lang, counts(p), theme.TYPE_NOTE, color=theme.ON_FELT_MUTED),
                                      )], alignment=ft.MainAxisAlignment.CENTER)

        def plate(p: int, name: str) -> ft.Control:
            return ft.Row([seat_plate(self.lang, name, ft.Semantics(identifier=f"spit-counts-{p}", content=text(
                self.lang, counts(p), theme.TYPE_NOTE, color=theme.ON_FELT_MUTED)))])

        bot_info = plate(1, t(self.lang, self.game.level))
        my_info = plate(0, t(self.lang, "you"))
        self.status.value = self._status(obs)
        self._heard(obs, self.status.value)
        spit_button = table_button(t(self.lang, "spit_call"), self.on_spit, disabled=not self.game.can_spit(),
                                   kind="primary")
        if self.game.split:
            show(self.root, self._split_rows(obs, header, info), update)
            self.motion.settle(self.app.page, self.refresh)
            return
        rows = [
            header, bot_info,
            ft.Row([self._stock(1, s, obs) for s in range(5)], spacing=theme.SPACE_TIGHT,
                   alignment=ft.MainAxisAlignment.CENTER),
            ft.Container(height=8),
            self._centre(obs),
            self._coach() if lesson else self.status,
            spit_button if obs["phase"] == "stalled" else ft.Container(height=theme.BUTTON_HEIGHT),
            ft.Container(expand=True),
            ft.Row([self._stock(0, s, obs) for s in range(5)], spacing=theme.SPACE_TIGHT,
                   alignment=ft.MainAxisAlignment.CENTER),
            my_info,
        ]
        show(self.root, rows, update)
        self.motion.settle(self.app.page, self.refresh)

    async def ticker(self) -> None:
        """Feeds the clock to the driver (the bot's moves, the countdown, the next deal)."""
        last_phase = None
        last_status = ""
        while self.active:
            if self.paused_at is not None:  # in the background: nothing moves, the bot waits
                await asyncio.sleep(theme.PAUSED_POLL_S)
                continue
            events = self.game.tick(self.now())
            phase = self.game.state.phase
            if events:
                self.feedback(events)
            if (events or phase != last_phase or self.stale) and self.dragging():
                self.stale = True  # a rebuild now would drop the card under the finger: after the drop
            elif events or phase != last_phase or self.stale:
                self.stale = False
                self.refresh()  # rebuild only when something happened: taps must find live controls
            else:
                status = self._status(self.game.observation)
                if status != last_status:  # the countdown: change one text in place
                    self.status.value = status
                    send(self.status)
                    self._heard(self.game.observation, status)
                last_status = status
            last_phase = phase
            if self.game.state.over:
                self.show_result(self.game.observation)
                break
            await asyncio.sleep(theme.SPIT_FRAME_S)

    def feedback(self, events: list[Event], player: int = 0) -> None:
        """A sound and a haptic tap for what happened (the engine's 'rejected' event is a refusal; a
        tap that only picks up a stock is silent)."""
        if events:
            self.events = events
        if events:
            self.app.feedback.events(events, player)

    def _drag(self, on: bool) -> None:
        self.drag_started = time.monotonic() if on else None

    def dragging(self) -> bool:
        """A stock is being dragged (a drag dropped nowhere sends no end: give up after 3 s)."""
        return self.drag_started is not None and time.monotonic() - self.drag_started < 3.0

    def on_drop(self, data: str, pile: int | None = None, slot: tuple[int, int] | None = None) -> None:
        """A stock dragged onto a pile or an empty slot: exactly a tap on the stock, then on the target."""
        self.drag_started = None
        player, source = (int(x) for x in data.split(":"))
        if slot is not None and slot[0] != player:
            return  # the other person's row
        now = self.now()
        if self.game.picked[player] != source:
            self.game.tap_stock(source, now, player)
        if pile is not None:
            self.feedback(self.game.tap_pile(pile, now, player), player)
        elif slot is not None:
            self.feedback(self.game.tap_stock(slot[1], now, player), player)
        self.refresh()

    def on_stock(self, slot: int, player: int = 0) -> None:
        self.feedback(self.game.tap_stock(slot, self.now(), player), player)
        self.refresh()

    def on_pile(self, pile: int) -> None:
        self.feedback(self.game.tap_pile(pile, self.now()))
        self.refresh()

    def on_spit(self, e: object, player: int = 0) -> None:
        if self.game.can_spit(player):
            self.feedback(self.game.spit(self.now(), player), player)
            self.refresh()

    def on_slap(self, pile: int, player: int) -> None:
        self.feedback(self.game.tap_pile(pile, self.now(), player), player)
        self.refresh()

    def _controls(self, player: int, obs: SpitObservation) -> ft.Control:
        """Split screen: one person's own buttons (Spit!, and the two slap targets when a round ends)."""
        lang = self.lang
        if obs["phase"] == "slap":
            return ft.Row([table_button(t(lang, "sp_slap_pile", n=i + 1, size=obs["pile_sizes"][i]),
                                        handler(self.on_slap, i, player), kind="primary",
                                        ident=f"slap-{player}-{i}") for i in obs["piles_in_use"]],
                          spacing=theme.SPACE_LOOSE, alignment=ft.MainAxisAlignment.CENTER)
        if obs["phase"] == "stalled":
            return table_button(t(lang, "spit_call"), lambda e: self.on_spit(e, player),
                                disabled=not self.game.can_spit(player), kind="primary", ident=f"spit-{player}")
        return ft.Container(height=theme.BUTTON_HEIGHT)

    def _split_rows(self, obs: SpitObservation, header: ft.Control, info: Any) -> list[ft.Control]:
        """Two people on one device: player 2's half is turned to face them across the table."""
        top = ft.Container(ft.Column([
            ft.Row([self._stock(1, s, obs) for s in range(5)], spacing=theme.SPACE_TIGHT,
                   alignment=ft.MainAxisAlignment.CENTER),
            info(1), self._controls(1, obs)], spacing=theme.SPACE_SNUG,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            rotate=math.pi)
        return [
            header, top,
            self._centre(obs),
            self.status,
            ft.Container(expand=True),
            self._controls(0, obs),
            ft.Row([self._stock(0, s, obs) for s in range(5)], spacing=theme.SPACE_TIGHT,
                   alignment=ft.MainAxisAlignment.CENTER),
            info(0),
        ]

    def _coach(self) -> ft.Control:
        coach = self.game.mode.coach
        assert coach is not None  # drawn only in a lesson
        return coach_for(self.app, coach, self.game.mode.status(), self.game.refusal, self.refresh, coach.show_hint,
                         self._unpick, lambda: self.new_game("beginner"))

    def _unpick(self) -> None:
        self.game.picked, self.game.refusal = {0: None, 1: None}, None

    def show_result(self, obs: SpitObservation) -> None:
        """The game's end (not a lesson's: the coach says it): who won, why, the cards or points."""
        if self.game.mode.coach is not None or not self.active:
            return
        key = "sp_result_points" if obs["scoring"] == "points" else "sp_result_cards"
        me, other = (obs["scores"] if obs["scoring"] == "points" else [p["total"] for p in obs["players"]])[:2]
        them = t(self.lang, "player_n", n=2) if self.game.split else t(self.lang, self.game.level)
        won = None if obs["winner"] is None else obs["winner"] == 0
        reason = t(self.lang, "sp_reason_points" if obs["scoring"] == "points" else "sp_reason_cards")
        game_id = self.game.mode.game_id

        def close(then: Callable[[], None]) -> Callable[[], None]:
            def run() -> None:
                self.app.page.pop_dialog()
                then()
            return run

        self.app.page.show_dialog(result_dialog(
            self.lang, Outcome(won, reason, t(self.lang, key, me=me, them=them, other=other)),
            on_rematch=close(lambda: self.new_game(self.game.level)),
            on_home=close(lambda: self.app.go("/")),
            on_replay=close(lambda: self.app.go(f"/replay/{game_id}")) if game_id is not None else None))

    def leave(self) -> None:
        """Back (the header's arrow): the route's parent (the lessons from a lesson, else home)."""
        self.active = False
        self.app.back()

    def stop(self) -> None:
        self.active = False
