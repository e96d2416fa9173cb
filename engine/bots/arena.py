"""Bot-vs-bot arena: ``python -m engine.bots.arena --game lanes --a expert --b skilled --games 400 --seed 1``.

Plays seeded games with seats rotated, and prints A's win rate with a Wilson 95 % interval, mean
game length and decision-time p50/p99 per bot (``--json`` for one JSON object). ``--ladder``
plays every level against the next one down and against random.

This is a measuring tool, so unlike the rest of ``engine/`` it reads the clock — only to report
decision times; the games themselves are fully determined by the seeds.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from engine.bots import LEVELS, decide
from engine.cards import derive_seed


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    ys = sorted(xs)
    k = min(len(ys) - 1, max(0, int(math.ceil(q / 100 * len(ys))) - 1))
    return ys[k]


def play_turn_based(game: str, levels: list[str], seed: int, budget: int, options: Any,
                    times: dict[int, list[float]]) -> tuple[list[int], int]:
    """One game; ``levels[i]`` plays seat i. Returns (places first→last, actions)."""
    from engine.games import rules_for

    rules = rules_for(game)
    s = rules.new_game(options, seed, len(levels))
    n = 0
    while not rules.is_over(s):
        p = rules.to_move(s)
        t0 = time.perf_counter()
        action = decide(game, rules.observe(s, p), levels[p], derive_seed(seed, "seat", p, n), budget)
        times[p].append((time.perf_counter() - t0) * 1000)
        s, _ = rules.apply(s, action)
        n += 1
    res = rules.result(s)
    if res.places:
        return list(res.places), n
    return ([res.winner, 1 - res.winner] if res.winner is not None else []), n


def play_spit(levels: list[str], seed: int, times: dict[int, list[float]]) -> tuple[list[int], int]:
    from engine.bots.spit_bots import SpitBot
    from engine.spit import RULES, SpitOptions
    from engine.spit.driver import BotPolicy, SpitDriver

    bots: dict[int, BotPolicy] = {p: SpitBot(levels[p], timer=times[p]) for p in (0, 1)}
    d = SpitDriver(RULES.new_game(SpitOptions(), seed), bots, seed=seed)
    for _ in range(1_000_000):
        due = d.next_due()
        if due is None or d.state.over:
            break
        d.advance(due)
    w = d.state.winner
    return ([w, 1 - w] if w is not None else []), len(d.log)


def match(game: str, a: str, b: str, games: int, seed: int, seats: int = 2, budget: int = 300,
          options: Any = None) -> dict[str, Any]:
    from engine.games import rules_for

    if options is None and game != "spit":
        options = rules_for(game).parse_options({})
    wins = 0.0
    lengths: list[int] = []
    times_a: list[float] = []
    times_b: list[float] = []
    for g in range(games):
        a_seat = g % seats
        levels = [a if i == a_seat else b for i in range(seats)]
        times: dict[int, list[float]] = {i: [] for i in range(seats)}
        gseed = derive_seed(seed, "arena", g)
        if game == "spit":
            places, n = play_spit(levels, gseed, times)
        else:
            places, n = play_turn_based(game, levels, gseed, budget, options, times)
        if not places:
            wins += 0.5
        elif places[0] == a_seat:
            wins += 1
        lengths.append(n)
        for i in range(seats):
            (times_a if i == a_seat else times_b).extend(times[i])
    lo, hi = wilson(wins, games)
    return {"game": game, "a": a, "b": b, "seats": seats, "games": games, "seed": seed,
            "win_rate_a": wins / games if games else 0.0, "ci95_a": [round(lo, 4), round(hi, 4)],
            "mean_length": sum(lengths) / len(lengths) if lengths else 0.0,
            "decision_ms": {"a": {"p50": percentile(times_a, 50), "p99": percentile(times_a, 99)},
                            "b": {"p50": percentile(times_b, 50), "p99": percentile(times_b, 99)}}}


def describe(r: dict[str, Any]) -> str:
    d = r["decision_ms"]
    return (f"{r['game']:5} {r['a']:>8} vs {r['b']:<8} seats={r['seats']} games={r['games']:4}  "
            f"A wins {100 * r['win_rate_a']:5.1f}% [{100 * r['ci95_a'][0]:5.1f}, {100 * r['ci95_a'][1]:5.1f}]  "
            f"len {r['mean_length']:7.1f}  ms p50/p99 A {d['a']['p50']:.1f}/{d['a']['p99']:.1f} "
            f"B {d['b']['p50']:.1f}/{d['b']['p99']:.1f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["lanes", "lopti", "spit"], default="lanes")
    ap.add_argument("--a", choices=LEVELS, default="expert")
    ap.add_argument("--b", choices=LEVELS, default="skilled")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seats", type=int, default=2, help="Lopti: 2–5 seats (A in one, B in the others)")
    ap.add_argument("--budget", type=int, default=300, help="search budget per decision, in ms")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--ladder", action="store_true", help="each level vs the next one down and vs random")
    args = ap.parse_args(argv)
    if args.game != "lopti" and args.seats != 2:
        ap.error("only Lopti has more than two seats")
    if not 2 <= args.seats <= 5:
        ap.error("seats must be 2 to 5")
    if args.ladder:
        order = ["expert", "skilled", "casual", "beginner"]
        results = []
        for i, lvl in enumerate(order):
            pairs = ([(lvl, order[i + 1])] if i + 1 < len(order) else []) + [(lvl, "random")]
            for a, b in pairs:
                r = match(args.game, a, b, args.games, args.seed, args.seats, args.budget)
                results.append(r)
                if not args.json:
                    print(describe(r), flush=True)
        if args.json:
            print(json.dumps(results))
        return 0
    r = match(args.game, args.a, args.b, args.games, args.seed, args.seats, args.budget)
    print(json.dumps(r) if args.json else describe(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
