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

from engine.cards import Rng  # noqa: E402


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


BENCHES: dict[str, Callable[[float], None]] = {"lanes": bench_lanes}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    ap.add_argument("games", nargs="*", default=list(BENCHES), help="which engines")
    args = ap.parse_args()
    for name in args.games:
        BENCHES[name](args.seconds)


if __name__ == "__main__":
    main()
