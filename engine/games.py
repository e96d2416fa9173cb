"""The registry of games: name → rules object. Imported lazily so one broken game never hides
another."""

from __future__ import annotations

import importlib
from typing import Any

GAMES: dict[str, str] = {"lanes": "engine.lanes", "lopti": "engine.lopti", "spit": "engine.spit"}


def rules_for(name: str) -> Any:
    """The rules object of game ``name`` (KeyError for an unknown game)."""
    module = importlib.import_module(GAMES[name])
    return module.RULES
