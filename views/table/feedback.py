"""Sounds, haptics and spoken announcements for what just happened at a table.

``sound_for`` is the whole decision for a sound (plain Python, tested without Flet); :class:`Feedback`
plays it through the flet-audio service and the device's haptic service when the settings allow,
and says what `views.table.announce` decided through Flet's semantics service. Sounds
are optional by nature: a platform that cannot play one (a browser before the first tap, a desktop
without audio) is ignored silently, never shown as an error."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING

import flet as ft

from views.table.speech import Speech
from views.ui.prefs import Prefs

if TYPE_CHECKING:
    from flet_audio import Audio

    from engine.core import Event

SOUND_FILES = {kind: f"sounds/{kind}.wav" for kind in ("play", "special", "refuse", "win", "lose")}
#: events that change the table more than a card laid down: a take, a clear, a slap, a sale…
SPECIAL = {"clear", "take", "taken", "slap", "spit", "sold", "disband", "reshuffle", "cap", "rule"}
FINAL = {"win", "deal_over", "round_end"}


def sound_for(events: Iterable[Event], me: int | None) -> str | None:
    """The one sound for a batch of events (the most telling one): a refusal, the end of a game (won
    or lost from seat ``me``'s side), something special, an ordinary move, or nothing."""
    # another player's refused move (a Spit bot's, rejected by the pile) is not heard
    kinds = [(e.get("type"), e) for e in events
             if not (e.get("type") == "rejected" and e.get("player") not in (None, me))]
    if not kinds:
        return None
    if any(k == "rejected" for k, _ in kinds):
        return "refuse"
    for k, e in kinds:
        if k not in FINAL:
            continue
        places = e.get("places")
        winner = places[0] if isinstance(places, list) and places else e.get("player")
        if winner is not None:
            return "win" if winner == me else "lose"
    if any(k in SPECIAL for k, _ in kinds):
        return "special"
    return "play"


HAPTIC = {"play": "light_impact", "special": "medium_impact", "refuse": "vibrate", "win": "heavy_impact",
          "lose": "heavy_impact"}


class Feedback:
    """One per page. The audio players are created on the first sound (inside the page's context,
    where Flet services register themselves) and kept referenced so they stay registered."""

    def __init__(self, page: ft.Page, prefs: Callable[[], Prefs]) -> None:
        self.page = page
        self.prefs = prefs
        self.players: dict[str, Audio] = {}
        self.haptics: ft.HapticFeedback | None = None
        self.semantics: ft.SemanticsService | None = None
        self.speech = Speech(page.run_task, self._announce)

    def _player(self, kind: str) -> Audio:
        if kind not in self.players:
            import flet_audio

            self.players[kind] = flet_audio.Audio(src=SOUND_FILES[kind], volume=0.8)
        return self.players[kind]

    def __call__(self, kind: str | None) -> None:
        if kind is None:
            return
        prefs = self.prefs()
        if prefs.sound:
            self._run(lambda: self._player(kind).play())
        if prefs.haptics:
            if self.haptics is None:
                self.haptics = ft.HapticFeedback()
            self._run(lambda: getattr(self.haptics, HAPTIC[kind])())

    def events(self, events: Iterable[Event], me: int | None) -> None:
        self(sound_for(events, me))

    def say(self, message: str, lang: str) -> None:
        """Announce ``message`` to a screen reader (politely: after what it is reading), after what
        was said before it (`views.table.speech`). On the web it goes to the page's live region; a
        platform without announcements ignores it."""
        if self.semantics is None:
            self.semantics = ft.SemanticsService()
        self.speech.say(message, rtl=lang == "ar")

    def after_said(self, then: Callable[[], object]) -> None:
        """Run ``then`` once what was said so far has reached the device (at once without a page)."""
        self.speech.then(then)

    async def _announce(self, message: str, rtl: bool) -> None:
        if self.semantics is not None:
            await self.semantics.announce_message(message, rtl=rtl)

    def _run(self, start: Callable[[], Awaitable[object]]) -> None:
        async def go() -> None:
            with contextlib.suppress(Exception):  # no sound or haptics on this platform: play on silently
                await start()

        with contextlib.suppress(Exception):  # a page that is closing
            self.page.run_task(go)
