"""Benchmark (not a test): random playouts per second and mean moves per game, per engine.

    python tests/bench.py [--seconds 3]

Prints figures only; speed targets live here, never in timed unit tests.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import Rng


def playouts(make: Callable[[int], Any], rules: Any, seconds: float, player_of: Callable[[Any], Any] | None = None
             ) -> tuple[int, float, float]:
    """Play random games until ``seconds`` pass; return (games, games/s, mean actions per game)."""
    start = time.perf_counter()
    games = actions = 0
    seed = 0
    while time.perf_counter() - start < seconds:
        s = make(seed)
        rng = Rng(seed)
        while not rules.is_over(s):
            legal = rules.legal_actions(s) if player_of is None else player_of(s)
            s, _ = rules.apply(s, legal[rng.below(len(legal))])
            actions += 1
        games += 1
        seed += 1
    elapsed = time.perf_counter() - start
    return games, games / elapsed, actions / max(games, 1)


def bench_lanes(seconds: float) -> None:
    from engine.lanes import RULES, LanesOptions

    g, rate, mean = playouts(lambda seed: RULES.new_game(LanesOptions(), seed), RULES, seconds)
    print(f"lanes  standard        {rate:8.1f} playouts/s  {mean:6.1f} moves/game  ({g} games)")


def bench_lopti(seconds: float) -> None:
    from engine.lopti import RULES, LoptiOptions

    for n in (2, 3, 5):
        def deal(seed: int, n: int = n) -> Any:
            return RULES.new_game(LoptiOptions(), seed, n)

        g, rate, mean = playouts(deal, RULES, seconds)
        print(f"lopti  {n} players       {rate:8.1f} playouts/s  {mean:6.1f} moves/game  ({g} deals)")


def bench_spit(seconds: float) -> None:
    """Random play, both players racing (actions in random arrival order); rounds per second."""
    from engine.spit import RULES, NextRound, SpitOptions

    start = time.perf_counter()
    rounds = actions = games = 0
    seed = 0
    while time.perf_counter() - start < seconds:
        s = RULES.new_game(SpitOptions(), seed)
        rng = Rng(seed)
        while not s.over:
            if s.phase == "round_over":
                s, _ = RULES.apply(s, NextRound())
                rounds += 1
                continue
            batch = [lg[rng.below(len(lg))] for p in (0, 1) if (lg := RULES.legal_actions(s, p))]
            rng.shuffle(batch)
            for a in batch:
                s, _ = RULES.apply(s, a)
                actions += 1
        rounds += 1
        games += 1
        seed += 1
    elapsed = time.perf_counter() - start
    print(f"spit   random races    {rounds / elapsed:8.1f} rounds/s    {actions / max(rounds, 1):6.1f} actions/round "
          f"({games} games, {rounds / max(games, 1):.1f} rounds/game)")


def bench_storage(seconds: float) -> None:
    """Time to save one action (its own transaction) and to resume a 200-action game by replay."""
    import tempfile

    from engine.lopti import RULES, LoptiOptions
    from storage import api
    from storage.db import open_storage

    with tempfile.TemporaryDirectory() as d:
        st = open_storage(Path(d) / "bench.sqlite")
        gid = api.new_game(st, "lopti", {}, 3, 4, [])
        s = RULES.new_game(LoptiOptions(), 3, 4)
        rng = Rng(3)
        n = 0
        start = time.perf_counter()
        while n < 200:
            if s.over:
                break
            legal = RULES.legal_actions(s)
            a = legal[rng.below(len(legal))]
            s, _ = RULES.apply(s, a)
            api.append_action(st, gid, n, RULES.action_to_json(a))
            n += 1
        save_ms = (time.perf_counter() - start) * 1000 / max(n, 1)
        reps = 0
        start = time.perf_counter()
        while reps < 3 or time.perf_counter() - start < min(seconds, 1.0):
            api.resume_game(st, gid)
            reps += 1
        resume_ms = (time.perf_counter() - start) * 1000 / reps
        st.close()
    print(f"storage save one action {save_ms:8.2f} ms     resume a {n}-action game {resume_ms:7.1f} ms")


BENCHES: dict[str, Callable[[float], None]] = {"lanes": bench_lanes, "lopti": bench_lopti, "spit": bench_spit,
                                               "storage": bench_storage}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    ap.add_argument("games", nargs="*", default=list(BENCHES), help="which engines")
    args = ap.parse_args()
    for name in args.games:
        BENCHES[name](args.seconds)


if __name__ == "__main__":
    main()
