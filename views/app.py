"""The app shell: routes, back, dialogs and the app's life (background, return). Screens live in
``views/screens`` (home, learn, rules, stats, settings, new game), tables in the game packages.

Navigation is Flet's own: every destination is a route (``views/routes.py``), ``page.views`` is
the stack the route implies (home below every other screen), and Android's back button, Escape,
the top bar's arrow and the browser's back all end in ``App.back`` or a route change — there is no
navigation state besides the route.
"""

from __future__ import annotations

import asyncio
import importlib
import os
import pkgutil
import threading
import time
from collections.abc import Callable

import flet as ft

from engine.lanes import VARIANTS
from storage import api
from storage.db import Storage, open_storage
from views import routes
from views.host import Drafts, Host
from views.table.feedback import Feedback
from views.table.screen import NO_SCREEN, Scope, TableScreen
from views.ui import theme
from views.ui.i18n import LANGS, RTL, t
from views.ui.prefs import Prefs
from views.ui.reconcile import send
from views.ui.widgets import FONT, FONTS, family, text

# Every change reaches the screen through views/ui/reconcile.send. Flet's auto-update, after each
# event whose handler sent nothing (the echo of a route the app already shows, a resize, the app's
# life), diffed the whole page — every control of every view — for nothing on the wire (#44).
ft.context.disable_auto_update()


class App:
    """The host of every screen (views/host.py's contract): the page, the storage, the profile,
    routes and ``page.views``, dialogs, the app's life, and starting a game for a screen."""

    def __init__(self, page: ft.Page, storage: Storage) -> None:
        self.page = page
        self.storage = storage
        self.name, self.settings = api.get_profile(storage)
        #: the next game's choices; the Lanes house rules start as the last ones chosen (settings)
        self.drafts = Drafts({v for v in self.settings.get("default_variants", []) if v in VARIANTS})
        #: the table or flow on the top view (paused, resumed and re-synced with the app)
        self.screen: TableScreen = NO_SCREEN
        #: background work of the screen on top (an online wait, a table's follow loop) checks this
        self.scope = Scope()
        #: a step back inside the top screen (a session's sub-screen), before the route's own back
        self.local_back: Callable[[], None] | None = None
        #: the app is in the background (lifecycle): the Spit clock and bots are paused
        self.paused = False
        #: screens already built for a route about to be shown (a new game's table)
        self.ready: dict[str, tuple[ft.Control, str | None, TableScreen]] = {}
        #: the route on screen (the page's own ``route`` follows once the client has it)
        self.route = "/"
        #: routes sent to the client whose route change has not come back yet
        self.echoes: list[str] = []
        #: a message for the screen at a route (a bad link: said on the home screen it led to)
        self.notice: tuple[str, str] | None = None
        self.feedback = Feedback(page, lambda: self.prefs)
        #: the platform asks for less motion (its accessibility setting; a browser's
        #: prefers-reduced-motion): the tables hold still as with the app's own setting
        self.platform_calm = False
        #: the seed the next new game takes, once the home has looked ahead (``coming_seed``)
        self._coming: int | None = None

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
        # the app's locale, not only the views' direction: dialogs open above the views (Flet's
        # View sets the direction around its own scaffold), so without it an Arabic dialog was
        # laid out left to right
        self.page.locale_configuration = ft.LocaleConfiguration(
            supported_locales=[ft.Locale(code) for code in LANGS], current_locale=ft.Locale(self.lang))
        self.page.theme = page_theme(fam)
        self.page.dark_theme = page_theme(fam)
        self.page.theme_mode = {"light": ft.ThemeMode.LIGHT, "dark": ft.ThemeMode.DARK}.get(
            prefs.theme, ft.ThemeMode.SYSTEM)
        theme.set_look(self.page, theme.Look(card_style=prefs.card_style, lang=self.lang,
                                             reduce_motion=prefs.reduce_motion or self.platform_calm))
        self.page.title = t(self.lang, "app_title")

    async def ask_platform_motion(self) -> None:
        """Read the platform's own reduce-motion wish once at start (Flet's SemanticsService). A
        client that cannot answer (an old one, a test's stand-in) leaves motion to the setting."""
        try:
            features = await asyncio.wait_for(ft.SemanticsService().get_accessibility_features(), 5)
        except (TimeoutError, RuntimeError, ValueError, KeyError, TypeError):
            return
        calm = bool(features.disable_animations or features.reduce_motion)
        if calm != self.platform_calm:
            self.platform_calm = calm
            self.apply_language()
            if self.route == "/settings":  # opened before the answer came: say it there now
                self.route_change(self.route)

    # --- navigation -----------------------------------------------------------------------------

    def go(self, route: str) -> None:
        """Open the screen at ``route`` now, and put the route in the browser's address bar and
        history (its echo, the client's route change, finds the screen already shown)."""
        self.route_change(route)
        if route != self.page.route:
            self.echoes.append(route)
            self.page.navigate(route)

    def client_route(self, route: str) -> None:
        """The client changed the route: the browser's back or forward, a typed address — or the
        echo of a ``go``, which is already on screen (and must not bring back an older screen)."""
        if route in self.echoes:
            del self.echoes[: self.echoes.index(route) + 1]
            return
        if route != self.route:
            self.route_change(route)

    def open(self, route: str, content: ft.Control, screen: TableScreen, bg: str | None = theme.FELT) -> None:
        """Show an already built screen (a new game's table) at ``route``."""
        self.ready[route] = (content, bg, screen)
        self.go(route)

    def route_change(self, route: str | None = None) -> None:
        """Build ``page.views`` for the route: home at the bottom, the route's screen above it."""
        route = route or self.page.route or "/"
        self.route = route
        self.scope.close()
        self.scope = Scope()
        self.screen.stop()
        self.screen = NO_SCREEN
        self.local_back = None
        self.page.pop_dialog()
        if route in self.ready:
            content, bg, screen = self.ready.pop(route)
            self.screen = screen
            self._place(route, content, bg)
        elif not routes.show(self, route):
            self.turn_back(t(self.lang, "no_such_screen"))
            return
        if self.notice is not None and self.notice[0] == route:
            self.tell(self.notice[1])
            self.notice = None

    def show(self, content: ft.Control, bg: str | None = None, back: Callable[[], None] | None = None,
             screen: TableScreen | None = None) -> None:
        """Put ``content`` on the view of the current route (a sub-screen of a flow replaces the
        one before it; ``back`` steps back inside the flow before the route's own back)."""
        if screen is not None:
            self.screen.stop()
            self.screen = screen
        self.local_back = back
        self._place(self.route, content, bg)

    def _place(self, route: str, content: ft.Control, bg: str | None) -> None:
        top = self.page.views[-1] if self.page.views else None
        if top is not None and top.route == route:
            # the next screen of a flow on the same route (a session's vote after its confirmation)
            # goes into the view already shown: a dialog closing on it closes for good (a new view
            # in the same update kept the closing dialog on screen in the browser)
            top.controls = [ft.SafeArea(content=content, expand=True)]
            top.bgcolor = bg
            send(self.page)  # a screen shown: the page (its look may have changed with it)
            return
        view = ft.View(route=route, controls=[ft.SafeArea(content=content, expand=True)], bgcolor=bg,
                       padding=theme.SPACE_NONE, spacing=theme.SPACE_NONE)
        if route == "/":
            self.page.views[:] = [view]
        else:
            # the home view under this one (where back goes), built unless already shown: Flet's own
            # empty first view does not count (a deep link would pop back to a blank page)
            first = self.page.views[0] if self.page.views else None
            home = first if first is not None and first.route == "/" and first.controls else None
            self.page.views[:] = [home or routes.home_view(self), view]
        send(self.page)  # navigation: the page's views changed

    def back(self) -> bool:
        """One screen back; False on home (nothing to go back to: Android leaves the app)."""
        if self.local_back is not None:
            step, self.local_back = self.local_back, None
            step()
            return True
        if self.route == "/":
            return False
        self.go(routes.parent(self.route))
        return True

    async def view_pop(self, e: ft.ViewPopEvent) -> None:
        """Android's back button or a system pop of the top view: one screen back."""
        self.back()

    def on_key(self, e: ft.KeyboardEvent) -> None:
        if e.key == "Escape" and not self.dialog_open():
            self.back()

    def dialog_open(self) -> bool:
        return any(d.open for d in self.page._dialogs.controls if isinstance(d, ft.DialogControl))

    def tell(self, message: str) -> None:
        """A message in a dialog (a refused setting): the screen stays as it is."""
        self.page.show_dialog(ft.AlertDialog(title=text(self.lang, message, theme.TYPE_BODY)))

    def turn_back(self, message: str, route: str = "/") -> None:
        """A screen that cannot open (a damaged record): go to ``route`` and say why there."""
        self.notice = (route, message)
        self.go(route)

    # --- a flow a screen asks for (views/host.py): views/games.py imports the tables -----------------

    def start_game(self, game: str, level: str) -> None:
        from views.games import start_game

        start_game(self, game, level)

    def new_seed(self) -> int:
        """The seed the home looked ahead at (``coming_seed``), whichever game starts, or a new one:
        games still take their seeds in the order they start (``draw_seed``)."""
        seed = self._coming if self._coming is not None else draw_seed()
        self._coming = None
        return seed

    def coming_seed(self) -> int:
        """The seed the next new game will take. A clock seed is kept for this session; a seed of
        ``--seed``'s run is only looked at, not taken, so a session that shows the home and never
        deals (a page closed, a screenshot set's next viewport) leaves the run as it was."""
        fixed = _fixed_seed(take=False)
        if fixed is not None:
            return fixed
        if self._coming is None:
            self._coming = draw_seed()
        return self._coming


def draw_seed() -> int:
    """A new game's or session's seed: the app picks it from the clock; the engine never reads one.
    With ``CARDTABLE_SEED=N`` (``python main.py --seed N``) the games dealt while the app runs
    take seeds N, N+1, … in the order they start, so a reported deal or a set of screenshots
    (tests/screenshots.py) can be dealt again."""
    fixed = _fixed_seed(take=True)
    return fixed if fixed is not None else int(time.time() * 1000) & 0xFFFFFFFF


#: the next seed of each run ``CARDTABLE_SEED`` asked for, kept while the app runs
_seeds: dict[str, int] = {}
_seeds_lock = threading.Lock()


def _fixed_seed(take: bool) -> int | None:
    """The next seed of the run ``CARDTABLE_SEED`` asks for, taken or only looked at; None without
    it or with a value that is not a whole number (main.py's ``--seed`` checks it)."""
    first = os.environ.get("CARDTABLE_SEED", "").strip()
    if not first.isdigit():
        return None
    with _seeds_lock:  # sessions of the web server deal from the one run
        seed = _seeds.setdefault(first, int(first))
        if take:
            _seeds[first] = seed + 1
    return seed


def _is_a_host(app: App) -> Host:
    return app  # mypy checks here that App keeps the contract screens are typed against


def page_theme(fam: str | None) -> ft.Theme:
    """The Material theme of every screen: the language's font, and the bundled font behind every
    text style, so words in another script (the language menu's "العربية" in an English app, a
    player's name) draw from the app's own font. Without it Flutter's web engine asked a CDN for a
    Noto font (a 404 offline) and drew empty boxes (#42).

    Each style names its colour role as Material's own type scale does (on the surface; on the
    primary colour for the primary text theme): Flet replaces a role's whole style, so a style
    without a colour left a text field's or a menu's value, or a switch's label, near black on
    the dark theme's near-black page."""
    def roles(color: str) -> ft.TextTheme:
        style = ft.TextStyle(font_family=fam, font_family_fallback=[FONT], color=color)
        return ft.TextTheme(**{role: style for role in TEXT_ROLES})

    return ft.Theme(font_family=fam, color_scheme_seed=theme.FELT, page_transitions=theme.TRANSITIONS,
                    text_theme=roles(theme.PAGE_TEXT), primary_text_theme=roles(theme.ON_ACCENT))


#: every role of Material's type scale (a text with no style of its own takes one of them)
TEXT_ROLES = tuple(f"{size}_{scale}" for size in ("display", "headline", "title", "body", "label")
                   for scale in ("large", "medium", "small"))


PAUSING = {"hide", "pause", "inactive", "detach"}


def lifecycle(app: App, state: str) -> None:
    """Going to the background pauses the Spit clock and the bots; coming back resumes them and
    re-syncs an online match (whatever happened meanwhile is fetched from the last event seen)."""
    if state in PAUSING:
        app.paused = True
        app.screen.pause()
    elif state in ("show", "resume"):
        app.paused = False
        app.screen.resume()
        app.page.run_task(app.screen.resync)


def warm() -> None:
    """Load every screen's code before the first player connects. Screens import their modules
    when first shown (they import each other and this module), so without this the first
    connection paid ~150 ms of imports before its home could be sent — in a browser, a cold start
    spent waiting on the server. The bots' and the lobby client's code come too (a first hint or
    online screen would pay them)."""
    import views

    for module in pkgutil.walk_packages(views.__path__, "views."):
        importlib.import_module(module.name)
    importlib.import_module("engine.bots")
    importlib.import_module("storage.lobby_client")


def start(page: ft.Page, db: str | None = None) -> App:
    page.fonts = dict(FONTS)
    page.padding = 0
    # a theme is never faded from one to the next: Flutter fades a changed theme over 200 ms,
    # rebuilding every screen each frame, and the client rebuilt the theme just after the home
    # first showed (when the page's accessibility tree came on), which kept the first tap waiting
    # ~100-300 ms in a browser (#44); a change of theme or language now shows at once
    page.theme_animation_style = ft.AnimationStyle.no_animation()
    storage = open_storage(db)
    app = App(page, storage)
    app.apply_language()
    page.on_app_lifecycle_state_change = lambda e: lifecycle(app, e.state.value)
    page.on_keyboard_event = app.on_key
    page.on_route_change = lambda e: app.client_route(e.route)
    page.on_view_pop = app.view_pop
    app.route_change(page.route)
    page.run_task(app.ask_platform_motion)
    if storage.notice:
        page.show_dialog(ft.AlertDialog(title=text(app.lang, t(app.lang, "notice"), theme.TYPE_STRONG, True),
                                        content=text(app.lang, storage.notice, theme.TYPE_SMALL)))
    return app
