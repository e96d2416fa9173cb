"""Undo against the learning bots (Beginner and Casual), for the stored-game mode (views/table/modes.py).

A saved game is its seed and its actions, and bots decide from (observation, seed = move number),
so undoing is exact: drop the player's last action and everything after it from storage
(``storage.api.truncate_actions``, one transaction) and replay the rest. Never online, never in
pass-and-play (the other person's move is not yours to take back), never after the game ended."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from engine.core import Rules

S = TypeVar("S")
A = TypeVar("A")
O = TypeVar("O", bound=Mapping[str, object])
UNDO_LEVELS = ("beginner", "casual")


def undo_point(rules: Rules[S, A, O], state0: S, actions: Sequence[object], seat: int,
               seats: int) -> int | None:
    """The index of ``seat``'s last action in ``actions`` (None if it has not moved, or if an
    action taken out of turn came after it: a Lopti rule deleted by its author stays deleted,
    P-9.4, P-9.7, so nothing before it is taken back)."""
    state, last = state0, None
    for i, raw in enumerate(actions):
        action = rules.parse_action(raw, state)
        if out_of_turn(rules, state, action, seats):
            last = None
        elif rules.to_move(state) == seat:
            last = i
        state, _ = rules.apply(state, action)
    return last


def out_of_turn(rules: Rules[S, A, O], state: S, action: A, seats: int) -> bool:
    """An action a player may take on anyone's turn (Lopti: deleting a rule they wrote, P-9.4):
    the engine lists it to that player by name, never in the turn's list."""
    if action in rules.legal_actions(state):
        return False
    return any(action in rules.legal_actions(state, p) for p in range(seats))
