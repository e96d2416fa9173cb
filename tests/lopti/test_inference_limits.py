"""The limits ``tests/lopti_bounds.py`` infers on casual opponents' hands hold for the true hands
(P-3.2, P-3.3, P-4: casual makes the first legal play in its fixed order, and takes only when it
has none), so its ``infer`` measurement samples only hands that could really be there."""

from collections import Counter

from engine.cards import Rng, derive_seed
from engine.lopti import RULES
from engine.lopti.state import PLAY
from tests.lopti_bounds import Limits, casual, sampler, track


def test_true_hands_keep_within_the_inferred_limits_and_samples_do_too() -> None:
    checked = limited = 0
    for g in range(40):
        s = RULES.new_game(RULES.parse_options({}), derive_seed(3, "limits", g), 2 + g % 4)
        limits: Limits = {}
        while not s.over and not s.places:
            act = casual(s)
            after, _ = RULES.apply(s, act)
            track(limits, s, act, after)
            s = after
            for i, seat in enumerate(s.seats):
                unseen = Counter(c.rank for c in seat.hand) - Counter(c.rank for c in seat.known)
                assert all(unseen[r] <= m for r, m in limits.get(i, {}).items())
                checked += 1
                limited += any(m == 0 for m in limits.get(i, {}).values())
            if s.phase == PLAY and not s.over and s.ply % 7 == 0:
                obs = RULES.observe(s, s.to_move)
                w = sampler({i: m for i, m in limits.items() if i != s.to_move})(obs, Rng(s.ply))
                assert RULES.observe(w, s.to_move) == obs
                assert sorted(map(str, [c for t in w.seats for c in t.hand + t.up + t.down] + w.draw
                                  + [c for p in w.pile for c in p] + w.gone)) == sorted(
                    map(str, [c for t in s.seats for c in t.hand + t.up + t.down] + s.draw
                        + [c for p in s.pile for c in p] + s.gone))
    assert checked > 1000 and limited > checked // 4  # the limits do bite
