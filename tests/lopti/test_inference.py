"""The Lopti expert's inference (engine/bots/lopti_infer.py) and the public record it reads.

What the casual player's choices say about its hand (P-2.2 setup swap, P-3.2 a take means no legal
play, P-3/P-4 the first legal play in its order), read only from ``observe(...)["moves"]``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from engine.bots.lopti_infer import TRIES, _within, limits, read_moves, sampler
from engine.cards import Rng, derive_seed
from engine.lopti import RULES, Keep, Play, Take
from engine.lopti.state import PLAY, LoptiState
from tests.lopti_bounds import casual


def _position(players: list[dict[str, Any]], **top: Any) -> LoptiState:
    return RULES.position_from_json(RULES.parse_options({}), {"players": players, **top})


def _seat(hand: str, up: str = "", down: str = "") -> dict[str, Any]:
    return {"hand": hand.split(), "up": up.split(), "down": down.split()}


def _unseen(s: LoptiState, i: int) -> Counter[int]:
    return Counter(c.rank for c in s.seats[i].hand) - Counter(c.rank for c in s.seats[i].known)


def _all_cards(s: LoptiState) -> list[str]:
    return sorted(map(str, [c for t in s.seats for c in t.hand + t.up + t.down] + s.draw
                      + [c for p in s.pile for c in p] + s.gone))


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_casual_hands_always_keep_within_the_limits_read_from_the_moves(seats: int) -> None:
    """Property over whole casual deals at every table size: for every observer, every opponent's
    true unseen cards keep within its limits, no casual seat is ever judged to break them, and the
    limits bite (P-2.2, P-3, P-4)."""
    checked = zero = 0
    for g in range(12):
        s = RULES.new_game(RULES.parse_options({}), derive_seed(7, "infer", seats, g), seats)
        while not s.over and not s.places:
            s, _ = RULES.apply(s, casual(s))
            for j in range(seats):
                found, dropped = read_moves(RULES.observe(s, j))
                assert dropped == {j}
                for i, most in found.items():
                    assert i != j
                    unseen = _unseen(s, i)
                    assert all(unseen[r] <= m for r, m in most.items()), (g, i, most, unseen)
                    zero += sum(1 for m in most.values() if m == 0)
                checked += seats - 1
    assert checked > 500 and zero > 2 * checked  # on average more than two ranks ruled out per hand


def test_sampled_worlds_match_the_observation_keep_every_card_and_fit_the_limits() -> None:
    for g in range(10):
        s = RULES.new_game(RULES.parse_options({}), derive_seed(8, "sample", g), 2 + g % 4)
        while not s.over and not s.places:
            s, _ = RULES.apply(s, casual(s))
            if s.phase == PLAY and not s.over and s.ply % 5 == 0:
                obs = RULES.observe(s, s.to_move)
                found = limits(obs)
                w = sampler(obs)(Rng(s.ply))
                assert RULES.observe(w, s.to_move) == obs
                assert _all_cards(w) == _all_cards(s)
                assert not w.record  # a search world adds nothing to the record
                for i, most in found.items():
                    assert all(_unseen(w, i)[r] <= m for r, m in most.items())


def test_a_keep_at_the_setup_swap_rules_out_cards_stronger_than_the_weakest_face_up_card() -> None:
    """P-2.2: casual keeps only when no swap gains, so its hand holds nothing stronger than an ace
    (its weakest face-up card here): no 2 and no 10."""
    s = _position([_seat("4C 5D 6H", "10H 2S AD", "9C 9D 9H"), _seat("8C 8D 8H", "4D 4H 4S", "JC JD JH")],
                  phase="setup", to_move=0)
    assert casual(s) == Keep()
    s, _ = RULES.apply(s, Keep())
    assert limits(RULES.observe(s, 1)) == {0: {2: 0, 10: 0}}


def test_a_swap_bounds_the_cards_left_in_hand() -> None:
    """P-2.2: casual swaps the pair that gains most (8 for the 4: +4), so its other hand cards are
    no stronger than 4 + 4: nothing above an 8, no special card."""
    s = _position([_seat("8C 5D 6H", "4H 9S KD", "9C 9D 9H"), _seat("8D 8H 8S", "4D 4C 4S", "JC JD JH")],
                  phase="setup", to_move=0)
    act = casual(s)
    s, _ = RULES.apply(s, act)
    assert RULES.observe(s, 1)["moves"][-1]["swap"] == ["8C", "4H"]
    assert limits(RULES.observe(s, 1))[0] == {r: 0 for r in (1, 2, 3, 7, 9, 10, 11, 12, 13)}


def test_a_take_rules_out_every_play_the_pile_allowed() -> None:
    """P-3.2: casual takes only with no legal play. On a king: no ace, no 2, 3, 7 (the low card goes
    on anything, P-4.4) or 10, and at most one king (two would beat it, P-3.4)."""
    s = _position([_seat("QC QD QH", "", "9C 9D 9H"), _seat("4C 5C 6C", "", "JC JD JH")],
                  pile=[["KH"]], to_move=1)
    assert casual(s) == Take()
    s, _ = RULES.apply(s, Take())
    assert limits(RULES.observe(s, 0)) == {1: {1: 0, 2: 0, 3: 0, 7: 0, 10: 0, 13: 1}}


def test_a_play_rules_out_the_plays_casual_prefers() -> None:
    """P-3/P-4: two 9s on a 5 mean no 6 or 8, at most one 5 (two 5s would beat one), and no
    more 9s than the two played (three would come first) — and those two have left the hand."""
    s = _position([_seat("QC QD QH", "", "2C 2D 2H"), _seat("9C 9D JC", "", "JS JD JH")],
                  pile=[["5H"]], to_move=1)
    assert casual(s) == Play(rank=9, count=2)
    s, _ = RULES.apply(s, Play(rank=9, count=2))
    assert limits(RULES.observe(s, 0)) == {1: {5: 1, 6: 0, 8: 0, 9: 0}}


def test_a_seat_that_breaks_its_limits_is_no_longer_read() -> None:
    """A player who does not play the casual way (a 9 on a 5 while holding a 6) shows it when the 6
    comes out: from then on its hand is sampled without limits."""
    s = _position([_seat("4C 4D 5C", "", "2C 2D 2H"), _seat("9C 6D KC", "", "JS JD JH")],
                  pile=[["5H"]], to_move=1)
    s, _ = RULES.apply(s, Play(rank=9, count=1))
    assert limits(RULES.observe(s, 0))[1][6] == 0
    s, _ = RULES.apply(s, Take())  # seat 0 cannot beat the 9
    s, _ = RULES.apply(s, Play(rank=6, count=1))
    found, dropped = read_moves(RULES.observe(s, 0))
    assert dropped == {0, 1} and 1 not in found


def test_the_record_holds_only_what_everyone_saw() -> None:
    """Each recorded move is made of facts in every seat's observation before it (and the number
    of cards drawn, which the draw pile's size shows)."""
    s = RULES.new_game(RULES.parse_options({}), 11, 4)
    while not s.over and not s.places:
        before, act = s, casual(s)
        s, _ = RULES.apply(s, act)
        move = s.moves[-1]
        seen = RULES.observe(before, (before.to_move + 1) % 4)
        view = seen["players"][move["seat"]]
        assert (move["up"], move["known"], move["hand_size"]) == (view["up"], view["known_in_hand"],
                                                                   view["hand_size"])
        assert move["pile"] == seen["pile"][len(seen["pile"]) - len(move["pile"]):]
        assert move["obligation"] == seen["obligation"]
        assert sum(move["drew"]) == len(before.draw) - len(s.draw)
        assert RULES.observe(s, 0)["moves"] == list(s.moves)


def redeal_unseen(s: LoptiState, p: int, seed: int) -> LoptiState:
    """``s`` with every card seat ``p`` cannot see dealt afresh: the opponents' unseen hand cards,
    every face-down card and the draw pile (the known cards stay where everyone saw them)."""
    t = s.clone()
    hidden = [c for seat in t.seats for c in seat.down] + t.draw
    for i, seat in enumerate(t.seats):
        if i != p:
            hidden += [c for c in seat.hand if c not in seat.known]
    Rng(seed).shuffle(hidden)
    for i, seat in enumerate(t.seats):
        if i != p:
            k = len(seat.hand) - len(seat.known)
            seat.hand, hidden = list(seat.known) + hidden[:k], hidden[k:]
        seat.down, hidden = hidden[: len(seat.down)], hidden[len(seat.down):]
    t.draw = hidden
    return t


def test_the_record_reveals_no_hidden_card() -> None:
    """No peeking: re-deal every card the observer cannot see (the opponents' unseen hand cards,
    the face-down cards, the draw pile) and the observation, record included, stays the same — so
    the expert, a function of the observation, cannot tell the deals apart."""
    s = RULES.new_game(RULES.parse_options({}), 21, 4)
    for _ in range(30):
        s, _ = RULES.apply(s, casual(s))
    p = s.to_move
    t = redeal_unseen(s, p, 5)
    assert RULES.observe(t, p) == RULES.observe(s, p) and _all_cards(t) == _all_cards(s)
    assert [x.hand for x in t.seats] != [x.hand for x in s.seats]
    assert len(s.moves) == 30


def _two_of_four() -> LoptiState:
    """Seat 1 holds two unseen cards; with the draw pile's two they are the four unseen cards."""
    return _position([_seat("2C 3C"), _seat("5S 5H")], draw=["9C", "JD"])


def _one_each() -> LoptiState:
    """Seats 1 and 2 hold one unseen card each; with the draw pile's one they are the three unseen."""
    return _position([_seat("2C 3C"), _seat("9C"), _seat("5S")], draw=["JD"])


def _chi2(seen: Counter[str], kinds: int) -> float:
    expected = sum(seen.values()) / kinds
    return sum((n - expected) ** 2 / expected for n in seen.values())


def _deals(make: Callable[[], LoptiState], found: dict[int, dict[int, int]], seats: list[int], tries: int,
           n: int = 6000) -> Counter[str]:
    """How often each deal of the ``seats``' unseen cards comes, over ``n`` worlds."""
    rng = Rng(46)
    seen: Counter[str] = Counter()
    for _ in range(n):
        w = make()
        before = _all_cards(w)
        _within(w, 0, found, rng, tries)
        assert _all_cards(w) == before
        seen[" | ".join(" ".join(sorted(map(str, w.seats[i].hand))) for i in seats)] += 1
    return seen


def test_worlds_are_dealt_uniformly_among_the_deals_that_meet_the_limits() -> None:
    """#46 item 3: seat 1 may hold at most one 5. Of the six pairs of the four unseen cards, five
    meet that, and the worlds deal each of them equally often (a chi-square test, p = 0.001 at 4
    degrees of freedom: 18.47). The greedy fill the sampler used before dealt 9♣ J♦ (no 5) a sixth
    of the time instead of a fifth (chi-square 53 on these draws)."""
    seen = _deals(_two_of_four, {1: {5: 1}}, [1], TRIES)
    assert "5H 5S" not in seen and len(seen) == 5 and _chi2(seen, 5) < 18.47, seen


def test_two_limited_hands_are_dealt_uniformly_and_the_fallback_is_measured() -> None:
    """Seat 1 may hold no 5 and seat 2 no 9; of 5♠ 9♣ J♦ three deals meet both (9♣|5♠, 9♣|J♦,
    J♦|5♠) and each comes a third of the time (p = 0.001 at 2 degrees of freedom: 13.82). The
    fallback for limits no try meets deals the hands one after another without the correcting
    step: there J♦|5♠ comes half the time, the bias docs/bots.md counts."""
    found = {1: {5: 0}, 2: {9: 0}}
    exact, approximate = _deals(_one_each, found, [1, 2], TRIES), _deals(_one_each, found, [1, 2], 0)
    assert set(exact) == set(approximate) == {"9C | 5S", "9C | JD", "JD | 5S"}
    assert _chi2(exact, 3) < 13.82, exact
    assert abs(approximate["JD | 5S"] / 6000 - 0.5) < 0.03, approximate


def test_the_sampler_counts_the_worlds_it_could_not_deal_exactly() -> None:
    """Limits no deal meets (no 5, 9 or jack among two of 5♠ 5♥ 9♣ J♦) are dropped for that world
    and counted; limits a deal meets are dealt exactly and not counted."""
    assert _within(_two_of_four(), 0, {1: {5: 0, 9: 0, 11: 0}}, Rng(1))[0] == "dropped"
    assert _within(_two_of_four(), 0, {1: {5: 1}}, Rng(1))[0] == "uniform"
    assert _within(_one_each(), 0, {1: {5: 0}, 2: {9: 0}}, Rng(1), tries=0)[0] == "approximate"
    s = RULES.new_game(RULES.parse_options({}), derive_seed(9, "count"), 4)
    while not limits(RULES.observe(s, s.to_move)):
        s, _ = RULES.apply(s, casual(s))
    sample = sampler(RULES.observe(s, s.to_move))
    for k in range(20):
        sample(Rng(k))
    assert sample.worlds == 20 and sample.dropped <= sample.approximate <= 20
