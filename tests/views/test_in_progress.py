"""Unfinished games have a home (#42, item 1): every game in progress on this device is listed on
the home and in History with Resume and Delete, and a new game over one of the same game is asked
about first (resume it, start anyway, or cancel). Before, only the newest could be continued and a
new game started without a word, so older unfinished games could not be reached at all."""

from __future__ import annotations

from pathlib import Path

import flet as ft

from storage import api
from storage.db import open_storage
from tests.views.modes import local
from tests.views.screen import Screen, walk
from tests.views.test_screens import dialog_says, open_at, played_lanes_game
from views.lanes.controller import LanesMatch
from views.spit.controller import SpitGame
from views.ui import theme
from views.ui.i18n import counted, t


def unfinished_lanes(db: Path, seed: int, moves: int) -> int:
    """A Lanes game against the Beginner bot, left after ``moves`` of my moves."""
    st = open_storage(db)
    m = LanesMatch.new(st, "beginner", seed)
    for _ in range(moves):
        while not m.my_turn:
            m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
        move = m.suggest()
        assert move is not None  # my turn: the hint has a move
        m.mode.submit(move)
    game_id = local_id(m)
    st.close()
    return game_id


def local_id(m: LanesMatch) -> int:
    game_id = local(m).game_id
    assert game_id is not None
    return game_id


def unfinished_spit(db: Path) -> int:
    st = open_storage(db)
    SpitGame.new(st, "beginner", 7, now=0.0)
    games = api.local_games_in_progress(st, "spit")
    st.close()
    return games[0].id


def in_progress_ids(s: Screen) -> set[int]:
    return {int(str(c.identifier).rsplit("-", 1)[1]) for c in s.find(kind=ft.Semantics)
            if str(getattr(c, "identifier", "") or "").startswith("in-progress-")}


def test_every_game_in_progress_is_listed_resumed_and_deleted(tmp_path: Path) -> None:
    db = tmp_path / "app.sqlite"
    played_lanes_game(db, 2)  # finished (resigned): not in progress
    old = unfinished_lanes(db, 3, 1)
    new = unfinished_lanes(db, 5, 2)
    spit = unfinished_spit(db)
    s = open_at(tmp_path, "/")
    try:
        s.wait_for(lambda: in_progress_ids(s) == {old, new, spit}, what="all three games in progress")
        assert s.shows(t("en", "in_progress")) and s.shows(f"{t('en', 'lanes')} · {t('en', 'vs', who='Beginner')}")
        n = len(next(g for g in api.local_games_in_progress(s.app.storage) if g.id == spit).actions)
        assert s.shows(f"{t('en', 'spit')} · {t('en', 'vs', who='Beginner')} · {n} move{'' if n == 1 else 's'}")
        s.tap(ident=f"resume-{old}")  # the older one, which "Continue" never reached
        s.wait_for(lambda: s.page.route == f"/play/{old}", what="the older game resumed")
        s.go("/stats")
        s.wait_for(lambda: in_progress_ids(s) == {old, new, spit}, what="the same list in History")
        s.tap(ident=f"delete-{new}")
        s.wait_for(dialog_says(s, t("en", "delete_game_confirm")), what="the question")
        s.tap(t("en", "cancel"), kind=ft.TextButton)
        assert new in in_progress_ids(s)
        s.tap(ident=f"delete-{new}")
        s.wait_for(dialog_says(s, t("en", "delete_game_confirm")), what="the question again")
        s.tap(t("en", "delete_game"), kind=ft.TextButton)
        s.wait_for(lambda: in_progress_ids(s) == {old, spit}, what="the deleted game gone")
        assert {g.id for g in api.local_games_in_progress(s.app.storage)} == {old, spit}
    finally:
        s.close()


def test_a_lopti_deal_has_no_delete_of_its_own_and_its_resume_stands_in_the_others_column(tmp_path: Path) -> None:
    """A Lopti session's deal goes with its session, so its row has no Delete; the Delete's place
    stays empty, so that its Resume stands in one column with the other rows' (on a wide screen it
    stood a button's width further right)."""
    lanes = unfinished_lanes(tmp_path / "app.sqlite", 3, 1)
    s = open_at(tmp_path, "/")
    try:
        s.tap(t("en", "players_n", n=3))
        s.wait_for(lambda: s.find(ident="seat-me"), what="the Lopti table")
        s.go("/")
        s.wait_for(lambda: len(in_progress_ids(s)) == 2, what="both games in progress")
        lopti = next(i for i in in_progress_ids(s) if i != lanes)
        assert s.find(ident=f"delete-{lanes}") and not s.find(ident=f"delete-{lopti}")

        def last_width(game_id: int) -> object:
            """The width of what stands after the row's Resume (a Delete, or its empty place)."""
            row = s.one(ident=f"in-progress-{game_id}").content
            return next((w for c in walk(row.controls[-1]) if (w := getattr(c, "width", None)) is not None), None)

        assert last_width(lopti) == last_width(lanes) == theme.BUTTON_HEIGHT
        s.tap(ident=f"resume-{lopti}")
        s.wait_for(lambda: s.page.route == f"/play/{lopti}", what="the deal resumed")
    finally:
        s.close()


def test_a_new_game_over_one_in_progress_is_asked_about_first(tmp_path: Path) -> None:
    db = tmp_path / "app.sqlite"
    old = unfinished_lanes(db, 3, 1)
    s = open_at(tmp_path, "/lanes/new")
    try:
        s.tap("Beginner")
        s.wait_for(dialog_says(s, t("en", "new_over_open", what="")[:20]), what="the question")
        s.tap(t("en", "cancel"), kind=ft.TextButton)
        assert s.page.route == "/lanes/new" and len(api.local_games_in_progress(s.app.storage)) == 1
        s.tap("Beginner")
        s.wait_for(lambda: s.dialog_shown(), what="the question again")
        s.tap(t("en", "resume_it"), kind=ft.TextButton)
        s.wait_for(lambda: s.page.route == f"/play/{old}", what="the game in progress resumed")
        s.go("/lanes/new")
        s.tap("Beginner")
        s.wait_for(lambda: s.dialog_shown(), what="the question a third time")
        s.tap(t("en", "start_new"), kind=ft.FilledButton)
        s.wait_for(lambda: s.page.route.startswith("/play/") and s.page.route != f"/play/{old}", what="a new game")
        assert len(api.local_games_in_progress(s.app.storage, "lanes")) == 2  # the other one kept
    finally:
        s.close()


def test_a_game_in_progress_counts_its_moves_in_each_languages_number_forms() -> None:
    """"1 move", not "1 moves"; Arabic has four forms (one, two, 3–10, 11 and more), Vietnamese one."""
    def said(n: int) -> list[str]:
        return [t(lang, counted("moves_n", n), n=n) for lang in ("en", "ar", "vi")]

    assert said(1) == ["1 move", "نقلة واحدة", "1 nước"]
    assert said(2) == ["2 moves", "نقلتان", "2 nước"]
    assert said(3) == ["3 moves", "3 نقلات", "3 nước"]
    assert said(12) == ["12 moves", "12 نقلة", "12 nước"]
