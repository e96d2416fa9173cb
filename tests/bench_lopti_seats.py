"""Experiment (a script, not a test): how much can *any* Lopti player gain at a four-seat table?

    python tests/bench_lopti_seats.py --who hands --deals 80 --seed 4 [--worlds 8] [--seats 4]

Seat A is played by one of the players below, the other seats by the casual bot; it prints how
often A goes out first (chance is 1/seats) with a Wilson 95 % interval. The players differ only in
what they are *allowed to know*; all choose the same way — each candidate action is played out to
the end of the deal by plain players in sampled worlds, and the best average place wins:

* ``casual``  — the casual bot itself (the baseline);
* ``honest``  — worlds sampled from A's observation only (what a real bot may know);
* ``hands``   — an oracle that sees every opponent's hand; only the draw pile and the face-down
  cards (everyone's, A's own included) are sampled — an upper bound for any opponent modelling;
* ``full``    — an oracle that also knows the draw order and the face-down cards (one world).

Measured on the 2-core machine, see docs/bots.md ("Four seats").
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import decide
from engine.bots import lopti_bots as lb
from engine.bots.arena import wilson
from engine.cards import Rng, derive_seed
from engine.lopti import RULES
from engine.lopti.actions import LoptiAction
from engine.lopti.state import PLAY, LoptiState


def _hands_world(state: LoptiState, obs: dict[str, Any], rng: Rng) -> LoptiState:
    w = state.clone()
    pool = list(w.draw)
    for s in w.seats:
        pool += s.down
    rng.shuffle(pool)
    w.draw, pool = pool[:len(w.draw)], pool[len(w.draw):]
    for s in w.seats:
        n = len(s.down)
        s.down, pool = pool[:n], pool[n:]
    return w


WORLDS = {
    "honest": lambda state, obs, rng: lb.determinise(obs, rng),
    "hands": _hands_world,
    "full": lambda state, obs, rng: state.clone(),
}


def choose(who: str, state: LoptiState, p: int, rng: Rng, worlds: int) -> LoptiAction:
    legal = RULES.legal_actions(state)
    if len(legal) == 1 or state.phase != PLAY:
        return legal[0] if len(legal) == 1 else lb._swap_choice(state, legal)
    obs = RULES.observe(state, p)
    seen: dict[str, LoptiAction] = {}
    for a in legal:
        seen.setdefault(str(RULES.action_to_json(a)), a)
    candidates = list(seen.values())
    prior = lb.skilled_policy(state, legal)
    totals = [0.0] * len(candidates)
    for _ in range(1 if who == "full" else worlds):
        w = WORLDS[who](state, obs, rng)
        for k, a in enumerate(candidates):
            t, _ = lb._rollout(RULES.apply(w, a)[0], p, 400)  # to the end of the deal
            totals[k] += lb._score(t, p)
    base = totals[candidates.index(prior)] if prior in candidates else max(totals)
    best = max(range(len(candidates)), key=lambda k: (totals[k], -k))
    return candidates[best] if totals[best] > base + 1e-9 else prior


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--who", choices=["casual", "honest", "hands", "full"], default="hands")
    ap.add_argument("--deals", type=int, default=80)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--worlds", type=int, default=8)
    ap.add_argument("--seats", type=int, default=4)
    args = ap.parse_args()
    wins = 0
    t0 = time.time()
    for g in range(args.deals):
        a = g % args.seats
        s = RULES.new_game(RULES.parse_options({}), derive_seed(args.seed, "arena", g), args.seats)
        rng = Rng(derive_seed(args.seed, "oracle", g))
        n = 0
        while not RULES.is_over(s):
            p = RULES.to_move(s)
            if p == a and args.who != "casual":
                action = choose(args.who, s, p, rng, args.worlds)
            else:
                action = decide("lopti", RULES.observe(s, p), "casual", derive_seed(args.seed, "seat", p, n), 300)
            s, _ = RULES.apply(s, action)
            n += 1
        wins += RULES.result(s).places[0] == a
    lo, hi = wilson(wins, args.deals)
    print(f"{args.who:6} seats={args.seats} deals={args.deals} seed={args.seed} worlds={args.worlds}: "
          f"first out {100 * wins / args.deals:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]  ({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
