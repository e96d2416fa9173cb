"""A house rule being built by a person (P-8, P-13): when → if → do, one choice at a time.

The builder only ever offers choices the engine's validator accepts for the event and timing
chosen (conditions the event can answer, effects that cannot feed their own trigger, the extra
clear only after a play), so a finished draft is a valid rule; :meth:`RuleDraft.problems` still
asks the engine's validator, which stays the judge. No Flet here: plain pytest covers it."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from engine.lopti.house_rules import (
    CONDITION_NEEDS,
    EVENTS,
    MAX_CONDITIONS,
    MAX_EFFECTS,
    ROLES,
    SINGLE_ROLES,
    TIMINGS,
    conditions_for,
    effects_for,
    validate,
)

#: a new condition or effect starts from these arguments
CONDITION_DEFAULTS: dict[str, Any] = {
    "rank_in": ["8"], "count_at_least": 2, "count_at_most": 1, "cause_in": ["ten"], "zone": "up",
    "legal": False, "forced": True, "pile_size": {"op": ">=", "n": 6}, "draw_size": {"op": "<=", "n": 5},
    "hand_size": {"role": "actor", "op": ">=", "n": 8}, "cards_left": {"role": "actor", "op": "<=", "n": 3},
    "deal_number": {"op": ">=", "n": 2}, "draw_empty": True,
}
EFFECT_DEFAULTS: dict[str, dict[str, Any]] = {
    "draw": {"role": "next", "n": 1}, "give": {"from": "actor", "to": "next", "which": "lowest"},
    "reveal": {"role": "actor"}, "skip": {"role": "next"}, "reverse": {}, "return_cleared": {"n": 1},
    "clear": {}, "announce": {"text": ""},
}
#: the choices each argument offers
ARG_CHOICES: dict[str, list[Any]] = {
    "role": list(ROLES), "single_role": list(SINGLE_ROLES), "op": [">=", "<=", "=="],
    "which": ["lowest", "highest"], "draw_n": [1, 2, 3], "return_n": [1, 2, 3, 4, 5],
    "count": list(range(1, 9)), "size": list(range(0, 21)), "deal": list(range(0, 11)),
}


@dataclass
class RuleDraft:
    event: str = "play"
    timing: str = "after"
    conditions: list[dict[str, Any]] = field(default_factory=list)
    effects: list[dict[str, Any]] = field(default_factory=lambda: [{"effect": "draw", "role": "next", "n": 1}])
    title: str = ""

    # --- what may be chosen here -------------------------------------------------------------------
    def condition_kinds(self) -> list[str]:
        return list(conditions_for(self.event))

    def effect_kinds(self) -> list[str]:
        return list(effects_for(self.event, self.timing))

    # --- changes -----------------------------------------------------------------------------------
    def set_when(self, event: str | None = None, timing: str | None = None) -> None:
        """A new trigger keeps what still fits it and drops what does not (an effect that would
        no longer be allowed becomes the first allowed one: a rule always does something)."""
        if event is not None:
            if event not in EVENTS:
                raise ValueError(f"unknown event {event!r}")
            self.event = event
        if timing is not None:
            if timing not in TIMINGS:
                raise ValueError(f"unknown timing {timing!r}")
            self.timing = timing
        kinds = self.condition_kinds()
        self.conditions = [c for c in self.conditions if next(iter(c)) in kinds]
        allowed = self.effect_kinds()
        self.effects = [e if e["effect"] in allowed else self._effect(allowed[0]) for e in self.effects]

    def add_condition(self, kind: str | None = None) -> None:
        if len(self.conditions) >= MAX_CONDITIONS:
            return
        kinds = self.condition_kinds()
        kind = kind or next((k for k in kinds if k not in {next(iter(c)) for c in self.conditions}), kinds[0])
        if kind not in kinds:
            raise ValueError(f"the event {self.event!r} cannot test {kind!r}")
        self.conditions.append({kind: copy.deepcopy(CONDITION_DEFAULTS[kind])})

    def set_condition(self, i: int, kind: str) -> None:
        if kind not in self.condition_kinds():
            raise ValueError(f"the event {self.event!r} cannot test {kind!r}")
        self.conditions[i] = {kind: copy.deepcopy(CONDITION_DEFAULTS[kind])}

    def set_condition_arg(self, i: int, value: Any, part: str | None = None) -> None:
        """The condition's argument (``part``: one field of an {role, op, n} argument)."""
        (kind, arg), = self.conditions[i].items()
        if part is None:
            self.conditions[i] = {kind: value}
        else:
            self.conditions[i] = {kind: {**arg, part: value}}

    def toggle_rank(self, i: int, rank: str) -> None:
        """rank_in is a set of ranks: tapping one adds or removes it (never leaving it empty)."""
        ranks = list(self.conditions[i]["rank_in"])
        if rank in ranks and len(ranks) > 1:
            ranks.remove(rank)
        elif rank not in ranks:
            ranks.append(rank)
        order = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        self.conditions[i] = {"rank_in": sorted(ranks, key=order.index)}

    def remove_condition(self, i: int) -> None:
        del self.conditions[i]

    @staticmethod
    def _effect(kind: str) -> dict[str, Any]:
        return {"effect": kind, **copy.deepcopy(EFFECT_DEFAULTS[kind])}

    def add_effect(self) -> None:
        """Another effect, of the first kind the rule does not do yet."""
        if len(self.effects) < MAX_EFFECTS:
            kinds = self.effect_kinds()
            used = {e["effect"] for e in self.effects}
            self.effects.append(self._effect(next((k for k in kinds if k not in used), kinds[0])))

    def set_effect(self, i: int, kind: str) -> None:
        if kind not in self.effect_kinds():
            raise ValueError(f"{kind!r} is not allowed after {self.timing} {self.event!r}")
        self.effects[i] = self._effect(kind)

    def set_effect_arg(self, i: int, key: str, value: Any) -> None:
        self.effects[i] = {**self.effects[i], key: value}

    def remove_effect(self, i: int) -> None:
        if len(self.effects) > 1:  # a rule does at least one thing
            del self.effects[i]

    # --- the rule ----------------------------------------------------------------------------------
    def to_rule(self, rule_id: str) -> dict[str, Any]:
        rule: dict[str, Any] = {"version": 1, "id": rule_id, "title": self.title.strip()[:80], "author": None,
                                "created_deal": 0, "when": {"event": self.event, "timing": self.timing},
                                "do": copy.deepcopy(self.effects)}
        if len(self.conditions) == 1:
            rule["if"] = copy.deepcopy(self.conditions[0])
        elif self.conditions:
            rule["if"] = {"all": copy.deepcopy(self.conditions)}
        return rule

    def problems(self) -> list[str]:
        """The engine validator's word on the draft (empty: the rule is valid)."""
        return validate(self.to_rule("draft"))

    @classmethod
    def from_rule(cls, rule: dict[str, Any]) -> RuleDraft:
        """A draft of an existing rule (to propose a change to it). Conditions nested deeper than
        one ``all`` of plain tests — which the builder cannot show — start empty."""
        cond = rule.get("if")
        if cond is None:
            conditions: list[dict[str, Any]] = []
        elif "all" in cond and all(next(iter(c)) in CONDITION_NEEDS for c in cond["all"]):
            conditions = copy.deepcopy(cond["all"])[:MAX_CONDITIONS]
        elif next(iter(cond)) in CONDITION_NEEDS:
            conditions = [copy.deepcopy(cond)]
        else:
            conditions = []
        return cls(rule["when"]["event"], rule["when"]["timing"], conditions, copy.deepcopy(list(rule["do"])),
                   str(rule.get("title", "")))
