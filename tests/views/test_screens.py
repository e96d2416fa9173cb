"""Fast screen tests of the real app (no browser): the real controls on a real Flet session with a
stand-in connection (tests/views/screen.py), tapped through Flet's own event path."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import flet as ft
import pytest

from engine.lanes import VARIANTS
from storage import api
from tests.views.screen import Screen
from views.app import start
from views.ui.i18n import t


@pytest.fixture
def screen(tmp_path: Path) -> Iterator[Screen]:
    s = Screen(tmp_path / "app.sqlite", start)
    yield s
    s.close()


def variant_boxes(screen: Screen) -> list[ft.Checkbox]:
    return [c for c in screen.find(kind=ft.Checkbox) if str(c.label).startswith(tuple(
        t("en", f"variant_{v}") for v in VARIANTS))]


def test_lanes_new_game_offers_the_house_rules_and_the_rated_badge(screen: Screen) -> None:
    """L-9 house rules and the L-8.5 rated-rules badge are on the Lanes opponent screen."""
    buttons = screen.find("Play against a bot")
    screen.fire(buttons[0])  # the Lanes tile comes first
    screen.wait_text(t("en", "choose_level"))
    assert screen.shows(t("en", "rated_rules"))
    assert len(variant_boxes(screen)) == len(VARIANTS)


def test_spit_new_game_has_no_lanes_house_rules(screen: Screen) -> None:
    buttons = screen.find("Play against a bot")
    screen.fire(buttons[-1])  # the Spit tile comes last
    screen.wait_text(t("en", "sp_split"))
    assert not variant_boxes(screen)
    assert not screen.shows(t("en", "rated_rules"))


def test_a_house_rule_toggled_on_makes_the_game_friendly_and_is_played(screen: Screen) -> None:
    """L-8.5: any L-9 rule on makes the game friendly (never rated); the table uses it."""
    screen.fire(screen.find("Play against a bot")[0])
    screen.wait_text(t("en", "rated_rules"))
    box = next(b for b in variant_boxes(screen) if b.label == t("en", "variant_quick_sell"))
    screen.toggle(box, True)
    screen.wait_text(t("en", "friendly_rules", n=1))
    screen.tap("Beginner")
    screen.wait_for(lambda: screen.find(ident="hand-0"), what="the Lanes table")
    games = api.games_in_progress(screen.app.storage)
    assert games and games[0].options["variants"] == ["quick_sell"]


def test_background_pauses_the_spit_clock_and_return_resumes_it(screen: Screen) -> None:
    """The app in the background freezes Spit's game time (no move falls due, the bot waits);
    coming back resumes exactly where it stopped (docs/app.md, Background)."""
    from views.spit.table import SpitTable

    screen.fire(screen.find("Play against a bot")[-1])
    screen.tap("Beginner")
    table = screen.wait_for(lambda: isinstance(screen.app.screen, SpitTable) and screen.app.screen, what="Spit")
    screen.fire(screen.page, "app_lifecycle_state_change", {"state": "hide"})
    assert screen.app.paused and table.paused_at is not None
    frozen = table.now()
    time.sleep(0.05)
    assert table.now() == frozen
    screen.fire(screen.page, "app_lifecycle_state_change", {"state": "resume"})
    assert not screen.app.paused and table.paused_at is None
    assert frozen <= table.now() < frozen + 0.5  # the background time is not game time


def test_a_tap_on_a_hand_card_updates_the_table_in_place(screen: Screen) -> None:
    """Selecting a card changes the controls already on screen (same identity on the client) and
    sends a small patch, not the table (docs/app.md, Updates in place)."""
    screen.fire(screen.find("Play against a bot")[0])
    screen.tap("Beginner")
    screen.wait_for(lambda: screen.find(ident="hand-0"), what="the Lanes table")
    screen.wait_text(t("en", "opening"))  # our move (the bot may have opened)
    time.sleep(0.3)  # the arrival's second frame, if the bot moved
    before = screen.find(ident="hand-0")[0]
    table_bytes = screen.conn.bytes_sent
    sent = screen.conn.bytes_sent
    screen.tap(ident="hand-0")
    screen.wait_text(t("en", "pick_target"))
    tap_bytes = screen.conn.bytes_sent - sent
    assert screen.find(ident="hand-0")[0] is before
    assert 0 < tap_bytes < table_bytes / 10, (tap_bytes, table_bytes)
