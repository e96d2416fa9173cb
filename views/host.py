"""The host contract: what a screen or a table may use of the app that shows it.

Screens and tables are typed against `Host`, never against ``views.app.App``: this module imports
no screen, so no screen imports the app and the app's start path is the only way in (before, 16
modules imported ``views.app`` for its type and 17 files formed one import circle around it;
tests/test_code_shape.py keeps it so). ``views.app.App`` is the one implementation; a test may pass
any object with these members.

The contract has four parts: the page and the player's profile; where to go (routes, ``page.views``
underneath); the top screen's life (paused with the app, its background work scoped); and the
flows a table asks the app for — the next game, a Lopti deal — which are built by screens a table
must not import (they import the table).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import flet as ft

from storage.db import Storage
from views.table.feedback import Feedback
from views.table.screen import Scope, TableScreen
from views.ui.prefs import Prefs


@dataclass
class Drafts:
    """Choices for the next game, kept while the app runs."""

    #: the Lanes house rules chosen for the next game: the last choice, remembered (settings)
    lanes_variants: set[str] = field(default_factory=set)
    #: the house rules of a casual online seek or challenge (L-9; never rated)
    online_variants: set[str] = field(default_factory=set)
    #: Spit's points game (S-8) chosen on its opponent screen
    spit_points: bool = False


class Host(Protocol):
    """What every screen shares: the page, the storage, the profile, and the way to go places."""

    # --- the page and the player's profile --------------------------------------------------------
    page: ft.Page
    storage: Storage
    #: sounds and haptics, as the settings allow
    feedback: Feedback
    #: the profile's settings (``storage.api.DEFAULT_SETTINGS``) and display name, as stored
    settings: dict[str, Any]
    name: str
    drafts: Drafts
    #: the platform asks for less motion (its accessibility setting): tables hold still
    platform_calm: bool

    @property
    def lang(self) -> str: ...

    @property
    def prefs(self) -> Prefs: ...

    def apply_language(self) -> None:
        """Language, direction, theme and card style from the settings (after they change)."""

    def new_seed(self) -> int:
        """A new game's or session's seed (the app reads the clock; the engine never does)."""

    def coming_seed(self) -> int:
        """The seed the next new game or session will take (``new_seed`` gives it): the home reads the
        deal ahead to have the client load its first pictures while the player looks (#44)."""

    # --- where to go ------------------------------------------------------------------------------
    def go(self, route: str) -> None:
        """Open the screen at ``route`` (views/routes.py), in the address bar and history too."""

    def back(self) -> bool:
        """One screen back; False on home."""

    def show(self, content: ft.Control, bg: str | None = None, back: Callable[[], None] | None = None,
             screen: TableScreen | None = None) -> None:
        """Put ``content`` on the current route's view (``back``: a step back inside a flow)."""

    def open(self, route: str, content: ft.Control, screen: TableScreen, bg: str | None = ...) -> None:
        """Show an already built screen (a new game's table) at ``route``."""

    def tell(self, message: str) -> None:
        """A message in a dialog; the screen stays as it is."""

    def turn_back(self, message: str, route: str = "/") -> None:
        """A screen that cannot open (a damaged record): go to ``route`` and say why there."""

    # --- the top screen's life ----------------------------------------------------------------------
    #: the table or flow on top (paused and resumed with the app)
    screen: TableScreen
    #: the top screen's background work checks this and stops when the screen goes
    scope: Scope
    #: a step back inside the top screen, before the route's own back
    local_back: Callable[[], None] | None
    #: the app is in the background: clocks and bots wait
    paused: bool

    # --- a flow a screen asks for ----------------------------------------------------------------------
    def start_game(self, game: str, level: str) -> None:
        """A new game of ``game`` against ``level`` (home's "Play again", a level chosen, the last
        Lopti session lesson's "play for real"); a table gets its own ``NewGame`` callback instead."""
