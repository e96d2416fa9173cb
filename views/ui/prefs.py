"""The player's settings as the views use them: theme, card style, sound, haptics, bot speed, hint
level and reduced motion.

Stored values come from a file the player (or a crash) may have damaged, so every value is checked
here once and an unknown one falls back to its default instead of reaching a view."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from engine.bots import HINT_LEVELS

THEMES = ("system", "light", "dark")
#: classic: red hearts/diamonds, black spades/clubs; four_colour: a colour per suit (diamonds blue,
#: clubs green), easier to tell apart on a small screen and for red-green colour blindness
CARD_STYLES = ("classic", "four_colour")
#: a bot's pause before its move is shown, as a factor of the table's own pause
BOT_SPEEDS = {"slow": 2.5, "normal": 1.0, "fast": 0.25}
#: the bots at a quick Lopti table (home): one level at every seat, or the mixed table
LOPTI_BOTS = ("mixed", "beginner", "casual", "skilled", "expert")
MIXED_SEATS = ("expert", "casual", "skilled", "beginner")  # seat 2, 3, … of a mixed table
#: the level the hint button asks is one of ``HINT_LEVELS`` (casual answers at once, expert thinks)


@dataclass(frozen=True)
class Prefs:
    theme: str = "system"
    card_style: str = "classic"
    sound: bool = True
    haptics: bool = True
    bot_speed: str = "normal"
    hint_level: str = "casual"
    #: cards appear where they land instead of moving there (also when the platform asks for less motion)
    reduce_motion: bool = False
    lopti_bots: str = "mixed"
    #: quick messages in online matches: shown, heard and sent (off: muted, no button)
    quick_messages: bool = True
    #: others may watch my rated matches (sent to the lobby: lobby/spectate.py)
    spectators: bool = True

    @classmethod
    def from_settings(cls, settings: Mapping[str, object]) -> Prefs:
        def pick(key: str, allowed: Collection[str], default: str) -> str:
            value = settings.get(key, default)
            return value if isinstance(value, str) and value in allowed else default

        def flag(key: str, default: bool) -> bool:
            value = settings.get(key, default)
            return value if isinstance(value, bool) else default

        return cls(theme=pick("theme", THEMES, "system"), card_style=pick("card_style", CARD_STYLES, "classic"),
                   sound=flag("sound", True), haptics=flag("haptics", True),
                   bot_speed=pick("bot_speed", BOT_SPEEDS, "normal"),
                   hint_level=pick("hint_level", HINT_LEVELS, "casual"),
                   reduce_motion=flag("reduce_motion", False),
                   lopti_bots=pick("lopti_bots", LOPTI_BOTS, "mixed"),
                   quick_messages=flag("quick_messages", True), spectators=flag("spectators", True))

    def lopti_levels(self, players: int) -> list[str]:
        """The bots of a quick Lopti table of ``players`` seats (seat 1 is the player)."""
        if self.lopti_bots == "mixed":
            return list(MIXED_SEATS[: players - 1])
        return [self.lopti_bots] * (players - 1)

    def bot_delay(self, base: float) -> float:
        """The pause before a bot's move is shown (the bot's thinking time is its own)."""
        return base * BOT_SPEEDS[self.bot_speed]
