"""Small helpers for the tests: run a conformance request in-process; a free local port, and waiting
until a server the tests started listens on it."""

from __future__ import annotations

import socket
import time
from typing import Any

from engine.conformance import handle


def run(game: str, position: dict[str, Any], actions: list[Any] | None = None,
        options: dict[str, Any] | None = None, want: list[str] | None = None) -> dict[str, Any]:
    req: dict[str, Any] = {"id": "t", "game": game, "options": options or {}, "position": position,
                           "actions": actions or []}
    if want is not None:
        req["want"] = want
    return handle(req)


def ok(resp: dict[str, Any]) -> dict[str, Any]:
    assert resp["ok"], resp.get("error")
    return resp


def free_port() -> int:
    """A port on 127.0.0.1 nobody listens on (for servers the tests start)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int, seconds: float) -> bool:
    """Wait up to ``seconds`` until something accepts connections on 127.0.0.1:``port``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False
