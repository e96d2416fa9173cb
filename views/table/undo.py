"""Undo against the learning bots (Beginner and Casual), shared by the turn-based controllers.

A saved game is its seed and its actions, and bots decide from (observation, seed = move number),
so undoing is exact: drop the player's last action and everything after it from storage
(``storage.api.truncate_actions``, one transaction) and replay the rest. Never online, never in
pass-and-play (the other person's move is not yours to take back), never after the game ended."""

from __future__ import annotations

from typing import Any

UNDO_LEVELS = ("beginner", "casual")


def undo_point(rules: Any, state0: Any, actions: list[Any], seat: int) -> int | None:
    """The index of ``seat``'s last action in ``actions`` (None if it has not moved)."""
    state, last = state0, None
    for i, raw in enumerate(actions):
        if rules.to_move(state) == seat:
            last = i
        state, _ = rules.apply(state, rules.parse_action(raw, state))
    return last


def undo(match: Any, rules: Any, seat: int) -> bool:
    """Take back ``seat``'s last move (and the bots' replies) in ``match``; False if there is none."""
    api, st = match.api, match.storage
    info = api.load_game(st, match.game_id)
    options = rules.parse_options(info.options)
    start = rules.new_game(options, info.seed, info.players)
    keep = undo_point(rules, start, info.actions, seat)
    if keep is None:
        return False
    api.truncate_actions(st, match.game_id, keep)
    state, own_last = start, None
    for i, raw in enumerate(info.actions[:keep]):
        if rules.to_move(state) == seat:
            own_last = i
        state, _ = rules.apply(state, rules.parse_action(raw, state))
    match.state, match.seq, match.own_last = state, keep, own_last
    match.last_events = []
    match.refusal = None
    return True

