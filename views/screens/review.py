"""The expert's review of a finished Lanes or Lopti game (``engine.bots.review``), on the replay.

The first look runs the review in a worker thread behind a progress bar that can be cancelled
(leaving the screen cancels it too); the result is stored with the game (``api.save_review``), so
a second look opens at once. The replay then says, at each of the player's decisions, the chance
of winning before the move, after it and after the expert's move, marks the moves that lost 15
points or more, and shows the expert's move on the table (its cards are selected)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import flet as ft

from engine.bots.review import GameReview, review_game, reviewable
from storage import api
from storage.damage import DAMAGE
from storage.seats import PERSON
from views.screens.replay import replay
from views.table.screen import TableScreen
from views.ui import theme
from views.ui.i18n import counted, t
from views.ui.reconcile import send
from views.ui.widgets import pad, tagged, text

if TYPE_CHECKING:
    from views.host import Host


class ReviewWork(TableScreen):
    """The review under way: leaving the screen (or Cancel) stops it, and nothing is stored."""

    def __init__(self) -> None:
        self.cancelled = False
        self.done, self.of = 0, 0

    def stop(self) -> None:
        self.cancelled = True

    def progress(self, done: int, of: int) -> None:
        self.done, self.of = done, of


def review(app: Host, game_id: int) -> None:
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


def _work(app: Host, game_id: int, info: api.GameInfo) -> None:
    lang = app.lang
    work = ReviewWork()
    bar = ft.ProgressBar(value=0, width=280)
    count = text(lang, review_working(lang, 0, None), theme.TYPE_BODY)

    def cancel_tapped(e: object) -> None:
        work.stop()
        app.back()
    cancel = tagged("review-cancel", ft.OutlinedButton(
        t(lang, "cancel"), on_click=cancel_tapped))
    app.show(ft.Container(ft.Column([
        text(lang, t(lang, "review_title"), theme.TYPE_TITLE, True), bar, count, cancel,
    ], spacing=theme.SPACE_WIDE, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
        padding=pad(theme.SPACE_VAST), alignment=ft.Alignment.CENTER), screen=work)
    seat = _seat(info)

    async def run() -> None:
        job = asyncio.create_task(asyncio.to_thread(
            review_game, info.record, seat, 300, lambda: work.cancelled, work.progress))
        while not job.done():
            await asyncio.sleep(theme.PROGRESS_TICK_S)
            if work.cancelled:
                break
            bar.value = work.done / work.of if work.of else 0
            count.value = review_working(lang, work.done, work.of)
            send(bar, count)
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


def review_working(lang: str, done: int, of: int | None) -> str:
    """How far the review has looked; until the moves are counted, "…" in the count's place."""
    return t(lang, counted("review_working", of), done=done, of=of or "…")


def _seat(info: api.GameInfo) -> int:
    """The person's seat (the first person's, in a game between people), as the replay shows it."""
    kinds = [s.get("kind") for s in info.seats]
    return kinds.index(PERSON) if PERSON in kinds else 0


def _show(app: Host, game_id: int, result: GameReview) -> None:
    replay(app, game_id, result)
