"""The app shell: home, new game, settings, and the tables. One screen at a time on the page;
language and direction (Arabic is right-to-left) come from the stored profile."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import flet as ft

from engine.lanes import VARIANTS, LanesOptions
from storage import api
from storage.db import Storage, open_storage
from views.feedback import Feedback
from views.i18n import LANGS, NAMES, RTL, t
from views.lanes_controller import LanesMatch
from views.lanes_table import LanesTable
from views.lessons import LanesLesson, LoptiLesson, SpitLesson, find, lessons
from views.lopti_controller import LoptiMatch
from views.lopti_session import SessionFlow
from views.lopti_table import LoptiTable
from views.prefs import BOT_SPEEDS, CARD_STYLES, THEMES, Prefs
from views.rules_pages import RulesPageError, page
from views.spit_controller import SpitGame
from views.spit_table import SpitTable
from views.widgets import FONTS, card_face, family, felt, icon_button, text

LEVELS = ("beginner", "casual", "skilled", "expert")


class App:
    def __init__(self, page: ft.Page, storage: Storage) -> None:
        self.page = page
        self.storage = storage
        self.name, self.settings = api.get_profile(storage)
        self.table: Any = None
        self.lanes_variants: set[str] = set()
        self.back_action: Callable[[], None] | None = None
        self.at_root = False
        #: which screen owns the background tasks now (an online wait loop stops when it changes)
        self.screen_token = "home"
        #: the app is in the background (lifecycle): the Spit clock and bots are paused
        self.paused = False
        self.feedback = Feedback(page, lambda: self.prefs)

    @property
    def prefs(self) -> Prefs:
        return Prefs.from_settings(self.settings)

    @property
    def lang(self) -> str:
        lang = self.settings.get("language", "en")
        return lang if lang in LANGS else "en"

    def apply_language(self) -> None:
        """Language, direction, theme and card style from the settings (all applied together)."""
        fam, _ = family(self.lang)
        prefs = self.prefs
        self.page.rtl = self.lang in RTL
        self.page.theme = ft.Theme(font_family=fam, color_scheme_seed="#0B5D3B")
        self.page.dark_theme = ft.Theme(font_family=fam, color_scheme_seed="#0B5D3B")
        self.page.theme_mode = {"light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}.get(
            prefs.theme, ft.ThemeMode.SYSTEM)
        self.page.cardtable_card_style = prefs.card_style  # type: ignore[attr-defined]  # read by widgets
        self.page.title = t(self.lang, "app_title")

    def show(self, content: ft.Control, bg: str | None = None, back: Callable[[], None] | None = None,
             root: bool = False, table: bool = False) -> None:
        """Put one screen on the page (``table``: the screen is ``self.table``). Every screen but
        home has a way back (``back``, else the table's own ``leave``, else home): Android's back
        button and Escape take it, so back never closes the app mid-game; on home, back leaves the
        app as Android users expect."""
        if not table:
            self.table = None
        self.back_action = None if root else back
        self.at_root = root
        view = self.page.views[0] if self.page.views else None
        if view is not None:
            view.can_pop = root
            view.on_confirm_pop = None if root else self._confirm_pop
        self.page.controls.clear()
        self.page.bgcolor = bg
        self.page.add(ft.SafeArea(content=content, expand=True))
        self.page.update()

    async def _confirm_pop(self, e: Any) -> None:
        """Android back (a system pop of the one view): refuse the pop and go back a screen instead."""
        await e.control.confirm_pop(False)
        self.go_back()

    def on_key(self, e: Any) -> None:
        if getattr(e, "key", "") == "Escape" and not self._dialog_open():
            self.go_back()

    def _dialog_open(self) -> bool:
        dialogs = getattr(getattr(self.page, "_dialogs", None), "controls", [])
        return any(getattr(d, "open", False) for d in dialogs)

    def go_back(self) -> bool:
        """One screen back; False on home (nothing to go back to)."""
        if self.at_root:
            return False
        if self.back_action is not None:
            self.back_action()
        elif self.table is not None and hasattr(self.table, "leave"):
            self.table.leave()
        else:
            self.home()
        return True

    # --- screens --------------------------------------------------------------------------------

    def home(self) -> None:
        self.table = None
        self.screen_token = "home"
        lang = self.lang
        in_progress = [g for g in api.games_in_progress(self.storage)
                       if g.game == "lanes" and g.mode in ("bots", "pass_and_play")]
        lanes_buttons: list[ft.Control] = [ft.Button(t(lang, "play_vs_bot"), on_click=lambda e: self.pick_level())]
        if in_progress:
            gid = in_progress[0].id
            lanes_buttons.insert(0, ft.FilledButton(t(lang, "continue"), on_click=lambda e: self.resume(gid)))
        lopti_progress = [g for g in api.games_in_progress(self.storage)
                          if g.game == "lopti" and g.mode in ("bots", "pass_and_play")]
        lopti_buttons: list[ft.Control] = [
            ft.Button(t(lang, "players_n", n=n), on_click=lambda e, n=n: self.new_lopti(n)) for n in (2, 3, 4, 5)]
        lopti_buttons.append(ft.OutlinedButton(t(lang, "lopti_table_setup"), icon=ft.Icons.GROUPS,
                                               on_click=lambda e: self.lopti_setup()))
        if lopti_progress:
            lid = lopti_progress[0].id
            lopti_buttons.insert(0, ft.FilledButton(t(lang, "continue"), on_click=lambda e: self.resume_lopti(lid)))
        else:  # a session between deals
            between = next((s for s in api.sessions(self.storage) if s["status"] == "running"), None)
            if between is not None:
                sid = int(between["id"])
                lopti_buttons.insert(0, ft.FilledButton(t(lang, "continue"),
                                                        on_click=lambda e: self.lopti_session(sid)))
        spit_progress = [g for g in api.games_in_progress(self.storage)
                         if g.game == "spit" and g.mode in ("bots", "pass_and_play")]
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
                    icon_button(ft.Icons.SCHOOL, t(lang, "learn"), lambda e: self.learn_screen()),
                    icon_button(ft.Icons.PUBLIC, t(lang, "online"), lambda e: self.online()),
                    icon_button(ft.Icons.BAR_CHART, t(lang, "stats"), lambda e: self.stats_screen()),
                    icon_button(ft.Icons.SETTINGS, t(lang, "settings"), lambda e: self.settings_screen())]),
            text(lang, t(lang, "tagline"), 14, color=ft.Colors.ON_SURFACE_VARIANT),
            *tiles,
        ], scroll=ft.ScrollMode.AUTO, spacing=12)
        self.show(ft.Container(body, padding=ft.Padding.all(16)), root=True)

    def _tile(self, game: str, buttons: list[ft.Control]) -> ft.Control:
        lang = self.lang
        extra = [ft.TextButton(t(lang, "learn"), icon=ft.Icons.SCHOOL, on_click=lambda e: self.learn_screen(game)),
                 ft.TextButton(t(lang, "rules"), icon=ft.Icons.MENU_BOOK, on_click=lambda e: self.rules_screen(game))]
        return ft.Card(content=ft.Container(padding=16, content=ft.Column([
            text(lang, t(lang, game), 22, True),
            text(lang, t(lang, f"{game}_blurb"), 14),
            ft.Row(buttons, wrap=True, spacing=8),
            ft.Row(extra, wrap=True, spacing=0),
        ], spacing=8)))

    # --- learning ---------------------------------------------------------------------------------

    def learn_screen(self, focus: str | None = None) -> None:
        """Every lesson per game with its progress; a finished game's lessons suggest a first real
        game against the Beginner bot."""
        self.table = None
        lang = self.lang
        progress = api.lesson_progress(self.storage)
        cards: list[ft.Control] = []
        games = [focus] if focus in lessons() else list(lessons())
        games += [g for g in lessons() if g not in games]
        for game in games:
            group = lessons()[game]
            done = sum(1 for x in group if progress.get(x.id, (0, False))[1])
            rows: list[ft.Control] = []
            for i, lesson in enumerate(group):
                finished = progress.get(lesson.id, (0, False))[1]
                rows.append(ft.Semantics(identifier=f"lesson-{lesson.id}", button=True, content=ft.ListTile(
                    leading=ft.Icon(ft.Icons.CHECK_CIRCLE if finished else ft.Icons.PLAY_CIRCLE_OUTLINE,
                                    color="#2E7D32" if finished else ft.Colors.PRIMARY),
                    title=text(lang, f"{i + 1}. {lesson.title[lang]}", 15),
                    on_click=lambda e, lid=lesson.id: self.open_lesson(lid))))
            column: list[ft.Control] = [
                ft.Row([ft.Container(text(lang, t(lang, game), 20, True), expand=True),
                        ft.TextButton(t(lang, "rules"), icon=ft.Icons.MENU_BOOK,
                                      on_click=lambda e, g=game: self.rules_screen(g))]),
                text(lang, t(lang, "lesson_progress", done=done, n=len(group)), 13, color=ft.Colors.ON_SURFACE_VARIANT),
                *rows,
            ]
            if group and done == len(group):
                column.append(ft.Row([text(lang, t(lang, "lessons_done", game=t(lang, game)), 13, True, "#2E7D32"),
                                      ft.FilledButton(t(lang, "play_beginner"),
                                                      on_click=lambda e, g=game: self.start_game(g, "beginner"))],
                                     wrap=True))
            cards.append(ft.Card(content=ft.Container(ft.Column(column, spacing=4), padding=12)))
        body = ft.Column([
            ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: self.home()),
                    text(lang, t(lang, "lessons"), 20, True)]),
            *cards,
        ], spacing=10, scroll=ft.ScrollMode.AUTO)
        self.show(ft.Container(body, padding=ft.Padding.all(16)))

    def open_lesson(self, lesson_id: str) -> None:
        lesson = find(lesson_id)
        if lesson is None:
            self.learn_screen()
            return
        if lesson.game == "lanes":
            self.table = LanesTable(self, LanesLesson(self.storage, lesson))
            self.show(felt(self.table.build(), self.page.width), bg="#0B5D3B", table=True)
        elif lesson.game == "lopti":
            self.table = LoptiTable(self, LoptiLesson(self.storage, lesson))
            self.show(felt(self.table.build(), self.page.width), bg="#0B5D3B", table=True)
        else:
            self.table = SpitTable(self, SpitLesson(self.storage, lesson), time.monotonic())  # type: ignore[arg-type]
            self.show(felt(self.table.build(), self.page.width), bg="#0B5D3B", table=True)

    def online(self) -> None:
        from views.online_ui import online_home

        self.table = None
        self.screen_token = "online"
        online_home(self)

    def start_game(self, game: str, level: str) -> None:
        if game == "lanes":
            self.new_lanes(level)
        elif game == "spit":
            self.new_spit(level)
        else:
            self.new_lopti(3)

    # --- rules pages ------------------------------------------------------------------------------

    def rules_button(self, game: str) -> ft.Control:
        return icon_button(ft.Icons.MENU_BOOK, t(self.lang, "rules"), lambda e: self.rules_dialog(game), "#FFFFFF")

    def _rules_column(self, game: str, only: str | None = None) -> list[ft.Control]:
        lang = self.lang
        try:
            rules = page(game)
        except RulesPageError as exc:
            return [text(lang, str(exc), 14, color="#B71C1C")]
        out: list[ft.Control] = [] if only else [text(lang, rules.intro[lang], 14)]
        for section in rules.sections:
            items = [it for it in section.items if only is None or it.rule == only]
            if not items:
                continue
            if only is None:
                out.append(ft.Container(text(lang, section.title[lang], 17, True, ft.Colors.PRIMARY),
                                        padding=ft.Padding.only(top=8)))
            for it in items:
                row: list[ft.Control] = [ft.Container(text(lang, it.rule, 11, True, "#616161"), width=46),
                                         ft.Container(text(lang, it.text[lang], 14), expand=True)]
                body: list[ft.Control] = [ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.START)]
                if it.cards:
                    body.append(ft.Row([ft.Container(width=46), *[card_face(c, 34, 48) for c in it.cards]],
                                       spacing=3))
                if it.tag == "friendly":
                    body.append(ft.Row([ft.Container(width=46),
                                        text(lang, t(lang, "friendly_badge"), 11, True, "#E65100")]))
                out.append(ft.Column(body, spacing=2))
        return out

    def rules_screen(self, game: str) -> None:
        lang = self.lang
        try:
            title = page(game).title[lang]
        except RulesPageError:
            title = t(lang, "rules")
        body = ft.Column([
            ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: self.home()),
                    ft.Container(text(lang, title, 20, True), expand=True),
                    ft.TextButton(t(lang, "learn"), icon=ft.Icons.SCHOOL, on_click=lambda e: self.learn_screen(game))]),
            *self._rules_column(game),
        ], spacing=6, scroll=ft.ScrollMode.AUTO)
        self.show(ft.Container(body, padding=ft.Padding.all(16)))

    def rules_dialog(self, game: str, rule: str | None = None) -> None:
        """The rules from inside a game: the whole page, or just the rule behind what was tapped
        (e.g. the low marker explains the 7), without leaving the table."""
        lang = self.lang
        content = ft.Column(self._rules_column(game, rule), spacing=6, tight=True,
                            scroll=ft.ScrollMode.AUTO if rule is None else None)
        actions: list[ft.Control] = [ft.TextButton(t(lang, "close"), on_click=lambda e: self.page.pop_dialog())]
        if rule is not None:
            actions.insert(0, ft.TextButton(t(lang, "all_rules"), on_click=lambda e: (
                self.page.pop_dialog(), self.rules_dialog(game))))
        self.page.show_dialog(ft.AlertDialog(
            title=text(lang, t(lang, "rules") if rule is None else rule, 16, True),
            content=ft.Container(content, width=min(520, (self.page.width or 400) - 40),
                                 height=None if rule else min(560, (self.page.height or 700) - 160)),
            actions=actions))

    def pick_level(self, game: str = "lanes") -> None:
        lang = self.lang
        start = self.new_lanes if game == "lanes" else self.new_spit
        buttons: list[ft.Control] = [ft.Button(t(lang, lvl), width=260, on_click=lambda e, lv=lvl: start(lv))
                                     for lvl in LEVELS]
        if game == "lanes":
            buttons.append(ft.OutlinedButton(t(lang, "pass_and_play"), width=260,
                                             on_click=lambda e: self.new_lanes("person")))
            buttons.insert(0, self._variant_picker())  # choose the rules first, then the opponent
        else:
            buttons.append(ft.OutlinedButton(t(lang, "sp_split"), width=260, icon=ft.Icons.PEOPLE,
                                             on_click=lambda e: self.new_spit("person")))
        body = ft.Column([
            ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: self.home()),
                    ft.Container(text(lang, t(lang, "choose_level"), 20, True), expand=True),
                    icon_button(ft.Icons.MENU_BOOK, t(lang, "rules"), lambda e: self.rules_dialog(game))]),
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

    @staticmethod
    def new_seed() -> int:
        """A new game's or session's seed: the app picks it from the clock; the engine never reads one."""
        return int(time.time() * 1000) & 0xFFFFFFFF

    def new_lanes(self, level: str) -> None:
        seed = self.new_seed()
        options = LanesOptions(**{v: True for v in self.lanes_variants})
        self.open_table(LanesMatch(self.storage, level, seed, options=options))

    def resume(self, game_id: int) -> None:
        self.open_table(LanesMatch.resume(self.storage, game_id))

    def open_table(self, match: LanesMatch) -> None:
        self.table = LanesTable(self, match)
        self.show(felt(self.table.build(), self.page.width), bg="#0B5D3B", table=True)
        if not match.state.over and not match.my_turn:
            self.page.run_task(self.table.bot_turn)

    def new_spit(self, level: str) -> None:
        seed = self.new_seed()
        t0 = time.monotonic()
        self.open_spit(SpitGame(self.storage, level, seed, 0.0), t0)

    def resume_spit(self, game_id: int) -> None:
        t0 = time.monotonic()
        self.open_spit(SpitGame.resume(self.storage, game_id, 0.0), t0)

    def open_spit(self, game: SpitGame, t0: float) -> None:
        table = SpitTable(self, game, t0)
        self.table = table
        self.show(felt(table.build(), self.page.width), bg="#0B5D3B", table=True)

    def new_lopti(self, players: int, levels: list[str] | None = None) -> None:
        """A new Lopti session (P-2.3): deal after deal, each winner adding a house rule."""
        seed = self.new_seed()
        levels = levels or ["expert", "casual", "skilled", "beginner"][: players - 1]
        flow = SessionFlow(self.storage, levels, seed)
        self.open_lopti(flow.start_deal(), flow)

    def lopti_session(self, session_id: int) -> None:
        """A stored session: its deal in progress, else the screen between deals."""
        from views.lopti_session_ui import session_screen

        try:
            flow = SessionFlow.resume(self.storage, session_id)
        except Exception as exc:  # noqa: BLE001 - a damaged session row: say so, keep the app
            self.page.show_dialog(ft.AlertDialog(title=text(self.lang, t(self.lang, "sess_broken", why=str(exc)), 14)))
            return
        match = flow.current_match()
        if match is not None:
            self.open_lopti(match, flow)
        else:
            session_screen(self, flow)

    def lopti_deal_done(self, table: Any) -> None:
        """A session's deal is over: record it (a bot winner writes its rule), then between deals."""
        from views.lopti_session_ui import seat_label, session_screen

        flow: SessionFlow = table.session
        flow.deal_over(table.match)
        notice = ""
        w = flow.winner
        if w is not None and flow.levels[w] != "person" and flow.session.rules:
            rid, words, _, _ = flow.rules_in_force(self.lang)[-1]
            notice = t(self.lang, "sess_bot_rule", who=seat_label(flow, w, self.lang), rule=words)
        session_screen(self, flow, notice)

    def lopti_setup(self) -> None:
        """A Lopti table of 2–5 seats: seat 1 is you; every other seat is a person on this device
        (pass-and-play, with a privacy screen between people) or a bot of any level."""
        lang = self.lang
        choices = ["person", *LEVELS]
        seats = ["casual", "casual"]

        def seat_row(i: int) -> ft.Control:
            dd = ft.Dropdown(value=seats[i], width=200, label=t(lang, "player_n", n=i + 2),
                             options=[ft.DropdownOption(key=c, text=t(lang, "person" if c == "person" else c))
                                      for c in choices])

            def changed(e: Any, i: int = i) -> None:
                seats[i] = e.control.value or "casual"

            dd.on_select = changed
            return ft.Semantics(identifier=f"seat-{i + 2}", content=dd)

        rows = ft.Column(spacing=8)

        def redraw() -> None:
            rows.controls = [text(lang, t(lang, "player_n", n=1) + " — " + t(lang, "you"), 15, True),
                             *[seat_row(i) for i in range(len(seats))]]

        def count(n: int) -> None:
            while len(seats) < n - 1:
                seats.append("casual")
            del seats[n - 1:]
            redraw()
            self.page.update()

        redraw()
        body = ft.Column([
            ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: self.home()),
                    ft.Container(text(lang, t(lang, "lopti_table_setup"), 20, True), expand=True),
                    icon_button(ft.Icons.MENU_BOOK, t(lang, "rules"), lambda e: self.rules_dialog("lopti"))]),
            ft.Row([ft.OutlinedButton(t(lang, "players_n", n=n), on_click=lambda e, n=n: count(n))
                    for n in (2, 3, 4, 5)], wrap=True),
            rows,
            text(lang, t(lang, "lopti_pass_note"), 13, color=ft.Colors.ON_SURFACE_VARIANT),
            ft.FilledButton(t(lang, "start"), on_click=lambda e: self.new_lopti(len(seats) + 1, list(seats))),
        ], spacing=12, scroll=ft.ScrollMode.AUTO)
        self.show(ft.Container(body, padding=ft.Padding.all(16)))

    def resume_lopti(self, game_id: int) -> None:
        sid = next((s["id"] for s in api.sessions(self.storage) if s["current_game_id"] == game_id), None)
        if sid is not None:
            self.lopti_session(sid)
            return
        self.open_lopti(LoptiMatch.resume(self.storage, game_id))

    def open_lopti(self, match: LoptiMatch, flow: SessionFlow | None = None) -> None:
        table = LoptiTable(self, match)
        table.session = flow
        self.show(felt(table.build(), self.page.width), bg="#0B5D3B", table=True)
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
        for i, g in enumerate(api.history(self.storage, limit=10)):
            res = "result_none" if g.winner is None else ("result_won" if g.winner == 0 else "result_lost")
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.finished_at or g.started_at))
            recent.append(ft.Row([
                ft.Container(text(lang, f"{t(lang, g.game)} — {t(lang, res)} · {when} · "
                                        f"{t(lang, 'moves_n', n=len(g.actions))}", 13), expand=True),
                ft.Semantics(identifier=f"replay-game-{i}", button=True, content=ft.TextButton(
                    t(lang, "replay"), icon=ft.Icons.REPLAY, on_click=lambda e, gid=g.id: self.replay_screen(gid))),
            ]))
        body = ft.Column([
            ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: self.home()),
                    text(lang, t(lang, "stats"), 20, True)]),
            *(rows or [text(lang, t(lang, "no_games"), 14)]),
            text(lang, t(lang, "recent"), 16, True) if recent else ft.Container(),
            *recent,
        ], spacing=10, scroll=ft.ScrollMode.AUTO)
        self.show(ft.Container(body, padding=ft.Padding.all(16)))

    def replay_screen(self, game_id: int) -> None:
        """A finished game step by step on its own table, seen from the player's seat as it was
        played. The bar below steps back and forth; back returns to the stats."""
        from views.replay import LanesReplay, LoptiReplay, open_replay

        lang = self.lang
        try:
            controller = open_replay(self.storage, game_id)
        except Exception as exc:  # noqa: BLE001 - a damaged record: say so, keep the app
            self.page.show_dialog(ft.AlertDialog(title=text(lang, t(lang, "replay_broken", why=str(exc)), 14)))
            return
        table: Any
        if isinstance(controller, LanesReplay):
            table = LanesTable(self, controller)
        elif isinstance(controller, LoptiReplay):
            table = LoptiTable(self, controller)
        else:
            table = SpitTable(self, controller, time.monotonic())
        table.busy = True  # no result dialog at the last step, no bot, no taps
        table.leave = self.stats_screen  # type: ignore[method-assign]
        self.table = table
        step = text(lang, "", 14, True, "#FFFFFF")

        def go(k: int) -> None:
            controller.seek(k)
            step.value = f"{controller.step} / {controller.timeline.last}"
            table.refresh()

        def button(ident: str, icon: Any, label: str, target: Any) -> ft.Control:
            return ft.Semantics(identifier=f"replay-{ident}", button=True, label=label, content=ft.IconButton(
                icon, icon_color="#FFFFFF", tooltip=label, on_click=lambda e: go(target())))

        bar = ft.Row([
            button("first", ft.Icons.FIRST_PAGE, t(lang, "replay_first"), lambda: 0),
            button("prev", ft.Icons.CHEVRON_LEFT, t(lang, "replay_prev"), lambda: controller.step - 1),
            step,
            button("next", ft.Icons.CHEVRON_RIGHT, t(lang, "replay_next"), lambda: controller.step + 1),
            button("last", ft.Icons.LAST_PAGE, t(lang, "replay_last"), lambda: controller.timeline.last),
        ], alignment=ft.MainAxisAlignment.CENTER)
        step.value = f"0 / {controller.timeline.last}"
        self.show(felt(ft.Column([table.build(), bar], expand=True, spacing=0), self.page.width), bg="#0B5D3B",
                  table=True)

    def settings_screen(self) -> None:
        """Name, language, theme, card style (with a preview), sound, haptics and bot speed."""
        lang, prefs = self.lang, self.prefs
        name = ft.TextField(label=t(lang, "name"), value=self.name, max_length=40)

        def choice(label: str, value: str, options: list[tuple[str, str]]) -> ft.Dropdown:
            return ft.Dropdown(label=t(lang, label), value=value, expand=True,
                               options=[ft.DropdownOption(key=k, text=v) for k, v in options])

        language = choice("language", lang, [(code, NAMES[code]) for code in LANGS])
        theme = choice("theme", prefs.theme, [(k, t(lang, f"theme_{k}")) for k in THEMES])
        style = choice("card_style", prefs.card_style, [(k, t(lang, f"style_{k}")) for k in CARD_STYLES])
        speed = choice("bot_speed", prefs.bot_speed, [(k, t(lang, f"speed_{k}")) for k in BOT_SPEEDS])
        sound = ft.Switch(label=t(lang, "sound"), value=prefs.sound)
        haptics = ft.Switch(label=t(lang, "haptics"), value=prefs.haptics)
        preview = ft.Row(spacing=4)

        def show_preview() -> None:
            preview.controls = [card_face(c, 38, 52, style=style.value) for c in ("AS", "KH", "7D", "10C")]

        def restyle(e: Any) -> None:
            show_preview()
            preview.update()

        style.on_select = restyle
        show_preview()

        def save(e: Any) -> None:
            try:
                self.settings = api.update_profile(
                    self.storage, display_name=name.value or "Player", language=language.value or "en",
                    theme=theme.value or "system", card_style=style.value or "classic", bot_speed=speed.value or
                    "normal", sound=bool(sound.value), haptics=bool(haptics.value))
                self.name = (name.value or "Player").strip()
            except ValueError as exc:
                self.page.show_dialog(ft.AlertDialog(title=text(self.lang, str(exc), 14)))
                return
            self.apply_language()
            self.home()

        body = ft.Column([
            ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: self.home()),
                    text(lang, t(lang, "settings"), 20, True)]),
            name, *(ft.Semantics(identifier=f"setting-{key}", content=ft.Row([dd]))
                    for key, dd in (("language", language), ("theme", theme), ("card_style", style))),
            preview, ft.Semantics(identifier="setting-bot_speed", content=ft.Row([speed])),
            sound, haptics,
            ft.FilledButton(t(lang, "save"), on_click=save),
        ], spacing=12, scroll=ft.ScrollMode.AUTO)
        self.show(ft.Container(body, padding=ft.Padding.all(16)), back=self.home)


PAUSING = {"hide", "pause", "inactive", "detach"}


def lifecycle(app: App, state: str) -> None:
    """Going to the background pauses the Spit clock and the bots; coming back resumes them and
    re-syncs an online match (whatever happened meanwhile is fetched from the last event seen)."""
    table = app.table
    if state in PAUSING:
        app.paused = True
        if hasattr(table, "pause"):
            table.pause()
    elif state in ("show", "resume"):
        app.paused = False
        if hasattr(table, "resume"):
            table.resume()
        if hasattr(table, "resync"):
            app.page.run_thread(table.resync)


def start(page: ft.Page, db: str | None = None) -> App:
    page.fonts = dict(FONTS)
    page.padding = 0
    storage = open_storage(db)
    app = App(page, storage)
    app.apply_language()
    page.on_app_lifecycle_state_change = lambda e: lifecycle(app, getattr(e.state, "value", str(e.state)))
    page.on_keyboard_event = app.on_key
    app.home()
    if storage.notice:
        page.show_dialog(ft.AlertDialog(title=text(app.lang, t(app.lang, "notice"), 16, True),
                                        content=text(app.lang, storage.notice, 13)))
    return app
