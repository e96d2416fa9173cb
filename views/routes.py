"""Every destination of the app is a route; ``show`` puts a route's screen on the page and
``parent`` says where back goes from it. A deep link (``/lanes/new``, ``/play/12``,
``/online``) opens that screen directly, and a reload reopens the game in progress.

    /                      home
    /lanes/new /spit/new   new game: opponent (and the Lanes house rules)
    /lopti/new             a Lopti table of 2–5 seats
    /play/<game id>        a stored game on its table (continues where it stopped)
    /lopti/session/<id>    a Lopti session: its deal, or the screen between deals
    /learn  /learn/<game>  the lessons (one game's first)
    /lesson/<lesson id>    a lesson on its table
    /rules/<game>          a game's rules page
    /stats                 history and stats
    /replay/<game id>      a finished game step by step
    /review/<game id>      the same with the expert's review (made on first look, then stored)
    /settings              settings
    /online                online play (sign in, find a game, challenges, leaderboard, profile)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import flet as ft

from views.ui import theme

if TYPE_CHECKING:
    from views.host import Host

@dataclass
class Parts:
    """The named parts of a route that matched (``/play/12``: ``id`` 12)."""

    id: int = 0
    game: str = ""
    name: str = ""
    #: what follows ``<rest>``: the parts after a game's name
    rest: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Route:
    """One kind of destination: its ``pattern`` (``/replay/<id>``: ``<id>`` a stored game's number,
    ``<game>`` a game's name, ``<name>`` any one part, ``<rest>`` what follows), the screen it
    shows (False: nothing there after all, a lesson that does not exist) and where back goes."""

    pattern: str
    show: Callable[[Host, Parts], bool | None]
    parent: Callable[[Parts], str] = lambda parts: "/"

    def match(self, parts: list[str]) -> Parts | None:
        names = [p for p in self.pattern.split("/") if p]
        if names[-1:] == ["<rest>"]:
            names, rest = names[:-1], parts[len(names) - 1:]
            if len(parts) < len(names) or not rest:
                return None
        elif len(parts) != len(names):
            return None
        else:
            rest = []
        found = Parts(rest=rest)
        for name, part in zip(names, parts, strict=False):
            if name == "<id>":
                if not (part.isdecimal() and len(part) < 12):
                    return None
                found.id = int(part)
            elif name == "<game>":
                if part not in _games():
                    return None
                found.game = part
            elif name == "<name>":
                found.name = part
            elif name != part:
                return None
        return found


def _games() -> set[str]:
    from views.games import games

    return set(games())


def _screens() -> list[Route]:
    """Every route, the first that matches wins (a game's own routes come last)."""
    from views.games import games
    from views.online.screens import online_home
    from views.screens import home, learn, play, replay, review, rules, settings, stats

    def stats_parent(parts: Parts) -> str:
        return "/stats"

    return [
        Route("/", lambda app, p: app.show(home.home(app))),
        Route("/settings", lambda app, p: settings.settings(app)),
        Route("/stats", lambda app, p: stats.stats(app)),
        Route("/online", lambda app, p: online_home(app)),
        Route("/learn", lambda app, p: learn.learn(app)),
        Route("/learn/<game>", lambda app, p: learn.learn(app, p.game)),
        Route("/lesson/<name>", lambda app, p: learn.lesson(app, p.name), _lesson_parent),
        Route("/rules/<game>", lambda app, p: rules.rules_screen(app, p.game)),
        Route("/play/<id>", lambda app, p: play.resume(app, p.id)),
        Route("/replay/<id>", lambda app, p: replay.replay(app, p.id), stats_parent),
        Route("/review/<id>", lambda app, p: review.review(app, p.id), stats_parent),
        Route("/<game>/new", lambda app, p: games()[p.game].new_screen(app)),
        Route("/<game>/<rest>", lambda app, p: games()[p.game].routes(app, p.rest)),
    ]


def _lesson_parent(parts: Parts) -> str:
    """A lesson's back goes to its game's lessons."""
    from views.table.lessons import find

    found = find(parts.name)
    return f"/learn/{found.game}" if found else "/learn"


def match(route: str) -> tuple[Route, Parts] | None:
    parts = [p for p in route.split("?")[0].split("/") if p]
    for r in _screens():
        found = r.match(parts)
        if found is not None:
            return r, found
    return None


def home_view(app: Host) -> ft.View:
    from views.screens.home import home

    return ft.View(route="/", controls=[ft.SafeArea(content=home(app), expand=True)], padding=theme.SPACE_NONE,
                   spacing=theme.SPACE_NONE)


def show(app: Host, route: str) -> bool:
    """Put the screen for ``route`` on the page; False when no screen has that route."""
    found = match(route)
    return found is not None and found[0].show(app, found[1]) is not False


def parent(route: str) -> str:
    """Where back goes from ``route``: a lesson to its game's lessons, a replay or review to the
    stats, everything else home."""
    found = match(route)
    return "/" if found is None else found[0].parent(found[1])
