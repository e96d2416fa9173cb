"""Learn: every lesson per game with its progress, and a lesson played on the real table."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from engine.lopti.session_lesson import SessionLesson
from storage import api
from views.games import games
from views.lopti.session_screen import open_session_lesson
from views.table.lessons import find, lessons
from views.ui import theme
from views.ui.i18n import counted, t
from views.ui.widgets import felt, icon_button, pad, tagged, text

if TYPE_CHECKING:
    from views.host import Host


def learn(app: Host, focus: str | None = None) -> None:
    """Every lesson per game with its progress; a finished game's lessons suggest a first real
    game against the Beginner bot."""
    lang = app.lang
    progress = api.lesson_progress(app.storage)
    cards: list[ft.Control] = []
    games = [focus] if focus in lessons() else list(lessons())
    games += [g for g in lessons() if g not in games]
    for game in games:
        group = lessons()[game]
        done = sum(1 for x in group if progress.get(x.id, (0, False))[1])
        rows: list[ft.Control] = []
        for i, lesson in enumerate(group):
            finished = progress.get(lesson.id, (0, False))[1]
            rows.append(tagged(f"lesson-{lesson.id}", ft.ListTile(
                leading=ft.Icon(ft.Icons.CHECK_CIRCLE if finished else ft.Icons.PLAY_CIRCLE_OUTLINE,
                                color=theme.PAGE_GOOD if finished else theme.PAGE_ACCENT),
                title=text(lang, f"{i + 1}. {lesson.title[lang]}", theme.TYPE_LEAD),
                on_click=lambda e, lid=lesson.id: app.go(f"/lesson/{lid}"))))
        column: list[ft.Control] = [
            ft.Row([ft.Container(text(lang, t(lang, game), theme.TYPE_TITLE, True), expand=True),
                    ft.TextButton(t(lang, "rules"), icon=ft.Icons.MENU_BOOK,
                                  on_click=lambda e, g=game: app.go(f"/rules/{g}"))]),
            text(lang, t(lang, counted("lesson_progress", len(group)), done=done, n=len(group)), theme.TYPE_SMALL,
                 color=theme.PAGE_MUTED),
            *rows,
        ]
        if group and done == len(group):
            column.append(ft.Row([text(lang, t(lang, "lessons_done", game=t(lang, game)), theme.TYPE_SMALL, True,
                                       theme.PAGE_GOOD),
                                  ft.FilledButton(t(lang, "play_beginner"),
                                                  on_click=lambda e, g=game: app.start_game(g, "beginner"))],
                                 wrap=True))
        cards.append(ft.Card(content=ft.Container(ft.Column(column, spacing=theme.SPACE_TIGHT),
                                                  padding=theme.SPACE_LOOSE)))
    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: app.back()),
                text(lang, t(lang, "lessons"), theme.TYPE_TITLE, True)]),
        *cards,
    ], spacing=theme.SPACE_LOOSE, scroll=ft.ScrollMode.AUTO)
    app.show(ft.Container(body, padding=pad(theme.SPACE_WIDE)))


def lesson(app: Host, lesson_id: str) -> bool:
    """A lesson on the table its game uses (False: no such lesson)."""
    found = find(lesson_id)
    if found is None:
        return False
    if isinstance(found, SessionLesson):
        open_session_lesson(app, found)
        return True
    table = games()[found.game].lesson_table(app, found)
    app.show(felt(table.build(), app.page.width), bg=theme.FELT, screen=table)
    return True
