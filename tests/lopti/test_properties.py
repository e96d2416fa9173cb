"""Property tests over random Lopti deals for 2–5 players."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Rng
from engine.core import GameRecord, canonical_json, replay
from engine.lopti import RULES, LoptiOptions
from engine.lopti.state import LoptiState


def census(s: LoptiState) -> Counter[str]:
    c: Counter[str] = Counter(map(str, s.draw + s.gone + [x for p in s.pile for x in p]))
    for seat in s.seats:
        c.update(map(str, seat.hand + seat.up + seat.down))
    return c


def random_deal(seed: int, players: int) -> tuple[LoptiState, list[object]]:
    s = RULES.new_game(LoptiOptions(), seed, players)
    initial = census(s)
    assert sum(initial.values()) == 52 and len(initial) == 52
    rng = Rng(seed)
    actions = []
    while not s.over:
        legal = RULES.legal_actions(s)
        assert legal
        a = legal[rng.below(len(legal))]
        actions.append(RULES.action_to_json(a))
        s, _ = RULES.apply(s, a)
        assert census(s) == initial
    return s, actions


@given(st.integers(0, 2**32), st.integers(2, 5))
def test_random_deals_end_conserve_cards_and_replay(seed: int, players: int) -> None:
    final, actions = random_deal(seed, players)
    assert sorted(final.places) == list(range(players)) and final.winner == final.places[0]
    again, _ = replay(RULES, GameRecord("lopti", {}, seed, players, tuple(actions)))
    assert canonical_json(RULES.position_to_json(again)) == canonical_json(RULES.position_to_json(final))


@given(st.integers(0, 2**32), st.integers(2, 5), st.integers(0, 150))
def test_every_listed_action_applies(seed: int, players: int, plies: int) -> None:
    s = RULES.new_game(LoptiOptions(), seed, players)
    rng = Rng(seed)
    for _ in range(plies):
        if s.over:
            break
        legal = RULES.legal_actions(s)
        before = canonical_json(RULES.position_to_json(s))
        for a in legal:
            RULES.apply(s, a)
        assert canonical_json(RULES.position_to_json(s)) == before
        s, _ = RULES.apply(s, legal[rng.below(len(legal))])


@given(st.integers(0, 2**32), st.integers(2, 5), st.integers(0, 120))
def test_observe_leaks_nothing_nobody_has_seen(seed: int, players: int, plies: int) -> None:
    """Shuffling every card nobody has seen (draw pile, face-down cards, unseen parts of other hands)
    leaves the observation unchanged."""
    s = RULES.new_game(LoptiOptions(), seed, players)
    rng = Rng(seed)
    for _ in range(plies):
        if s.over:
            break
        legal = RULES.legal_actions(s)
        s, _ = RULES.apply(s, legal[rng.below(len(legal))])
    for viewer in range(players):
        t = s.clone()
        pool = list(t.draw)
        for i, seat in enumerate(t.seats):
            pool += seat.down
            if i != viewer:
                unseen = list(seat.hand)
                for k in seat.known:
                    unseen.remove(k)
                pool += unseen
        Rng(seed + 7).shuffle(pool)
        t.draw, pool = pool[:len(t.draw)], pool[len(t.draw):]
        for i, seat in enumerate(t.seats):
            n = len(seat.down)
            seat.down, pool = pool[:n], pool[n:]
            if i != viewer:
                m = len(seat.hand) - len(seat.known)
                seat.hand, pool = list(seat.known) + pool[:m], pool[m:]
        assert RULES.observe(t, viewer) == RULES.observe(s, viewer)
