"""What the shell asks of the screen on top: its life with the app (background and return) and
its end. Every table and flow that has background work is a ``TableScreen``; the shell calls these
and never asks which kind of screen it holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import flet as ft

#: a new game of a table's own game against a level (a rematch, a lesson's "play for real"),
#: given to the table by its game's module (views/<game>/game.py), which knows how to start one
NewGame = Callable[[str], None]


class Scope:
    """Background work started for one screen (an online wait, a follow loop) runs while its scope
    is open; leaving the screen closes it. A loop checks ``scope.open`` instead of a screen name."""

    def __init__(self) -> None:
        self.open = True

    def close(self) -> None:
        self.open = False


class TableScreen:
    """A screen with a life of its own; the defaults do nothing (a screen without a clock or a
    connection has nothing to pause or re-sync)."""

    def pause(self) -> None:
        """The app went to the background: stop clocks and bots."""

    def resume(self) -> None:
        """The app is back: clocks and bots go on."""

    async def resync(self) -> None:
        """The app is back: fetch what happened meanwhile (a task on the UI loop; network calls go
        to a worker thread)."""

    def stop(self) -> None:
        """The screen left the page: its background work ends."""


class Table(TableScreen):
    """A game's table: it draws itself once (``build``) and then redraws from its controller
    (``refresh``: after a move, a replay step). Each game's table is one (views/games.py opens them)."""

    def build(self) -> ft.Control:
        raise NotImplementedError

    def refresh(self, update: bool = True) -> None:
        raise NotImplementedError


NO_SCREEN = TableScreen()
