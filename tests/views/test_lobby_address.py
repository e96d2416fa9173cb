"""The lobby address is the player's (#40): set in Settings → Online, validated (a bad one changes
nothing), stored in the profile, used by the online screens at once, accounts kept per lobby and
the player told so; an unreachable lobby is said in words with a retry that works once it is back."""

from __future__ import annotations

from pathlib import Path

import flet as ft

from storage import api
from storage.db import open_storage
from storage.lobby_client import LobbyClient
from tests.helpers import free_port
from tests.lobby.test_e2e import start as start_lobby
from tests.views.screen import Screen
from tests.views.test_screens import dialog_says, open_at
from views.ui.i18n import t


def field(s: Screen, label: str) -> ft.TextField:
    return next(f for f in s.find(kind=ft.TextField) if f.label == label)


def type_into(s: Screen, label: str, value: str) -> None:
    box = field(s, label)
    s.enter(box, value)


def test_a_bad_address_is_refused_in_the_players_language_and_nothing_is_saved(tmp_path: Path) -> None:
    s = open_at(tmp_path, "/settings")
    try:
        s.wait_text(t("en", "save"))
        type_into(s, t("en", "name"), "Zed")
        type_into(s, t("en", "ol_url"), "lobby.example.org")  # no scheme
        s.tap(t("en", "save"))
        s.wait_for(dialog_says(s, t("en", "addr_scheme")), what="the refusal")
        assert field(s, t("en", "ol_url")).error == t("en", "addr_scheme")
        name, settings = api.get_profile(s.app.storage)
        assert name != "Zed" and settings["lobby_url"] == "" and s.page.route == "/settings"
    finally:
        s.close()


def test_the_address_is_stored_used_at_once_and_accounts_stay_with_their_lobby(tmp_path: Path) -> None:
    here, there = f"http://127.0.0.1:{free_port()}", "https://other.example.org"
    st = open_storage(tmp_path / "app.sqlite")
    api.set_account(st, here, "p1", "token-1", "Layla")
    api.update_profile(st, lobby_url=here, language="vi")
    st.close()
    s = open_at(tmp_path, "/settings")
    try:  # before changing it, the player reads what happens to the account
        s.wait_text(t("vi", "addr_note_signed_in", name="Layla", url=here))
        type_into(s, t("vi", "ol_url"), " HTTPS://Other.Example.org/ ")
        s.tap(t("vi", "save"))
        s.wait_for(dialog_says(s, t("vi", "addr_changed", url=there)), what="the change told")
        assert s.shows(t("vi", "addr_left_account", name="Layla", url=here))
        assert api.get_profile(s.app.storage)[1]["lobby_url"] == there
        s.go("/online")  # used at once: not signed in there, the sign-in screen offers that lobby
        s.wait_text(t("vi", "ol_sign_in"))
        assert field(s, t("vi", "ol_url")).value == there
        s.go("/settings")
        s.wait_text(t("vi", "addr_note"))
        type_into(s, t("vi", "ol_url"), here + "/")
        s.tap(t("vi", "save"))
        s.wait_for(dialog_says(s, t("vi", "addr_changed", url=here)), what="switched back")
        assert s.shows(t("vi", "addr_account_there", name="Layla"))
        assert [a.player_id for a in api.accounts(s.app.storage)] == ["p1"]  # nothing was lost
    finally:
        s.close()


def test_an_unreachable_lobby_is_said_with_a_retry_that_works_when_it_is_back(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    lobby = start_lobby(tmp_path / "lobby.sqlite", port)
    me = LobbyClient(url)
    player = me.sign_up("Layla")
    me.close()
    lobby.terminate()
    lobby.wait(timeout=15)
    st = open_storage(tmp_path / "app.sqlite")
    assert me.token is not None
    api.set_account(st, url, player["id"], me.token, "Layla")
    api.update_profile(st, lobby_url=url, language="ar")
    st.close()
    s = open_at(tmp_path, "/online")
    try:
        s.wait_text(t("ar", "ol_unreachable"))
        assert s.find(ident="ol-retry") and s.shows(t("ar", "ol_find_rated"))  # the rest of the screen works
        lobby = start_lobby(tmp_path / "lobby.sqlite", port)
        s.tap(t("ar", "retry"))
        s.wait_for(lambda: not s.shows(t("ar", "ol_unreachable")) and s.shows("1500"), what="the lobby back")
        assert not s.one(ident="ol-retry").parent.visible  # the tagged button (views/ui/widgets.py)
    finally:
        s.close()
        lobby.terminate()
        lobby.wait(timeout=15)
