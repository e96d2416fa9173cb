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
from engine.cards import derive_seed, one_way_seed


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
        action = decide(game, rules.observe(s, p), levels[p], one_way_seed(seed, "seat", p, n), budget)
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


def _one_game(game: str, levels: list[str], gseed: int, budget: int, options: Any,
              times: dict[int, list[float]]) -> tuple[list[int], int]:
    if game == "spit":
        return play_spit(levels, gseed, times)
    return play_turn_based(game, levels, gseed, budget, options, times)


def _score(places: list[int], seat: int) -> float:
    """1 for first place, 0 otherwise, ½ for a draw (no places)."""
    if not places:
        return 0.5
    return 1.0 if places[0] == seat else 0.0


def _chunk(args: tuple[str, str, str, int, int, int, int, Any, str | None, int, int]) -> dict[str, Any]:
    """Games ``start, start + step, …`` below ``games`` — one worker's share; also the whole run."""
    game, a, b, games, seed, seats, budget, options, baseline, start, step = args
    out: dict[str, Any] = {"wins": [], "base": [], "lengths": [], "times_a": [], "times_b": []}
    for g in range(start, games, step):
        a_seat = g % seats
        gseed = derive_seed(seed, "arena", g)
        times: dict[int, list[float]] = {i: [] for i in range(seats)}
        places, n = _one_game(game, [a if i == a_seat else b for i in range(seats)], gseed, budget, options, times)
        out["wins"].append(_score(places, a_seat))
        out["lengths"].append(n)
        for i in range(seats):
            out["times_a" if i == a_seat else "times_b"].extend(times[i])
        if baseline is not None:
            same = _one_game(game, [baseline if i == a_seat else b for i in range(seats)], gseed, budget, options,
                             {i: [] for i in range(seats)})[0]
            out["base"].append(_score(same, a_seat))
    return out


def _paired(wins: list[float], base: list[float]) -> dict[str, float]:
    """A's gain over the baseline on the same deals and seats, with a 95 % normal interval: deal
    luck cancels in the difference, so far fewer games tell the two apart."""
    n = len(wins)
    diffs = [w - b for w, b in zip(wins, base, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return {"rate": sum(base) / n, "gain": mean, "gain_ci95": half}


def match(game: str, a: str, b: str, games: int, seed: int, seats: int = 2, budget: int = 300,
          options: Any = None, baseline: str | None = None, jobs: int = 1) -> dict[str, Any]:
    """``games`` seeded games, A's seat rotated; with ``baseline`` the same games are played again
    with that level in A's seat (a paired comparison). ``jobs`` splits the games over processes —
    the same games and results, only faster."""
    from engine.games import rules_for

    if options is None and game != "spit":
        options = rules_for(game).parse_options({})
    shares = [(game, a, b, games, seed, seats, budget, options, baseline, k, jobs) for k in range(jobs)]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            parts = pool.map(_chunk, shares)
    else:
        parts = [_chunk(shares[0])]
    merged: dict[str, list[Any]] = {k: [] for k in parts[0]}
    for k in range(jobs):  # back into game order, so the figures do not depend on ``jobs``
        for key in merged:
            merged[key].append(parts[k][key])
    wins = [x for g in range(games) for x in [merged["wins"][g % jobs][g // jobs]]]
    lo, hi = wilson(sum(wins), games)
    times_a = [t for part in parts for t in part["times_a"]]
    times_b = [t for part in parts for t in part["times_b"]]
    lengths = [n for part in parts for n in part["lengths"]]
    r = {"game": game, "a": a, "b": b, "seats": seats, "games": games, "seed": seed,
         "win_rate_a": sum(wins) / games if games else 0.0, "ci95_a": [round(lo, 4), round(hi, 4)],
         "mean_length": sum(lengths) / len(lengths) if lengths else 0.0,
         "decision_ms": {"a": {"p50": percentile(times_a, 50), "p99": percentile(times_a, 99)},
                         "b": {"p50": percentile(times_b, 50), "p99": percentile(times_b, 99)}}}
    if baseline is not None and games:
        base = [merged["base"][g % jobs][g // jobs] for g in range(games)]
        r["baseline"] = {"level": baseline, **_paired(wins, base)}
    return r


def describe(r: dict[str, Any]) -> str:
    d = r["decision_ms"]
    return (f"{r['game']:5} {r['a']:>8} vs {r['b']:<8} seats={r['seats']} games={r['games']:4}  "
            f"A wins {100 * r['win_rate_a']:5.1f}% [{100 * r['ci95_a'][0]:5.1f}, {100 * r['ci95_a'][1]:5.1f}]  "
            f"len {r['mean_length']:7.1f}  ms p50/p99 A {d['a']['p50']:.1f}/{d['a']['p99']:.1f} "
            f"B {d['b']['p50']:.1f}/{d['b']['p99']:.1f}" + _describe_baseline(r))


def _describe_baseline(r: dict[str, Any]) -> str:
    b = r.get("baseline")
    if not b:
        return ""
    return (f"\n      same games with {b['level']} as A: {100 * b['rate']:5.1f}%  "
            f"paired gain {100 * b['gain']:+5.1f} ± {100 * b['gain_ci95']:.1f} points")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["lanes", "lopti", "spit"], default="lanes")
    ap.add_argument("--a", choices=LEVELS, default="expert")
    ap.add_argument("--b", choices=LEVELS, default="skilled")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seats", type=int, default=2, help="Lopti: 2–5 seats (A in one, B in the others)")
    ap.add_argument("--budget", type=int, default=300, help="search budget per decision, in ms")
    ap.add_argument("--baseline", choices=LEVELS, help="also play the same games with this level as A (paired)")
    ap.add_argument("--jobs", type=int, default=1, help="processes to split the games over (same results)")
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
    r = match(args.game, args.a, args.b, args.games, args.seed, args.seats, args.budget,
              baseline=args.baseline, jobs=max(1, args.jobs))
    print(json.dumps(r) if args.json else describe(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
