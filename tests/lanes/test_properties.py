"""Property tests over random Lanes games in every variant combination (Hypothesis)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Rng
from engine.core import GameRecord, canonical_json, replay
from engine.lanes import RULES, VARIANTS, LanesOptions
from engine.lanes.state import LanesState

options_st = st.builds(lambda flags: LanesOptions(**dict(zip(VARIANTS, flags, strict=True))),
                       st.lists(st.booleans(), min_size=len(VARIANTS), max_size=len(VARIANTS)))


def all_cards(s: LanesState) -> Counter[str]:
    c: Counter[str] = Counter()
    for side in s.sides:
        c.update(map(str, side.hand + side.deck + side.discard))
        c.update(str(x) for lane in side.lanes for stack in lane for x in stack.cards())
    return c


def play_random(options: LanesOptions, seed: int, max_plies: int = 5000) -> tuple[LanesState, list[dict]]:
    s = RULES.new_game(options, seed)
    rng = Rng(seed ^ 0x5A5A)
    initial = all_cards(s)
    actions = []
    while not s.over:
        legal = RULES.legal_actions(s)
        assert legal, "a player to move always has a legal action (discard or disband at worst)"
        a = legal[rng.below(len(legal))]
        actions.append(RULES.action_to_json(a))
        s, _ = RULES.apply(s, a)
        assert all_cards(s) == initial, "cards are conserved"
        assert len(actions) < max_plies, "game did not end"
    return s, actions


@given(options_st, st.integers(min_value=0, max_value=2**32))
def test_random_games_end_conserve_cards_and_replay_identically(options: LanesOptions, seed: int) -> None:
    final, actions = play_random(options, seed)
    assert final.reason in ("sold", "out_of_cards")
    rec = GameRecord("lanes", options.to_json(), seed, None, tuple(actions))
    again, _ = replay(RULES, GameRecord.from_json(rec.to_json()))
    assert canonical_json(RULES.position_to_json(again)) == canonical_json(RULES.position_to_json(final))


@given(options_st, st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=60))
def test_every_listed_action_applies_and_apply_does_not_mutate(options: LanesOptions, seed: int, plies: int) -> None:
    s = RULES.new_game(options, seed)
    rng = Rng(seed)
    for _ in range(plies):
        if s.over:
            break
        before = canonical_json(RULES.position_to_json(s))
        legal = RULES.legal_actions(s)
        for a in legal:
            RULES.apply(s, a)
        assert canonical_json(RULES.position_to_json(s)) == before
        s, _ = RULES.apply(s, legal[rng.below(len(legal))])


@given(options_st, st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=40))
def test_observation_leaks_nothing_hidden(options: LanesOptions, seed: int, plies: int) -> None:
    """Two states that differ only in hidden cards give the same observation for the viewer."""
    s = RULES.new_game(options, seed)
    rng = Rng(seed)
    for _ in range(plies):
        if s.over:
            break
        legal = RULES.legal_actions(s)
        s, _ = RULES.apply(s, legal[rng.below(len(legal))])
    for viewer in (0, 1):
        other = 1 - viewer
        t = s.clone()
        hidden = t.sides[other].hand + t.sides[other].deck
        Rng(seed + 1).shuffle(hidden)
        n = len(t.sides[other].hand)
        t.sides[other].hand, t.sides[other].deck = hidden[:n], hidden[n:]
        mine = list(t.sides[viewer].deck)
        Rng(seed + 2).shuffle(mine)
        t.sides[viewer].deck = mine
        assert RULES.observe(t, viewer) == RULES.observe(s, viewer)


def test_same_seed_same_deal_different_seed_different_deal() -> None:
    a = RULES.new_game(LanesOptions(), 99)
    b = RULES.new_game(LanesOptions(), 99)
    c = RULES.new_game(LanesOptions(), 100)
    assert canonical_json(RULES.position_to_json(a)) == canonical_json(RULES.position_to_json(b))
    assert canonical_json(RULES.position_to_json(a)) != canonical_json(RULES.position_to_json(c))
