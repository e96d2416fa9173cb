"""Typed ways into a controller's mode for tests: the table reads a mode only through its
protocol (views/table/modes.py, views/spit/modes.py), while a test also looks at the engine state
behind it — and says which mode it expects to find."""

from __future__ import annotations

from typing import Any

from engine.tutorial import Lesson
from views.lanes.table import LanesTable
from views.online.table import OnlineSeat
from views.spit.modes import LiveSpit, SpitLessonMode, SpitReplayMode
from views.table.lessons import LessonCoach, find
from views.table.modes import LessonMode, Local, ReplayMode


def state_of(match: Any) -> Any:
    """The engine state behind ``match`` (a stored game, a lesson or a replay)."""
    mode = match.mode
    assert isinstance(mode, (Local, LessonMode, ReplayMode, LiveSpit, SpitLessonMode, SpitReplayMode)), type(mode)
    return mode.state


def local(match: Any) -> Local:
    """The stored-game mode of a turn-based ``match`` (its seq, options, game id)."""
    assert isinstance(match.mode, Local), type(match.mode)
    return match.mode


def live(game: Any) -> LiveSpit:
    """The live mode of a Spit ``game`` (its driver, seq)."""
    assert isinstance(game.mode, LiveSpit), type(game.mode)
    return game.mode


def lesson(lesson_id: str) -> Lesson:
    """A lesson of the turn-based tables (a Lopti session lesson is another kind)."""
    found = find(lesson_id)
    assert isinstance(found, Lesson), lesson_id
    return found


def coach_of(match: Any) -> LessonCoach:
    """The coach of a lesson ``match``."""
    coach = match.mode.coach
    assert coach is not None
    return coach


def online_seat(screen: object) -> OnlineSeat | None:
    """The lobby's part of the screen on top when it is an online Lanes table (else None)."""
    if isinstance(screen, LanesTable) and isinstance(screen.remote, OnlineSeat):
        return screen.remote
    return None
