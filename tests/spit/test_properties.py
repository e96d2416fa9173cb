"""Property tests over random Spit games: both players propose moves from the same position and
they arrive in random order (so races and rejections happen), across rounds."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Rng
from engine.core import canonical_json
from engine.spit import RULES, NextRound, SpitOptions
from engine.spit.state import SpitState


def census(s: SpitState) -> Counter[str]:
    c: Counter[str] = Counter(map(str, s.piles[0] + s.piles[1]))
    for p in s.players:
        c.update(map(str, [x for st in p.stocks for x in st] + p.spit))
    return c


def random_game(seed: int, scoring: str, cap: int = 60) -> tuple[SpitState, list[dict[str, object]], int]:
    s = RULES.new_game(SpitOptions(scoring=scoring, round_cap=cap), seed)
    rng = Rng(seed)
    initial = census(s)
    log: list[dict[str, object]] = []
    rejections = 0
    steps = 0
    while not s.over:
        steps += 1
        assert steps < 200_000
        if s.phase == "round_over":
            batch = [NextRound()]
        else:
            batch = []
            for p in (0, 1):  # each player picks from the position both see, then they race
                legal = RULES.legal_actions(s, p)
                if legal:
                    batch.append(legal[rng.below(len(legal))])
            rng.shuffle(batch)
        assert batch, f"nobody can act in phase {s.phase}"
        for a in batch:
            log.append(RULES.action_to_json(a))
            s, events = RULES.apply(s, a)
            rejections += sum(e.type == "rejected" for e in events)
            assert census(s) == initial
    return s, log, rejections


@given(st.integers(0, 2**32), st.sampled_from(["standard", "points"]))
def test_random_races_conserve_cards_end_and_replay(seed: int, scoring: str) -> None:
    final, log, _ = random_game(seed, scoring)
    assert final.over
    s = RULES.new_game(SpitOptions(scoring=scoring, round_cap=60), seed)
    for a in log:
        s, _ = RULES.apply(s, RULES.parse_action(a))
    assert canonical_json(RULES.position_to_json(s)) == canonical_json(RULES.position_to_json(final))


def test_races_really_happen() -> None:
    assert sum(random_game(seed, "standard")[2] for seed in range(5)) > 0


@given(st.integers(0, 2**32), st.integers(0, 300))
def test_observe_hides_face_down_cards(seed: int, steps: int) -> None:
    s = RULES.new_game(SpitOptions(), seed)
    rng = Rng(seed)
    for _ in range(steps):
        if s.over:
            break
        if s.phase == "round_over":
            s, _ = RULES.apply(s, NextRound())
            continue
        legal = RULES.legal_actions(s)
        s, _ = RULES.apply(s, legal[rng.below(len(legal))])
    t = s.clone()
    hidden = [c for p in t.players for st_ in p.stocks for c in st_[:-1]] + [c for p in t.players for c in p.spit]
    rng.shuffle(hidden)
    for p in t.players:
        for st_ in p.stocks:
            k = len(st_) - 1
            if k > 0:
                st_[:-1], hidden = hidden[:k], hidden[k:]
        n = len(p.spit)
        p.spit, hidden = hidden[:n], hidden[n:]
    for viewer in (0, 1):
        assert RULES.observe(t, viewer) == RULES.observe(s, viewer)
