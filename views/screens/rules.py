"""The rules pages: each game's page (every numbered rule with its id), and the rule behind what
was tapped on a table, in a dialog that does not leave the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from views.ui import theme
from views.ui.i18n import t
from views.ui.rules_pages import RulesPageError, page
from views.ui.widgets import card_face, icon_button, narrow_page, text

if TYPE_CHECKING:
    from views.host import Host


def rules_column(app: Host, game: str, only: str | None = None) -> list[ft.Control]:
    lang = app.lang
    try:
        rules = page(game)
    except RulesPageError as exc:
        return [text(lang, str(exc), theme.TYPE_BODY, color=theme.PAGE_ERROR)]
    out: list[ft.Control] = [] if only else [text(lang, rules.intro[lang], theme.TYPE_BODY)]
    for section in rules.sections:
        items = [it for it in section.items if only is None or it.rule == only]
        if not items:
            continue
        if only is None:
            out.append(ft.Container(text(lang, section.title[lang], theme.TYPE_SECTION, True, theme.PAGE_ACCENT),
                                    padding=ft.Padding.only(top=theme.SPACE)))
        for it in items:
            row: list[ft.Control] = [ft.Container(text(lang, it.rule, theme.TYPE_TINY, True, theme.PAGE_MUTED),
                                                  width=46),
                                     ft.Container(text(lang, it.text[lang], theme.TYPE_BODY), expand=True)]
            body: list[ft.Control] = [ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.START)]
            if it.cards:
                body.append(ft.Row([ft.Container(width=46), *[card_face(c, 34, 48) for c in it.cards]],
                                   spacing=theme.SPACE_FINE))
            if it.tag == "friendly":
                body.append(ft.Row([ft.Container(width=46),
                                    text(lang, t(lang, "friendly_badge"), theme.TYPE_TINY, True, theme.PAGE_FRIENDLY)]))
            out.append(ft.Column(body, spacing=theme.SPACE_FINE))
    return out


def rules_screen(app: Host, game: str) -> None:
    lang = app.lang
    try:
        title = page(game).title[lang]
    except RulesPageError:
        title = t(lang, "rules")
    app.show(narrow_page([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: app.back()),
                ft.Container(text(lang, title, theme.TYPE_TITLE, True), expand=True),
                ft.TextButton(t(lang, "learn"), icon=ft.Icons.SCHOOL, on_click=lambda e: app.go(f"/learn/{game}"))]),
        *rules_column(app, game),
    ], theme.SPACE_SNUG))


def rules_button(app: Host, game: str) -> ft.Control:
    """The book on a table's top bar: the game's rules in a dialog over the table."""
    return icon_button(ft.Icons.MENU_BOOK, t(app.lang, "rules"), lambda e: rules_dialog(app, game), theme.ON_FELT)


def rules_dialog(app: Host, game: str, rule: str | None = None) -> None:
    """The rules from inside a game: the whole page, or just the rule behind what was tapped
    (e.g. the low marker explains the 7), without leaving the table."""
    lang = app.lang
    content = ft.Column(rules_column(app, game, rule), spacing=theme.SPACE_SNUG, tight=True,
                        scroll=ft.ScrollMode.AUTO if rule is None else None)
    actions: list[ft.Control] = [ft.TextButton(t(lang, "close"), on_click=lambda e: app.page.pop_dialog())]
    if rule is not None:
        def all_rules(e: ft.Event[ft.TextButton]) -> None:
            app.page.pop_dialog()
            rules_dialog(app, game)

        actions.insert(0, ft.TextButton(t(lang, "all_rules"), on_click=all_rules))
    app.page.show_dialog(ft.AlertDialog(
        title=text(lang, t(lang, "rules") if rule is None else rule, theme.TYPE_STRONG, True),
        content=ft.Container(content, width=min(520, (app.page.width or 400) - 40),
                             height=None if rule else min(560, (app.page.height or 700) - 160)),
        actions=actions))
