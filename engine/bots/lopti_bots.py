"""Lopti bots for 2–5 players. Each level reads only the observation.

* ``beginner`` — plays the lowest legal cards, keeps the deal, takes only when it must; a quarter
  of its moves are random.
* ``casual`` — the same plain play, plus a sensible swap (strong cards face up) — the hint level.
* ``skilled`` — the expert's search with a thirty-second of the budget (a handful of sampled worlds),
  every unseen card sampled uniformly.
* ``expert`` — flat Monte Carlo over sampled worlds with common random numbers: every candidate is
  played out in the *same* worlds (unseen hands, face-down cards and the draw pile drawn
  consistently with the observation) by the casual policy — the opponents' own — until the first
  player goes out, and scored 1 if that is us (P-7.4: that is all a deal rewards). The casual move
  stands unless a candidate beats it by more than one standard error of the paired difference. Each
  opponent's hand is drawn within what its recorded moves allow (``lopti_infer``). It follows
  whatever house rules are in the options, because it searches with the real engine.

Measured in docs/bots.md; the earlier expert (rollouts cut at 40 actions, scored by places and
cards left, a different default policy) was no better than chance at four seats.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.bots import lopti_infer
from engine.cards import Rng, derive_seed
from engine.lopti import RULES
from engine.lopti.actions import Keep, LoptiAction, Swap
from engine.lopti.dryrun import swap_strength
from engine.lopti.notation import LoptiObservation, dealer, determinise
from engine.lopti.state import PLAY, LoptiState

#: simulated actions per millisecond of budget, calibrated on the 2-core machine with two arenas'
#: worth of processes: at 3–5 seats many decisions end early (their worlds run out), and the
#: median decision is 85–275 ms of a 300 ms budget (docs/bots.md)
WORK_PER_MS = 65
#: at two seats nearly every decision spends its whole budget, so the rate is lower: the median
#: is 222–230 ms
WORK_PER_MS_TWO_SEATS = 50
WORLD_COST = 12  # sampling one world costs about as much as this many actions
ROLLOUT_CAP = 400  # a safety net only: house rules may make a deal long (the engine caps it too)
MAX_WORLDS = 400
SKILLED_SHARE = 32  # the skilled level searches with budget_ms / 32


def _swap_choice(s: LoptiState, legal: list[LoptiAction]) -> LoptiAction:
    params = s.options.params
    best: LoptiAction = Keep()
    gain = 0
    for a in legal:
        if isinstance(a, Swap) and a.hand_card and a.up_card:
            g = swap_strength(a.hand_card.rank, params) - swap_strength(a.up_card.rank, params)
            if g > gain:
                best, gain = a, g
    return best


def _plain(s: LoptiState, legal: list[LoptiAction]) -> LoptiAction:
    from engine.lopti.dryrun import simple_policy

    return simple_policy(s) if s.phase == PLAY else Keep()


def rollout(t: LoptiState, p: int, budget: int) -> tuple[float, int]:
    """Play ``t`` out with the casual policy — the opponents' own — until the first player goes out,
    which is all a deal rewards (P-7.4). Returns (1 if ``p`` went out first else 0, actions used)."""
    steps = 0
    while not t.places and not t.over and steps < budget:
        t, _ = RULES.apply(t, _plain(t, []) if t.phase == PLAY else Keep())
        steps += 1
    return (1.0 if t.places and t.places[0] == p else 0.0), steps


def _candidates(legal: list[LoptiAction]) -> list[LoptiAction]:
    seen: dict[str, LoptiAction] = {}
    for a in legal:
        seen.setdefault(str(RULES.action_to_json(a)), a)
    return list(seen.values())


def _paired_best(rows: list[list[float]], base: int) -> int:
    """The candidate whose mean beats the default (``base``) by more than one standard error of the
    paired difference (the same worlds), else the default: a search this noisy must not trade a
    sound plain move for luck."""
    n = len(rows)
    best, best_gain = base, 0.0
    for k in range(len(rows[0])):
        if k == base:
            continue
        diffs = [r[k] - r[base] for r in rows]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        if mean > best_gain and mean > math.sqrt(var / n):
            best, best_gain = k, mean
    return best


def work_for(obs: LoptiObservation, budget_ms: int) -> int:
    """The simulated actions a decision of ``budget_ms`` may spend (the rates above)."""
    return budget_ms * (WORK_PER_MS_TWO_SEATS if len(obs["players"]) == 2 else WORK_PER_MS)


def _search(obs: LoptiObservation, seed: int, budget_ms: int, should_stop: Callable[[], bool] | None,
            deal: Callable[[Rng], LoptiState] | None = None) -> LoptiAction:
    """Flat Monte Carlo over sampled worlds with common random numbers: every candidate is played
    out in the *same* worlds by the casual policy until the first player goes out, so candidates
    are compared on equal luck. The casual choice stands unless a candidate beats it (see
    ``_paired_best``). Work is counted in simulated actions, so a seed gives one decision anywhere.
    ``deal`` deals the worlds (``notation.dealer``, every unseen card uniformly, by default)."""
    rng = Rng(seed)
    p = obs["player"]
    sample = deal or dealer(obs)
    world = sample(Rng(rng.next_u64()))
    legal = RULES.legal_actions(world)
    if len(legal) == 1:
        return legal[0]
    if world.phase != PLAY:
        return _swap_choice(world, legal)
    candidates = _candidates(legal)
    prior = _plain(world, legal)
    base = next((k for k, a in enumerate(candidates) if a == prior), 0)
    rows: list[list[float]] = []
    work = work_for(obs, budget_ms)
    while work > 0 and len(rows) < MAX_WORLDS:
        if should_stop is not None and should_stop():
            break
        w = sample(Rng(rng.next_u64()))
        row = []
        for a in candidates:
            score, steps = rollout(RULES.apply(w, a)[0], p, ROLLOUT_CAP)
            work -= steps + 1
            row.append(score)
        work -= WORLD_COST
        rows.append(row)
    if len(rows) < 2:
        return prior
    return candidates[_paired_best(rows, base)]


def _expert(obs: LoptiObservation, seed: int, budget_ms: int, should_stop: Callable[[], bool] | None) -> LoptiAction:
    """The search over worlds in which each opponent's hand fits its past choices (lopti_infer)."""
    return _search(obs, seed, budget_ms, should_stop, lopti_infer.sampler(obs))


def decide(obs: LoptiObservation, level: str, seed: int, budget_ms: int,
           should_stop: Callable[[], bool] | None = None) -> LoptiAction | None:
    if obs["phase"] == "over" or obs["to_move"] != obs["player"]:
        return None
    rng = Rng(derive_seed(seed, "lopti-bot", obs["ply"]))
    world = determinise(obs, Rng(rng.next_u64()))
    legal = RULES.legal_actions(world)
    if not legal:
        return None
    if level == "random":
        return legal[rng.below(len(legal))]
    if level == "beginner":
        if rng.below(4) == 0:
            return legal[rng.below(len(legal))]
        return _plain(world, legal)
    if level == "casual":
        return _swap_choice(world, legal) if world.phase != PLAY else _plain(world, legal)
    if level == "skilled":
        # a light search: the same paired-worlds Monte Carlo as the expert with a thirty-second of
        # the budget (a handful of sampled worlds) — measured stronger than any hand-tuned heuristic,
        # and below the expert at every table size (docs/bots.md)
        return _search(obs, rng.next_u64(), max(1, budget_ms // SKILLED_SHARE), should_stop)
    return _expert(obs, rng.next_u64(), budget_ms, should_stop)
