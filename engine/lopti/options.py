"""Lopti options. The base rules have no variants; house rules (P-8) arrive as structured data
and the safety cap on turns per deal ends a deal that would otherwise loop (see docs/engine.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import BadRequest

#: Turns per deal after which the deal ends deterministically (P-8.3 "no endless loop"). A normal
#: 5-player deal takes well under 300 turns; random play rarely needs more than 600.
DEFAULT_TURN_CAP = 2000


@dataclass(frozen=True, slots=True)
class LoptiOptions:
    turn_cap: int = DEFAULT_TURN_CAP
    house_rules: tuple[Any, ...] = ()

    @property
    def ranked(self) -> bool:
        return not self.house_rules

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.house_rules:
            out["house_rules"] = list(self.house_rules)
        if self.turn_cap != DEFAULT_TURN_CAP:
            out["turn_cap"] = self.turn_cap
        return out

    @staticmethod
    def from_json(obj: Any) -> LoptiOptions:
        if obj is None:
            return LoptiOptions()
        if not isinstance(obj, dict):
            raise BadRequest("Lopti options must be an object such as {} or {\"house_rules\": []}")
        unknown = set(obj) - {"house_rules", "turn_cap"}
        if unknown:
            raise BadRequest(f"unknown Lopti option(s): {', '.join(sorted(unknown))}")
        rules = obj.get("house_rules", [])
        if not isinstance(rules, list):
            raise BadRequest("house_rules must be a list")
        if rules:
            raise BadRequest("custom house rules are not supported by this engine version yet; "
                             "pass an empty list for the base rules")
        cap = obj.get("turn_cap", DEFAULT_TURN_CAP)
        if isinstance(cap, bool) or not isinstance(cap, int) or not 10 <= cap <= 100_000:
            raise BadRequest("turn_cap must be a whole number from 10 to 100000")
        return LoptiOptions(turn_cap=cap)
