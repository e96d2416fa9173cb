"""Settings: name, language, theme, card style (with a live preview), sounds, haptics, bot speed,
the level hints come from, and the lobby's address (views/online/address.py). Stored in the
profile; a damaged stored value falls back to its default (views/ui/prefs.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from storage import api
from views.online.address import settings_section, use_lobby
from views.online.watch import tell_lobby_spectators
from views.ui import theme
from views.ui.i18n import LANGS, NAMES, counted, t
from views.ui.prefs import BOT_SPEEDS, CARD_STYLES, HINT_LEVELS, THEMES
from views.ui.reconcile import send
from views.ui.widgets import card_face, icon_button, labelled_switch, narrow_page, tagged, text

if TYPE_CHECKING:
    from views.host import Host


def settings(app: Host) -> None:
    """Name, language, theme, card style (with a preview), sound, haptics, bot speed, hints, motion
    and the lobby's address."""
    lang, prefs = app.lang, app.prefs
    room = theme.narrow_width(app.page.width)  # the switches' words wrap within the form's column
    name = ft.TextField(label=t(lang, "name"), value=app.name, max_length=40, expand=True)

    def choice(label: str, value: str, options: list[tuple[str, str]]) -> ft.Dropdown:
        return ft.Dropdown(label=t(lang, label), value=value, expand=True,
                           options=[ft.DropdownOption(key=k, text=v) for k, v in options])

    language = choice("language", lang, [(code, NAMES[code]) for code in LANGS])
    theme_dd = choice("theme", prefs.theme, [(k, t(lang, f"theme_{k}")) for k in THEMES])
    style = choice("card_style", prefs.card_style, [(k, t(lang, f"style_{k}")) for k in CARD_STYLES])
    speed = choice("bot_speed", prefs.bot_speed, [(k, t(lang, f"speed_{k}")) for k in BOT_SPEEDS])
    hints = choice("hint_level", prefs.hint_level, [(k, t(lang, k)) for k in HINT_LEVELS])
    sound = labelled_switch(lang, t(lang, "sound"), room, prefs.sound)
    haptics = labelled_switch(lang, t(lang, "haptics"), room, prefs.haptics)
    motion = labelled_switch(lang, t(lang, "reduce_motion"), room, prefs.reduce_motion)
    switches, wishes, told = online_switches(app)
    preview = live_preview(style)
    online, checked_address = settings_section(app)

    def save(e: object) -> None:
        address = checked_address()  # first: a bad address is said, and nothing at all is saved
        if address is None:
            return
        try:
            app.settings = api.update_profile(
                app.storage, display_name=name.value or "Player", language=language.value or "en",
                theme=theme_dd.value or "system", card_style=style.value or "classic", bot_speed=speed.value or
                "normal", sound=bool(sound.value), haptics=bool(haptics.value),
                hint_level=hints.value or "casual", reduce_motion=bool(motion.value), **wishes())
            app.name = (name.value or "Player").strip()
        except ValueError as exc:
            app.tell(str(exc))
            return
        told()
        moved = use_lobby(app, address)
        app.apply_language()
        app.go("/")
        if moved:
            app.tell(moved)

    app.show(narrow_page([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: app.back()),
                text(lang, t(lang, "settings"), theme.TYPE_TITLE, True)]),
        ft.Row([name]), *(ft.Semantics(identifier=f"setting-{key}", content=ft.Row([dd]))
                for key, dd in (("language", language), ("theme", theme_dd), ("card_style", style))),
        preview, ft.Semantics(identifier="setting-bot_speed", content=ft.Row([speed])),
        ft.Semantics(identifier="setting-hint_level", content=ft.Row([hints])),
        sound, haptics, ft.Semantics(identifier="setting-reduce_motion", content=motion),
        *([ft.Semantics(identifier="platform-calm", content=text(lang, t(lang, "reduce_motion_platform"),
                                                                 theme.TYPE_NOTE))]
          if app.platform_calm else []),
        *online, *switches,
        ft.FilledButton(t(lang, "save"), on_click=save),
        *your_data(app),
    ]))


def online_switches(app: Host) -> tuple[list[ft.Control], Callable[[], dict[str, bool]], Callable[[], None]]:
    """Settings → Online: quick messages shown, and may others watch my rated matches. Gives the
    switches, their values to save, and what to do once saved (a changed wish to be watched is
    sent to the lobby, off the loop)."""
    lang, prefs = app.lang, app.prefs
    room = theme.narrow_width(app.page.width)
    quick = labelled_switch(lang, t(lang, "qm_setting"), room, prefs.quick_messages)
    watched = labelled_switch(lang, t(lang, "ol_spectators_setting"), room, prefs.spectators)

    def told() -> None:
        if bool(watched.value) != prefs.spectators:
            app.page.run_task(tell_lobby_spectators, app, bool(watched.value))

    controls: list[ft.Control] = [ft.Semantics(identifier="setting-quick_messages", content=quick),
                                  ft.Semantics(identifier="setting-spectators", content=watched)]
    return controls, lambda: {"quick_messages": bool(quick.value), "spectators": bool(watched.value)}, told


def live_preview(style: ft.Dropdown) -> ft.Row:
    """Four cards in the card style chosen, redrawn as the choice changes."""
    preview = ft.Row(spacing=theme.SPACE_TIGHT)

    def show_preview() -> None:
        preview.controls = [card_face(c, 38, 52, style=style.value) for c in ("AS", "KH", "7D", "10C")]

    def restyle(e: object) -> None:
        show_preview()
        send(preview)

    style.on_select = restyle
    show_preview()
    return preview


def your_data(app: Host) -> list[ft.Control]:
    """Export every game and session to one file (the platform's save dialog; in the browser, a
    download) and import one (the file picker; in the browser, an upload). A damaged, foreign or
    too-new file is refused with the reason, and nothing is stored (``storage.api.import_all``)."""
    lang = app.lang

    async def export(e: object) -> None:
        data = api.export_all(app.storage)
        archive = json.loads(data)
        try:
            where = await ft.FilePicker().save_file(file_name="cardtable-export.json", allowed_extensions=["json"],
                                                    src_bytes=data.encode("utf-8"))
        except (RuntimeError, TimeoutError) as exc:  # the platform's dialog or its writing failed
            app.tell(t(lang, "export_failed", why=str(exc)))
            return
        app.tell(export_said(lang, archive, where, app.page.web))

    async def pick(e: object) -> None:
        try:
            files = await ft.FilePicker().pick_files(allowed_extensions=["json"], with_data=True)
        except (RuntimeError, TimeoutError) as exc:  # the platform's dialog or its reading failed
            app.tell(t(lang, "import_refused", why=str(exc)))
            return
        if not files:  # closed without a file: nothing to say
            return
        app.tell(import_text(app, files[0].bytes or b""))

    return [text(lang, t(lang, "your_data"), theme.TYPE_STRONG, True), ft.Row([
        tagged("export-all", ft.OutlinedButton(
            t(lang, "export_all"), icon=ft.Icons.DOWNLOAD, on_click=export)),
        tagged("import-file", ft.OutlinedButton(
            t(lang, "import_file"), icon=ft.Icons.UPLOAD_FILE, on_click=pick))], wrap=True)]


def import_text(app: Host, data: bytes) -> str:
    """Import an export file's bytes; the words to say (what came in, or why nothing did)."""
    lang = app.lang
    try:
        games, sessions = api.import_all(app.storage, data.decode("utf-8"))
    except (api.ImportError_, UnicodeDecodeError) as exc:
        return t(lang, "import_refused", why=str(exc))
    return games_and_sessions(lang, "imported", games, sessions)


def export_said(lang: str, archive: dict[str, list[object]], where: str | None, web: bool) -> str:
    """What an export says: the counts written, or that nothing was — a window's or a phone's save
    dialog closed without a place answers no path. The browser's download answers none either,
    and there the file is saved."""
    if where is None and not web:
        return t(lang, "export_cancelled")
    return games_and_sessions(lang, "exported", len(archive["games"]), len(archive["sessions"]))


def games_and_sessions(lang: str, key: str, games: int, sessions: int) -> str:
    """What an export or import moved, each count in its own number form ("1 game and 2 sessions")."""
    return t(lang, key, games=t(lang, counted("n_games", games), n=games),
             sessions=t(lang, counted("n_sessions", sessions), n=sessions))
