"""The table contract's shared words: how a game stands (:class:`Status`), what a mode lets the
player do (:class:`Powers`), and a move not taken (:class:`Refused`). Each game's controller
protocol (``views/lanes/contract.py`` …) is written in these terms; the tables depend on those
protocols only."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import Why


@dataclass(frozen=True)
class Status:
    """How the game stands, from any mode (the online one has no engine state, only this)."""

    over: bool
    to_move: int | None
    winner: int | None
    reason: str | None


@dataclass(frozen=True)
class Powers:
    """What a mode lets the player do besides moving (the table shows exactly these)."""

    undo: bool = False  # take back my move (only against the learning bots)
    hint: bool = False  # what the Casual level would play
    resign: bool = True
    read_only: bool = False  # a replay: nothing a tap does changes the game
    result: bool = True  # the end-of-game dialog (a lesson ends in its coach panel instead)


class Refused(Exception):
    """A move the mode did not take: the engine's reason, or a lesson's own words."""

    def __init__(self, why: Why | None, words: dict[str, str] | None = None) -> None:
        super().__init__(str(why) if why else "refused")
        self.why = why
        self.words = words
