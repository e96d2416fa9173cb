"""What more information would be worth to the Lopti expert (a script, not a test).

    python tests/lopti_bounds.py --mode MODE [--seats 5] [--games 200] [--start 0] [--jobs 2]

Seat A (rotated deal by deal, as in the arena) plays MODE; every other seat plays casual. The deals
are the arena's (``--seed 3``). Prints A's first-out rate (P-7.4) with a Wilson 95 % interval.

* ``casual``  — the casual bot (the baseline).
* ``honest``  — the expert's search from ``observe`` (what the level does).
* ``infer``   — the same search, with the unseen hand cards of each opponent sampled only among
  hands the casual policy could have held: every play it made since it last drew an unseen card
  rules out the plays it prefers to the one it made, and a take rules out every legal play.
  Derived from public play only, and valid because the opponents *are* casual (a check over 300
  deals finds no true hand outside these limits).
* ``hands``   — **cheating, for measurement only**: the search sees the opponents' hands (the
  face-down cards and the draw pile are still sampled).
* ``perfect`` — **cheating**: each candidate played out once in the true state (nothing sampled).

The two cheating modes bound what inference on opponents' hands could ever give.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import lopti_bots
from engine.bots.arena import wilson
from engine.cards import Card, Rng, derive_seed
from engine.lopti import RULES
from engine.lopti.actions import Flip, LoptiAction, Play
from engine.lopti.dryrun import simple_policy
from engine.lopti.notation import LoptiObservation, determinise
from engine.lopti.rules import apply, on_face_down, play_refusal
from engine.lopti.state import PLAY, LoptiState, order

Limits = dict[int, dict[int, int]]  # seat → rank → most unseen cards of that rank it can hold


def casual(s: LoptiState) -> LoptiAction:
    return lopti_bots._swap_choice(s, RULES.legal_actions(s)) if s.phase != PLAY else simple_policy(s)


def ruled_out(s: LoptiState, act: LoptiAction, known: list[Card]) -> dict[int, int]:
    """The most unseen cards of each rank the mover can hold, given that casual chose ``act``:
    casual tries its plays in a fixed order and makes the first legal one, so every legal play it
    prefers to ``act`` (all of them, for a take) was one it could not make."""
    low = s.options.params.low_rank
    seen = Counter(c.rank for c in known)
    plays = sorted(((r, n) for r in range(1, 14) for n in range(1, 5)),
                   key=lambda p: (p[0] in (2, 3, 10) or p[0] == low, order(p[0]) * 10 - p[1]))
    most: dict[int, int] = {}
    for rank, n in plays:
        if isinstance(act, Play) and (rank, n) == (act.rank, act.count):
            break
        if play_refusal(s, rank, n) is None:
            most[rank] = min(most.get(rank, 9), max(0, n - 1 - seen[rank]))
    return most


def track(limits: Limits, before: LoptiState, act: LoptiAction, after: LoptiState) -> None:
    """Update ``limits`` for the seat that chose ``act`` in ``before`` (giving ``after``)."""
    q = before.to_move
    if before.phase == PLAY and not on_face_down(before.seats[q]) and not isinstance(act, Flip):
        mine = limits.setdefault(q, {})
        for rank, most in ruled_out(before, act, before.seats[q].known).items():
            mine[rank] = min(mine.get(rank, 9), most)
    if len(after.draw) < len(before.draw):
        limits.pop(q, None)  # an unseen card joined the hand: what was ruled out no longer holds


def sampler(limits: Limits) -> Callable[[LoptiObservation, Rng], LoptiState]:
    """``determinise`` whose opponents' unseen hand cards keep within ``limits``."""
    def sample(obs: LoptiObservation, rng: Rng) -> LoptiState:
        w = determinise(obs, rng)
        me = obs["player"]
        if not any(limits.get(i) for i in range(len(w.seats)) if i != me):
            return w  # nothing ruled out yet: the plain sample
        pool: list[Card] = []
        for i, seat in enumerate(w.seats):
            if i != me:
                unseen = list(seat.hand)
                for c in seat.known:
                    unseen.remove(c)
                pool += unseen
            pool += seat.down
        pool += w.draw
        rng.shuffle(pool)
        for i, seat in enumerate(w.seats):
            if i == me:
                continue
            k, most = len(seat.hand) - len(seat.known), limits.get(i, {})
            got: list[Card] = []
            rest: list[Card] = []
            held: Counter[int] = Counter()
            for c in pool:
                if len(got) < k and held[c.rank] < most.get(c.rank, 9):
                    got.append(c)
                    held[c.rank] += 1
                else:
                    rest.append(c)
            if len(got) < k:  # not a casual player after all: no limits
                got, rest = got + rest[: k - len(got)], rest[k - len(got):]
            seat.hand, pool = list(seat.known) + got, rest
        for seat in w.seats:
            seat.down, pool = pool[: len(seat.down)], pool[len(seat.down):]
        w.draw = pool
        return w
    return sample


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


def choose(mode: str, s: LoptiState, p: int, seed: int, limits: Limits) -> LoptiAction:
    obs = RULES.observe(s, p)
    if mode == "casual":
        return casual(s)
    if mode == "perfect":
        return perfect(s, p) if len(RULES.legal_actions(s)) > 1 else RULES.legal_actions(s)[0]
    if mode == "hands":
        players = [dict(v, known_in_hand=[str(c) for c in s.seats[i].hand]) if i != p else v
                   for i, v in enumerate(obs["players"])]
        obs = {**obs, "players": players}  # type: ignore[typeddict-item]
    sample = sampler(limits) if mode == "infer" else determinise
    return lopti_bots._search(obs, seed, 300, None, sample)


def deal(args: tuple[str, int, int]) -> float:
    mode, seats, g = args
    a, gseed = g % seats, derive_seed(3, "arena", g)
    s = RULES.new_game(RULES.parse_options({}), gseed, seats)
    limits: Limits = {}
    k = 0
    while not s.over and not s.places:
        q = s.to_move
        act = choose(mode, s, a, derive_seed(gseed, "seat", q, k), limits) if q == a and s.phase == PLAY else casual(s)
        after, _ = RULES.apply(s, act)
        if q != a:
            track(limits, s, act, after)
        s = after
        k += 1
    return 1.0 if s.places and s.places[0] == a else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["casual", "honest", "infer", "hands", "perfect"], required=True)
    ap.add_argument("--seats", type=int, default=5)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    t0 = time.perf_counter()
    jobs: list[tuple[str, int, int]] = [(args.mode, args.seats, g) for g in range(args.start, args.start + args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        wins: list[Any] = list(pool.map(deal, jobs, chunksize=4))
    lo, hi = wilson(sum(wins), len(wins))
    print(f"{args.mode:8} seats={args.seats} deals {args.start}..{args.start + args.games - 1}: first out "
          f"{100 * sum(wins) / len(wins):.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]  ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
