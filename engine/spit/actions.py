"""Spit actions. Every action names its player (there are no turns, S-1.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import BadRequest, want_int
from engine.spit.state import SLOTS


@dataclass(frozen=True, slots=True)
class PlayCard:
    player: int
    stock: int
    pile: int


@dataclass(frozen=True, slots=True)
class Fill:
    player: int
    source: int
    slot: int


@dataclass(frozen=True, slots=True)
class CallSpit:
    player: int


@dataclass(frozen=True, slots=True)
class Slap:
    player: int
    pile: int


@dataclass(frozen=True, slots=True)
class NextRound:
    """Gather, shuffle and deal the next round (S-5.4); the driver sends it after ``round_over``."""


SpitAction = PlayCard | Fill | CallSpit | Slap | NextRound


def _keys(obj: dict[str, Any], allowed: set[str]) -> None:
    extra = set(obj) - allowed
    if extra:
        raise BadRequest(f"unknown key(s) in action: {', '.join(sorted(extra))}")


def parse_action(obj: Any) -> SpitAction:
    if isinstance(obj, SpitAction):
        return obj
    if not isinstance(obj, dict):
        raise BadRequest(f"an action must be an object, got {obj!r}")
    if "next_round" in obj:
        _keys(obj, {"next_round"})
        if obj["next_round"] is not True:
            raise BadRequest("next_round must be true")
        return NextRound()
    if "player" not in obj:
        raise BadRequest("every Spit action names its player")
    p = want_int(obj["player"], "player", 0, 1)
    for kind, parse in _PARSERS.items():
        if kind in obj:
            _keys(obj, {"player", kind})
            return parse(p, obj[kind])
    raise BadRequest("unknown action: expected play, fill, spit or slap")


def _play(p: int, body: Any) -> SpitAction:
    if not isinstance(body, dict) or set(body) != {"stock", "pile"}:
        raise BadRequest("play takes {\"stock\": 0-4, \"pile\": 0-1}")
    return PlayCard(p, want_int(body["stock"], "stock", 0, SLOTS - 1), want_int(body["pile"], "pile", 0, 1))


def _fill(p: int, body: Any) -> SpitAction:
    if not isinstance(body, dict) or set(body) != {"from", "to"}:
        raise BadRequest("fill takes {\"from\": 0-4, \"to\": 0-4}")
    return Fill(p, want_int(body["from"], "from", 0, SLOTS - 1), want_int(body["to"], "to", 0, SLOTS - 1))


def _spit(p: int, body: Any) -> SpitAction:
    if body is not True:
        raise BadRequest("spit must be true")
    return CallSpit(p)


def _slap(p: int, body: Any) -> SpitAction:
    return Slap(p, want_int(body, "slap pile", 0, 1))


#: the player's actions by their key, in the order they are looked for
_PARSERS = {"play": _play, "fill": _fill, "spit": _spit, "slap": _slap}


def action_to_json(action: SpitAction) -> dict[str, Any]:
    match action:
        case PlayCard(player, stock, pile):
            return {"player": player, "play": {"stock": stock, "pile": pile}}
        case Fill(player, source, slot):
            return {"player": player, "fill": {"from": source, "to": slot}}
        case CallSpit(player):
            return {"player": player, "spit": True}
        case Slap(player, pile):
            return {"player": player, "slap": pile}
        case NextRound():
            return {"next_round": True}
    raise AssertionError(action)
