"""The lobby under abuse (#41), sent against a real `python -m lobby` process on SQLite and on
PostgreSQL: a body over the cap is refused before it is read, a stranger cannot queue for a running
match's row lock, and one player's flood of event streams meets a cap while the players' own
streams and moves go on. Nothing here waits on timing: each refusal must come while the abuse is
still unfinished (the rest of a body never sent, a lock still held), or the test fails."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from engine.bots import decide
from engine.lanes import RULES
from lobby.hot import MAX_BODY
from storage.lobby_client import LobbyClient, LobbyRefused
from tests.lobby.test_postgres import lobby_process

pytestmark = pytest.mark.process


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[str, subprocess.Popen[bytes], str]]:
    """A lobby process on ``db_url`` (both databases), its URL, the process and the URL kind."""
    proc, port = lobby_process(db_url, env={"LOBBY_RATE": "50", "LOBBY_BURST": "100"})
    try:
        yield f"http://127.0.0.1:{port}", proc, db_url
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def a_match(url: str) -> tuple[LobbyClient, LobbyClient, str]:
    ann, bob = LobbyClient(url), LobbyClient(url)
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    return ann, bob, str(bob.accept(ann.challenge(rated=False, time_control="untimed"))["match_id"])


def play_one(ann: LobbyClient, bob: LobbyClient, mid: str) -> float:
    """The side to move makes its move; the seconds it took."""
    v = ann.view(mid)
    mover = ann if v["clock"]["to_move"] == v["seat"] else bob
    v = mover.view(mid)
    started = time.monotonic()
    mover.move(mid, v["move_count"], RULES.action_to_json(decide("lanes", v["observation"], "beginner",
                                                                   v["move_count"])))
    return time.monotonic() - started


def raw(url: str, head: str, body: bytes, wait: float = 20) -> bytes:
    """Send ``head`` and ``body`` on one connection without finishing it; what the lobby answers."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=wait) as s:
        s.sendall(head.encode() + b"\r\n" + body)
        try:
            return s.recv(4096)
        except TimeoutError:
            return b"(no answer: the lobby is still reading)"


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_body_over_the_cap_is_refused_before_it_is_read(served: Any) -> None:
    url, proc, _ = served
    ann, bob, mid = a_match(url)
    auth = f"Authorization: Bearer {ann.token}\r\n"
    # a declared megabyte: refused with only its first kilobyte sent (the rest never comes)
    head = (f"POST /matches/{mid}/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{auth}"
            f"Content-Length: {1 << 20}\r\n")
    answer = raw(url, head, b"{" + b" " * 1023)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    # a chunked body: read up to the cap and no further (its last chunk is never sent)
    head = "POST /players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
    chunk = b"x" * 4096
    answer = raw(url, head, b"".join(b"1000\r\n" + chunk + b"\r\n" for _ in range(MAX_BODY // 4096 + 2)))
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    # twenty megabytes thrown at it: the worker's memory does not grow with them
    before = rss_kb(proc.pid)
    for _ in range(20):
        with _quiet():
            r = httpx.post(f"{url}/players", content=b"x" * (1 << 20), headers={"Content-Type": "application/json"},
                           timeout=20)
            assert r.status_code == 413 and r.json()["error"] == "request body too large"
    assert rss_kb(proc.pid) - before < 8 * 1024, "the worker kept what it was sent"
    # a body under the cap is read and judged as always; the match goes on
    r = httpx.post(f"{url}/matches/{mid}/moves", content=b'{"expected_move": "x"}' + b" " * 1000,
                   headers={"Content-Type": "application/json", "Authorization": f"Bearer {ann.token}"})
    assert r.status_code == 422
    play_one(ann, bob, mid)


class _quiet:
    """The lobby may close the connection while a client is still sending the refused body: that is
    the point, so a send cut short is no failure."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        return kind is not None and issubclass(kind, httpx.TransportError)


def test_a_stranger_is_refused_without_queueing_for_the_match(served: Any) -> None:
    """Running match ids are public; a stranger's move and view are refused on a plain read of the
    seats. On PostgreSQL the match row is held locked meanwhile (as a long move would): the answer
    must come while the lock is held. The players' moves keep going under the stranger's flood."""
    url, _, db_url = served
    ann, bob, mid = a_match(url)
    eve = LobbyClient(url, timeout=10)
    eve.sign_up("Eve")
    held = None
    if db_url.startswith("postgresql"):
        import psycopg

        held = psycopg.connect(db_url.replace("postgresql+psycopg://", "postgresql://"))
        held.execute('SELECT 1 FROM "match" WHERE id = %s FOR UPDATE', (mid,))
    try:
        for call in (lambda: eve.view(mid), lambda: eve.move(mid, 0, {"discard": "AS"}), lambda: eve.resign(mid)):
            with pytest.raises(LobbyRefused) as refused:
                call()
            assert refused.value.status == 403
    finally:
        if held is not None:
            held.rollback()
            held.close()
    flood = threading.Event()
    answers: list[int] = []

    def hammer() -> None:
        while not flood.is_set():
            r = eve.http.post(f"/matches/{mid}/moves", json={"expected_move": 0, "client_move_id": "x",
                                                            "action": {"discard": "AS"}},
                              headers={"Authorization": f"Bearer {eve.token}"})
            answers.append(r.status_code)

    threads = [threading.Thread(target=hammer) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        took = [play_one(ann, bob, mid) for _ in range(4)]
    finally:
        flood.set()
        for t in threads:
            t.join(timeout=30)
    assert answers and set(answers) <= {403, 429}
    assert max(took) < 5, took  # the players' moves went on (each well under the client's patience)


def test_one_players_flood_of_event_streams_meets_the_cap(served: Any) -> None:
    url, _, _ = served
    ann, bob, mid = a_match(url)
    opened: list[httpx.Response] = []
    refused = 0
    client = httpx.Client(base_url=url, timeout=10, headers={"Authorization": f"Bearer {ann.token}"})
    try:
        for _ in range(50):
            r = client.send(client.build_request("GET", f"/matches/{mid}/events"), stream=True)
            if r.status_code == 200:
                opened.append(r)
            else:
                assert r.status_code == 429 and r.headers.get("retry-after")
                r.read()
                refused += 1
        assert len(opened) == 4 and refused == 46  # the documented cap: 4 per player and worker
        # the players' own streams keep working: Bob's stream, and Ann's, see the next move
        bobs = httpx.Client(base_url=url, timeout=20, headers={"Authorization": f"Bearer {bob.token}"})
        stream = bobs.send(bobs.build_request("GET", f"/matches/{mid}/events",
                                              params={"since": bob.view(mid)["event_count"]}), stream=True)
        assert stream.status_code == 200
        lines = stream.iter_lines()
        play_one(ann, bob, mid)
        assert _sees(lines, "event: move")
        assert _sees(opened[0].iter_lines(), "event: move")
        stream.close()
        bobs.close()
    finally:
        for r in opened:
            r.close()
        client.close()
    # closed streams free their places
    deadline = time.monotonic() + 20
    while True:
        with httpx.Client(base_url=url, timeout=10, headers={"Authorization": f"Bearer {ann.token}"}) as again:
            r = again.send(again.build_request("GET", f"/matches/{mid}/events"), stream=True)
            status = r.status_code
            r.close()
        if status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert status == 200


def _sees(lines: Iterator[str], wanted: str) -> bool:
    """Whether the stream says ``wanted`` before it ends (a read that times out fails the test)."""
    return any(line.startswith(wanted) for line in lines)
