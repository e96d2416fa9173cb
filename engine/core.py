"""The common game protocol shared by Lanes, Lopti and Spit.

Every game is a :class:`Rules` object with pure functions over immutable-by-contract states:

* ``new_game(options, seed, players)`` deals a game from a seed (same inputs → same game);
* ``legal_actions(state, player)`` is the *only* place legality lives (UI, bots, tutorials and the
  lobby all ask it);
* ``apply(state, action) -> (state, events)`` never mutates its input; an illegal action raises
  :class:`IllegalAction` (turn-based games) or, in real-time Spit, yields a ``rejected`` event;
* ``observe(state, player)`` is everything a player, a bot or a network peer may see;
* positions and actions have a plain-JSON form (the conformance format), so a saved game, a replay,
  an online match and a bug report are all just a :class:`GameRecord`.

The protocol fits two-player turn-based play with hidden hands (Lanes), 2–5 players (Lopti) and
real-time play where every action names its player and the engine applies them in arrival order
(Spit): ``legal_actions`` takes an optional player for that reason.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

JSON = Any


class Why(str):
    """A reason written in English that also carries a stable ``key`` and its ``params``.

    It *is* the English string (conformance output, logs and tests see plain text), and views say
    it in the player's language from ``key`` + ``params`` (``views.i18n.why_text``). The engine
    stays free of translation files; the words live with the other UI strings."""

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, text: str, **params: Any) -> Why:
        obj = super().__new__(cls, text)
        obj.key = key
        obj.params = params
        return obj

    def __reduce__(self) -> Any:
        return (_make_why, (self.key, str(self), self.params))


def _make_why(key: str, text: str, params: dict[str, Any]) -> Why:
    return Why(key, text, **params)


class EngineError(Exception):
    """Base of the engine's typed errors. ``code`` is stable (it is part of the conformance API)."""

    code = "engine_error"

    def __init__(self, message: str, *, reason: str | None = None, index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        #: the reason with its translation key (a plain message gets the sub-code as key)
        self.why = message if isinstance(message, Why) else Why(reason or self.code, message)
        #: a stable machine-readable sub-code (``"not_your_turn"``, ``"wrong_direction"``…)
        self.reason = reason or self.code
        self.index = index

    def to_json(self) -> dict[str, JSON]:
        return {"code": self.code, "index": self.index, "message": self.message}


class BadRequest(EngineError):
    """A malformed request or action: unparseable card, missing field, index out of range."""

    code = "bad_request"


class BadPosition(EngineError):
    """A position that is malformed or contradicts the rules (duplicate cards, unknown keys…)."""

    code = "bad_position"


class IllegalAction(EngineError):
    """A well-formed action that the rules forbid. The message is written for a player."""

    code = "illegal_action"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in the order it happened. ``type`` is the conformance name
    (``"play"``, ``"draw"``, ``"sold"``…); ``data`` holds its JSON-ready fields."""

    type: str
    data: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {"type": self.type, **self.data}

    def __getitem__(self, key: str) -> JSON:
        return self.type if key == "type" else self.data[key]

    def get(self, key: str, default: JSON = None) -> JSON:
        return self.type if key == "type" else self.data.get(key, default)


def ev(type_: str, **data: JSON) -> Event:
    return Event(type_, data)


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a finished game. ``winner`` is a seat or None (abort, draw).
    ``places`` lists seats from first to last where a game ranks everyone (Lopti)."""

    winner: int | None
    reason: str
    places: tuple[int, ...] = ()


S = TypeVar("S")
A = TypeVar("A")
#: what ``observe`` returns: each game's TypedDict (``LanesObservation``…), JSON-ready
O = TypeVar("O", bound=Mapping[str, object])


class Rules(Protocol[S, A, O]):
    """What every game module provides (see the module docstring), typed by its state ``S``, its
    action ``A`` and its observation ``O`` (so a table reads ``obs["hand"]`` as the game's type)."""

    name: str

    def new_game(self, options: Any, seed: int, players: int | None = None) -> S: ...

    def legal_actions(self, state: S, player: int | None = None) -> list[A]: ...

    def apply(self, state: S, action: A) -> tuple[S, list[Event]]: ...

    def observe(self, state: S, player: int) -> O:
        """What ``player`` may know, as JSON-ready data (each game's TypedDict in ``notation.py``)."""
        ...

    def determinise(self, observation: O, rng: Any) -> S:
        """A full state whose ``observe`` for the observer equals ``observation``: hidden cards
        sampled with ``rng`` (an :class:`engine.cards.Rng`). Honest bots search over these."""
        ...

    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> Result | None: ...

    def to_move(self, state: S) -> int | None: ...

    def parse_options(self, obj: JSON) -> Any: ...

    def options_to_json(self, options: Any) -> JSON: ...

    def parse_action(self, obj: JSON, state: S | None = None) -> A: ...

    def action_to_json(self, action: A) -> JSON: ...

    def position_from_json(self, options: Any, obj: JSON, seed: int = 0) -> S: ...

    def position_to_json(self, state: S) -> JSON: ...


@dataclass(frozen=True)
class GameRecord(Generic[A]):
    """``(game, options, seed, players, actions)``: enough to rebuild any game exactly."""

    game: str
    options: JSON
    seed: int
    players: int | None
    actions: tuple[JSON, ...]

    def to_json(self) -> str:
        return json.dumps(
            {"game": self.game, "options": self.options, "seed": self.seed, "players": self.players,
             "actions": list(self.actions)},
            sort_keys=True, separators=(",", ":"),
        )

    @staticmethod
    def from_json(text: str) -> GameRecord[Any]:
        obj = json.loads(text)
        if not isinstance(obj, dict):
            raise BadRequest("a game record must be a JSON object")
        for key in ("game", "options", "seed", "actions"):
            if key not in obj:
                raise BadRequest(f"a game record needs {key!r}")
        if not isinstance(obj["seed"], int) or not isinstance(obj["actions"], list):
            raise BadRequest("a game record needs an integer seed and a list of actions")
        return GameRecord(obj["game"], obj["options"], obj["seed"], obj.get("players"), tuple(obj["actions"]))


def replay(rules: Rules[Any, Any, Any], record: GameRecord[Any]) -> tuple[Any, list[Event]]:
    """Rebuild a game from its record; returns the final state and every event in order."""
    state = rules.new_game(rules.parse_options(record.options), record.seed, record.players)
    events: list[Event] = []
    for i, raw in enumerate(record.actions):
        try:
            action = rules.parse_action(raw, state)
            state, evs = rules.apply(state, action)
        except EngineError as exc:
            exc.index = i
            raise
        events.extend(evs)
    return state, events


def canonical_json(obj: JSON) -> str:
    """Stable JSON text (sorted keys, no spaces): the byte-for-byte form used to compare states."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def ensure_keys(obj: Mapping[str, JSON], allowed: Sequence[str], what: str, error: type[EngineError]) -> None:
    unknown = sorted(set(obj) - set(allowed))
    if unknown:
        raise error(f"unknown key(s) in {what}: {', '.join(map(str, unknown))}")


def want_int(value: JSON, what: str, lo: int, hi: int, error: type[EngineError] = BadRequest) -> int:
    """An int (not a bool) in ``[lo, hi]``, or a readable error."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{what} must be a whole number, got {value!r}")
    if not lo <= value <= hi:
        raise error(f"{what} {value} is out of range ({lo}–{hi})")
    return value


def want_bool(value: JSON, what: str, error: type[EngineError] = BadPosition) -> bool:
    if not isinstance(value, bool):
        raise error(f"{what} must be true or false, got {value!r}")
    return value


def want_list(value: JSON, what: str, error: type[EngineError] = BadPosition) -> list[Any]:
    if not isinstance(value, list):
        raise error(f"{what} must be a list, got {type(value).__name__}")
    return value


def want_dict(value: JSON, what: str, error: type[EngineError] = BadPosition) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise error(f"{what} must be an object, got {type(value).__name__}")
    return value


def position_cards(value: JSON, what: str, no_jokers_rule: str | None = None) -> list[Any]:
    """A list of cards inside a position: malformed → :class:`BadPosition` naming the field.
    ``no_jokers_rule`` (e.g. ``"Lopti uses no jokers (P-1.1)"``) forbids jokers with that reason."""
    from engine.cards import CardError, parse_card

    items = want_list(value, what)
    try:
        cards = [parse_card(x) for x in items]
    except CardError as exc:
        raise BadPosition(f"{what}: {exc}") from None
    if no_jokers_rule and any(c.is_joker for c in cards):
        raise BadPosition(f"{what}: {no_jokers_rule}")
    return cards
