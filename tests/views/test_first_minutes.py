"""Small things a newcomer trips on (#42, item 10), each checked on the real app."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.views.test_screens import open_at
from views.table.lessons import lessons
from views.ui.i18n import t


@pytest.mark.parametrize("game", ["lanes", "lopti"])
def test_a_lesson_shows_one_hint_button_the_coachs(tmp_path: Path, game: str) -> None:
    lesson = lessons()[game][0]
    s = open_at(tmp_path, f"/lesson/{lesson.id}")
    try:
        s.wait_for(lambda: s.find(ident="coach-text"), what="the coach panel")
        assert len(s.find(t("en", "hint"))) == 1
    finally:
        s.close()


def test_a_game_against_a_bot_keeps_its_hint_button(tmp_path: Path) -> None:
    s = open_at(tmp_path, "/lanes/new")
    try:
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the table")
        assert len(s.find(t("en", "hint"))) == 1
    finally:
        s.close()
