"""#46 item 2: the worlds a Lopti bot searches share every public field of the true deal.

A world is dealt from an observation (``notation.dealer``; the expert's ``lopti_infer.sampler``
re-deals its unseen cards within the opponents' limits). It once left out which hand cards came
from the face-up cards (a house rule's ``zone`` condition, P-9) and zeroed the firings of house
rules this turn and this deal and the turn cap's mark (the loop caps, P-8.3), so a rule fired in
the search where it could not in the game, or the other way round. Here whole deals with rules that
fire often and a short turn cap are checked at every step, for every seat, until each of those
fields has been seen away from its start value."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.lopti_infer import read_moves, sampler
from engine.cards import Rng, derive_seed
from engine.lopti import RULES, LoptiOptions
from engine.lopti.house_rules import BaseParams, parse_rule
from engine.lopti.state import LoptiState
from engine.lopti.templates import TEMPLATES
from tests.lopti.base_params import base_params
from tests.lopti_bounds import casual
from tests.test_protocol import SUITE, key, shared, where

#: P-9 rules that fire at every play, and on playing from the face-up cards (the ``zone`` condition)
RULES_THAT_FIRE = (
    parse_rule({"version": 1, "id": "every-play", "title": "Every play is announced", "author": None,
                "created_deal": 0, "when": {"event": "play", "timing": "after"},
                "do": [{"effect": "announce", "text": "Played!"}]}),
    parse_rule(next(t for t in TEMPLATES if t["id"] == "face-up-give")),
)


def check_worlds(s: LoptiState, rng: Rng) -> None:
    """Every seat's worlds, plain and within the expert's limits, are the true deal but for the
    cards they resample: the same public fields and the same legal actions."""
    truth = shared(s, SUITE["lopti"].unshared)
    for p in range(len(s.seats)):
        obs = RULES.observe(s, p)
        legal = sorted(key(RULES, a) for a in RULES.legal_actions(s, p))
        for w in (RULES.determinise(obs, Rng(rng.next_u64())), sampler(obs)(Rng(rng.next_u64()))):
            differ = where(shared(w, SUITE["lopti"].unshared), truth)
            assert differ is None, f"seat {p}'s world differs at {differ}"
            assert sorted(key(RULES, a) for a in RULES.legal_actions(w, p)) == legal


def test_worlds_keep_the_faceup_origin_the_rule_firings_and_the_turn_cap() -> None:
    seen = {"from_up": False, "fires_turn": False, "fires_deal": False, "capped": False}
    options = LoptiOptions(house_rules=RULES_THAT_FIRE, turn_cap=60)
    for deal in range(40):
        seed = derive_seed(46, "worlds", deal)
        s = RULES.new_game(options, seed, 3 + deal % 3)
        rng = Rng(seed)
        while True:
            check_worlds(s, rng)
            seen["from_up"] |= any(seat.from_up for seat in s.seats)
            seen["fires_turn"] |= s.fires_turn > 0
            seen["fires_deal"] |= s.fires_deal > 0
            seen["capped"] |= s.capped
            if s.over:
                break
            legal = RULES.legal_actions(s)
            s, _ = RULES.apply(s, legal[rng.below(len(legal))])
        if all(seen.values()):
            break
    assert all(seen.values()), seen


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 5), base_params)
def test_worlds_and_the_limits_read_from_the_moves_hold_under_any_base_rules(seed: int, players: int,
                                                                              params: BaseParams) -> None:
    """#36 item 2 (P-9.1): under any playable base-rule choices — other special cards, other counts
    dealt, another clearing run — every seat's worlds are the true deal but for the resampled cards,
    and a casual seat's unseen cards keep within the limits its moves are read to put on them
    (the reading knows the session's special cards: P-2.2 swap strength, P-3/P-4 preferences)."""
    s = RULES.new_game(LoptiOptions(house_rules=RULES_THAT_FIRE, params=params, turn_cap=80), seed, players)
    rng = Rng(seed)
    assert [len(seat.hand + seat.up + seat.down) for seat in s.seats] == [params.per_seat] * players  # P-2.1
    while not s.over:
        check_worlds(s, rng)
        for j in range(players):
            found, _ = read_moves(RULES.observe(s, j))
            for i, most in found.items():
                unseen = Counter(c.rank for c in s.seats[i].hand) - Counter(c.rank for c in s.seats[i].known)
                assert all(unseen[r] <= m for r, m in most.items()), (i, most, unseen)
        s, _ = RULES.apply(s, casual(s))
