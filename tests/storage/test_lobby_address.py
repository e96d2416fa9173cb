"""The lobby address (storage/lobby_address.py): what is accepted, how it is written, where the
default comes from, and the accounts kept one per lobby (storage/api.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import api, lobby_address
from storage.db import open_storage
from storage.lobby_address import BadAddress, built_in, current, normalise


@pytest.mark.parametrize(("typed", "stored"), [
    ("https://lobby.example.org", "https://lobby.example.org"),
    ("  HTTPS://Lobby.Example.ORG/  ", "https://lobby.example.org"),
    ("http://192.168.1.20:8600", "http://192.168.1.20:8600"),
    ("http://[::1]:8600/", "http://[::1]:8600"),
    ("https://example.org/cards/lobby/", "https://example.org/cards/lobby"),
    ("http://localhost:1", "http://localhost:1"),
])
def test_an_address_is_accepted_and_written_one_way(typed: str, stored: str) -> None:
    assert normalise(typed) == stored
    assert normalise(stored) == stored


@pytest.mark.parametrize(("typed", "reason"), [
    ("", "empty"), ("   ", "empty"),
    ("lobby.example.org", "scheme"), ("ftp://lobby.example.org", "scheme"), ("javascript:alert(1)", "scheme"),
    ("https://", "host"), ("https://exa mple.org", "host"), ("https://-bad-.org", "host"),
    ("https://under_score.org", "host"), ("http://[nope]:80", "host"),
    ("https://example.org:0", "port"), ("https://example.org:65536", "port"), ("https://example.org:http", "port"),
    ("https://example.org:", "port"),
    ("https://user:pw@example.org", "extra"), ("https://example.org/?a=1", "extra"),
    ("https://example.org/#top", "extra"), ("https://example.org/a b", "extra"),
])
def test_a_bad_address_is_refused_with_its_reason(typed: str, reason: str) -> None:
    with pytest.raises(BadAddress) as refused:
        normalise(typed)
    assert refused.value.reason == reason


def test_the_default_is_the_environment_then_the_build_setting_never_loopback(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(lobby_address.ENV, raising=False)
    built = tmp_path / "pyproject.toml"
    monkeypatch.setattr(lobby_address, "PYPROJECT", built)
    assert built_in() == ""  # no packaged pyproject: no address, the player is asked
    built.write_text('[tool.cardtable]\nlobby = "https://Cards.Example.org/"\n', encoding="utf-8")
    assert built_in() == "https://cards.example.org"
    monkeypatch.setenv(lobby_address.ENV, "http://10.0.0.5:8600")
    assert built_in() == "http://10.0.0.5:8600"
    monkeypatch.setenv(lobby_address.ENV, "not an address")  # a broken one counts as none
    assert built_in() == "https://cards.example.org"
    built.write_text("[tool.cardtable\n", encoding="utf-8")  # a damaged file: no address, no crash
    assert built_in() == ""
    assert current("https://mine.example.org/") == "https://mine.example.org"
    assert current("garbage") == current(42) == current("") == ""


def test_the_shipped_build_setting_is_not_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(lobby_address.ENV, raising=False)
    address = built_in()
    assert "127.0.0.1" not in address and "localhost" not in address and "[::1]" not in address


def test_accounts_are_kept_one_per_lobby(tmp_path: Path) -> None:
    st = open_storage(tmp_path / "a.sqlite")
    try:
        api.set_account(st, "http://10.0.0.5:8600", "p1", "t1", "Layla")
        api.set_account(st, "https://lobby.example.org", "p9", "t9", "Layla")
        assert api.get_account(st, "HTTP://10.0.0.5:8600/").token == "t1"  # type: ignore[union-attr]
        assert api.get_account(st, "https://lobby.example.org").player_id == "p9"  # type: ignore[union-attr]
        assert api.get_account(st, "https://other.example.org") is None
        api.set_account(st, "http://10.0.0.5:8600/", "p2", "t2", "Layla")  # signing in there again replaces it
        assert [a.player_id for a in api.accounts(st)] == ["p2", "p9"]
        api.clear_account(st, "http://10.0.0.5:8600")
        assert [a.player_id for a in api.accounts(st)] == ["p9"]
        api.update_profile(st, lobby_url="https://lobby.example.org")
        assert api.get_profile(st)[1]["lobby_url"] == "https://lobby.example.org"
    finally:
        st.close()
