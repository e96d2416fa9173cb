"""The coach panel wired to a lesson controller and the app (the Flet half of views/table/lessons.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from views.table.lessons import LessonMixin, next_lesson
from views.ui.i18n import t
from views.ui.widgets import coach_panel


def is_lesson(match: Any) -> bool:
    return isinstance(match, LessonMixin)


def coach_for(app: Any, match: LessonMixin, refresh: Callable[[], None],
              on_hint: Callable[[], None] | None = None) -> ft.Control:
    lang = app.lang
    lesson = match.lesson
    following = next_lesson(lesson)

    def hint(e: Any) -> None:
        (on_hint or match.show_hint)()
        refresh()

    def retry(e: Any) -> None:
        match.restart()
        refresh()

    def cont(e: Any) -> None:
        match.advance()
        refresh()

    def nxt(e: Any) -> None:
        if following is not None:
            app.open_lesson(following.id)
        else:
            app.start_game(lesson.game, "beginner")

    label = t(lang, "next_lesson") if following is not None else t(lang, "play_beginner")
    coach = match.coach(lang)
    state = match.run.state
    if coach.done and getattr(state, "over", False) and getattr(state, "winner", None) is not None:
        coach.text = t(lang, "won" if state.winner == lesson.learner else "lost") + " " + coach.text
    if match.refusal is not None and not coach.done:
        from views.ui.i18n import why_text

        coach.feedback = why_text(lang, match.refusal)
    return coach_panel(lang, coach, on_hint=hint, on_retry=retry, on_continue=cont, on_next=nxt,
                       next_label=label, on_learn=lambda e: app.learn_screen(lesson.game))
