"""The state cache: a match's engine state, replayed from its stored record only when the record
changed (the record ``(game, options, seed, actions)`` stays the truth)."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

import orjson

from engine.core import GameRecord, replay
from engine.lanes import RULES
from engine.lanes.state import LanesState
from lobby.common import AnyMatch

# --- matches ----------------------------------------------------------------------------------

class StateCache:
    """The engine state of each recently used match, kept per match id with its action list.

    The stored record (options, seed, actions) is the truth; this only saves replaying it. A hit
    needs the same options and seed and a stored action list that *starts with* the cached one:
    then only the new actions are applied (one per move, however long the match), else the match is
    replayed from its record. So a cache that another worker's move made stale (PostgreSQL, several
    workers) is caught up, never trusted. Least recently used matches are dropped beyond ``size``."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        # per match: options, seed, the stored action list's text, its length, the state after it.
        # The text, not the parsed list: a thousand matches' lists of action dicts were most of the
        # objects the garbage collector walked (pauses of tens of ms under the load benchmark).
        self.entries: OrderedDict[str, tuple[str, int, str, int, LanesState]] = OrderedDict()
        self.replays = 0  # whole-record replays (a benchmark and the tests read it)
        self.lock = threading.Lock()  # the sweeper and the cold routes run in threads

    def get(self, m: AnyMatch) -> LanesState:
        with self.lock:
            hit = self.entries.get(m.id)
        if hit is not None and hit[2] == m.actions and hit[0] == m.options and hit[1] == m.seed:
            return hit[4]  # the usual case: the stored record is the one cached (no parsing)
        actions: list[Any] = orjson.loads(m.actions)
        if (hit is not None and hit[0] == m.options and hit[1] == m.seed and hit[3] <= len(actions)
                and actions[:hit[3]] == orjson.loads(hit[2])):  # rare: parsing both is fine
            state = hit[4]
            for raw in actions[hit[3]:]:
                state, _ = RULES.apply(state, RULES.parse_action(raw, state))
        else:
            self.replays += 1
            state, _ = replay(RULES, GameRecord("lanes", json.loads(m.options), m.seed, 2, tuple(actions)))
        self.put(m, len(actions), state)
        return state

    def put(self, m: AnyMatch, n_actions: int, state: LanesState) -> None:
        """Remember ``state`` as the state after the match's ``n_actions`` stored actions (a move
        stores the state it computed, after setting ``m.actions``)."""
        with self.lock:
            self.entries[m.id] = (m.options, m.seed, m.actions, n_actions, state)
            self.entries.move_to_end(m.id)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)


STATES = StateCache()


def state_of(m: AnyMatch) -> LanesState:
    return STATES.get(m)
