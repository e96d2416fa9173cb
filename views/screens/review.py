"""The expert's review of a finished Lanes or Lopti game (``engine.bots.review``), on the replay.

The first look runs the review in a worker thread behind a progress bar that can be cancelled
(leaving the screen cancels it too); the result is stored with the game (``api.save_review``), so
a second look opens at once. The replay then says, at each of the player's decisions, the chance
of winning before the move, after it and after the expert's move, marks the moves that lost 15
points or more, and shows the expert's move on the table (its cards are selected)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import flet as ft

from engine.bots.review import GameReview, MoveReview, review_game, reviewable
from engine.games import rules_for
from storage import api
from storage.damage import DAMAGE
from views.table.screen import TableScreen
from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import text

if TYPE_CHECKING:
    from views.app import App
    from views.lanes.controller import LanesMatch
    from views.lopti.controller import LoptiMatch


class ReviewWork(TableScreen):
    """The review under way: leaving the screen (or Cancel) stops it, and nothing is stored."""

    def __init__(self) -> None:
        self.cancelled = False
        self.done, self.of = 0, 0

    def stop(self) -> None:
        self.cancelled = True

    def progress(self, done: int, of: int) -> None:
        self.done, self.of = done, of


def review(app: App, game_id: int) -> None:
    """Open the review of stored game ``game_id``: at once if it was reviewed before, else after
    the expert has looked at every decision."""
    lang = app.lang
    try:
        info = api.load_game(app.storage, game_id)
    except KeyError:
        app.turn_back(t(lang, "replay_broken", why=t(lang, "no_such_game")), "/stats")
        return
    if not reviewable(info.game) or info.finished_at is None:
        app.turn_back(t(lang, "review_unavailable"), "/stats")
        return
    stored = api.load_review(app.storage, game_id)
    if stored is not None:
        _show(app, game_id, stored)
        return
    _work(app, game_id, info)


def _work(app: App, game_id: int, info: api.GameInfo) -> None:
    lang = app.lang
    work = ReviewWork()
    bar = ft.ProgressBar(value=0, width=280)
    count = text(lang, t(lang, "review_working", done=0, of="…"), 14)

    def cancel_tapped(e: Any) -> None:
        work.stop()
        app.back()
    cancel = ft.Semantics(identifier="review-cancel", button=True, content=ft.OutlinedButton(
        t(lang, "cancel"), on_click=cancel_tapped))
    app.show(ft.Container(ft.Column([
        text(lang, t(lang, "review_title"), 20, True), bar, count, cancel,
    ], spacing=16, horizontal_alignment=ft.CrossAxisAlignment.CENTER), padding=ft.Padding.all(24),
        alignment=ft.Alignment.CENTER), screen=work)
    seat = _seat(info)

    async def run() -> None:
        job = asyncio.create_task(asyncio.to_thread(
            review_game, info.record, seat, 300, lambda: work.cancelled, work.progress))
        while not job.done():
            await asyncio.sleep(0.25)
            if work.cancelled:
                break
            bar.value = work.done / work.of if work.of else 0
            count.value = t(lang, "review_working", done=work.done, of=work.of or "…")
            bar.update()
            count.update()
        try:
            result = await job
        except DAMAGE as exc:  # a damaged stored record: say so, store nothing
            if not work.cancelled:
                app.turn_back(t(lang, "replay_broken", why=str(exc)), "/stats")
            return
        if result is None or work.cancelled:
            return
        api.save_review(app.storage, game_id, result)
        _show(app, game_id, result)

    app.page.run_task(run)


def _seat(info: api.GameInfo) -> int:
    """The person's seat (the first person's, in a game between people), as the replay shows it."""
    kinds = [s.get("kind") for s in info.seats]
    return kinds.index("person") if "person" in kinds else 0


def _show(app: App, game_id: int, result: GameReview) -> None:
    from views.screens.stats import replay

    replay(app, game_id, result)


class ReviewBar:
    """The review's part of the replay bar: the words at each step, the mistake mark, the jumps
    between mistakes, and the expert's move shown on the table."""

    def __init__(self, lang: str, result: GameReview, controller: LanesMatch | LoptiMatch, mode: Any) -> None:
        self.lang, self.result, self.controller, self.mode = lang, result, controller, mode
        self.words = text(lang, "", 13, color=theme.ON_FELT)
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

    def controls(self, steps: list[ft.Control], jump: Any) -> list[ft.Control]:
        """The summary, the words, and one line of buttons that fits a 360 px phone: the jumps
        between mistakes take the places of "to the deal" and "to the end" (``steps`` is the
        replay's first, back, counter, on, last)."""
        return [ft.Container(ft.Column([
            text(self.lang, summary(self.lang, self.result), 13, True, theme.ON_FELT),
            ft.Semantics(identifier="review-words", content=self.words),
        ], spacing=2), padding=ft.Padding.symmetric(horizontal=8)),
            ft.Row([jump(False), steps[1], steps[2], self.mark, steps[3], jump(True)],
                   alignment=ft.MainAxisAlignment.CENTER, wrap=True, spacing=0)]


def summary(lang: str, result: GameReview) -> str:
    return t(lang, "review_summary", n=len(result.moves), marked=len(result.marked))


def move_words(lang: str, controller: LanesMatch | LoptiMatch, state: Any, m: MoveReview | None,
               game: str) -> str:
    """What the review says at one step: the chances, and the expert's move when it differs."""
    if m is None:
        return t(lang, "review_not_yours")
    line = t(lang, "review_move", before=_pct(m.before), after=_pct(m.after_played))
    if m.best == m.played:
        return f"{line} · {t(lang, 'review_same')}"
    best: Any = rules_for(game).parse_action(m.best, state)
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
