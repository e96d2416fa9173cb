"""Small helpers for the tests: run a conformance request in-process; a free local port."""

from __future__ import annotations

import socket
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
