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
from typing import TYPE_CHECKING

import flet as ft

if TYPE_CHECKING:
    from views.host import Host

def home_view(app: Host) -> ft.View:
    from views.screens.home import home

    return ft.View(route="/", controls=[ft.SafeArea(content=home(app), expand=True)], padding=0, spacing=0)


def _parts(route: str) -> list[str]:
    return [p for p in route.split("?")[0].split("/") if p]


def _number(text: str) -> int | None:
    return int(text) if text.isdecimal() and len(text) < 12 else None


def show(app: Host, route: str) -> bool:
    """Put the screen for ``route`` on the page; False when no screen has that route."""
    from views.games import games
    from views.screens import home, learn, play, replay, review, rules, settings, stats

    parts = _parts(route)
    if not parts:
        app.show(home.home(app))
        return True
    head, rest = parts[0], parts[1:]
    screens: dict[tuple[str, int], Callable[[], bool | None]] = {
        ("settings", 0): lambda: settings.settings(app),
        ("stats", 0): lambda: stats.stats(app),
        ("learn", 0): lambda: learn.learn(app),
        ("learn", 1): lambda: learn.learn(app, rest[0]) if rest[0] in games() else False,
        ("lesson", 1): lambda: learn.lesson(app, rest[0]),
        ("rules", 1): lambda: rules.rules_screen(app, rest[0]) if rest[0] in games() else False,
        ("online", 0): lambda: _online(app),
    }
    game = games().get(head)
    if game is not None:
        if rest == ["new"]:
            game.new_screen(app)
            return True
        return game.routes(app, rest)
    if head in ("play", "replay", "review") and len(rest) == 1 and (gid := _number(rest[0])) is not None:
        if head == "play":
            return play.resume(app, gid)
        if head == "replay":
            replay.replay(app, gid)
        else:
            review.review(app, gid)
        return True
    screen = screens.get((head, len(rest)))
    return screen is not None and screen() is not False


def _online(app: Host) -> None:
    from views.online.screens import online_home

    online_home(app)


def parent(app: Host, route: str) -> str:
    """Where back goes from ``route``: a lesson to its game's lessons, a replay to the stats,
    everything else home."""
    parts = _parts(route)
    if parts[:1] == ["lesson"] and len(parts) == 2:
        from views.table.lessons import find

        found = find(parts[1])
        return f"/learn/{found.game}" if found else "/learn"
    if parts[:1] in (["replay"], ["review"]):
        return "/stats"
    return "/"


