"""Tune the Lanes evaluation's weights by self-play (a script, not a test).

    python tests/tune_lanes_eval.py [--games 400] [--rounds 2] [--seed 1] [--start JSON]
    python tests/tune_lanes_eval.py --compare JSON [--against JSON] [--games 1000]

Both seats play the casual policy (one-ply greedy on ``evaluate``), one with the candidate weights,
one with the weights to beat; every deal is played twice with the seats swapped. A coordinate
search scales one weight at a time (``--scale``, by default ×0.5 then ×1.5; a zero weight is tried
at its value in ``START``) and keeps a change only when it wins clearly (a lower 90 % bound over
50 %) against the current weights. It prints every try (win rate ± a 95 % half-width) and the final
weights as JSON, for ``engine/bots/lanes_eval.py``.

One-ply greedy is cheap (a game in ~0.1 s), so thousands of games per step fit in minutes; the
search levels then use the weights inside their look-ahead.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots.lanes_bots import _greedy, determinise
from engine.bots.lanes_eval import HAND_WRITTEN, Weights
from engine.cards import Rng, derive_seed
from engine.lanes import RULES, LanesOptions

START = {"secure": 2.0, "finish": 2.0, "queen": 0.5, "majority": 6.0}  # where a zero weight starts when tried


def play(ws: tuple[Weights, Weights], seed: int) -> int | None:
    """One deal; seat i plays greedy with ``ws[i]``. Returns the winner (None: no result)."""
    s = RULES.new_game(LanesOptions(), seed, 2)
    rng = Rng(derive_seed(seed, "tune"))
    for _ in range(2000):
        if s.over:
            break
        p = s.to_move
        obs = RULES.observe(s, p)
        world = determinise(obs, Rng(rng.next_u64()))
        action, _ = _greedy(world, RULES.legal_actions(world), rng, p, ws[p])
        s, _ = RULES.apply(s, action)
    return s.winner if s.over else None


def _pair(args: tuple[Weights, Weights, int]) -> float:
    """Candidate's points over one deal played twice, seats swapped (0, 0.5 … 2)."""
    cand, base = args[0], args[1]
    points = 0.0
    for seat in (0, 1):
        ws = (cand, base) if seat == 0 else (base, cand)
        w = play(ws, derive_seed(args[2], "deal"))
        points += 0.5 if w is None else float(w == seat)
    return points


def score(pool: ProcessPoolExecutor, cand: Weights, base: Weights, games: int, seed: int) -> tuple[float, float]:
    """Candidate's win rate over ``games`` games against ``base`` and its standard error."""
    jobs = [(cand, base, derive_seed(seed, "pair", i)) for i in range(games // 2)]
    pts = list(pool.map(_pair, jobs, chunksize=8))
    n = len(pts)
    mean = sum(pts) / (2 * n)
    var = sum((x / 2 - mean) ** 2 for x in pts) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=json.loads, default={})
    ap.add_argument("--compare", type=json.loads, help="only measure these weights")
    ap.add_argument("--against", type=json.loads, default={}, help="… against these (default hand-written)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scale", default="0.5,1.5", help="the factors a weight is tried at, in order")
    args = ap.parse_args()
    with ProcessPoolExecutor(args.workers) as pool:
        if args.compare is not None:
            cand, base = Weights.from_json(args.compare), Weights.from_json(args.against)
            t = time.perf_counter()
            m, se = score(pool, cand, base, args.games, args.seed)
            print(f"{100 * m:.1f} % ± {196 * se:.1f} over {args.games} games ({time.perf_counter() - t:.0f} s)")
            return 0
        best = replace(HAND_WRITTEN, **args.start)
        step = 0
        for _ in range(args.rounds):
            for f in fields(Weights):
                v = getattr(best, f.name)
                tries = [v * float(x) for x in args.scale.split(",")] if v else [START.get(f.name, 1.0)]
                for nv in tries:
                    step += 1
                    cand = replace(best, **{f.name: round(nv, 3)})
                    m, se = score(pool, cand, best, args.games, derive_seed(args.seed, step))
                    kept = m - 1.645 * se > 0.5
                    print(f"{f.name:10} {v:6.2f} -> {nv:6.2f}: {100 * m:5.1f} % ± {196 * se:4.1f}"
                          f"{'  kept' if kept else ''}", flush=True)
                    if kept:
                        best = cand
                        break
        print(json.dumps(best.to_json()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
