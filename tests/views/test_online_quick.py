"""Quick messages on the online table (#45 item 4), against a real lobby process: the opponent's
phrase shows beside their seat and fades; mine is chosen from the fixed list, heard at the lobby,
shown beside my seat; too soon after the last one the lobby's limit is said; the setting mutes them.
The lobby's own rules (phrases only, rate limit, never in the record): tests/lobby/test_quick_messages.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from lobby.messages import PHRASES as LOBBY_PHRASES
from storage.lobby_client import LobbyClient
from tests.views.modes import online_seat
from tests.views.online_lobby import ann_and_bob
from tests.views.screen import Screen
from views.app import start
from views.lanes.table import LanesTable
from views.online.quick import PHRASES
from views.online.table import OnlineSeat, open_online_table
from views.ui import theme
from views.ui.i18n import LANGS, t


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[LobbyClient, LobbyClient, str]]:
    """A casual untimed match at a real lobby, open on nobody's table yet."""
    with ann_and_bob(tmp_path, rated=False, time_control="untimed") as (_url, ann, bob, mid):
        yield ann, bob, mid


def table_of(s: Screen, client: LobbyClient, mid: str) -> OnlineSeat:
    s.call(lambda: open_online_table(s.app, client, client.view(mid)))
    seat: OnlineSeat = s.wait_for(lambda: online_seat(s.app.screen), what="the online table")
    return seat


def said(s: Screen) -> list[str]:
    return [c.label for c in s.find(ident="said")]


def heard_at_lobby(client: LobbyClient, mid: str) -> list[tuple[int, str]]:
    return [(e["seat"], e["phrase"]) for e in client.poll(mid, 0)["events"] if e["type"] == "say"]


def test_the_app_offers_exactly_the_lobbys_phrases_in_every_language() -> None:
    assert PHRASES == LOBBY_PHRASES
    for lang in LANGS:
        names = [t(lang, f"qm_{p}") for p in PHRASES]
        assert all(n and not n.startswith("qm_") for n in names) and len(set(names)) == len(names), lang


def test_a_phrase_from_each_side_shows_beside_its_seat_then_fades(tmp_path: Path, running: Any) -> None:
    ann, bob, mid = running
    s = Screen(tmp_path / "ann.sqlite", start)
    try:
        seat = table_of(s, ann, mid)
        bob.say(mid, "good_luck")
        s.wait_for(lambda: said(s) == ["Bob: Good luck!"], what="Bob's phrase beside his seat")
        # the table's rows: header, clocks, then Bob's seat row
        opponent_row = s.call(lambda: cast("LanesTable", seat.table).root.controls[2])
        assert any(getattr(c, "identifier", None) == "said" for c in getattr(opponent_row, "controls", []))
        s.tap(ident="online-say")
        s.tap(ident="say-emote_thumbs_up")
        s.wait_for(lambda: "You: Thumbs up" in said(s), what="my emote beside my seat")
        assert heard_at_lobby(bob, mid) == [(1 - seat.online.seat, "good_luck"), (seat.online.seat, "emote_thumbs_up")]
        s.tap(ident="online-say")
        s.tap(ident="say-thanks")  # at once: the lobby's limit
        s.wait_text("Wait a moment before another message.")
        assert len(heard_at_lobby(bob, mid)) == 2
        s.wait_for(lambda: said(s) == [], timeout=theme.QUICK_MESSAGE_S + 10, what="the bubbles fading")
    finally:
        s.close()


def test_muted_nothing_shows_and_nothing_can_be_sent(tmp_path: Path, running: Any) -> None:
    ann, bob, mid = running
    s = Screen(tmp_path / "ann.sqlite", start)
    try:
        s.call(lambda: s.app.settings.update(quick_messages=False))
        seat = table_of(s, ann, mid)
        bob.say(mid, "hello")
        s.wait_for(lambda: seat.online.since >= bob.poll(mid, 0)["view"]["event_count"], what="the message heard")
        s.call(seat.table.refresh)
        assert said(s) == [] and not s.find(ident="online-say")
    finally:
        s.close()
