"""Lopti house rules (P-8, P-13): a closed, bounded vocabulary of structured rules.

A person cannot be judged by a computer, so a custom rule is data: **when** (one base event and
``before``/``after``), an optional **if** (a pure predicate over the event and a read-only view of
the table), and **do** (1–3 effects from a whitelist with bounded arguments). Rules name roles and
conditions, never people (P-8.4): the vocabulary has no way to name a player.

Format, version 1 (JSON)::

    {"version": 1, "id": "eights-punish", "title": "Eights make the next player draw",
     "author": 2, "created_deal": 1,
     "when": {"event": "play", "timing": "after"},
     "if": {"all": [{"rank_in": ["8"]}, {"count_at_least": 2}]},
     "do": [{"effect": "draw", "role": "next", "n": 1}],
     "note": "optional free text for tables with physical cards"}

Session-only changes to base rules are not rules: they are :class:`BaseParams`, changed only by a
vote (P-9.1).

:func:`validate` returns every problem with a plain-language message; :func:`parse_rule` raises on
the first problem list. :func:`describe` writes a rule in English, Arabic or Vietnamese.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import Why

FORMAT_VERSION = 1

#: base events a rule may hook. Going out, winning, the vote and RPS are deliberately absent (P-8.3).
EVENTS = ("deal_start", "turn_start", "play", "clear", "take", "draw", "flip", "obligation", "low")
TIMINGS = ("before", "after")
ROLES = ("actor", "next", "previous", "leader", "most_cards", "fewest_cards", "others", "all")
SINGLE_ROLES = ("actor", "next", "previous", "leader", "most_cards", "fewest_cards")
EFFECTS = ("draw", "give", "reveal", "skip", "reverse", "return_cleared", "clear", "announce")
CAUSES = ("ten", "four", "threes", "custom")
ZONES = ("hand", "up", "down")
RANK_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
OPS = (">=", "<=", "==")
MAX_DEPTH = 3
MAX_EFFECTS = 3
MAX_TEXT = 80

#: which effects would feed which trigger (the static no-self-feeding check, guarantee 3)
FEEDS = {"draw": "draw", "clear": "clear", "skip": "turn_start", "give": None, "reveal": None, "reverse": None,
         "return_cleared": None, "announce": None}
#: fields each event offers to conditions
EVENT_FIELDS = {
    "play": {"rank", "count", "zone"}, "flip": {"rank", "legal"}, "draw": {"rank"}, "clear": {"cause"},
    "take": {"count", "forced"}, "obligation": set(), "low": {"count"}, "turn_start": set(), "deal_start": set(),
}

#: condition kinds and the event field each needs (None: any event can test it). The validator and
#: every rule builder read this one table, so a builder offers exactly what validates.
CONDITION_NEEDS: dict[str, str | None] = {
    "rank_in": "rank", "count_at_least": "count", "count_at_most": "count", "cause_in": "cause",
    "zone": "zone", "legal": "legal", "forced": "forced", "pile_size": None, "draw_size": None,
    "hand_size": None, "cards_left": None, "deal_number": None, "draw_empty": None,
}
_NEED_PROBLEM = {
    "rank": "the event '{event}' has no card rank to test", "count": "the event '{event}' has no card count to test",
    "cause": "only the 'clear' event has a cause", "zone": "only the 'play' event has a zone",
    "legal": "the event '{event}' has no 'legal' flag", "forced": "the event '{event}' has no 'forced' flag",
}
#: an ``all`` / ``any`` holds 1 to this many conditions
MAX_CONDITIONS = 4


def conditions_for(event: str) -> tuple[str, ...]:
    """The condition kinds a rule hooked on ``event`` may test (what the event can answer)."""
    fields = EVENT_FIELDS[event]
    return tuple(k for k, need in CONDITION_NEEDS.items() if need is None or need in fields)


def effects_for(event: str, timing: str) -> tuple[str, ...]:
    """The effects a rule on (``event``, ``timing``) may have: none that feeds its own trigger
    (guarantee 3), and the extra clear only after a play."""
    return tuple(k for k in EFFECTS if FEEDS.get(k) != event
                 and (k != "clear" or (event, timing) == ("play", "after")))


#: a house rule as its JSON document: the format in docs/house_rules.md, or a table rule's words
#: (engine/lopti/table_rules.py)
RuleDoc = dict[str, Any]


class RuleError(ValueError):
    """A rule that breaks the format or a guarantee; ``problems`` lists every reason in words."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


#: the base parameters that name a card's rank (1 = ace … 13 = king, as engine.cards counts them)
RANK_PARAMS = ("reset_rank", "pass_rank", "low_rank", "clear_rank")
#: what each special card does, for the combination check's words (P-4)
_SPECIAL_JOB = {"reset_rank": "reset (P-4.1)", "pass_rank": "pass (P-4.2)", "low_rank": "play-low (P-4.4)",
                "clear_rank": "clear (P-4.5)"}
DECK_SIZE = 52


@dataclass(frozen=True)
class BaseParams:
    """Session-only changes to base rules, made only by a rule vote (P-9.1). Each is a number or a
    rank the Lopti rules name; :meth:`problems` refuses a combination no deal could be played with."""

    hand_size: int = 3  # P-2.1: cards dealt to the hand
    face_up: int = 3  # P-2.1: face-up cards
    face_down: int = 3  # P-2.1: face-down cards
    draw_threshold: int = 3  # P-3.5: draw while holding fewer than this
    clear_run: int = 4  # P-3.4: a run of this many equal ranks clears
    reset_rank: int = 2  # P-4.1: the "reset" card
    pass_rank: int = 3  # P-4.2: the "pass" card
    low_rank: int = 7  # P-4.4: the "play low" card
    clear_rank: int = 10  # P-4.5: the "clear" card

    RANGES = {"draw_threshold": (2, 5), "clear_run": (3, 4), "low_rank": (1, 13), "reset_rank": (1, 13),
              "pass_rank": (1, 13), "clear_rank": (1, 13), "hand_size": (1, 5), "face_up": (0, 4),
              "face_down": (1, 4)}

    def to_json(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in self.RANGES if getattr(self, k) != getattr(BaseParams, k)}

    @property
    def specials(self) -> frozenset[int]:
        """The four ranks with a special job (P-4): the rest follow the rank order alone."""
        return frozenset((self.reset_rank, self.pass_rank, self.low_rank, self.clear_rank))

    @property
    def per_seat(self) -> int:
        return self.hand_size + self.face_up + self.face_down

    def problems(self, players: int | None = None) -> list[Why]:
        """Why no deal could be played with these parameters together (each is in its range): one
        rank with two special jobs; more cards dealt than the deck holds (for ``players``, when known;
        else for the fewest, two). Every deal that can be dealt ends: the turn cap (P-8.3)."""
        out = []
        seen: dict[int, str] = {}
        for name in RANK_PARAMS:
            rank = getattr(self, name)
            label = BaseParams.label(name, rank)
            if rank in seen:
                out.append(Why("special_twice", f"the {seen[rank]} card and the {_SPECIAL_JOB[name]} card cannot "
                               f"both be {label}: each special card is a different rank", rank=label))
            seen.setdefault(rank, _SPECIAL_JOB[name])
        n = players or 2
        if n * self.per_seat > DECK_SIZE:
            out.append(Why("deck_short", f"{n} players with {self.per_seat} cards each need {n * self.per_seat} "
                           f"cards; the deck has {DECK_SIZE} (P-2.1)", players=n, per_seat=self.per_seat,
                           need=n * self.per_seat))
        return out

    @staticmethod
    def label(name: str, value: int) -> str:
        """A value as a player reads it: a rank by its face (J, Q, K, A), a number as itself."""
        return RANK_LABELS[(value - 2) % 13] if name in RANK_PARAMS else str(value)

    @staticmethod
    def from_json(obj: Any, players: int | None = None) -> BaseParams:
        problems = []
        if not isinstance(obj, dict):
            raise RuleError(["base parameters must be an object"])
        values = {}
        for k, v in obj.items():
            if k not in BaseParams.RANGES:
                problems.append(f"unknown base parameter {k!r}; known: {', '.join(BaseParams.RANGES)}")
                continue
            lo, hi = BaseParams.RANGES[k]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                problems.append(f"{k} must be a whole number from {lo} to {hi}"
                                + (" (1 is the ace, 11–13 the jack, queen and king)" if k in RANK_PARAMS else ""))
                continue
            values[k] = v
        params = BaseParams(**values)
        problems += [] if problems else params.problems(players)
        if problems:
            raise RuleError(problems)
        return params


@dataclass(frozen=True)
class HouseRule:
    """A validated rule. ``raw`` keeps the exact JSON (for storage and display)."""

    id: str
    title: str
    author: int | None
    created_deal: int
    event: str
    timing: str
    condition: Any
    effects: tuple[dict[str, Any], ...]
    raw: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return dict(self.raw)


def _check_condition(cond: Any, event: str, depth: int, problems: list[str]) -> None:
    if depth > MAX_DEPTH:
        problems.append(f"conditions may nest at most {MAX_DEPTH} deep")
        return
    if not isinstance(cond, dict) or len(cond) != 1:
        problems.append("each condition is an object with exactly one key, e.g. {\"rank_in\": [\"8\"]}")
        return
    (key, arg), = cond.items()
    need = CONDITION_NEEDS.get(key)
    if need is not None and need not in EVENT_FIELDS[event]:
        problems.append(_NEED_PROBLEM[need].format(event=event))
    if key in ("all", "any"):
        if not isinstance(arg, list) or not 1 <= len(arg) <= MAX_CONDITIONS:
            problems.append(f"'{key}' takes a list of 1 to {MAX_CONDITIONS} conditions")
            return
        for c in arg:
            _check_condition(c, event, depth + 1, problems)
    elif key == "not":
        _check_condition(arg, event, depth + 1, problems)
    elif key in _ARG_CHECKS:
        problems += _ARG_CHECKS[key](key, arg)
    elif key in ("name", "player", "seat", "person"):
        problems.append("rules target roles and conditions, never a named person or seat (P-8.4)")
    else:
        problems.append(f"unknown condition {key!r}")


def _ranks(key: str, arg: Any) -> list[str]:
    ok = isinstance(arg, list) and arg and all(a in RANK_LABELS for a in arg)
    return [] if ok else [f"rank_in takes ranks from {', '.join(RANK_LABELS)}"]


def _count(key: str, arg: Any) -> list[str]:
    ok = not isinstance(arg, bool) and isinstance(arg, int) and 1 <= arg <= 52
    return [] if ok else [f"{key} takes a number from 1 to 52"]


def _causes(key: str, arg: Any) -> list[str]:
    ok = isinstance(arg, list) and arg and all(a in CAUSES for a in arg)
    return [] if ok else [f"cause_in takes causes from {', '.join(CAUSES)}"]


def _zone(key: str, arg: Any) -> list[str]:
    return [] if arg in ZONES else [f"zone is one of {', '.join(ZONES)}"]


def _yes_no(key: str, arg: Any) -> list[str]:
    return [] if isinstance(arg, bool) else [f"{key} is true or false"]


def _size(key: str, arg: Any) -> list[str]:
    """``{"op", "n"}`` (and a single role for a seat's hand or cards)."""
    of_seat = key in ("hand_size", "cards_left")
    if not isinstance(arg, dict) or set(arg) - {"role", "op", "n"} or "op" not in arg or "n" not in arg:
        return [f"{key} takes {{\"op\": \">=\", \"n\": 5}}" + (" and a role" if of_seat else "")]
    problems = []
    if arg["op"] not in OPS:
        problems.append(f"op is one of {', '.join(OPS)}")
    if isinstance(arg["n"], bool) or not isinstance(arg["n"], int) or not 0 <= arg["n"] <= 52:
        problems.append(f"{key}: n is a number from 0 to 52")
    if of_seat and arg.get("role", "actor") not in SINGLE_ROLES:
        problems.append(f"{key}: role is one of {', '.join(SINGLE_ROLES)}")
    elif not of_seat and "role" in arg:
        problems.append(f"{key} has no role")
    return problems


#: how each condition's argument is checked (the validator's table; ``CONDITION_NEEDS`` says which
#: events can answer it)
_ARG_CHECKS: dict[str, Any] = {
    "rank_in": _ranks, "count_at_least": _count, "count_at_most": _count, "cause_in": _causes, "zone": _zone,
    "legal": _yes_no, "forced": _yes_no, "draw_empty": _yes_no, "hand_size": _size, "pile_size": _size,
    "draw_size": _size, "deal_number": _size, "cards_left": _size,
}


def _check_effect(eff: Any, event: str, timing: str, problems: list[str]) -> None:
    if not isinstance(eff, dict) or "effect" not in eff:
        problems.append("each effect is an object with an 'effect' key")
        return
    kind = eff["effect"]
    if kind not in EFFECTS:
        if kind in ("cancel", "stop", "block", "prevent", "undo", "win", "lose", "out"):
            problems.append(f"'{kind}' would stop or replace a base event or decide the deal: "
                            "a rule may only add to the game (P-8.2, P-8.3)")
        else:
            problems.append(f"unknown effect {kind!r}; allowed: {', '.join(EFFECTS)}")
        return
    fields, check = _EFFECT_CHECKS[kind]
    problems += check(eff)
    if kind == "clear" and kind not in effects_for(event, timing):
        problems.append("an extra clear may only follow a play (when: play, after): it adds a clear for the "
                        "player who played")
    extra = set(eff) - {"effect", *fields}
    if extra:
        problems.append(f"{kind}: unknown field(s) {', '.join(sorted(extra))}")
    if FEEDS.get(kind) == event:
        problems.append(f"the effect '{kind}' would feed its own trigger '{event}': rules must not loop (P-8.3)")


def _role_effect(eff: dict[str, Any]) -> list[str]:
    """draw, reveal, skip: the role they act on (skip names one player), draw's count."""
    kind = eff["effect"]
    problems = []
    role = eff.get("role", "next" if kind == "skip" else "actor")
    valid = SINGLE_ROLES if kind == "skip" else ROLES
    if role not in valid:
        problems.append(f"{kind}: role is one of {', '.join(valid)}")
    if any(k in eff for k in ("name", "player", "seat")):
        problems.append("effects target roles, never a named person or seat (P-8.4)")
    if kind == "draw":
        n = eff.get("n", 1)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 3:
            problems.append("draw: n is 1, 2 or 3")
    return problems


def _give_effect(eff: dict[str, Any]) -> list[str]:
    problems = []
    if eff.get("from", "actor") not in SINGLE_ROLES or eff.get("to", "next") not in SINGLE_ROLES:
        problems.append(f"give: from and to are roles ({', '.join(SINGLE_ROLES)})")
    if eff.get("from", "actor") == eff.get("to", "next"):
        problems.append("give: from and to must be different roles")
    if eff.get("which", "lowest") not in ("lowest", "highest"):
        problems.append("give: which is 'lowest' or 'highest'")
    return problems


def _return_effect(eff: dict[str, Any]) -> list[str]:
    n = eff.get("n", 1)
    return [] if not isinstance(n, bool) and isinstance(n, int) and 1 <= n <= 5 else ["return_cleared: n is 1 to 5"]


def _announce_effect(eff: dict[str, Any]) -> list[str]:
    text = eff.get("text")
    ok = isinstance(text, str) and 1 <= len(text) <= MAX_TEXT
    return [] if ok else [f"announce: text of 1 to {MAX_TEXT} characters"]


def _no_arguments(eff: dict[str, Any]) -> list[str]:
    return []


#: each effect's fields (besides ``effect``) and how its arguments are checked
_EFFECT_CHECKS: dict[str, tuple[tuple[str, ...], Any]] = {
    "draw": (("role", "n"), _role_effect), "reveal": (("role",), _role_effect), "skip": (("role",), _role_effect),
    "give": (("from", "to", "which"), _give_effect), "return_cleared": (("n",), _return_effect),
    "announce": (("text",), _announce_effect), "reverse": ((), _no_arguments), "clear": ((), _no_arguments),
}


def validate(obj: Any, players: int | None = None) -> list[str]:
    """Every problem with ``obj`` as a house rule, in plain words (an empty list means valid)."""
    if not isinstance(obj, dict):
        return ["a house rule is an object (see docs/house_rules.md)"]
    problems = _header_problems(obj, players)
    event, timing = _when(obj.get("when"), problems)
    if event and "if" in obj and obj["if"] is not None:
        _check_condition(obj["if"], event, 1, problems)
    effects = obj.get("do")
    if not isinstance(effects, list) or not 1 <= len(effects) <= MAX_EFFECTS:
        problems.append(f"do: a list of 1 to {MAX_EFFECTS} effects")
    elif event and timing:
        for e in effects:
            _check_effect(e, event, timing, problems)
    return problems


def _header_problems(obj: dict[str, Any], players: int | None) -> list[str]:
    """The rule's own fields: format version, id, title, author, deal of creation, note."""
    problems: list[str] = []
    known = {"version", "id", "title", "author", "created_deal", "when", "if", "do", "note"}
    extra = set(obj) - known
    if extra:
        problems.append(f"unknown field(s): {', '.join(sorted(extra))}")
    if obj.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        problems.append(f"this app reads rule format version {FORMAT_VERSION}")
    if not isinstance(obj.get("id"), str) or not 1 <= len(obj.get("id", "")) <= 40:
        problems.append("id: a short text (1–40 characters)")
    if not isinstance(obj.get("title", ""), str) or len(obj.get("title", "")) > MAX_TEXT:
        problems.append(f"title: at most {MAX_TEXT} characters")
    author = obj.get("author")
    if author is not None and (isinstance(author, bool) or not isinstance(author, int) or author < 0
                               or (players is not None and author >= players)):
        problems.append("author: the seat of the player who made the rule (or null)")
    cd = obj.get("created_deal", 0)
    if isinstance(cd, bool) or not isinstance(cd, int) or cd < 0:
        problems.append("created_deal: the deal number after which the rule was made")
    if not isinstance(obj.get("note", ""), str) or len(obj.get("note", "")) > 500:
        problems.append("note: free text up to 500 characters")
    return problems


def _when(when: Any, problems: list[str]) -> tuple[str | None, str | None]:
    """The hook (event, timing), each None when it is not one a rule may use."""
    if not isinstance(when, dict) or set(when) != {"event", "timing"}:
        problems.append("when: {\"event\": …, \"timing\": \"before\" | \"after\"}")
        return None, None
    event, timing = when["event"], when["timing"]
    if event in ("out", "win", "vote", "rps", "going_out"):
        problems.append("no rule may hook going out, winning, the vote or rock-paper-scissors (P-8.3, P-9.8)")
        event = None
    elif event not in EVENTS:
        problems.append(f"when.event is one of {', '.join(EVENTS)}")
        event = None
    if timing not in TIMINGS:
        problems.append("when.timing is 'before' or 'after'")
        timing = None
    return event, timing


def parse_rule(obj: Any, players: int | None = None) -> HouseRule:
    problems = validate(obj, players)
    if problems:
        raise RuleError(problems)
    return HouseRule(obj["id"], obj.get("title", ""), obj.get("author"), obj.get("created_deal", 0),
                     obj["when"]["event"], obj["when"]["timing"], obj.get("if"), tuple(obj["do"]), dict(obj))
