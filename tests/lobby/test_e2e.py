"""End to end against a real `python -m lobby` process on 127.0.0.1: two clients find each other,
play a rated timed match and see their new ratings; kill -9 mid-match and restart loses nothing."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.bots import decide
from engine.lanes import RULES
from lobby.glicko2 import Rating, after_game
from storage.lobby_client import LobbyClient, LobbyRefused, LobbyUnavailable
from tests.conftest import ROOT
from tests.helpers import free_port


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "lobby", "--port", str(port), "--db", f"sqlite:///{db}"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("lobby did not start")


@pytest.fixture
def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    port = free_port()
    proc = start(tmp_path / "lobby.sqlite", port)
    yield f"http://127.0.0.1:{port}", tmp_path / "lobby.sqlite", port, proc
    proc.terminate()
    proc.wait(timeout=10)


def find_each_other(url: str) -> tuple[LobbyClient, LobbyClient, str]:
    a, b = LobbyClient(url), LobbyClient(url)
    a.sign_up("Ann")
    b.sign_up("Bob")
    sa = a.seek(rated=True, time_control="10+5")
    sb = b.seek(rated=True, time_control="10+5")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        sa = a.seek_status(sa["id"])
        if sa["match_id"]:
            break
        time.sleep(0.2)
    assert sa["match_id"] and b.seek_status(sb["id"])["match_id"] == sa["match_id"]
    return a, b, sa["match_id"]


def step(a: LobbyClient, b: LobbyClient, mid: str) -> dict[str, object]:
    va = a.view(mid)
    c = a if va["clock"]["to_move"] == va["seat"] else b
    v = c.view(mid)
    if v["status"] != "running":
        return v
    act = decide("lanes", v["observation"], "casual", v["move_count"])
    return c.move(mid, v["move_count"], RULES.action_to_json(act))


def play_rated_match_and_check_ratings(a: LobbyClient, b: LobbyClient, mid: str) -> None:
    """Play to the end with casual moves; both new ratings are Glicko-2's for that result."""
    for _ in range(300):
        if a.view(mid)["status"] != "running":
            break
        step(a, b, mid)
    va = a.view(mid)
    assert va["status"] == "finished" and va["rating_change"]
    ra, rb = after_game(Rating(), Rating(), 1.0 if va["winner"] == va["seat"] else 0.0)
    assert a.me()["rating"] == round(ra.rating) and b.me()["rating"] == round(rb.rating)


def test_two_clients_play_a_rated_timed_match_and_see_new_ratings(server) -> None:  # type: ignore[no-untyped-def]
    url = server[0]
    a, b, mid = find_each_other(url)
    play_rated_match_and_check_ratings(a, b, mid)
    assert {p["name"] for p in a.leaderboard()} == {"Ann", "Bob"}
    code = a.challenge(rated=False, variants=["king_adds"])
    vb = b.accept(code)
    assert vb["rated"] is False
    with pytest.raises(LobbyRefused) as info:
        a.move(vb["match_id"], 99, {"discard": "KS"})
    assert info.value.status == 409
    a.close()
    b.close()


def test_unreachable_lobby_is_reported_not_crashing() -> None:
    c = LobbyClient(f"http://127.0.0.1:{free_port()}", timeout=0.5)
    with pytest.raises(LobbyUnavailable):
        c.sign_up("Nobody")


def test_kill_9_mid_match_restart_loses_no_move_and_keeps_clocks(server) -> None:  # type: ignore[no-untyped-def]
    url, db, port, proc = server
    a, b, mid = find_each_other(url)
    for _ in range(6):
        step(a, b, mid)
    before = a.view(mid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc2 = start(db, port)
    try:
        after = a.view(mid)
        assert after["move_count"] == before["move_count"] and after["status"] == "running"
        for x, y in zip(after["clock"]["remaining_ms"], before["clock"]["remaining_ms"], strict=True):
            assert abs(x - y) <= 1000
        step(a, b, mid)
        assert a.view(mid)["move_count"] == before["move_count"] + 1
    finally:
        proc2.terminate()
        proc2.wait(timeout=10)
