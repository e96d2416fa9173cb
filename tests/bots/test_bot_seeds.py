"""A bot's seed says nothing about the deal (#46 item 1): ``derive_seed`` can be run backwards, so
every place that hands a bot a seed made from the deal's seed (the arena, the game review, the
Spit driver and the Spit table's bot) now hands it a one-way hash (``one_way_seed``). Each test
here runs ``derive_seed`` backwards over the labels the site uses and fails when that finds the
deal's seed — as it did before the fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.cards import derive_seed, one_way_seed

MASK = (1 << 64) - 1
FNV_PRIME = 0x100000001B3


def _unxorshift(z: int, k: int) -> int:
    """The x with ``x ^ (x >> k) == z``."""
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> k)
    return x & MASK


def undo_derive(out: int, *labels: str | int) -> int:
    """The seed ``s`` with ``derive_seed(s, *labels) == out``: SplitMix's finaliser and the FNV
    steps are bijections on 64-bit words, each undone exactly."""
    acc = out
    for label in reversed(labels):
        z = _unxorshift(acc, 31)
        z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
        z = _unxorshift(z, 27)
        z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
        z = _unxorshift(z, 30)
        acc = (z - 0x9E3779B97F4A7C15) & MASK
        data = label.encode() if isinstance(label, str) else str(label).encode()
        for b in reversed(data):
            acc = ((acc * pow(FNV_PRIME, -1, 1 << 64)) & MASK) ^ b
    return acc


@pytest.mark.parametrize("seed", [0, 1, 11, 2**63 + 5, MASK])
def test_derive_seed_runs_backwards_which_is_the_channel(seed: int) -> None:
    assert undo_derive(derive_seed(seed, "seat", 1, 17), "seat", 1, 17) == seed
    assert undo_derive(derive_seed(seed, "review", 40), "review", 40) == seed


def test_one_way_seeds_differ_by_every_input() -> None:
    seen = {one_way_seed(s, "seat", p, n) for s in (1, 2) for p in (0, 1) for n in (0, 1, 10)}
    assert len(seen) == 12
    assert one_way_seed(1, "a", 2) == one_way_seed(1, "a", 2) != one_way_seed(1, "a2")
    assert all(0 <= x <= MASK for x in seen)


def test_the_arena_gives_no_bot_a_seed_that_leads_back_to_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.bots import arena
    from engine.lanes import RULES

    given: list[tuple[int, int, int]] = []
    real = arena.decide

    def spy(game: str, obs: Any, level: str, seed: int, budget: int = 300, *rest: Any) -> Any:
        given.append((obs["player"], obs["ply"], seed))
        return real(game, obs, level, seed, budget, *rest)

    monkeypatch.setattr(arena, "decide", spy)
    deal = 2024
    arena.play_turn_based("lanes", ["beginner", "beginner"], deal, 20, RULES.parse_options({}), {0: [], 1: []})
    assert len(given) > 20
    for n, (p, _, seed) in enumerate(given):
        assert undo_derive(seed, "seat", p, n) != deal


def test_the_review_gives_the_expert_no_seed_that_leads_back_to_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.bots import review
    from tests.bots.test_review import short_lanes_game

    record = short_lanes_game()
    given: list[tuple[int, int]] = []
    real = review.review_move

    def spy(game: str, state: Any, seat: int, played: Any, seed: int, budget_ms: int = 300, ply: int = 0) -> Any:
        given.append((ply, seed))
        return real(game, state, seat, played, seed, 5, ply)

    monkeypatch.setattr(review, "review_move", spy)
    assert review.review_game(record, 0, budget_ms=5) is not None
    assert given
    assert all(undo_derive(seed, "review", ply) != record.seed for ply, seed in given)


def test_spit_bots_get_no_seed_that_leads_back_to_the_deal(tmp_path: Path) -> None:
    """The Spit driver's stream (each bot decision's seed and reaction time) and the Spit table's
    bot: before, the table's bot held the deal's seed itself."""
    from engine.spit import RULES, SpitOptions
    from engine.spit.driver import SpitDriver
    from storage.db import open_storage
    from views.spit.controller import SpitGame

    deal = 77
    driver = SpitDriver(RULES.new_game(SpitOptions(), deal), {}, seed=deal)
    assert undo_derive(driver.rng.state, "spit-driver") != deal
    st = open_storage(tmp_path / "app.sqlite")
    try:
        game = SpitGame.new(st, "casual", seed=deal, now=0.0)
        bots = game.mode.driver.bots  # type: ignore[attr-defined]
        assert bots and all(getattr(b, "seed", None) not in (deal, None) for b in bots.values())
        assert all(undo_derive(b.seed, "spit-bot") != deal for b in bots.values())
        # the driver of a fresh table starts at the deal's seed plus the moves so far (none)
        assert undo_derive(game.mode.driver.rng.state, "spit-driver") != deal  # type: ignore[attr-defined]
    finally:
        st.close()


def _two_deals(game: str, to_move: int) -> tuple[Any, Any, Any]:
    """The rules and two positions that agree on everything seat ``to_move`` sees and differ in
    cards it cannot see (the other seat's hand, and in Lanes its deck's order) — and in their seeds
    (what a deal's later shuffles come from), which a bot must not see either."""
    from tests.bots.test_review import LANES_WIN_NOW, LOPTI_OUT_NOW, lanes_position, lopti_position

    hidden = 1 - to_move
    if game == "lanes":
        from engine.lanes import RULES as LANES

        theirs = LANES_WIN_NOW["players"][hidden]
        other = {**theirs, "hand": list(reversed(theirs["deck"])) + theirs["hand"][:1],
                 "deck": theirs["hand"][1:]}
        players = list(LANES_WIN_NOW["players"])
        players[hidden] = other
        a = lanes_position(LANES.parse_options({}), {**LANES_WIN_NOW, "to_move": to_move}, 1)
        b = lanes_position(LANES.parse_options({}), {**LANES_WIN_NOW, "to_move": to_move, "players": players}, 2)
        return LANES, a, b
    from engine.lopti import RULES as LOPTI

    players = [dict(p) for p in LOPTI_OUT_NOW["players"]]
    players[hidden]["hand"] = ["2C", "QS", "KH"][:len(players[hidden]["hand"])]
    return (LOPTI, lopti_position(LOPTI.parse_options({}), {**LOPTI_OUT_NOW, "to_move": to_move}, 1),
            lopti_position(LOPTI.parse_options({}), {**LOPTI_OUT_NOW, "to_move": to_move, "players": players}, 2))


@pytest.mark.parametrize("game", ["lanes", "lopti"])
def test_an_offline_bot_and_a_hint_decide_alike_on_deals_that_differ_only_in_hidden_cards(
        tmp_path: Path, game: str) -> None:
    """The app's own bot seats and hints (views/table/modes.py) are seeded by the move number, so
    two deals with the same public history get the same decisions, at every level."""
    from storage.db import open_storage
    from views.table.modes import PERSON, Local

    st = open_storage(tmp_path / "app.sqlite")
    try:
        for level in ("casual", "skilled", "expert"):
            rules, a, b = _two_deals(game, to_move=1)
            assert rules.observe(a, 1) == rules.observe(b, 1) and rules.observe(a, 0) != rules.observe(b, 0)
            bots = [Local(rules, game, st, 0, s, [PERSON, level], seq=40) for s in (a, b)]
            assert bots[0].bot_move() == bots[1].bot_move() is not None
            rules, a, b = _two_deals(game, to_move=0)
            assert rules.observe(a, 0) == rules.observe(b, 0) and rules.observe(a, 1) != rules.observe(b, 1)
            people = [Local(rules, game, st, 0, s, [PERSON, level], seq=40) for s in (a, b)]
            assert people[0].suggestion(level) == people[1].suggestion(level) is not None
    finally:
        st.close()
