"""Lanes actions: immutable values with the conformance JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import Card, CardError, parse_card
from engine.core import BadRequest, want_int
from engine.lanes.state import LANES


@dataclass(frozen=True, slots=True)
class Play:
    """A number card on an own lane (``owner``/``stack`` None) or a face card on a number card."""

    card: Card
    lane: int
    owner: int | None = None
    stack: int | None = None
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    card: Card
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Disband:
    lane: int
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Resign:
    """L-8.3a: either player, at any time."""

    player: int | None = None


@dataclass(frozen=True, slots=True)
class Timeout:
    """L-8.3/L-8.4: an external result reported by a clock (the lobby): ``player`` loses."""

    player: int


@dataclass(frozen=True, slots=True)
class Abort:
    """L-8.4: no first move in time — the match ends with no result."""


@dataclass(frozen=True, slots=True)
class Away:
    """L-8.4: an external result reported by the lobby: ``player`` was away for the away time and
    loses."""

    player: int


#: results only a referee's clock or presence produce: never legal, never sent by a player
EXTERNAL = (Timeout, Abort, Away)

LanesAction = Play | Discard | Disband | Resign | Timeout | Abort | Away


def _player(obj: dict[str, Any]) -> int | None:
    return want_int(obj["player"], "player", 0, 1) if "player" in obj else None


def _card(value: Any) -> Card:
    try:
        return parse_card(value)
    except CardError as exc:
        raise BadRequest(str(exc)) from None


def _keys(obj: dict[str, Any], required: set[str], optional: set[str]) -> None:
    missing = required - set(obj)
    if missing:
        raise BadRequest(f"action is missing {', '.join(sorted(missing))}")
    unknown = set(obj) - required - optional
    if unknown:
        raise BadRequest(f"unknown key(s) in action: {', '.join(sorted(unknown))}")


def parse_action(obj: Any) -> LanesAction:
    """JSON → action. Shape and range errors are :class:`BadRequest`; legality is checked later."""
    if isinstance(obj, LanesAction):
        return obj
    if not isinstance(obj, dict):
        raise BadRequest(f"an action must be an object, got {obj!r}")
    for kind, parse in _PARSERS.items():
        if kind in obj:
            return parse(obj)
    raise BadRequest("unknown action: expected play, discard, disband or resign")


def _play(obj: dict[str, Any]) -> LanesAction:
    _keys(obj, {"play", "lane"}, {"owner", "stack", "player"})
    card = _card(obj["play"])
    lane = want_int(obj["lane"], "lane", 0, LANES - 1)
    owner = want_int(obj["owner"], "owner", 0, 1) if "owner" in obj else None
    stack = want_int(obj["stack"], "stack", 0, 10_000) if "stack" in obj else None
    return Play(card, lane, owner, stack, _player(obj))


def _discard(obj: dict[str, Any]) -> LanesAction:
    _keys(obj, {"discard"}, {"player"})
    return Discard(_card(obj["discard"]), _player(obj))


def _disband(obj: dict[str, Any]) -> LanesAction:
    _keys(obj, {"disband"}, {"player"})
    return Disband(want_int(obj["disband"], "disband lane", 0, LANES - 1), _player(obj))


def _true(obj: dict[str, Any], key: str) -> None:
    if obj[key] is not True:
        raise BadRequest(f"{key} must be true")


def _resign(obj: dict[str, Any]) -> LanesAction:
    _keys(obj, {"resign"}, {"player"})
    _true(obj, "resign")
    return Resign(_player(obj))


def _timeout(obj: dict[str, Any]) -> LanesAction:
    _keys(obj, {"timeout", "player"}, set())
    _true(obj, "timeout")
    return Timeout(want_int(obj["player"], "player", 0, 1))


def _away(obj: dict[str, Any]) -> LanesAction:
    _keys(obj, {"away", "player"}, set())
    _true(obj, "away")
    return Away(want_int(obj["player"], "player", 0, 1))


def _abort(obj: dict[str, Any]) -> LanesAction:
    _keys(obj, {"abort"}, set())
    _true(obj, "abort")
    return Abort()


#: each action by its key, in the order they are looked for
_PARSERS = {"play": _play, "discard": _discard, "disband": _disband, "resign": _resign, "timeout": _timeout,
            "away": _away, "abort": _abort}


def action_to_json(action: LanesAction) -> dict[str, Any]:
    out: dict[str, Any]
    match action:
        case Play(card, lane, owner, stack, player):
            out = {"play": str(card), "lane": lane}
            if owner is not None:
                out["owner"] = owner
            if stack is not None:
                out["stack"] = stack
        case Discard(card, player):
            out = {"discard": str(card)}
        case Disband(lane, player):
            out = {"disband": lane}
        case Resign(player):
            out = {"resign": True}
        case Timeout(player):
            return {"timeout": True, "player": player}
        case Abort():
            return {"abort": True}
        case Away(player):
            return {"away": True, "player": player}
    if player is not None:
        out["player"] = player
    return out
