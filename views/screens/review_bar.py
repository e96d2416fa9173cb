"""The review's part of the replay bar (views/screens/review.py makes the review; views/screens/replay.py
shows it): at each of the player's decisions the chances before and after the move and after the
expert's, the mark on a mistake, the jumps between mistakes, and the expert's move on the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from engine.bots.review import GameReview, MoveReview
from engine.games import rules_for
from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import text

if TYPE_CHECKING:
    from views.lanes.controller import LanesMatch
    from views.lopti.controller import LoptiMatch
    from views.table.replay import Stepper


class ReviewBar:
    """The review's part of the replay bar: the words at each step, the mistake mark, the jumps
    between mistakes, and the expert's move shown on the table."""

    def __init__(self, lang: str, result: GameReview, controller: LanesMatch | LoptiMatch, mode: Stepper) -> None:
        self.lang, self.result, self.controller, self.mode = lang, result, controller, mode
        self.words = text(lang, "", theme.TYPE_SMALL, color=theme.ON_FELT)
        self.mark = ft.Container(width=24, height=24)  # a fixed slot: a Row here would break the bar's line

    def first(self) -> int:
        """Where the review opens: the first mistake, else the deal."""
        return min((m.ply for m in self.result.marked), default=0)

    def mistake(self, forward: bool, step: int) -> int:
        plies = [m.ply for m in self.result.marked if (m.ply > step if forward else m.ply < step)]
        return (min(plies) if forward else max(plies)) if plies else step

    def at(self, step: int) -> None:
        m = self.result.at(step)
        state = self.mode.state
        self.words.value = move_words(self.lang, self.controller, state, m, self.result.game)
        self.mark.content = marker(self.lang, m)
        best = rules_for(self.result.game).parse_action(m.best, state) if m and m.best != m.played else None
        self.controller.point_at(best)  # the parse above made it this game's action

    def controls(self, steps: list[ft.Control], jump: Callable[[bool], ft.Control]) -> list[ft.Control]:
        """The summary, the words, and one line of buttons that fits a 360 px phone: the jumps
        between mistakes take the places of "to the deal" and "to the end" (``steps`` is the
        replay's first, back, counter, on, last)."""
        return [ft.Container(ft.Column([
            text(self.lang, summary(self.lang, self.result), theme.TYPE_SMALL, True, theme.ON_FELT),
            ft.Semantics(identifier="review-words", content=self.words),
        ], spacing=theme.SPACE_FINE), padding=ft.Padding.symmetric(horizontal=theme.SPACE)),
            ft.Row([jump(False), steps[1], steps[2], self.mark, steps[3], jump(True)],
                   alignment=ft.MainAxisAlignment.CENTER, wrap=True, spacing=theme.SPACE_NONE)]


def summary(lang: str, result: GameReview) -> str:
    return t(lang, "review_summary", n=len(result.moves), marked=len(result.marked))


def move_words(lang: str, controller: LanesMatch | LoptiMatch, state: object, m: MoveReview | None,
               game: str) -> str:
    """What the review says at one step: the chances, and the expert's move when it differs."""
    if m is None:
        return t(lang, "review_not_yours")
    line = t(lang, "review_move", before=_pct(m.before), after=_pct(m.after_played))
    if m.best == m.played:
        return f"{line} · {t(lang, 'review_same')}"
    best = rules_for(game).parse_action(m.best, state)
    move = controller.suggest_words(best, lang)
    key = "review_mistake" if m.marked else "review_other"
    return f"{line} · {t(lang, key, move=move, best=_pct(m.after_best), loss=_pct(m.loss))}"


def _pct(x: float) -> int:
    return round(100 * x)


def marker(lang: str, m: MoveReview | None) -> ft.Control | None:
    """A mistake's mark beside the step counter (an icon with its words for screen readers)."""
    if m is None or not m.marked:
        return None
    return ft.Semantics(identifier="review-mark", label=t(lang, "review_marked"), content=ft.Icon(
        ft.Icons.ERROR_OUTLINE, color=theme.RESIGN, size=22))
