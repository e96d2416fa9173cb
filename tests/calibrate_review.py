"""Fit the curve that turns the Lanes expert's evaluation into a chance of winning (a script, not a
test): ``python tests/calibrate_review.py --games 400 --seed 1``.

Plays one-ply greedy games with the tuned weights on both sides (``lanes_bots._greedy``). After
every move it notes the evaluation from the mover's side and whether the mover went on to win,
then finds the scale ``T`` and the shift ``b`` of ``P(win) = 1 / (1 + exp(-(v - b) / T))`` with
the highest likelihood. It prints them and a calibration table (predicted against observed, by
decile) — the figures behind ``engine.bots.review.LANES_SCALE`` and ``LANES_SHIFT``. (The shift is there because the
evaluation is taken with the opponent to move: the mover has just spent its tempo.)
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots.lanes_bots import _greedy
from engine.bots.lanes_eval import TUNED, evaluate
from engine.cards import Rng, derive_seed
from engine.lanes import RULES


def samples(games: int, seed: int) -> list[tuple[float, int]]:
    out: list[tuple[float, int]] = []
    for g in range(games):
        s = RULES.new_game(RULES.parse_options({}), derive_seed(seed, "calibrate", g))
        rng = Rng(derive_seed(seed, "moves", g))
        seen: list[tuple[float, int]] = []
        while not s.over:
            p = s.to_move
            a, _ = _greedy(s, RULES.legal_actions(s), rng, p, TUNED)
            s, _ = RULES.apply(s, a)
            if not s.over:
                seen.append((evaluate(s, p, TUNED), p))
        if s.winner is not None:
            out += [(v, 1 if s.winner == p else 0) for v, p in seen]
    return out


def chance(v: float, scale: float, shift: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, (v - shift) / scale))))


def log_likelihood(data: list[tuple[float, int]], scale: float, shift: float) -> float:
    total = 0.0
    for v, won in data:
        q = chance(v, scale, shift)
        q = min(max(q, 1e-9), 1 - 1e-9)
        total += math.log(q if won else 1 - q)
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    data = samples(args.games, args.seed)
    scale, shift = max(((x / 2, b / 2) for x in range(2, 81) for b in range(-20, 21)),
                       key=lambda ts: log_likelihood(data, *ts))
    print(f"{len(data)} positions from {args.games} games: best scale T = {scale}, shift b = {shift}")
    data.sort()
    for k in range(10):
        part = data[k * len(data) // 10:(k + 1) * len(data) // 10]
        predicted = sum(chance(v, scale, shift) for v, _ in part) / len(part)
        observed = sum(w for _, w in part) / len(part)
        print(f"decile {k + 1:2}: eval {part[0][0]:7.1f}…{part[-1][0]:7.1f}  predicted {predicted:.2f}  "
              f"observed {observed:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
