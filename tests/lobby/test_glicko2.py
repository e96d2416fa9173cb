"""Glicko-2 against the published vectors (../shared/notes/lobby.md), with a tolerance."""

from __future__ import annotations

import pytest

from lobby.glicko2 import Rating, after_game, update


def test_glickman_paper_example() -> None:
    r = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)],
               tau=0.5)
    assert r.rating == pytest.approx(1464.05, abs=0.02)
    assert r.rd == pytest.approx(151.52, abs=0.02)
    assert r.vol == pytest.approx(0.059996, abs=1e-6)


def test_two_fresh_players_one_game_lichess_vector() -> None:
    w, l_ = after_game(Rating(1500, 350, 0.06), Rating(1500, 350, 0.06), 1.0, tau=0.75)
    assert w.rating == pytest.approx(1662.21, abs=0.05) and l_.rating == pytest.approx(1337.79, abs=0.05)
    assert w.rd == pytest.approx(290.23, abs=0.05) and l_.rd == pytest.approx(290.23, abs=0.05)


def test_defaults_and_provisional() -> None:
    r = Rating()
    assert (r.rating, r.rd, r.vol) == (1500, 500, 0.09) and r.provisional
    assert not Rating(1500, 80).provisional
    d, _ = after_game(Rating(), Rating(), 0.5)
    assert d.rating == pytest.approx(1500, abs=1e-6) and d.rd < 500
