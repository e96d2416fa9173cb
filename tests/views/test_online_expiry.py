"""The app when the lobby lets a seek or a challenge expire (#45 item 5): the search stops and the
Online screen says why; a challenger waiting on a code is told it expired. The lobby is a stand-in
answering as docs/lobby.md says an expired seek and challenge are answered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from storage.lobby_client import LobbyClient
from tests.views.screen import Screen
from views.app import start
from views.online import find
from views.ui.i18n import t


def lobby_that_lets_everything_expire(request: httpx.Request) -> httpx.Response:
    if request.method == "POST" and request.url.path == "/seeks":
        return httpx.Response(201, json={"id": "s_1", "status": "open", "rated": False, "time_control": "untimed",
                                         "variants": [], "match_id": None})
    if request.url.path == "/seeks/s_1":
        return httpx.Response(200, json={"id": "s_1", "status": "expired", "rated": False,
                                         "time_control": "untimed", "variants": [], "match_id": None})
    if request.url.path == "/challenges/ABC234":
        return httpx.Response(200, json={"code": "ABC234", "match_id": None, "expired": True})
    return httpx.Response(404, json={"error": "not here"})


@pytest.fixture
def screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    def client(app: Any) -> LobbyClient:
        return LobbyClient("http://lobby.test", token="t",
                           transport=httpx.MockTransport(lobby_that_lets_everything_expire))

    monkeypatch.setattr(find, "client_for", client)
    monkeypatch.setattr(find.theme, "LOBBY_POLL_S", 0.05)
    s = Screen(tmp_path / "app.sqlite", start, route="/online")
    yield s
    s.close()


def test_an_expired_seek_stops_the_search_and_says_why(screen: Screen) -> None:
    told: list[str] = []
    screen.call(lambda: find.find_game(screen.app, told.append, False, "untimed"))
    screen.wait_for(lambda: told, what="back to the Online screen")
    assert told == [t("en", "ol_seek_expired")]


def test_an_expired_challenge_is_said(screen: Screen) -> None:
    screen.call(lambda: screen.page.run_task(find.wait_for_challenge, screen.app, "ABC234"))
    screen.wait_for(lambda: screen.shows(t("en", "ol_challenge_expired", code="ABC234")), what="the expiry said")
