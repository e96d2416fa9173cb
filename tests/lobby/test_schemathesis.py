"""Fuzz the lobby from its own OpenAPI schema with every check schemathesis has (``st run
--checks all``, all its phases): no server error; every answer's status, headers and body as the
schema declares them; schema-valid requests accepted and invalid ones refused; ``Allow`` headers that
match — signed in as a real player, so the authenticated operations are reached too (#21). The
server is the real lobby process; the seed is fixed so a failure replays."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.helpers import free_port

pytestmark = pytest.mark.process

EXAMPLES = os.environ.get("FUZZ_EXAMPLES", "200" if os.environ.get("SOAK") else "40")


def _wait(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the lobby did not start")


def test_schemathesis_all_checks_pass(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "LOBBY_RATE": "1000000", "LOBBY_BURST": "1000000"}
    lobby = subprocess.Popen([sys.executable, "-m", "lobby", "--port", str(port), "--db",
                              f"sqlite:///{tmp_path / 'fuzz.sqlite'}"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait(port)
        req = urllib.request.Request(f"http://127.0.0.1:{port}/players", data=b'{"name": "Fuzz"}',
                                     headers={"Content-Type": "application/json"})
        token = json.loads(urllib.request.urlopen(req, timeout=10).read())["token"]
        st = Path(sys.executable).with_name("st")
        run = subprocess.run([str(st), "run", f"http://127.0.0.1:{port}/openapi.json", "--checks", "all",
                              "--max-examples", EXAMPLES, "--seed", "21", "--no-color",
                              "-H", f"Authorization: Bearer {token}"],
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    finally:
        lobby.terminate()
        lobby.wait(timeout=10)
