"""The Spit table: the bot's five stocks on top, the two spit piles large in the middle, your five
stocks below. Tap a stock, then a pile (or an empty slot to fill it). When play is stuck a big
"Spit!" button appears; at the end of a round slap the smaller pile. A timer feeds the clock to
the driver, which plays the bot at its own human-like speed."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import flet as ft

from views.coach import coach_for, is_lesson
from views.i18n import t, why_text
from views.spit_controller import SpitGame
from views.widgets import FELT_DARK, HIGHLIGHT, SELECTED, card_back, card_face, table_header, text


class SpitTable:
    def __init__(self, app: Any, game: SpitGame, t0: float) -> None:
        self.app = app
        self.game = game
        self.t0 = t0
        self.root = ft.Column(expand=True, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        self.active = True

    @property
    def lang(self) -> str:
        return str(self.app.lang)

    def now(self) -> float:
        return time.monotonic() - self.t0

    def _stock(self, player: int, slot: int, obs: dict[str, Any]) -> ft.Control:
        p = obs["players"][player]
        top, size = p["stock_tops"][slot], p["stock_sizes"][slot]
        mine = player == 0
        selected = mine and self.game.selected == slot
        target = mine and slot in self.game.target_slots()
        if top:
            face = card_face(top, 56, 78, selected=selected, target=target)
        else:
            face = ft.Container(width=56, height=78, border=ft.Border.all(2, HIGHLIGHT if target else "#2E7D32"),
                                border_radius=ft.BorderRadius.all(6))
        # "+3" cards beneath; the left-to-right mark keeps the sign in front in Arabic too
        under = text(self.lang, "\u200e+" + str(size - 1) if size > 1 else " ", 11, color="#C8E6C9")
        body = ft.Container(ft.Column([face, under], spacing=2, tight=True,
                                      horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                            on_click=(lambda e, s=slot: self.on_stock(s)) if mine else None)
        return ft.Semantics(identifier=f"stock-{player}-{slot}", content=body)

    def _pile(self, i: int, obs: dict[str, Any]) -> ft.Control:
        top = obs["pile_tops"][i]
        target = i in self.game.target_piles() or (obs["phase"] == "slap" and i in obs["piles_in_use"])
        face = card_face(top, 84, 118, target=target) if top else ft.Container(
            width=84, height=118, border=ft.Border.all(2, "#2E7D32"), border_radius=ft.BorderRadius.all(8))
        body = ft.Container(ft.Column([face, text(self.lang, str(obs["pile_sizes"][i]), 12, color="#C8E6C9")],
                                      spacing=2, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                            on_click=lambda e, i=i: self.on_pile(i), padding=ft.Padding.all(4),
                            border_radius=ft.BorderRadius.all(10), bgcolor=FELT_DARK)
        return ft.Semantics(identifier=f"pile-{i}", content=body)

    def _status(self, obs: dict[str, Any]) -> str:
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
            ends = self.game.countdown_ends()
            if ends is not None and ends > self.now():
                return t(self.lang, "sp_countdown", s=f"{ends - self.now():.0f}")
            return t(self.lang, "sp_stalled") if self.game.can_spit() else t(self.lang, "sp_waiting")
        return t(self.lang, "sp_play")

    def build(self) -> ft.Control:
        self.refresh(update=False)
        if not is_lesson(self.game):  # a lesson has no clock: it moves only when the learner does
            self.app.page.run_task(self.ticker)
        return self.root

    def refresh(self, update: bool = True) -> None:
        obs = self.game.observation
        me, bot = obs["players"][0], obs["players"][1]
        lesson = is_lesson(self.game)
        title = self.game.lesson.title[self.lang] if lesson else f"{t(self.lang, 'spit')} · " \
            f"{t(self.lang, self.game.level)}"
        header = table_header(self.lang, title, lambda e: self.leave(), t(self.lang, "back"),
                              self.app.rules_button("spit"))
        bot_info = ft.Row([card_back(22, 30, str(bot["spit_count"])),
                           text(self.lang, t(self.lang, "sp_spit_cards", n=bot["spit_count"]) + " · " +
                                t(self.lang, "sp_total", n=bot["total"]), 12, color="#C8E6C9")], spacing=6)
        my_info = ft.Row([card_back(22, 30, str(me["spit_count"])),
                          text(self.lang, t(self.lang, "sp_spit_cards", n=me["spit_count"]) + " · " +
                               t(self.lang, "sp_total", n=me["total"]), 12, color="#C8E6C9")], spacing=6)
        self.status = text(self.lang, self._status(obs), 15, True, "#FFFFFF", align=ft.TextAlign.CENTER)
        spit_button = ft.FilledButton(
            t(self.lang, "spit_call"), on_click=self.on_spit, disabled=not self.game.can_spit(),
            style=ft.ButtonStyle(bgcolor=SELECTED if self.game.can_spit() else None, padding=ft.Padding.symmetric(
                horizontal=28, vertical=14)))
        self.root.controls = [
            header, bot_info,
            ft.Row([self._stock(1, s, obs) for s in range(5)], spacing=4, alignment=ft.MainAxisAlignment.CENTER),
            ft.Container(height=8),
            ft.Row([self._pile(0, obs), self._pile(1, obs)], spacing=24, alignment=ft.MainAxisAlignment.CENTER),
            coach_for(self.app, self.game, self.refresh) if lesson else self.status,  # type: ignore[arg-type]
            spit_button if obs["phase"] == "stalled" else ft.Container(height=48),
            ft.Container(expand=True),
            ft.Row([self._stock(0, s, obs) for s in range(5)], spacing=4, alignment=ft.MainAxisAlignment.CENTER),
            my_info,
        ]
        if update:
            self.app.page.update()

    async def ticker(self) -> None:
        """Feeds the clock to the driver (the bot's moves, the countdown, the next deal)."""
        last_phase = None
        last_status = ""
        while self.active:
            events = self.game.tick(self.now())
            phase = self.game.state.phase
            if events or phase != last_phase:
                self.refresh()  # rebuild only when something happened: taps must find live controls
            else:
                status = self._status(self.game.observation)
                if status != last_status:  # the countdown: change one text in place
                    self.status.value = status
                    self.status.update()
                last_status = status
            last_phase = phase
            if self.game.state.over:
                break
            await asyncio.sleep(0.05)

    def on_stock(self, slot: int) -> None:
        self.game.tap_stock(slot, self.now())
        self.refresh()

    def on_pile(self, pile: int) -> None:
        self.game.tap_pile(pile, self.now())
        self.refresh()

    def on_spit(self, e: Any) -> None:
        if self.game.can_spit():
            self.game.spit(self.now())
            self.refresh()

    def leave(self) -> None:
        self.active = False
        if is_lesson(self.game):
            self.app.learn_screen("spit")
        else:
            self.app.home()
