"""One protocol suite over every registered game (as OpenSpiel runs one random simulation test over
every game): random games of every game × its variants or house-rule templates × its seat counts,
Spit with random arrival orders, each step checked against the engine protocol (docs/engine.md):

* every listed legal action applies, and ``apply`` never mutates its input;
* an action that is not listed is refused: a typed :class:`EngineError` (turn-based games) or a
  ``rejected`` event with the state unchanged (Spit, real time) — sampled from well-formed actions
  (every action listed anywhere earlier in the same game);
* ``observe(state, p)`` is what a state with p's hidden cards resampled shows p too
  (``determinise``), and resampling really changes the hidden cards; a resampled world shares
  every other field of the true state (a public field left out of both ``observe`` and the world
  builder is caught: search would play a different game) and lists p the same legal actions;
* same seed and actions give the same canonical state; the record replays to the same state and
  result; positions round-trip through the conformance JSON; cards are conserved;
* every game ends within its cap.

Size: ``PROTOCOL_EXAMPLES`` games per game (25 by default, 400 with ``SOAK=1``); the figures are
printed at the end of the run (``tests/conftest.py``).
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import Rng
from engine.core import EngineError, GameRecord, canonical_json, replay
from engine.games import GAMES, rules_for
from engine.lanes import VARIANTS, LanesOptions
from engine.lopti import LoptiOptions
from engine.lopti.house_rules import parse_rule
from engine.lopti.templates import TEMPLATES
from engine.spit import NextRound, SpitOptions
from tests.lopti.base_params import base_params

EXAMPLES = int(os.environ.get("PROTOCOL_EXAMPLES", 400 if os.environ.get("SOAK") else 25))
#: what the suite checked in this run, printed by tests/conftest.py
STATS: Counter[str] = Counter()


# --- what the suite needs to know of each game ---------------------------------------------------

@dataclass(frozen=True)
class Game:
    name: str
    options: st.SearchStrategy[Any]
    seats: st.SearchStrategy[int]
    #: every card in the state, wherever it lies (conservation)
    cards: Callable[[Any], Counter[str]]
    #: how many cards the observation hides from its viewer
    hidden: Callable[[dict[str, Any]], int]
    #: the most actions a game may take before its cap must have ended it
    cap: Callable[[Any], int]
    #: the result of a finished game is one this game can have (seats, reasons, places)
    result_ok: Callable[[Any, int], bool]
    #: the state's fields a resampled world need not share with the truth, compared by their shape
    #: (how many cards) only: the hidden cards, the state's own random stream, bookkeeping for search
    unshared: frozenset[str] = frozenset()
    #: the driver's step when nobody can act (Spit: the next round), else None
    idle: Callable[[Any], Any | None] = lambda s: None


def _lanes_cards(s: Any) -> Counter[str]:
    c: Counter[str] = Counter()
    for side in s.sides:
        c.update(map(str, side.hand + side.deck + side.discard))
        c.update(str(x) for lane in side.lanes for stack in lane for x in stack.cards())
    return c


def _lopti_cards(s: Any) -> Counter[str]:
    c: Counter[str] = Counter(map(str, s.draw + s.gone + [x for p in s.pile for x in p]))
    for seat in s.seats:
        c.update(map(str, seat.hand + seat.up + seat.down))
    return c


def _spit_cards(s: Any) -> Counter[str]:
    c: Counter[str] = Counter(map(str, s.piles[0] + s.piles[1]))
    for p in s.players:
        c.update(map(str, [x for stock in p.stocks for x in stock] + p.spit))
    return c


def _lanes_hidden(o: dict[str, Any]) -> int:
    me = o["player"]
    return o["players"][1 - me]["hand_size"] + sum(p["deck_size"] for p in o["players"])


def _lopti_hidden(o: dict[str, Any]) -> int:
    others = sum(p["hand_size"] - len(p["known_in_hand"]) for i, p in enumerate(o["players"]) if i != o["player"])
    return o["draw_size"] + sum(p["down_count"] for p in o["players"]) + others


def _spit_hidden(o: dict[str, Any]) -> int:
    stocks = sum(max(0, n - 1) for p in o["players"] for n in p["stock_sizes"])
    return stocks + sum(p["spit_count"] for p in o["players"]) + sum(max(0, n - 1) for n in o["pile_sizes"])


_lanes_options = st.builds(lambda flags: LanesOptions(**dict(zip(VARIANTS, flags, strict=True))),
                           st.lists(st.booleans(), min_size=len(VARIANTS), max_size=len(VARIANTS)))
_lopti_options = st.builds(
    lambda picks, first_out_ends, params: LoptiOptions(
        house_rules=tuple(parse_rule({**TEMPLATES[i], "id": f"t{i}"}) for i in sorted(picks)),
        first_out_ends=first_out_ends, params=params),
    st.sets(st.integers(0, len(TEMPLATES) - 1), max_size=3), st.booleans(), base_params)  # P-9.1 choices too
_spit_options = st.builds(lambda scoring, cap: SpitOptions(scoring=scoring, round_cap=cap),
                          st.sampled_from(["standard", "points"]), st.integers(5, 40))

SUITE = {
    "lanes": Game("lanes", _lanes_options, st.just(2), _lanes_cards, _lanes_hidden,
                  lambda o: 12 * 54 * (2 if o.double_deck else 1),
                  lambda r, n: r.winner in (0, 1) and r.reason in ("sold", "out_of_cards"),  # L-8.1, L-8.2
                  unshared=frozenset({"hand", "deck", "rng"})),
    "lopti": Game("lopti", _lopti_options, st.integers(2, 5), _lopti_cards, _lopti_hidden,
                  lambda o: 8 * o.turn_cap,  # each turn: a play, clears' extra plays, a take
                  lambda r, n: sorted(r.places) == list(range(n)) and r.winner == r.places[0],  # P-7.4
                  unshared=frozenset({"hand", "down", "draw", "record"})),
    "spit": Game("spit", _spit_options, st.just(2), _spit_cards, _spit_hidden,
                 lambda o: 60 * 52 * o.round_cap,
                 lambda r, n: r.winner in (0, 1, None) and r.reason in ("cards", "points"),  # S-5, S-8
                 unshared=frozenset({"stocks", "spit", "piles", "rng"}),
                 idle=lambda s: NextRound() if s.phase == "round_over" else None),
}


def test_the_suite_covers_every_registered_game() -> None:
    assert set(SUITE) == set(GAMES)


# --- the checks ------------------------------------------------------------------------------------

def key(rules: Any, action: Any) -> str:
    return canonical_json(rules.action_to_json(action))


def position(rules: Any, s: Any) -> str:
    return canonical_json(rules.position_to_json(s))


def check_refused(rules: Any, s: Any, action: Any) -> None:
    """An unlisted action: a typed refusal, or (real time) a ``rejected`` event and no change."""
    before = position(rules, s)
    try:
        after, events = rules.apply(s, action)
    except EngineError as exc:
        assert exc.code in ("illegal_action", "bad_request"), exc.code
    else:
        assert [e.type for e in events] == ["rejected"], (rules.action_to_json(action), events)
        assert position(rules, after) == before
    assert position(rules, s) == before
    STATS["refusals"] += 1


def shape(value: Any) -> Any:
    """How many cards, and in which groups: all a world shares of a field it resamples."""
    if isinstance(value, list | tuple):
        return [shape(v) for v in value] if value and isinstance(value[0], list | tuple) else len(value)
    return None


def shared(value: Any, unshared: frozenset[str]) -> Any:
    """``value`` (a state) with its ``unshared`` fields reduced to their shape, at any depth: what
    every world sampled from an observation must have exactly as the true state has it."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        return {k: shape(v) if k in unshared else shared(v, unshared) for k, v in fields.items()}
    if isinstance(value, list | tuple):
        return [shared(v, unshared) for v in value]
    return value


def where(a: Any, b: Any, path: str = "state") -> str | None:
    """The first place where ``a`` and ``b`` differ (``state.seats[1].from_up``), or None."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return next((w for k in a if (w := where(a[k], b[k], f"{path}.{k}")) is not None), None)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return next((w for i, (x, y) in enumerate(zip(a, b, strict=True))
                     if (w := where(x, y, f"{path}[{i}]")) is not None), None)
    return None if a == b else f"{path}: {a!r} in the world, {b!r} in truth"


def check_observations(rules: Any, game: Game, s: Any, seats: int, rng: Rng) -> None:
    """Resampled hidden cards leave every viewer's observation unchanged — and really move — and
    leave the rest of the state and the viewer's legal actions as they are (#46 item 2)."""
    truth = position(rules, s)
    public = shared(s, game.unshared)
    for p in range(seats):
        obs = rules.observe(s, p)
        legal = sorted(key(rules, a) for a in rules.legal_actions(s, p))
        worlds = [rules.determinise(obs, Rng(rng.next_u64())) for _ in range(3)]
        for w in worlds:
            assert rules.observe(w, p) == obs
            world = shared(w, game.unshared)
            # compared whole first (where() walks the state in Python: it took three quarters of
            # the suite's Lopti minutes), and walked only to say where a world differs
            assert world == public, f"a world of player {p} differs from the truth at {where(world, public)}"
            assert sorted(key(rules, a) for a in rules.legal_actions(w, p)) == legal
        if game.hidden(obs) >= 6:  # 6! orders at least: three samples never all give the truth
            assert any(position(rules, w) != truth for w in worlds)
        STATS["observations"] += 1


def check_state(rules: Any, game: Game, options: Any, s: Any, seed: int) -> None:
    again = rules.position_from_json(options, rules.position_to_json(s), seed)
    assert position(rules, again) == position(rules, s)


def actors(rules: Any, s: Any, seats: int) -> list[int]:
    return [p for p in range(seats) if rules.legal_actions(s, p)]


def step(rules: Any, game: Game, s: Any, seats: int, rng: Rng, seen: dict[str, Any]) -> list[Any]:
    """The actions of one step: every actor picks from the position all see, in random arrival
    order; checks every listed action and a sample of unlisted ones on the way."""
    before = position(rules, s)
    batch = []
    listed: set[str] = set()
    for p in actors(rules, s, seats):
        legal = rules.legal_actions(s, p)
        for a in legal:
            rules.apply(s, a)  # each applies (it raises otherwise) …
            listed.add(key(rules, a))
            seen.setdefault(key(rules, a), a)
        STATS["listed"] += len(legal)
        batch.append(legal[rng.below(len(legal))])
    assert position(rules, s) == before  # … and none changed the state it was given
    everyone = {key(rules, a) for p in range(seats) for a in rules.legal_actions(s, p)} | listed
    unlisted = [a for k, a in seen.items() if k not in everyone]
    for _ in range(min(3, len(unlisted))):
        check_refused(rules, s, unlisted[rng.below(len(unlisted))])
    if not batch:
        driver = game.idle(s)
        assert driver is not None, f"nobody can act and the game is not over: {rules.position_to_json(s)}"
        return [driver]
    rng.shuffle(batch)
    return batch


def play(game: Game, options: Any, seed: int, seats: int) -> tuple[Any, list[Any], int]:
    rules = rules_for(game.name)
    s = rules.new_game(options, seed, seats)
    initial = game.cards(s)
    rng = Rng(seed ^ 0x5EED)
    seen: dict[str, Any] = {}
    record: list[Any] = []
    rejected = 0
    while not rules.is_over(s):
        if rng.below(8) == 0:
            check_observations(rules, game, s, seats, rng)
            check_state(rules, game, options, s, seed)
        for a in step(rules, game, s, seats, rng, seen):
            record.append(rules.action_to_json(a))
            s, events = rules.apply(s, a)
            rejected += sum(e.type == "rejected" for e in events)
            assert game.cards(s) == initial, "cards are conserved"
        assert len(record) <= game.cap(options), "the game outran its cap"
    STATS["games"] += 1
    STATS["actions"] += len(record)
    return s, record, rejected


@pytest.mark.parametrize("name", sorted(SUITE))
def test_random_games_keep_the_protocol(name: str) -> None:
    game = SUITE[name]

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("SOAK"),
              suppress_health_check=[HealthCheck.too_slow])
    @given(options=game.options, seats=game.seats, seed=st.integers(0, 2**62))
    def one(options: Any, seats: int, seed: int) -> None:
        rules = rules_for(name)
        final, record, _ = play(game, options, seed, seats)
        result = rules.result(final)
        assert result is not None and game.result_ok(result, seats), result
        rec: GameRecord[Any] = GameRecord(name, rules.options_to_json(options), seed, seats, tuple(record))
        again, _ = replay(rules, GameRecord.from_json(rec.to_json()))
        assert position(rules, again) == position(rules, final)
        assert rules.result(again) == result
        twice, _ = replay(rules, rec)  # same seed and actions → the same game, byte for byte
        assert position(rules, twice) == position(rules, final)

    one()


def test_spit_arrival_orders_really_race() -> None:
    """Random arrival orders make the second of two moves from one position fail sometimes."""
    total = sum(play(SUITE["spit"], SpitOptions(round_cap=10), seed, 2)[2] for seed in range(4))
    assert total > 0


def test_a_seed_decides_the_deal() -> None:
    for name in SUITE:
        rules = rules_for(name)
        deal = [position(rules, rules.new_game(rules.parse_options({}), seed, 2)) for seed in (99, 99, 100)]
        assert deal[0] == deal[1] != deal[2]


def test_cards_in_a_new_game_are_whole_decks() -> None:
    for name, game in SUITE.items():
        rules = rules_for(name)
        cards = game.cards(rules.new_game(rules.parse_options({}), 1, 2))
        assert sum(cards.values()) == {"lanes": 2 * 54, "lopti": 52, "spit": 52}[name]
