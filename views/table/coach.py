"""The coach panel wired to a lesson mode and the app (the Flet half of views/table/lessons.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from engine.core import Why
from views.table.contract import Status
from views.table.lessons import LessonCoach, next_lesson
from views.ui.i18n import t, why_text
from views.ui.widgets import coach_panel

if TYPE_CHECKING:
    from views.host import Host


def coach_for(app: Host, coach: LessonCoach, status: Status, refusal: Why | None, refresh: Callable[[], None],
              on_hint: Callable[[], None], on_retry: Callable[[], None],
              play_for_real: Callable[[], None]) -> ft.Control:
    """The panel for ``coach``'s lesson: the step's words, why the last move was refused
    (``refusal``, the engine's reason), the hint once asked for, and Continue / Retry / Next (after
    a game's last lesson: ``play_for_real``, a game against the Beginner)."""
    lang = app.lang
    lesson = coach.lesson
    following = next_lesson(lesson)

    def hint(e: object) -> None:
        on_hint()
        refresh()

    def retry(e: object) -> None:
        coach.restart()
        on_retry()
        refresh()

    def cont(e: object) -> None:
        coach.advance()
        refresh()

    def nxt(e: object) -> None:
        if following is not None:
            app.go(f"/lesson/{following.id}")
        else:
            play_for_real()

    label = t(lang, "next_lesson") if following is not None else t(lang, "play_beginner")
    panel = coach.panel(lang, why_text)
    if panel.done and status.over and status.winner is not None:
        panel.text = t(lang, "won" if status.winner == lesson.learner else "lost") + " " + panel.text
    if refusal is not None and not panel.done:
        panel.feedback = why_text(lang, refusal)
    return coach_panel(lang, panel, on_hint=hint, on_retry=retry, on_continue=cont, on_next=nxt,
                       next_label=label, on_learn=lambda e: app.go(f"/learn/{lesson.game}"))
