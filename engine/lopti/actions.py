"""Lopti actions and their two text forms: the JSON action (``{"play": ["9C", "9H"]}``) and the
normalised legal-action string (``"play 9x2"``, ``"take"``, ``"flip"``, ``"swap"``, ``"keep"``).

Beside the turn's actions, a house rule's author may delete it at any moment, on anyone's turn
(P-9.4): ``{"delete_rule": "own-1-2", "by": 2}``, normalised ``"delete own-1-2 by 2"``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import Card, CardError, parse_card
from engine.core import BadRequest, want_int
from engine.lopti.state import rank_label


@dataclass(frozen=True, slots=True)
class Play:
    """Concrete ``cards``, or an abstract ``rank`` × ``count`` (suits carry no meaning, P-1.1)."""

    cards: tuple[Card, ...] = ()
    rank: int | None = None
    count: int | None = None

    @property
    def key(self) -> tuple[int, int]:
        if self.cards:
            return self.cards[0].rank, len(self.cards)
        assert self.rank is not None and self.count is not None
        return self.rank, self.count


@dataclass(frozen=True, slots=True)
class Take:
    pass


@dataclass(frozen=True, slots=True)
class Flip:
    index: int | None


@dataclass(frozen=True, slots=True)
class Swap:
    hand_card: Card | None
    up_card: Card | None


@dataclass(frozen=True, slots=True)
class Keep:
    pass


@dataclass(frozen=True, slots=True)
class DeleteRule:
    """P-9.4: seat ``by`` deletes the house rule ``rule_id`` it wrote — out of turn, and from the
    next action on (not from the next deal)."""

    rule_id: str
    by: int


LoptiAction = Play | Take | Flip | Swap | Keep | DeleteRule


def _card(x: Any) -> Card:
    try:
        return parse_card(x)
    except CardError as exc:
        raise BadRequest(str(exc)) from None


def _only(obj: dict[str, Any], key: str) -> None:
    extra = set(obj) - {key}
    if extra:
        raise BadRequest(f"unknown key(s) in action: {', '.join(sorted(extra))}")


def parse_action(obj: Any) -> LoptiAction:
    if isinstance(obj, LoptiAction):
        return obj
    if isinstance(obj, str):
        return parse_normalised(obj)
    if not isinstance(obj, dict):
        raise BadRequest(f"an action must be an object, got {obj!r}")
    if "delete_rule" in obj:
        return _delete(obj)
    for kind, parse in _PARSERS.items():
        if kind in obj:
            _only(obj, kind)
            return parse(obj[kind])
    raise BadRequest("unknown action: expected play, take, flip, swap, keep or delete_rule")


def _delete(obj: dict[str, Any]) -> LoptiAction:
    extra = set(obj) - {"delete_rule", "by"}
    if extra:
        raise BadRequest(f"unknown key(s) in action: {', '.join(sorted(extra))}")
    rule_id = obj["delete_rule"]
    if not isinstance(rule_id, str) or not rule_id:
        raise BadRequest("delete_rule takes a rule's id, e.g. {\"delete_rule\": \"own-1-2\", \"by\": 2}")
    if "by" not in obj:
        raise BadRequest("delete_rule needs \"by\": the seat of the rule's author")
    return DeleteRule(rule_id, want_int(obj["by"], "by", 0, 4))


def _play(raw: Any) -> LoptiAction:
    if not isinstance(raw, list) or not raw:
        raise BadRequest("play takes a non-empty list of cards, e.g. {\"play\": [\"9C\", \"9H\"]}")
    cards = tuple(_card(x) for x in raw)
    if len(set(cards)) != len(cards):
        raise BadRequest("the same card appears twice in one play")
    return Play(cards)


def _swap(raw: Any) -> LoptiAction:
    if not isinstance(raw, list) or len(raw) != 2:
        raise BadRequest("swap takes [hand card, face-up card]")
    a, b = _card(raw[0]), _card(raw[1])
    if a == b:
        raise BadRequest("the same card appears twice in one swap")
    return Swap(a, b)


def _flag(name: str, action: LoptiAction) -> Any:
    def parse(raw: Any) -> LoptiAction:
        if raw is not True:
            raise BadRequest(f"{name} must be true")
        return action
    return parse


#: each action by its key, in the order they are looked for
_PARSERS: dict[str, Any] = {"play": _play, "take": _flag("take", Take()),
                            "flip": lambda raw: Flip(want_int(raw, "flip index", 0, 2)), "swap": _swap,
                            "keep": _flag("keep", Keep())}


_RANK_FROM_LABEL = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(i): i for i in range(2, 11)}}


def parse_normalised(text: str) -> LoptiAction:
    """``"play 9x2"`` → Play(rank=9, count=2); also take / flip / keep."""
    if text == "take":
        return Take()
    if text == "flip":
        return Flip(0)
    if text == "keep":
        return Keep()
    if text.startswith("delete "):
        rule_id, _, by = text[7:].rpartition(" by ")
        if rule_id and by.isdigit():
            return _delete({"delete_rule": rule_id, "by": int(by)})
    if text.startswith("play ") and "x" in text:
        label, _, n = text[5:].partition("x")
        if label in _RANK_FROM_LABEL and n.isdigit() and 1 <= int(n) <= 4:
            return Play(rank=_RANK_FROM_LABEL[label], count=int(n))
    raise BadRequest(f"not an action: {text!r}")


def normalised(action: LoptiAction) -> str:
    match action:
        case Play():
            rank, count = action.key
            return f"play {rank_label(rank)}x{count}"
        case Take():
            return "take"
        case Flip():
            return "flip"
        case Swap():
            return "swap"
        case Keep():
            return "keep"
        case DeleteRule(rule_id=rule_id, by=by):
            return f"delete {rule_id} by {by}"
    raise AssertionError(action)


def action_to_json(action: LoptiAction) -> Any:
    match action:
        case Play(cards=cards) if cards:
            return {"play": [str(c) for c in cards]}
        case Play():
            return normalised(action)
        case Take():
            return {"take": True}
        case Flip(index=i):
            return {"flip": i or 0}
        case Swap(hand_card=h, up_card=u):
            return {"swap": [str(h), str(u)]}
        case Keep():
            return {"keep": True}
        case DeleteRule(rule_id=rule_id, by=by):
            return {"delete_rule": rule_id, "by": by}
    raise AssertionError(action)
