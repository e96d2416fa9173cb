"""A game review by the expert: for each of a player's decisions, its chance of winning before the
move, after the move that was made and after the expert's own best move.

Every estimate is made from ``observe(state, seat)`` at that moment — worlds sampled with the
game's ``determinise`` (Lopti: within what the opponents' moves so far allow, as the expert
samples them, ``lopti_infer``), never the hidden cards — so the review says what the player
*could* have known. The chances come from the expert's own judgement:

* **Lopti** (any number of seats): the chance of going out first (P-7.4), estimated by playing each
  sampled world out with the casual policy, the same rollouts the expert searches with. The same
  worlds serve every estimate of one decision (common random numbers), so "after the move made"
  and "after the best move" differ by the moves, not by luck.
* **Lanes**: the expert's look-ahead value of the move in each sampled world (the opponent's reply,
  our follow-up, the tuned evaluation) turned into a chance by a logistic curve fitted to
  self-play results (``LANES_SCALE``, ``LANES_SHIFT``; ``python tests/calibrate_review.py`` refits
  them). "Before" is the chance after the expert's move: a static evaluation of the position
  with the player still to move is not on the same footing as a look-ahead (it read ~10 points
  high in the opening), and the position is worth what its best move makes of it.

A move is *marked* when it lost at least ``MARK`` (15 points) against the expert's move. Forced
moves (one legal action) are not decisions and are skipped, and so are resignations. Work is
counted in simulated actions and every sample is seeded from the record, so a review is the same
on every machine; it can be cancelled (``should_stop``) and reports its progress.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from engine.bots import decide
from engine.cards import Rng, one_way_seed
from engine.core import GameRecord
from engine.games import rules_for

MARK = 0.15
#: the logistic curve from the tuned evaluation to a chance of winning, fitted to 11,533 positions of
#: 300 self-play games (``python tests/calibrate_review.py --games 300 --seed 1``): evaluation
#: points per unit of log-odds, and the tempo of the player to move in evaluation points
LANES_SCALE = 20.0
LANES_SHIFT = 5.0
LANES_WORLDS = 24
LOPTI_WORLDS = 96
VERSION = 1
GAMES = ("lanes", "lopti")


@dataclass(frozen=True)
class MoveReview:
    """One decision of the reviewed seat; chances are in [0, 1]."""

    ply: int  # the action's index in the record
    played: Any  # the action made (its JSON form)
    best: Any  # the expert's move (its JSON form)
    before: float
    after_played: float
    after_best: float

    @property
    def loss(self) -> float:
        """How much the move made gave away against the expert's move (never below zero)."""
        return max(0.0, self.after_best - self.after_played)

    @property
    def marked(self) -> bool:
        return self.loss >= MARK

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(d: dict[str, Any]) -> MoveReview:
        return MoveReview(int(d["ply"]), d["played"], d["best"], float(d["before"]), float(d["after_played"]),
                          float(d["after_best"]))


@dataclass(frozen=True)
class GameReview:
    game: str
    seat: int
    moves: tuple[MoveReview, ...]

    def at(self, ply: int) -> MoveReview | None:
        """The review of the action at ``ply`` if it was one of the seat's decisions."""
        return next((m for m in self.moves if m.ply == ply), None)

    @property
    def marked(self) -> list[MoveReview]:
        return [m for m in self.moves if m.marked]

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, "game": self.game, "seat": self.seat, "moves": [m.to_json() for m in self.moves]}

    @staticmethod
    def from_json(d: dict[str, Any]) -> GameReview:
        if d.get("version") != VERSION:
            raise ValueError("a review from another version of the app")
        return GameReview(str(d["game"]), int(d["seat"]), tuple(MoveReview.from_json(m) for m in d["moves"]))


def reviewable(game: str) -> bool:
    return game in GAMES


def review_game(record: GameRecord[Any], seat: int, budget_ms: int = 300,
                should_stop: Callable[[], bool] | None = None,
                progress: Callable[[int, int], None] | None = None) -> GameReview | None:
    """Review every decision ``seat`` made in ``record``; None if cancelled. ``progress(done, of)``
    is called after each decision."""
    if not reviewable(record.game):
        raise ValueError(f"no review for {record.game}")
    rules = rules_for(record.game)
    state = rules.new_game(rules.parse_options(record.options), record.seed, record.players)
    todo: list[tuple[int, Any, Any]] = []
    for ply, raw in enumerate(record.actions):
        action = rules.parse_action(raw, state)
        if rules.to_move(state) == seat and _is_move(action) and len(rules.legal_actions(state)) > 1:
            todo.append((ply, state, action))
        state, _ = rules.apply(state, action)
    moves: list[MoveReview] = []
    for k, (ply, before, action) in enumerate(todo):
        if should_stop is not None and should_stop():
            return None
        seed = one_way_seed(record.seed, "review", ply)  # says nothing of the deal
        moves.append(review_move(record.game, before, seat, action, seed, budget_ms, ply))
        if progress is not None:
            progress(k + 1, len(todo))
    return GameReview(record.game, seat, tuple(moves))


def _is_move(action: Any) -> bool:
    """A resignation, a lost clock or an absence ends a game but is not a move to judge; nor is a
    Lopti rule deleted by its author (P-9.4: a table decision, made on anyone's turn)."""
    from engine.lanes.actions import EXTERNAL, Resign
    from engine.lopti.actions import DeleteRule

    return not isinstance(action, (Resign, *EXTERNAL, DeleteRule))


def review_move(game: str, state: Any, seat: int, played: Any, seed: int, budget_ms: int = 300,
                ply: int = 0) -> MoveReview:
    """The review of one decision: ``seat`` to move in ``state`` made ``played``."""
    rules = rules_for(game)
    obs = rules.observe(state, seat)
    best = decide(game, obs, "expert", seed, budget_ms)
    same = rules.action_to_json(best) == rules.action_to_json(played)
    chances = _lanes_chances if game == "lanes" else _lopti_chances
    before, after = chances(obs, [played] if same else [played, best], Rng(seed))
    return MoveReview(ply, rules.action_to_json(played), rules.action_to_json(best), round(before, 4),
                      round(after[0], 4), round(after[-1], 4))


def _chance(v: float) -> float:
    """The chance of winning for the side valued at ``v`` with the other side to move (which has
    the tempo, hence the shift)."""
    x = (v - LANES_SHIFT) / LANES_SCALE
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def _lanes_chances(obs: Any, actions: list[Any], rng: Rng) -> tuple[float, list[float]]:
    from engine.bots.lanes_bots import line_value
    from engine.bots.lanes_eval import TUNED
    from engine.lanes.notation import determinise

    p = obs["player"]
    worlds = [determinise(obs, Rng(rng.next_u64())) for _ in range(LANES_WORLDS)]
    after = [sum(_chance(line_value(w, a, p, TUNED)) for w in worlds) / len(worlds) for a in actions]
    return after[-1], after


def _lopti_chances(obs: Any, actions: list[Any], rng: Rng) -> tuple[float, list[float]]:
    from engine.bots.lopti_bots import ROLLOUT_CAP, rollout
    from engine.bots.lopti_infer import sampler
    from engine.lopti import RULES

    p = obs["player"]
    sample = sampler(obs)  # the expert's worlds: each opponent's hand fits its moves so far
    worlds = [sample(Rng(rng.next_u64())) for _ in range(LOPTI_WORLDS)]
    before = sum(rollout(w, p, ROLLOUT_CAP)[0] for w in worlds) / len(worlds)
    after = [sum(rollout(RULES.apply(w, a)[0], p, ROLLOUT_CAP)[0] for w in worlds) / len(worlds) for a in actions]
    return before, after
