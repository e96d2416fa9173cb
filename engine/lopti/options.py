"""Lopti options: the active house rules (P-8), session-only base parameters (P-9.1), whether a
deal stops when its first player goes out (P-7.4), and the safety cap on turns per deal (see
docs/engine.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import BadRequest
from engine.lopti.house_rules import BaseParams, HouseRule, RuleError, parse_rule

#: Turns per deal after which the deal ends deterministically (P-8.3 "no endless loop"). A normal
#: 5-player deal takes well under 300 turns; random play rarely needs more than 600.
DEFAULT_TURN_CAP = 2000


@dataclass(frozen=True)
class LoptiOptions:
    turn_cap: int = DEFAULT_TURN_CAP
    house_rules: tuple[HouseRule, ...] = ()
    params: BaseParams = field(default_factory=BaseParams)
    #: a deal of a session: who leads (P-2.3) and the deal's number (house-rule conditions)
    leader: int = 0
    deal_number: int = 0
    #: P-7.4 "play may continue to rank the other places": a table may stop the deal instead when
    #: its first player goes out; the others are then placed by fewest cards left (docs/engine.md)
    first_out_ends: bool = False

    @property
    def ranked(self) -> bool:
        return not self.house_rules and self.params == BaseParams()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.house_rules:
            out["house_rules"] = [r.to_json() for r in self.house_rules]
        if self.params != BaseParams():
            out["params"] = self.params.to_json()
        if self.turn_cap != DEFAULT_TURN_CAP:
            out["turn_cap"] = self.turn_cap
        if self.leader:
            out["leader"] = self.leader
        if self.deal_number:
            out["deal_number"] = self.deal_number
        if self.first_out_ends:
            out["first_out_ends"] = True
        return out

    @staticmethod
    def from_json(obj: Any) -> LoptiOptions:
        if obj is None:
            return LoptiOptions()
        if not isinstance(obj, dict):
            raise BadRequest("Lopti options must be an object such as {} or {\"house_rules\": []}")
        unknown = set(obj) - {"house_rules", "turn_cap", "params", "leader", "deal_number", "first_out_ends"}
        if unknown:
            raise BadRequest(f"unknown Lopti option(s): {', '.join(sorted(unknown))}")
        raw_rules = obj.get("house_rules", [])
        if not isinstance(raw_rules, list):
            raise BadRequest("house_rules must be a list")
        rules = []
        try:
            for i, r in enumerate(raw_rules):
                try:
                    rules.append(parse_rule(r))
                except RuleError as exc:
                    raise RuleError([f"house_rules[{i}]: {p}" for p in exc.problems]) from None
            params = BaseParams.from_json(obj.get("params", {}))
        except RuleError as exc:
            raise BadRequest("; ".join(exc.problems)) from None
        ids = [r.id for r in rules]
        if len(set(ids)) != len(ids):
            raise BadRequest("two house rules share an id")
        return LoptiOptions(house_rules=tuple(rules), params=params, **_settings(obj))


def _settings(obj: dict[str, Any]) -> dict[str, Any]:
    """The options besides the rules: the turn cap, the deal's leader and number, first-out-ends."""
    cap = obj.get("turn_cap", DEFAULT_TURN_CAP)
    if isinstance(cap, bool) or not isinstance(cap, int) or not 10 <= cap <= 100_000:
        raise BadRequest("turn_cap must be a whole number from 10 to 100000")
    out: dict[str, Any] = {"turn_cap": cap}
    for key in ("leader", "deal_number"):
        v = obj.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10_000:
            raise BadRequest(f"{key} must be a whole number ≥ 0")
        out[key] = v
    out["first_out_ends"] = obj.get("first_out_ends", False)
    if not isinstance(out["first_out_ends"], bool):
        raise BadRequest("first_out_ends must be true or false")
    return out
