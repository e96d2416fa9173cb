"""The app shell: home, new game, settings, and the tables. One screen at a time on the page;
language and direction (Arabic is right-to-left) come from the stored profile."""

from __future__ import annotations

import time
from typing import Any

import flet as ft

from engine.lanes import VARIANTS, LanesOptions
from storage import api
from storage.db import Storage, open_storage
from views.i18n import LANGS, NAMES, RTL, t
from views.lanes_controller import LanesMatch
from views.lanes_table import LanesTable
from views.lopti_controller import LoptiMatch
from views.lopti_table import LoptiTable
from views.spit_controller import SpitGame
from views.spit_table import SpitTable
from views.widgets import FONTS, family, felt, icon_button, text

LEVELS = ("beginner", "casual", "skilled", "expert")


class App:
    def __init__(self, page: ft.Page, storage: Storage) -> None:
        self.page = page
        self.storage = storage
        self.name, self.settings = api.get_profile(storage)
        self.table: LanesTable | None = None
        self.lanes_variants: set[str] = set()

    @property
    def lang(self) -> str:
        lang = self.settings.get("language", "en")
        return lang if lang in LANGS else "en"

    def apply_language(self) -> None:
        fam, _ = family(self.lang)
        self.page.rtl = self.lang in RTL
        self.page.theme = ft.Theme(font_family=fam, color_scheme_seed="#0B5D3B")
        self.page.title = t(self.lang, "app_title")

    def show(self, content: ft.Control, bg: str | None = None) -> None:
        self.page.controls.clear()
        self.page.bgcolor = bg
        self.page.add(ft.SafeArea(content=content, expand=True))
        self.page.update()

    # --- screens --------------------------------------------------------------------------------

    def home(self) -> None:
        self.table = None
        lang = self.lang
        in_progress = [g for g in api.games_in_progress(self.storage)
                       if g.game == "lanes" and g.mode in ("bots", "pass_and_play")]
        lanes_buttons: list[ft.Control] = [ft.Button(t(lang, "play_vs_bot"), on_click=lambda e: self.pick_level())]
        if in_progress:
            gid = in_progress[0].id
            lanes_buttons.insert(0, ft.FilledButton(t(lang, "continue"), on_click=lambda e: self.resume(gid)))
        lopti_progress = [g for g in api.games_in_progress(self.storage) if g.game == "lopti" and g.mode == "bots"]
        lopti_buttons: list[ft.Control] = [
            ft.Button(t(lang, "players_n", n=n), on_click=lambda e, n=n: self.new_lopti(n)) for n in (2, 3, 4, 5)]
        if lopti_progress:
            lid = lopti_progress[0].id
            lopti_buttons.insert(0, ft.FilledButton(t(lang, "continue"), on_click=lambda e: self.resume_lopti(lid)))
        spit_progress = [g for g in api.games_in_progress(self.storage) if g.game == "spit" and g.mode == "bots"]
        spit_buttons: list[ft.Control] = [ft.Button(t(lang, "play_vs_bot"), on_click=lambda e: self.pick_level("spit"))]
        if spit_progress:
            sid = spit_progress[0].id
            spit_buttons.insert(0, ft.FilledButton(t(lang, "continue"), on_click=lambda e: self.resume_spit(sid)))
        tiles = [
            self._tile("lanes", lanes_buttons),
            self._tile("lopti", lopti_buttons),
            self._tile("spit", spit_buttons),
        ]
        body = ft.Column([
            ft.Row([ft.Container(text(lang, t(lang, "app_title"), 28, True), expand=True),
                    icon_button(ft.Icons.BAR_CHART, t(lang, "stats"), lambda e: self.stats_screen()),
                    icon_button(ft.Icons.SETTINGS, t(lang, "settings"), lambda e: self.settings_screen())]),
            text(lang, t(lang, "tagline"), 14, color="#424242"),
            *tiles,
        ], scroll=ft.ScrollMode.AUTO, spacing=12)
        self.show(ft.Container(body, padding=ft.Padding.all(16)))

    def _tile(self, game: str, buttons: list[ft.Control]) -> ft.Control:
        lang = self.lang
        return ft.Card(content=ft.Container(padding=16, content=ft.Column([
            text(lang, t(lang, game), 22, True),
            text(lang, t(lang, f"{game}_blurb"), 14),
            ft.Row(buttons, wrap=True, spacing=8),
        ], spacing=8)))

    def pick_level(self, game: str = "lanes") -> None:
        lang = self.lang
        start = self.new_lanes if game == "lanes" else self.new_spit
        buttons: list[ft.Control] = [ft.Button(t(lang, lvl), width=260, on_click=lambda e, lv=lvl: start(lv))
                                     for lvl in LEVELS]
        if game == "lanes":
            buttons.append(ft.OutlinedButton(t(lang, "pass_and_play"), width=260,
                                             on_click=lambda e: self.new_lanes("person")))
            buttons.insert(0, self._variant_picker())  # choose the rules first, then the opponent
        body = ft.Column([
            ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: self.home()),
                    text(lang, t(lang, "choose_level"), 20, True)]),
            *buttons,
        ], spacing=12, horizontal_alignment=ft.CrossAxisAlignment.CENTER, scroll=ft.ScrollMode.AUTO)
        self.show(ft.Container(body, padding=ft.Padding.all(16)))

    def _variant_picker(self) -> ft.Control:
        """L-9 variants as toggles; with none on, a badge says these are the rated rules (L-8.5)."""
        lang = self.lang
        badge = text(lang, "", 13, True)

        def update_badge() -> None:
            n = len(self.lanes_variants)
            badge.value = t(lang, "rated_rules") if n == 0 else t(lang, "friendly_rules", n=n)
            badge.color = "#2E7D32" if n == 0 else "#E65100"

        def toggle(e: Any, name: str) -> None:
            if e.control.value:
                self.lanes_variants.add(name)
            else:
                self.lanes_variants.discard(name)
            update_badge()
            self.page.update()

        update_badge()
        boxes = [ft.Checkbox(label=t(lang, f"variant_{v}"), value=v in self.lanes_variants,
                             on_change=lambda e, v=v: toggle(e, v)) for v in VARIANTS]
        return ft.Container(ft.Column([badge, ft.ExpansionTile(title=text(lang, t(lang, "variants"), 14),
                                                               controls=boxes)], spacing=4), width=340)

    def new_lanes(self, level: str) -> None:
        seed = int(time.time() * 1000) & 0xFFFFFFFF  # the app picks a seed; the engine never reads a clock
        options = LanesOptions(**{v: True for v in self.lanes_variants})
        self.open_table(LanesMatch(self.storage, level, seed, options=options))

    def resume(self, game_id: int) -> None:
        self.open_table(LanesMatch.resume(self.storage, game_id))

    def open_table(self, match: LanesMatch) -> None:
        self.table = LanesTable(self, match)
        self.show(felt(self.table.build(), self.page.width), bg="#0B5D3B")
        if not match.state.over and not match.my_turn:
            self.page.run_task(self.table.bot_turn)

    def new_spit(self, level: str) -> None:
        seed = int(time.time() * 1000) & 0xFFFFFFFF
        t0 = time.monotonic()
        self.open_spit(SpitGame(self.storage, level, seed, 0.0), t0)

    def resume_spit(self, game_id: int) -> None:
        t0 = time.monotonic()
        self.open_spit(SpitGame.resume(self.storage, game_id, 0.0), t0)

    def open_spit(self, game: SpitGame, t0: float) -> None:
        table = SpitTable(self, game, t0)
        self.show(felt(table.build(), self.page.width), bg="#0B5D3B")

    def new_lopti(self, players: int) -> None:
        seed = int(time.time() * 1000) & 0xFFFFFFFF
        levels = ["expert", "casual", "skilled", "beginner"][: players - 1]
        self.open_lopti(LoptiMatch(self.storage, levels, seed))

    def resume_lopti(self, game_id: int) -> None:
        self.open_lopti(LoptiMatch.resume(self.storage, game_id))

    def open_lopti(self, match: LoptiMatch) -> None:
        table = LoptiTable(self, match)
        self.show(felt(table.build(), self.page.width), bg="#0B5D3B")
        if not match.state.over and not match.my_turn:
            self.page.run_task(table.bot_turn)

    def stats_screen(self) -> None:
        """Per game and opponent level: played, won, streaks, average length; recent results."""
        lang = self.lang
        rows: list[ft.Control] = []
        for key, e in sorted(api.stats(self.storage).items()):
            game, _, levels = key.partition("/")
            names = ", ".join(t(lang, lv) for lv in levels.split("+"))
            rows.append(ft.Card(content=ft.Container(padding=12, content=ft.Column([
                text(lang, f"{t(lang, game)} · {t(lang, 'vs', who=names)}", 16, True),
                text(lang, f"{t(lang, 'played')} {e['played']} · {t(lang, 'wonn')} {e['won']} · "
                           f"{t(lang, 'streak')} {e['streak']} · {t(lang, 'best_streak')} {e['best_streak']} · "
                           f"{t(lang, 'avg_len')} {e['avg_actions']:.0f}", 13),
            ], spacing=4))))
        recent: list[ft.Control] = []
        for g in api.history(self.storage, limit=10):
            res = "result_none" if g.winner is None else ("result_won" if g.winner == 0 else "result_lost")
            recent.append(text(lang, f"{t(lang, g.game)} — {t(lang, res)} ({len(g.actions)})", 13))
        body = ft.Column([
            ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: self.home()),
                    text(lang, t(lang, "stats"), 20, True)]),
            *(rows or [text(lang, t(lang, "no_games"), 14)]),
            text(lang, t(lang, "recent"), 16, True) if recent else ft.Container(),
            *recent,
        ], spacing=10, scroll=ft.ScrollMode.AUTO)
        self.show(ft.Container(body, padding=ft.Padding.all(16)))

    def settings_screen(self) -> None:
        lang = self.lang
        name = ft.TextField(label=t(lang, "name"), value=self.name, max_length=40)
        language = ft.Dropdown(label=t(lang, "language"), value=lang,
                               options=[ft.DropdownOption(key=code, text=NAMES[code]) for code in LANGS])

        def save(e: Any) -> None:
            try:
                self.settings = api.update_profile(self.storage, display_name=name.value or "Player",
                                                   language=language.value or "en")
                self.name = (name.value or "Player").strip()
            except ValueError as exc:
                self.page.show_dialog(ft.AlertDialog(title=text(self.lang, str(exc), 14)))
                return
            self.apply_language()
            self.home()

        body = ft.Column([
            ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: self.home()),
                    text(lang, t(lang, "settings"), 20, True)]),
            name, language, ft.FilledButton(t(lang, "save"), on_click=save),
        ], spacing=12)
        self.show(ft.Container(body, padding=ft.Padding.all(16)))


def start(page: ft.Page, db: str | None = None) -> App:
    page.fonts = dict(FONTS)
    page.padding = 0
    storage = open_storage(db)
    app = App(page, storage)
    app.apply_language()
    app.home()
    if storage.notice:
        page.show_dialog(ft.AlertDialog(title=text(app.lang, t(app.lang, "notice"), 16, True),
                                        content=text(app.lang, storage.notice, 13)))
    return app
