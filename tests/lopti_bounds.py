"""What more information would be worth to the Lopti expert (a script, not a test).

    python tests/lopti_bounds.py --mode MODE [--seats 5] [--games 200] [--start 0] [--jobs 2] [--seed 3]

Seat A (rotated deal by deal, as in the arena) plays MODE; every other seat plays casual. The deals
are the arena's (``--seed 3``; ``--seed 31``: the held-out deals). Prints A's first-out rate (P-7.4)
with a Wilson 95 % interval.

* ``casual``  — the casual bot (the baseline).
* ``honest``  — the expert's search from ``observe`` with every unseen card sampled uniformly
  (``determinise``: the expert before it read its opponents' moves).
* ``infer``   — the expert as it is: the same search, with each opponent's unseen hand cards
  sampled within the limits its recorded moves put on them (engine/bots/lopti_infer.py).
* ``hands``   — **cheating, for measurement only**: the search sees the opponents' hands (the
  face-down cards and the draw pile are still sampled).
* ``perfect`` — **cheating**: each candidate played out once in the true state (nothing sampled).
* ``halving`` — ``infer`` with the budget moved to the promising candidates, as an information-set
  search at the root would: every ``HALVING_ROUND`` worlds the worse half of the candidates (the
  casual move always kept) stop being played out, and the cap counts rollouts, not worlds, so the
  survivors get the worlds the others leave. Tried, not kept (docs/bots.md).

The two cheating modes bound what inference on opponents' hands could ever give.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import lopti_bots, lopti_infer
from engine.bots.arena import wilson
from engine.cards import Rng, derive_seed
from engine.lopti import RULES
from engine.lopti.actions import LoptiAction
from engine.lopti.dryrun import simple_policy
from engine.lopti.notation import LoptiObservation
from engine.lopti.rules import apply
from engine.lopti.state import PLAY, LoptiState


def casual(s: LoptiState) -> LoptiAction:
    return lopti_bots._swap_choice(s, RULES.legal_actions(s)) if s.phase != PLAY else simple_policy(s)


def perfect(s: LoptiState, p: int) -> LoptiAction:
    def value(a: LoptiAction) -> float:
        return lopti_bots.rollout(apply(s, a)[0], p, lopti_bots.ROLLOUT_CAP)[0]
    prior = simple_policy(s)
    best, top = prior, value(prior)
    for a in lopti_bots._candidates(RULES.legal_actions(s)):
        v = value(a)
        if v > top:
            best, top = a, v
    return best


HALVING_ROUND = 32  # worlds between two halvings of the candidates


def halving(obs: LoptiObservation, seed: int, budget_ms: int) -> LoptiAction:
    """``lopti_bots._search`` over the expert's worlds, with successive halving of the candidates."""
    rng, p, sample = Rng(seed), obs["player"], lopti_infer.sampler(obs)
    world = sample(Rng(rng.next_u64()))
    legal = RULES.legal_actions(world)
    if len(legal) == 1:
        return legal[0]
    candidates = lopti_bots._candidates(legal)
    prior = simple_policy(world)
    base = next((k for k, a in enumerate(candidates) if a == prior), 0)
    scores: list[list[float]] = [[] for _ in candidates]
    active = list(range(len(candidates)))
    work, plays, worlds = lopti_bots.work_for(obs, budget_ms), lopti_bots.MAX_WORLDS * len(candidates), 0
    while work > 0 and plays > 0:
        w = sample(Rng(rng.next_u64()))
        for k in active:
            score, steps = lopti_bots.rollout(RULES.apply(w, candidates[k])[0], p, lopti_bots.ROLLOUT_CAP)
            work, plays = work - steps - 1, plays - 1
            scores[k].append(score)
        work, worlds = work - lopti_bots.WORLD_COST, worlds + 1
        if worlds % HALVING_ROUND == 0 and len(active) > 2:
            others = sorted((k for k in active if k != base), key=lambda k: -sum(scores[k]))
            active = sorted([base, *others[:max(1, len(others) // 2)]])
    if worlds < 2:
        return prior
    rows = [[scores[k][i] for k in active] for i in range(worlds)]
    return candidates[active[lopti_bots._paired_best(rows, active.index(base))]]


def choose(mode: str, s: LoptiState, p: int, seed: int) -> LoptiAction:
    obs = RULES.observe(s, p)
    if mode == "casual":
        return casual(s)
    if mode == "perfect":
        return perfect(s, p) if len(RULES.legal_actions(s)) > 1 else RULES.legal_actions(s)[0]
    if mode == "hands":
        players = [dict(v, known_in_hand=[str(c) for c in s.seats[i].hand]) if i != p else v
                   for i, v in enumerate(obs["players"])]
        obs = {**obs, "players": players}  # type: ignore[typeddict-item]
    if mode == "halving":
        return halving(obs, seed, 300)
    return lopti_bots._search(obs, seed, 300, None, lopti_infer.sampler(obs) if mode == "infer" else None)


def deal(args: tuple[str, int, int, int]) -> float:
    mode, seats, g, seed = args
    a, gseed = g % seats, derive_seed(seed, "arena", g)
    s = RULES.new_game(RULES.parse_options({}), gseed, seats)
    k = 0
    while not s.over and not s.places:
        q = s.to_move
        act = choose(mode, s, a, derive_seed(gseed, "seat", q, k)) if q == a and s.phase == PLAY else casual(s)
        s, _ = RULES.apply(s, act)
        k += 1
    return 1.0 if s.places and s.places[0] == a else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["casual", "honest", "infer", "hands", "perfect", "halving"], required=True)
    ap.add_argument("--seats", type=int, default=5)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=3, help="the arena's deals of this seed (31: held out)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    deals = range(args.start, args.start + args.games)
    jobs: list[tuple[str, int, int, int]] = [(args.mode, args.seats, g, args.seed) for g in deals]
    with ProcessPoolExecutor(args.jobs) as pool:
        wins: list[Any] = list(pool.map(deal, jobs, chunksize=4))
    lo, hi = wilson(sum(wins), len(wins))
    print(f"{args.mode:8} seats={args.seats} deals {args.start}..{args.start + args.games - 1}: first out "
          f"{100 * sum(wins) / len(wins):.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]  ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
