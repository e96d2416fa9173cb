"""The games the app shows, one record each (views/game_views.py): the screens that are the same
for every game (routes, play, learn, replay, a rematch) ask this registry and never name a game.
Adding a fourth game adds its package, its record there (``GAME`` in its ``game`` module), and one
line to `games`.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from views.game_views import GameViews
    from views.host import Host


@cache
def games() -> dict[str, GameViews]:
    """Every game, in the order the home screen shows them."""
    from views.lanes.game import GAME as LANES
    from views.lopti.game import GAME as LOPTI
    from views.spit.game import GAME as SPIT

    return {g.name: g for g in (LANES, LOPTI, SPIT)}


def start_game(app: Host, game: str, level: str) -> None:
    """A new game of ``game`` against ``level``; asked first when one of the same game is in
    progress (views/screens/in_progress.py)."""
    from views.screens.in_progress import ask_before_new

    ask_before_new(app, game, lambda: games()[game].begin(app, level))
