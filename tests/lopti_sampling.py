"""How the Lopti expert's worlds are dealt (a script, not a test; docs/bots.md has its figures).

    python tests/lopti_sampling.py [--deals 20] [--worlds 50] [--seed 5]

Whole casual deals (the plain player with its setup swap, as the limits model it) at three, four
and five seats, on deals the arena and the tuning never used (``derive_seed(seed, "sampling",
seats, deal)``). At each play decision the seat to move builds the expert's sampler
(engine/bots/lopti_infer.py) from its observation and deals ``--worlds`` worlds. Prints, per table
size, how many of those worlds were dealt exactly uniformly among the deals that meet the
opponents' limits, how many approximately (no try went through in ``TRIES``), how many with a limit
dropped (nothing allowed was left), and the time a world takes as a ratio to a world dealt with
every unseen card uniform (``notation.dealer``), both timed in the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import lopti_infer
from engine.cards import Rng, derive_seed
from engine.lopti import RULES
from engine.lopti.state import PLAY
from tests.lopti_bounds import casual


def measure(seats: int, deals: int, worlds: int, seed: int) -> tuple[int, int, int, int, float]:
    """(decisions with limits, worlds, approximate worlds, dropped worlds, time ratio) at ``seats``."""
    decisions = dealt = approximate = dropped = 0
    within = plain = 0.0
    for d in range(deals):
        s = RULES.new_game(RULES.parse_options({}), derive_seed(seed, "sampling", seats, d), seats)
        while not s.over and not s.places:
            if s.phase == PLAY:
                sample = lopti_infer.sampler(RULES.observe(s, s.to_move))
                if sample.found:
                    decisions += 1
                    rngs = [derive_seed(seed, "world", s.ply, k) for k in range(worlds)]
                    start = time.perf_counter()
                    for r in rngs:
                        sample(Rng(r))
                    middle = time.perf_counter()
                    for r in rngs:
                        sample.deal(Rng(r))
                    within, plain = within + middle - start, plain + time.perf_counter() - middle
                    dealt += sample.worlds
                    approximate, dropped = approximate + sample.approximate, dropped + sample.dropped
            s, _ = RULES.apply(s, casual(s))
    return decisions, dealt, approximate, dropped, within / max(plain, 1e-9)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=50)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    print(f"{'seats':>5} {'decisions':>9} {'worlds':>7} {'exact':>7} {'approximate':>11} {'dropped':>8} "
          f"{'time vs uniform':>15}")
    for seats in (3, 4, 5):
        decisions, dealt, approximate, dropped, ratio = measure(seats, args.deals, args.worlds, args.seed)
        share = 100 / max(1, dealt)
        print(f"{seats:>5} {decisions:>9} {dealt:>7} {(dealt - approximate) * share:>6.1f}% "
              f"{approximate * share:>10.1f}% {dropped * share:>7.1f}% {ratio:>14.1f}×")


if __name__ == "__main__":
    main()
