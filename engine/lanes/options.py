"""Lanes options: the twelve named variants of rule L-9 (house rules; friendly, never rated)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.core import BadRequest

#: rule id of each variant, in the order of L-9
VARIANTS: dict[str, str] = {
    "queen_anywhere": "L-9.1",
    "king_adds": "L-9.2",
    "founding_suit": "L-9.3",
    "no_attach_limit": "L-9.4",
    "quick_sell": "L-9.5",
    "reshuffle": "L-9.6",
    "short_deck": "L-9.7",
    "double_deck": "L-9.8",
    "queen_shield": "L-9.9",
    "fixed_direction": "L-9.10",
    "fresh_hand": "L-9.11",
    "protective_joker": "L-9.12",
}


@dataclass(frozen=True, slots=True)
class LanesOptions:
    """One flag per L-9 variant; all off is the standard game."""

    queen_anywhere: bool = False
    king_adds: bool = False
    founding_suit: bool = False
    no_attach_limit: bool = False
    quick_sell: bool = False
    reshuffle: bool = False
    short_deck: bool = False
    double_deck: bool = False
    queen_shield: bool = False
    fixed_direction: bool = False
    fresh_hand: bool = False
    protective_joker: bool = False

    @property
    def variants(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self) if getattr(self, f.name))

    @property
    def ranked(self) -> bool:
        """L-8.5: only the standard rules are ever rated."""
        return not self.variants

    def to_json(self) -> dict[str, Any]:
        return {"variants": list(self.variants)} if self.variants else {}

    @staticmethod
    def from_json(obj: Any) -> LanesOptions:
        if obj is None:
            return LanesOptions()
        if not isinstance(obj, dict):
            raise BadRequest("Lanes options must be an object like {\"variants\": [\"king_adds\"]}")
        unknown = set(obj) - {"variants"}
        if unknown:
            raise BadRequest(f"unknown Lanes option(s): {', '.join(sorted(unknown))}")
        names = obj.get("variants", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise BadRequest("options.variants must be a list of variant names")
        bad = [n for n in names if n not in VARIANTS]
        if bad:
            raise BadRequest(f"unknown Lanes variant(s): {', '.join(bad)}; known: {', '.join(VARIANTS)}")
        return LanesOptions(**{n: True for n in names})

    @staticmethod
    def standard() -> LanesOptions:
        return LanesOptions()
