"""Who sits at each seat: the kinds a stored game's seats have, and the one "level" per seat that
the tables read.

A game stores its seats as JSON objects (``{"kind": "bot", "level": "casual"}``); a table reads
them as one word per seat: `SeatKind.PERSON` (someone at this device), `SeatKind.ONLINE` (a
person at the lobby) or a bot's level (``engine.bots.LEVELS``). `SeatKind` is a ``StrEnum``, so
the words stored by earlier versions ("person") read back as the same members, and a member is
written to JSON as its word.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any


class SeatKind(StrEnum):
    PERSON = "person"
    BOT = "bot"
    ONLINE = "online"


PERSON = SeatKind.PERSON
ONLINE = SeatKind.ONLINE
#: the level a bot seat stored without one plays at
DEFAULT_LEVEL = "casual"


def stored_seats(levels: Sequence[str]) -> list[dict[str, str]]:
    """The seats to store for one word per seat (a person, or a bot's level)."""
    return [{"kind": PERSON} if lv == PERSON else {"kind": SeatKind.BOT, "level": lv} for lv in levels]


def seat_levels(seats: Sequence[dict[str, Any]]) -> list[str]:
    """One word per stored seat: `PERSON`, or the level the seat plays at (an online opponent's
    seat reads as its stored level, "online")."""
    return [PERSON if s.get("kind") == PERSON else str(s.get("level", DEFAULT_LEVEL)) for s in seats]


def is_person(level: str) -> bool:
    return level == PERSON
