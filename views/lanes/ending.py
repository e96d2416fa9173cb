"""Why a Lanes game or match ended, in the player's words, naming the player who ended it where one
did: the one who resigned, ran out of cards (L-8.2), ran out of time (L-8.3) or stayed away. That
player is always the loser (engine/lanes/rules.py), so the winner's seat says who it was."""

from __future__ import annotations

from collections.abc import Callable

from views.ui.i18n import t

#: the endings one player brings about (the others: lanes sold, L-7; a match aborted)
BY_ONE = ("resigned", "out_of_cards", "timeout", "disconnected")


def ending_said(lang: str, reason: object, winner: object, me: int | None, name_of: Callable[[int], str]) -> str:
    """"You resigned." to the player who did, "Beginner resigned." to the other (``me``: the seat
    shown, None for a spectator; ``name_of``: a seat's name). A reason or winner the lobby sends
    that is not one of these is said as before, without a name."""
    if reason in BY_ONE and type(winner) is int and winner in (0, 1):
        loser = 1 - winner
        if loser == me:
            return t(lang, f"reason_{reason}_you")
        return t(lang, f"reason_{reason}_by", who=name_of(loser))
    return t(lang, f"reason_{reason}")
