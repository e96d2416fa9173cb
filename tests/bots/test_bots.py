"""Bots: legal, deterministic, honest (no peeking), and sane in a short arena run."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.bots import LEVELS, decide, hint
from engine.bots.arena import match, wilson
from engine.bots.spit_bots import PROFILES, SpitBot, reaction_time
from engine.cards import Rng
from engine.conformance import handle
from engine.core import BadRequest
from engine.lanes import RULES as LANES
from engine.lanes import VARIANTS, LanesOptions
from engine.lanes.state import LanesState
from engine.lopti import RULES as LOPTI
from engine.lopti import LoptiOptions, LoptiState
from engine.lopti.house_rules import parse_rule
from engine.lopti.templates import TEMPLATES
from engine.spit import RULES as SPIT
from engine.spit import NextRound, SpitOptions
from tests.conftest import ROOT

FAST = 20  # budget_ms for search levels inside tests: legality, not strength, is under test


def advance_lanes(seed: int, plies: int, options: LanesOptions) -> LanesState:
    s = LANES.new_game(options, seed)
    rng = Rng(seed)
    for _ in range(plies):
        if s.over:
            break
        legal = LANES.legal_actions(s)
        s, _ = LANES.apply(s, legal[rng.below(len(legal))])
    return s


def advance_lopti(seed: int, plies: int, players: int, options: LoptiOptions) -> LoptiState:
    s = LOPTI.new_game(options, seed, players)
    rng = Rng(seed)
    for _ in range(plies):
        if s.over:
            break
        legal = LOPTI.legal_actions(s)
        s, _ = LOPTI.apply(s, legal[rng.below(len(legal))])
    return s


lanes_options = st.builds(lambda flags: LanesOptions(**dict(zip(VARIANTS, flags, strict=True))),
                          st.lists(st.booleans(), min_size=len(VARIANTS), max_size=len(VARIANTS)))


@settings(max_examples=15)
@given(st.integers(0, 2**32), st.integers(0, 60), lanes_options, st.sampled_from(LEVELS))
def test_lanes_bots_return_legal_actions(seed: int, plies: int, options: LanesOptions, level: str) -> None:
    s = advance_lanes(seed, plies, options)
    assume(not s.over)  # an ended game has no decision to check: the example does not count
    a = decide("lanes", LANES.observe(s, s.to_move), level, seed, FAST)
    assert a in LANES.legal_actions(s)


@settings(max_examples=15)
@given(st.integers(0, 2**32), st.integers(0, 200), st.integers(2, 5), st.sampled_from(LEVELS),
       st.lists(st.sampled_from(range(len(TEMPLATES))), max_size=3, unique=True))
def test_lopti_bots_return_legal_actions_with_house_rules(seed: int, plies: int, players: int, level: str,
                                                          rules: list[int]) -> None:
    options = LoptiOptions(house_rules=tuple(parse_rule(TEMPLATES[i]) for i in rules))
    s = advance_lopti(seed, plies, players, options)
    assume(not s.over)
    obs = LOPTI.observe(s, s.to_move)
    a = decide("lopti", obs, level, seed, FAST)
    legal = LOPTI.legal_actions(s)
    norm = {LOPTI.action_to_json(x) if not isinstance(LOPTI.action_to_json(x), dict) else json.dumps(
        LOPTI.action_to_json(x), sort_keys=True) for x in legal}
    got = LOPTI.action_to_json(a)
    assert (got if not isinstance(got, dict) else json.dumps(got, sort_keys=True)) in norm
    LOPTI.apply(s, a)  # and the engine accepts it


@settings(max_examples=15)
@given(st.integers(0, 2**32), st.integers(0, 300), st.sampled_from(LEVELS), st.integers(0, 1))
def test_spit_bots_return_legal_actions(seed: int, steps: int, level: str, player: int) -> None:
    s = SPIT.new_game(SpitOptions(), seed)
    rng = Rng(seed)
    for _ in range(steps):
        if s.over:
            break
        if s.phase == "round_over":
            s, _ = SPIT.apply(s, NextRound())
            continue
        legal = SPIT.legal_actions(s)
        s, _ = SPIT.apply(s, legal[rng.below(len(legal))])
    a = decide("spit", SPIT.observe(s, player), level, seed)
    assert (a is None and not SPIT.legal_actions(s, player)) or a in SPIT.legal_actions(s, player)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_decision(level: str) -> None:
    s = advance_lanes(4, 12, LanesOptions())
    obs = LANES.observe(s, s.to_move)
    assert decide("lanes", obs, level, 9, FAST) == decide("lanes", obs, level, 9, FAST)
    t = advance_lopti(4, 30, 3, LoptiOptions())
    o2 = LOPTI.observe(t, t.to_move)
    assert decide("lopti", o2, level, 9, FAST) == decide("lopti", o2, level, 9, FAST)


@pytest.mark.parametrize("level", ["casual", "skilled", "expert"])
def test_no_peeking_same_observation_different_hidden_cards_same_decision(level: str) -> None:
    s = advance_lanes(21, 14, LanesOptions())
    p = s.to_move
    t = s.clone()
    hidden = t.sides[1 - p].hand + t.sides[1 - p].deck
    Rng(5).shuffle(hidden)
    n = len(t.sides[1 - p].hand)
    t.sides[1 - p].hand, t.sides[1 - p].deck = hidden[:n], hidden[n:]
    Rng(6).shuffle(t.sides[p].deck)
    assert LANES.observe(t, p) == LANES.observe(s, p)
    assert t.sides[1 - p].hand != s.sides[1 - p].hand
    via_s = handle({"id": 1, "game": "lanes", "position": LANES.position_to_json(s), "want": [],
                    "bot": {"level": level, "seed": 3, "budget_ms": FAST}})
    via_t = handle({"id": 1, "game": "lanes", "position": LANES.position_to_json(t), "want": [],
                    "bot": {"level": level, "seed": 3, "budget_ms": FAST}})
    assert via_s["bot_action"] == via_t["bot_action"]


@pytest.mark.parametrize("level", ["casual", "skilled", "expert"])
def test_no_peeking_lopti_two_deals_that_differ_only_in_hidden_cards_get_the_same_decision(level: str) -> None:
    """The bot is asked through the conformance interface with the whole position, so it could
    read the hidden cards if it peeked; it must decide the same on a deal that differs only in
    what the mover cannot see (opponents' unseen hands, face-down cards, the draw pile)."""
    from tests.lopti.test_inference import redeal_unseen

    s = advance_lopti(4, 40, 4, LoptiOptions())
    assert not s.over and s.phase == "play"
    p = s.to_move
    t = redeal_unseen(s, p, 7)
    assert LOPTI.observe(t, p) == LOPTI.observe(s, p)
    assert [x.hand for x in t.seats] != [x.hand for x in s.seats] and t.draw != s.draw
    asked = [handle({"id": 1, "game": "lopti", "position": LOPTI.position_to_json(x), "want": [],
                     "bot": {"level": level, "seed": 3, "budget_ms": FAST}}) for x in (s, t)]
    assert asked[0]["ok"] and asked[0]["bot_action"] == asked[1]["bot_action"], asked


@pytest.mark.parametrize("level", ["casual", "skilled", "expert"])
def test_no_peeking_spit_two_deals_that_differ_only_in_face_down_cards_get_the_same_decision(level: str) -> None:
    """As for Lopti: every face-down card (under each stock top, the spit cards, under the pile
    tops) dealt afresh and the next round's generator changed; the bot decides the same."""
    s = SPIT.new_game(SpitOptions(), 8)
    rng = Rng(8)
    for _ in range(12):
        legal = SPIT.legal_actions(s)
        s, _ = SPIT.apply(s, legal[rng.below(len(legal))])
    assert s.phase == "play"
    t = s.clone()
    stacks = [*(st for pl in t.players for st in pl.stocks if st), *(pile for pile in t.piles if pile)]
    hidden = [c for stack in stacks for c in stack[:-1]] + [c for pl in t.players for c in pl.spit]
    Rng(9).shuffle(hidden)
    for stack in stacks:
        stack[:-1], hidden = hidden[:len(stack) - 1], hidden[len(stack) - 1:]
    for pl in t.players:
        pl.spit, hidden = hidden[:len(pl.spit)], hidden[len(pl.spit):]
    t.rng ^= 0x5DEECE66D
    for player in (0, 1):
        assert SPIT.observe(t, player) == SPIT.observe(s, player)
    assert SPIT.position_to_json(t) != SPIT.position_to_json(s)
    for player in (0, 1):
        asked = [handle({"id": 1, "game": "spit", "position": SPIT.position_to_json(x), "want": [],
                         "bot": {"level": level, "seed": 3, "player": player}}) for x in (s, t)]
        assert asked[0]["ok"] and asked[0]["bot_action"] == asked[1]["bot_action"], asked


def test_conformance_bot_question_spit_needs_player() -> None:
    pos = SPIT.position_to_json(SPIT.new_game(SpitOptions(), 2))
    r = handle({"id": 1, "game": "spit", "position": pos, "bot": {"level": "expert", "seed": 1}})
    assert not r["ok"] and r["error"]["code"] == "bad_request"
    r2 = handle({"id": 1, "game": "spit", "position": pos, "bot": {"level": "expert", "seed": 1, "player": 0}})
    assert r2["ok"] and r2["bot_action"] == {"player": 0, "spit": True}


def test_hint_is_the_casual_move() -> None:
    s = advance_lanes(8, 10, LanesOptions())
    obs = LANES.observe(s, s.to_move)
    assert hint("lanes", obs, 1) == decide("lanes", obs, "casual", 1)


def test_spit_levels_react_slower_the_lower_they_are_and_with_more_options() -> None:
    rng = Rng(1)
    means = {lvl: sum(reaction_time(lvl, 3, rng) for _ in range(200)) / 200 for lvl in PROFILES}
    assert means["expert"] < means["skilled"] < means["casual"] < means["beginner"]
    assert reaction_time("expert", 0, Rng(2)) / 0.85 + 0.01 >= 0.25
    assert reaction_time("skilled", 8, Rng(3)) > reaction_time("skilled", 1, Rng(3))
    st = SPIT.new_game(SpitOptions(), 4)
    rng = Rng(5)
    for seat in (0, 1):
        planned = SpitBot("expert", seed=1).plan(SPIT.observe(st, seat), SPIT.legal_actions(st, seat), rng)
        assert planned is not None  # the deal's opening offers a move (call spit)
        delay, action = planned
        assert delay > 0 and action in SPIT.legal_actions(st, seat)


def test_short_arena_expert_beats_random() -> None:
    r = match("lanes", "expert", "random", games=8, seed=3, budget=40)
    assert r["win_rate_a"] >= 0.75 and r["games"] == 8
    lo, hi = r["ci95_a"]
    assert lo <= r["win_rate_a"] <= hi
    s = match("spit", "expert", "beginner", games=4, seed=3)
    assert s["win_rate_a"] >= 0.75
    l4 = match("lopti", "expert", "beginner", games=12, seed=3, seats=3, budget=40)
    wins = l4["win_rate_a"] * 12
    assert l4["seats"] == 3 and l4["games"] == 12 and wins == round(wins)  # a count of whole deals
    assert l4["ci95_a"][0] <= l4["win_rate_a"] <= l4["ci95_a"][1] and l4["mean_length"] > 0
    # strength, not just shape: out first in more than a fair share of three seats. The expert
    # wins ~70% here (24 deals: 0.71, interval 0.51-0.85), so 12 deals clear 1/3 on any seeds
    # (P(fewer than 5 of 12) < 1%); 4 deals all won, asked before, held only for the seeds it
    # was written on (new bot seeds gave 3 of 4)
    assert l4["win_rate_a"] > 1 / 3, l4


def test_a_hint_comes_from_the_chosen_level_and_only_a_playing_level() -> None:
    s = LANES.new_game(LanesOptions(), 3)
    obs = LANES.observe(s, 0)
    assert hint("lanes", obs, 1, "expert") == decide("lanes", obs, "expert", 1)
    assert hint("lanes", obs, 1) == decide("lanes", obs, "casual", 1)
    with pytest.raises(BadRequest):
        hint("lanes", obs, 1, "random")


def test_wilson_interval() -> None:
    lo, hi = wilson(60, 100)
    assert 0.50 < lo < 0.51 and 0.69 < hi < 0.70


def test_arena_cli_json() -> None:
    proc = subprocess.run([sys.executable, "-m", "engine.bots.arena", "--game", "lopti", "--a", "casual", "--b",
                           "random", "--games", "4", "--seed", "2", "--seats", "3", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    for key in ("games", "win_rate_a", "ci95_a", "mean_length", "decision_ms"):
        assert key in out
    assert out["games"] == 4 and set(out["decision_ms"]) == {"a", "b"}


def test_arena_paired_baseline_plays_the_same_games() -> None:
    """The baseline is the baseline level itself, in A's seat, on the same deals: its rate is what
    that level scores when it plays A's games — not a copy of A's results (a baseline of A's own
    level would gain nothing either way, so it proves nothing)."""
    r = match("lopti", "casual", "random", games=6, seed=4, seats=3, baseline="beginner")
    alone = match("lopti", "beginner", "random", games=6, seed=4, seats=3)
    assert r["baseline"]["rate"] == alone["win_rate_a"] != r["win_rate_a"]
    assert r["baseline"]["gain"] == pytest.approx(r["win_rate_a"] - alone["win_rate_a"])
    same = match("lopti", "casual", "casual", games=6, seed=4, seats=4, baseline="casual")
    assert same["baseline"]["gain"] == 0.0 and same["baseline"]["gain_ci95"] == 0.0


def test_arena_split_over_processes_gives_the_same_figures() -> None:
    one = match("lopti", "casual", "beginner", games=6, seed=9, seats=3, baseline="random")
    two = match("lopti", "casual", "beginner", games=6, seed=9, seats=3, baseline="random", jobs=2)
    assert (one["win_rate_a"], one["baseline"], one["mean_length"]) == \
        (two["win_rate_a"], two["baseline"], two["mean_length"])


def test_lopti_search_keeps_the_casual_move_unless_a_candidate_clearly_beats_it() -> None:
    from engine.bots.lopti_bots import _paired_best

    noisy = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0], [0.0, 1.0], [1.0, 0.0]]  # no real gain
    assert _paired_best(noisy, base=0) == 0
    clear = [[0.0, 1.0, 0.0]] * 6 + [[0.0, 1.0, 1.0]] * 4 + [[1.0, 1.0, 1.0]] * 2
    assert _paired_best(clear, base=0) == 1  # the bigger gain wins among those past the margin
    slight = [[0.0, 1.0]] * 2 + [[1.0, 0.0]] + [[1.0, 1.0]] * 37  # a net +1 in 40 worlds: within the noise
    assert _paired_best(slight, base=0) == 0
