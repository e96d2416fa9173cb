"""A real lobby process with Ann and Bob signed in and a match between them, for the app's online
screen tests (the tables under test hold long polls, so the process is killed, not stopped)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from storage.lobby_client import LobbyClient
from tests.helpers import free_port
from tests.lobby.test_e2e import start as start_lobby


@contextmanager
def ann_and_bob(tmp_path: Path, rated: bool, time_control: str) -> Iterator[tuple[str, LobbyClient, LobbyClient, str]]:
    """The lobby's address, Ann's and Bob's clients and the match Bob accepted from Ann's challenge."""
    port = free_port()
    lobby = start_lobby(tmp_path / "lobby.sqlite", port)
    url = f"http://127.0.0.1:{port}"
    ann, bob = LobbyClient(url), LobbyClient(url)
    try:
        ann.sign_up("Ann")
        bob.sign_up("Bob")
        mid = str(bob.accept(ann.challenge(rated=rated, time_control=time_control))["match_id"])
        yield url, ann, bob, mid
    finally:
        ann.close()
        bob.close()
        lobby.kill()  # a table or a result dialog may be inside a 10 s long poll
        lobby.wait(timeout=15)
