"""Replays of finished games, step by step, on the real tables.

A :class:`Timeline` (views/table/timeline.py) rebuilds every state of a stored game from its record
(the engine is pure, so the states are exactly the ones played). The table gets the game's own controller with a replay
mode (views/table/modes.py, views/spit/modes.py): drawn from the player's own seat (what they saw
then; a bot's hand stays hidden), read-only — a replay never writes to the stored game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from engine.lanes import RULES as LANES
from engine.lopti import RULES as LOPTI
from storage.seats import PERSON, seat_levels
from views.lanes.controller import LanesMatch
from views.lopti.controller import LoptiMatch
from views.spit.controller import SpitGame
from views.spit.modes import SpitReplayMode
from views.table.modes import ReplayMode
from views.table.timeline import Timeline

if TYPE_CHECKING:
    from storage.db import Storage


Replay = LanesMatch | LoptiMatch | SpitGame


class Stepper(Protocol):
    """What the replay bar moves: a replay mode's step through its timeline."""

    step: int
    timeline: Timeline

    def seek(self, k: int) -> None: ...

    @property
    def state(self) -> object: ...

    def caption(self, lang: str) -> str | None: ...


def open_replay(storage: Storage, game_id: int) -> tuple[Replay, Stepper]:
    """The controller of stored game ``game_id`` over a replay mode at its first step, and that
    mode (the replay bar steps it). A damaged record raises (the caller says so)."""
    from storage import api

    info = api.load_game(storage, game_id)
    timeline = Timeline(info.record)
    levels = seat_levels(info.seats)
    seat = levels.index(PERSON) if PERSON in levels else 0
    if info.game == "spit":
        spit = SpitReplayMode(timeline, levels, game_id)
        return SpitGame(spit), spit
    if info.game == "lanes":
        lanes = ReplayMode(LANES, timeline, levels, seat, game_id)
        return LanesMatch(lanes), lanes
    lopti = ReplayMode(LOPTI, timeline, levels, seat, game_id)
    return LoptiMatch(lopti), lopti
