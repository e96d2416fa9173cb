"""What a damaged stored record raises, so that screens refuse it in words and bugs still surface.

A record on this device can be damaged: a file edited by hand, a half-written import, a row from an
older version. Reading or replaying one raises one of `DAMAGE`: the engine refusing a move, a
position or a rule (``EngineError``; ``ValueError`` for rules and votes), malformed JSON
(``ValueError``), a field of the wrong kind (``TypeError``: ``int(None)``) or a missing one
(``KeyError``, ``IndexError``). `load_game` checks a row's shape, so a seat that is not an object
raises `DamagedRecord` rather than an ``AttributeError`` deep in a screen. Anything else a screen
meets while opening a record (an ``AttributeError``, an ``AssertionError``, a database error) is a
bug or a broken device, not a damaged record: it is not caught, so it is seen.
"""

from __future__ import annotations

from typing import Any

from engine.core import EngineError


class DamagedRecord(ValueError):
    """A stored row whose fields do not have the shape the app wrote."""


#: what opening a damaged record raises (see the module's docstring); screens catch these only
DAMAGE: tuple[type[Exception], ...] = (EngineError, ValueError, TypeError, KeyError, IndexError)


def check_seats(seats: Any) -> list[dict[str, Any]]:
    """A game's seats as stored: a list of objects (``{"kind": "bot", "level": …}``)."""
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise DamagedRecord(f"the seats are not a list of seats: {seats!r:.60}")
    return seats

