"""Small helpers for scenario tests: run a conformance request in-process."""

from __future__ import annotations

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
