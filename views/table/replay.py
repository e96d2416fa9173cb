"""Replays of finished games, step by step, on the real tables.

A :class:`Timeline` (views/table/timeline.py) rebuilds every state of a stored game from its record
(the engine is pure, so the states are exactly the ones played). The table gets the game's own controller with a replay
mode (views/table/modes.py, views/spit/modes.py): drawn from the player's own seat (what they saw
then; a bot's hand stays hidden), read-only — a replay never writes to the stored game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage.seats import PERSON, seat_levels
from views.games import games
from views.table.timeline import Stepper, Timeline

if TYPE_CHECKING:
    from storage.db import Storage


def open_replay(storage: Storage, game_id: int) -> tuple[object, Stepper]:
    """The controller of stored game ``game_id`` over a replay mode at its first step, and that
    mode (the replay bar steps it). A damaged record raises (the caller says so)."""
    from storage import api

    info = api.load_game(storage, game_id)
    timeline = Timeline(info.record)
    levels = seat_levels(info.seats)
    seat = levels.index(PERSON) if PERSON in levels else 0
    return games()[info.game].replay(timeline, levels, seat, game_id)
