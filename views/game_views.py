"""One game's part of the app, as a record (`GameViews`): each game's ``game`` module makes one and
views/games.py lists them. A leaf: it imports no game, so a game's package can import it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import flet as ft

    from engine.tutorial import Lesson
    from views.host import Host
    from views.table.screen import Table
    from views.table.timeline import Stepper, Timeline


def no_routes(app: Host, rest: list[str]) -> bool:
    return False


def nothing_between(app: Host) -> str | None:
    return None


def no_pictures(app: Host, seed: int) -> list[str]:
    return []


@dataclass(frozen=True)
class GameViews:
    """One game's part of the app."""

    name: str
    #: ``/<name>/new``: the new-game screen (opponents, house rules, seats)
    new_screen: Callable[[Host], None]
    #: a new game against ``level`` (``PERSON``: people on this device), on its table at /play/<id>
    begin: Callable[[Host, str], None]
    #: a stored game on its table (/play/<id>); a damaged record raises one of storage.damage.DAMAGE
    resume: Callable[[Host, int], None]
    #: a lesson of this game on its table (built, not yet shown)
    lesson_table: Callable[[Host, Lesson], Table]
    #: a stored game's controller over a replay mode, and that mode (what the replay bar steps):
    #: from its timeline, the seats' levels, the seat it is drawn from, the stored game's id
    replay: Callable[[Timeline, list[str], int, int], tuple[object, Stepper]]
    #: the table over a replay's controller (views/table/replay.py opens the controller)
    replay_table: Callable[[Host, Any], Table]
    #: the home tile's ways to start: a button to the new-game screen unless the game has its own
    home_starts: Callable[[Host], list[ft.Control]] | None = None
    #: further routes under ``/<name>/``: the parts after the name → show the screen (False: none such)
    routes: Callable[[Host, list[str]], bool] = field(default=no_routes)
    #: where "Continue" goes when no stored game of it is in progress (a Lopti session between deals)
    between: Callable[[Host], str | None] = field(default=nothing_between)
    #: the pictures a new game dealt from a seed shows first (its hand, the backs): the home has the
    #: client load the coming deal's while the player looks, so its table draws at once (#44)
    first_pictures: Callable[[Host, int], list[str]] = field(default=no_pictures)


