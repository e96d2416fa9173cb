"""Lanes bots. Each level reads only the observation.

* ``beginner`` — readable rules of thumb (build toward 21–26, sell when you can, jack a selling
  lane of the opponent, discard what fits nowhere), and a quarter of its moves are random.
* ``casual`` — one-ply greedy: the move whose result scores best on the static evaluation
  (``lanes_eval.evaluate`` with the hand-written weights).
* ``skilled`` — look-ahead over three sampled worlds (opponent hand and deck orders drawn
  consistently with the observation): our move, the opponent's best-looking reply, our best
  follow-up; the best average wins.
* ``expert`` — the same look-ahead over as many sampled worlds and candidates as the budget buys,
  judged with the evaluation weights tuned by self-play (``lanes_eval.TUNED``). Work is counted in
  simulated actions.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.bots.lanes_eval import HAND_WRITTEN, TUNED, Weights, evaluate
from engine.cards import Rng, derive_seed
from engine.lanes import RULES
from engine.lanes.actions import Disband, Discard, LanesAction, Play
from engine.lanes.notation import LanesObservation, determinise
from engine.lanes.state import (
    SELL_MAX,
    SELL_MIN,
    LanesState,
    is_number,
    pair_sellers,
    values,
)

WORK_PER_MS = 12  # simulated actions per millisecond of budget (calibrated on the 2-core machine)


# --- policies ----------------------------------------------------------------------------------------

def _beginner(s: LanesState, legal: list[LanesAction], rng: Rng) -> LanesAction:
    if rng.below(4) == 0:
        return legal[rng.below(len(legal))]
    p = s.to_move
    mine = values(s, p)
    theirs = values(s, 1 - p)
    best: tuple[float, int] | None = None
    choice = legal[0]
    for k, a in enumerate(legal):
        score = 0.0
        if isinstance(a, Play) and is_number(a.card):
            v = mine[a.lane] + a.card.rank
            if SELL_MIN <= v <= SELL_MAX and v > theirs[a.lane] or SELL_MIN <= v <= SELL_MAX < theirs[a.lane]:
                score = 10.0  # this sells
            elif v <= SELL_MAX:
                score = 5.0 + (SELL_MIN - mine[a.lane]) / 10.0  # build the emptiest lane first
            else:
                score = -5.0
        elif isinstance(a, Play) and a.card.rank == 11 and a.owner == 1 - p:
            sellers = pair_sellers(s)
            score = 8.0 if sellers[a.lane] == 1 - p else -1.0
        elif isinstance(a, Play) and a.card.rank == 13 and a.owner == p:
            v = mine[a.lane] + s.sides[p].lanes[a.lane][a.stack or 0].card.rank
            score = 7.0 if SELL_MIN <= v <= SELL_MAX else -3.0
        elif isinstance(a, Discard):
            score = 1.0 if not is_number(a.card) else 0.5
        elif isinstance(a, Disband):
            score = 3.0 if mine[a.lane] > SELL_MAX else -6.0
        else:
            score = 0.0
        key = (score, -k)
        if best is None or key > best:
            best, choice = key, a
    return choice


def _greedy(s: LanesState, legal: list[LanesAction], rng: Rng, p: int,
            w: Weights = HAND_WRITTEN) -> tuple[LanesAction, float]:
    best_score = float("-inf")
    best: list[LanesAction] = []
    for a in legal:
        t, _ = RULES.apply(s, a)
        v = evaluate(t, p, w)
        if v > best_score + 1e-9:
            best_score, best = v, [a]
        elif abs(v - best_score) <= 1e-9:
            best.append(a)
    return best[rng.below(len(best))], best_score


def _ranked(s: LanesState, legal: list[LanesAction], p: int,
            w: Weights) -> list[tuple[float, int, LanesAction]]:
    scored = []
    for k, a in enumerate(legal):
        t, _ = RULES.apply(s, a)
        scored.append((evaluate(t, p, w), -k, a))
    scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
    return scored


def line_value(world: LanesState, a: LanesAction, p: int, w: Weights) -> float:
    """What move ``a`` is worth to ``p`` in one sampled world: the opponent answers with its own
    best-looking reply (as a person would), then ``p`` makes its best follow-up (a move that sets
    up a sale next turn counts); the end position is judged from ``p``'s side."""
    t, _ = RULES.apply(world, a)
    if t.over:
        return evaluate(t, p, w)
    opp = t.to_move
    reply = max(RULES.legal_actions(t), key=lambda r: evaluate(RULES.apply(t, r)[0], opp, w))
    u, _ = RULES.apply(t, reply)
    if u.over:
        return evaluate(u, p, w)
    return max(evaluate(RULES.apply(u, m)[0], p, w) for m in RULES.legal_actions(u))


def _two_ply(obs: LanesObservation, legal_seed: int, samples: int, top: int, w: Weights = HAND_WRITTEN,
             should_stop: Callable[[], bool] | None = None) -> LanesAction:
    """Look ahead over sampled worlds: our move, the opponent's best-looking reply, our best
    follow-up; the move with the best average wins."""
    rng = Rng(legal_seed)
    p = obs["player"]
    base = determinise(obs, Rng(rng.next_u64()))
    legal = RULES.legal_actions(base)
    ranked = _ranked(base, legal, p, w)[:top]
    worlds = [base] + [determinise(obs, Rng(rng.next_u64())) for _ in range(samples - 1)]
    best, best_v = ranked[0][2], float("-inf")
    for _, _, a in ranked:
        if should_stop is not None and should_stop():
            break
        total = sum(line_value(world, a, p, w) for world in worlds)
        if total / len(worlds) > best_v:
            best_v, best = total / len(worlds), a
    return best


def _expert(obs: LanesObservation, seed: int, budget_ms: int, should_stop: Callable[[], bool] | None) -> LanesAction:
    """The skilled look-ahead (our move, the opponent's best reply, our best follow-up) judged with
    the tuned evaluation, over more sampled worlds and candidate moves, as many as the budget buys
    (7 worlds at 300 ms). Nine candidates, not ten: the tuned weights keep more jacks and kings in
    hand, so positions have more legal moves and a world costs more."""
    top = 9
    per_world = 500  # simulated actions one sampled world costs, roughly
    samples = max(3, min(24, budget_ms * WORK_PER_MS // per_world))
    return _two_ply(obs, seed, samples=samples, top=top, w=TUNED, should_stop=should_stop)


def decide(obs: LanesObservation, level: str, seed: int, budget_ms: int,
           should_stop: Callable[[], bool] | None = None) -> LanesAction | None:
    if obs["over"] or obs["to_move"] != obs["player"]:
        return None
    seed = derive_seed(seed, "lanes-bot", obs["ply"])
    rng = Rng(seed)
    world = determinise(obs, Rng(rng.next_u64()))
    legal = RULES.legal_actions(world)
    if not legal:
        return None
    if level == "random":
        return legal[rng.below(len(legal))]
    if level == "beginner":
        return _beginner(world, legal, rng)
    if level == "casual":
        return _greedy(world, legal, rng, obs["player"])[0]
    if level == "skilled":
        return _two_ply(obs, rng.next_u64(), samples=3, top=8)
    return _expert(obs, rng.next_u64(), budget_ms, should_stop)
