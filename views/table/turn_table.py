"""What the turn-based tables (Lanes, Lopti) share: building once, and letting the bots move off
the UI loop — each decision runs in a worker thread, then the move is shown after a short pause so
the player can follow whose move it is."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

import flet as ft

from views.table.announce import Announcements
from views.table.motion import Arrivals
from views.table.screen import NewGame, Table
from views.ui import theme
from views.ui.i18n import counted, spoken_cards, t
from views.ui.reconcile import Parts, show
from views.ui.widgets import tagged, text

if TYPE_CHECKING:
    from engine.core import Event
    from views.host import Host
    from views.table.contract import Status

A = TypeVar("A")


class TurnControls(Protocol[A]):
    """What this shared part reads of a turn-based table's controls (``LanesControls``,
    ``LoptiControls``), typed by the game's action ``A``."""

    @property
    def human(self) -> int: ...

    @property
    def my_turn(self) -> bool: ...

    @property
    def status(self) -> Status: ...

    @property
    def last_events(self) -> list[Event]: ...

    @property
    def selected(self) -> object: ...

    @property
    def refusal(self) -> object: ...

    def suggest(self, level: str = "casual") -> A | None: ...

    def point_at(self, action: A | None) -> None: ...

    def suggest_words(self, action: A, lang: str) -> str: ...

    def bot_choice(self, should_stop: Callable[[], bool] | None = None) -> A | None: ...

    def apply_bot(self, action: A) -> list[Event]: ...


class TurnBasedTable(Table, Generic[A]):
    bot_delay = 0.4  # seconds between a bot's decision and showing it (scaled by the bot-speed setting)
    game = ""  # "lanes" | "lopti"

    def __init__(self, app: Host, match: TurnControls[A], new_game: NewGame) -> None:
        self.app = app
        #: a rematch, or after the last lesson a game against the Beginner
        self.new_game = new_game
        self.match = match
        self.root = ft.Column(expand=True, spacing=theme.SPACE_SNUG)
        #: the parts of the table a refresh keeps when what they are drawn from is unchanged
        self.parts = Parts()
        self.busy = False
        #: the table left the page: a bot still thinking stops, and its move is not played
        self.stopped = False
        #: cards that landed with the last events grow into place (views/table/motion.py)
        self.motion = Arrivals()
        #: a hint is being worked out (the expert thinks for a moment): the button waits
        self.thinking = False
        #: words the status line shows instead of the turn ("Thinking…")
        self.status_override: str | None = None
        #: the last hint in words, and what the table showed with it (the last batch of events and
        #: the selection): said for as long as the table still shows that, through any redraw
        self.hint_said: tuple[object, str, str] | None = None
        #: what a screen reader has heard of the status and last-move lines
        self.announcements = Announcements(lambda message: app.feedback.say(message, app.lang),
                                           lambda n: t(app.lang, counted("said_earlier", n), n=n))

    @property
    def lang(self) -> str:
        return self.app.lang

    def refresh(self, update: bool = True) -> None:
        raise NotImplementedError

    def after_said(self, then: Callable[[], object]) -> None:
        """Run ``then`` (the result dialog) once what was just announced has reached the device: a
        screen reader hears the game's last move and result before the dialog (`views.table.speech`).
        Without a running page, at once."""
        self.app.feedback.after_said(lambda: None if self.stopped else then())

    def announce(self, status: str, last: str) -> None:
        """Say what changed in the status and last-move lines (cards by their spoken names); a bot's
        burst of moves is said in one message when it ends."""
        self.announcements.shown(status, spoken_cards(self.lang, last), hold=self.busy)

    def handover_notes(self) -> list[ft.Control]:
        """What the table reminds the next player of at each handover (a Lopti session's table rules)."""
        return []

    def show_privacy(self, n: int, ready: Callable[[], object], update: bool = True) -> None:
        """Pass-and-play: nobody's cards are on screen until player ``n`` says they hold the device."""
        lang = self.lang
        show(self.root, [ft.Container(expand=True), ft.Container(ft.Column([
            ft.Icon(ft.Icons.SWAP_HORIZ, size=64, color=theme.ON_FELT),
            text(lang, t(lang, "pass_to", n=n), theme.TYPE_TILE, True, theme.ON_FELT, align=ft.TextAlign.CENTER),
            text(lang, t(lang, "pass_hint", n=n), theme.TYPE_BODY, color=theme.ON_FELT_MUTED,
                 align=ft.TextAlign.CENTER),
            *self.handover_notes(),
            tagged("privacy-ready", ft.FilledButton(
                t(lang, "ready", n=n), on_click=lambda e: ready())),
        ], horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=theme.SPACE_WIDE),
            padding=ft.Padding.symmetric(horizontal=theme.PAD)),  # a long line wraps inside the screen
            ft.Container(expand=True)], update, self.parts)

    def leave(self) -> None:
        """Back (the header's arrow): the route's parent — the lessons from a lesson, the stats from
        a replay, else home. The game is already stored after every move."""
        self.app.back()

    def feedback(self, events: list[Event]) -> None:
        """A sound and a haptic tap for what happened (a refusal when a tap changed nothing)."""
        fb = self.app.feedback
        fb.events(events, self.match.human) if events else fb("refuse")

    def build(self) -> ft.Control:
        self.refresh(update=False)
        return self.root

    def stop(self) -> None:
        self.stopped = True

    def is_stopped(self) -> bool:
        return self.stopped

    async def on_hint(self, e: object) -> None:
        """The hint button: the level chosen in the settings works in a worker thread behind
        "Thinking…"; its move is then shown on the table (its cards selected) and in words."""
        if self.busy or self.thinking or not self.match.my_turn:
            return
        self.thinking, self.status_override = True, t(self.lang, "thinking")
        self.refresh()
        try:
            action = await asyncio.to_thread(self.match.suggest, self.app.prefs.hint_level)
        finally:
            self.thinking = False
        if self.stopped:
            return
        self.match.point_at(action)
        self.status_override = None
        self.hint_said = None if action is None else (self.match.last_events, repr(self.match.selected), t(
            self.lang, "hint_text", text=self.match.suggest_words(action, self.lang)))
        self.refresh()

    def said_instead(self) -> str | None:
        """What the status line says instead of the turn: "Thinking…", or the hint while the table
        still shows it (a redraw — the motion's second frame — keeps it; a tap that changes the
        selection or is refused, or any move, ends it)."""
        if self.status_override:
            return self.status_override
        hint = self.hint_said
        if (hint is not None and hint[0] is self.match.last_events and hint[1] == repr(self.match.selected)
                and self.match.refusal is None):
            return hint[2]
        self.hint_said = None
        return None

    async def bot_turn(self) -> None:
        """Play every bot move until it is a person's turn or the game is over. Each decision runs
        in a worker thread; leaving the table stops a search under way (``should_stop``) and drops
        its move, so a bot never plays on a table nobody sees."""
        if self.busy:
            return
        self.busy = True
        try:
            while not self.stopped and not self.match.status.over and not self.match.my_turn:
                while self.app.paused and not self.stopped:  # in the background: bots wait
                    await asyncio.sleep(theme.PAUSED_POLL_S)
                action = await asyncio.to_thread(self.match.bot_choice, self.is_stopped)
                await asyncio.sleep(self.app.prefs.bot_delay(self.bot_delay))
                if action is None or self.stopped:
                    break
                events = self.match.apply_bot(action)
                if events:
                    self.feedback(events)
                self.refresh()
        finally:
            self.busy = False
        if not self.stopped:
            self.refresh()
