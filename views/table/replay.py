"""Replays of finished games, step by step, on the real tables.

A :class:`Timeline` rebuilds every state of a stored game from its record (the engine is pure, so
the states are exactly the ones played). The table gets the game's own controller with a replay
mode (views/table/modes.py, views/spit/modes.py): drawn from the player's own seat (what they saw
then; a bot's hand stays hidden), read-only — a replay never writes to the stored game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import Event, GameRecord
from engine.games import rules_for
from engine.lanes import RULES as LANES
from engine.lopti import RULES as LOPTI
from storage.seats import PERSON, seat_levels
from views.lanes.controller import LanesMatch
from views.lopti.controller import LoptiMatch
from views.spit.controller import SpitGame
from views.spit.modes import SpitReplayMode
from views.table.modes import ReplayMode

if TYPE_CHECKING:
    from storage.db import Storage


class Timeline:
    """``states[k]`` is the game after ``k`` actions; ``events[k]`` what action ``k`` caused."""

    def __init__(self, record: GameRecord[Any]) -> None:
        #: the game's name ("lanes"): which table shows it
        self.game = record.game
        rules = rules_for(record.game)
        state = rules.new_game(rules.parse_options(record.options), record.seed, record.players)
        self.states: list[Any] = [state]
        self.events: list[list[Event]] = [[]]
        for raw in record.actions:
            state, evs = rules.apply(state, rules.parse_action(raw, state))
            self.states.append(state)
            self.events.append(list(evs))

    @property
    def last(self) -> int:
        return len(self.states) - 1


Replay = LanesMatch | LoptiMatch | SpitGame


def open_replay(storage: Storage, game_id: int) -> tuple[Replay, ReplayMode | SpitReplayMode]:
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
    mode = ReplayMode(LANES if info.game == "lanes" else LOPTI, timeline, levels, seat, game_id)
    return (LanesMatch(mode) if info.game == "lanes" else LoptiMatch(mode)), mode
