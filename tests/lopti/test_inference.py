"""The Lopti expert's inference (engine/bots/lopti_infer.py) and the public record it reads.

What the casual player's choices say about its hand (P-2.2 setup swap, P-3.2 a take means no legal
play, P-3/P-4 the first legal play in its order), read only from ``observe(...)["moves"]``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.bots.lopti_infer import limits, read_moves, sampler
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
