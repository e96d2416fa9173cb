"""Quick messages on the online table (docs/lobby.md, "Quick messages"): the lobby's fixed phrases
and emotes, each shown in the player's own language for a few seconds beside the seat that sent
it, and announced to a screen reader. A setting mutes them: no button, nothing shown or heard.

The phrases come from the lobby (``lobby.messages.PHRASES``, repeated here because the app never
imports the service: tests/views/test_online_quick.py holds the two lists equal)."""

from __future__ import annotations

import time
from collections.abc import Callable

import flet as ft

from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import Tap, icon_button, pad2, radius, text

PHRASES = ("hello", "good_luck", "have_fun", "nice_move", "well_played", "thanks", "oops", "thinking",
           "good_game", "emote_smile", "emote_thumbs_up", "emote_wow", "emote_sad")
#: the icon an emote is drawn as (Material icons ship with the app: no emoji font needed offline)
EMOTES: dict[str, ft.IconData] = {"emote_smile": ft.Icons.SENTIMENT_SATISFIED_ALT, "emote_thumbs_up": ft.Icons.THUMB_UP,
                                  "emote_wow": ft.Icons.CELEBRATION, "emote_sad": ft.Icons.SENTIMENT_DISSATISFIED}


def words(lang: str, phrase: str) -> str:
    """A phrase (or an emote's name) in ``lang``; an unknown one (a newer lobby) is shown as nothing."""
    return t(lang, f"qm_{phrase}") if phrase in PHRASES else ""


class Bubbles:
    """What each seat said last, until it fades (``theme.QUICK_MESSAGE_S``)."""

    def __init__(self) -> None:
        self.said: dict[int, tuple[str, float]] = {}

    def put(self, seat: int, phrase: str, now: float | None = None) -> None:
        self.said[seat] = (phrase, (time.monotonic() if now is None else now) + theme.QUICK_MESSAGE_S)

    def of(self, seat: int, now: float | None = None) -> str | None:
        """The phrase ``seat`` is showing now, if any."""
        phrase, until = self.said.get(seat, ("", 0.0))
        return phrase if phrase and (time.monotonic() if now is None else now) < until else None


def bubble(lang: str, phrase: str, seat_name: str) -> ft.Control:
    """A phrase or an emote in a speech bubble; a screen reader reads who said it."""
    said = words(lang, phrase)
    inner: ft.Control
    if phrase in EMOTES:
        inner = ft.Icon(EMOTES[phrase], size=theme.TYPE_HEADING, color=theme.INK)
    else:
        inner = text(lang, said, theme.TYPE_SMALL, True, theme.INK, max_lines=1)
    return ft.Semantics(identifier="said", label=f"{seat_name}: {said}", content=ft.Container(
        inner, bgcolor=theme.BUBBLE, border_radius=radius(12), padding=pad2(theme.SPACE_TIGHT, theme.SPACE_SNUG)))


def chooser(lang: str, pick: Callable[[str], None]) -> ft.Control:
    """The phrases and emotes to choose from, each a button that gives ``pick`` its phrase."""
    def tapped(phrase: str) -> Tap:
        return lambda e: pick(phrase)

    phrases: list[ft.Control] = [
        ft.Semantics(identifier=f"say-{p}", content=ft.OutlinedButton(words(lang, p), on_click=tapped(p)))
        for p in PHRASES if p not in EMOTES]
    emotes: list[ft.Control] = [icon_button(EMOTES[p], words(lang, p), tapped(p), ident=f"say-{p}") for p in EMOTES]
    return ft.Column([ft.Row(phrases, wrap=True, spacing=theme.SPACE_TIGHT, run_spacing=theme.SPACE_TIGHT),
                      ft.Row(emotes, wrap=True, spacing=theme.SPACE_TIGHT)], tight=True,
                     spacing=theme.SPACE_SNUG)
