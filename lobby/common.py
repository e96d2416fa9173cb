"""What every part of the lobby shares: its error, JSON encoding, ids and token hashes."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import orjson

from lobby.models import Match
from lobby.rows import MatchRow

#: a match as the hot path holds it (a plain row) or as the cold paths do (the ORM object)
AnyMatch = Match | MatchRow


class LobbyError(Exception):
    def __init__(self, status: int, message: str, detail: Any = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.detail = detail

    def body(self) -> dict[str, Any]:
        """The answer's JSON: the same from the FastAPI routes and the hot path."""
        return {"error": self.message, "detail": self.detail}


def to_json(obj: Any) -> bytes:
    """JSON for the hot path (orjson: a move encodes a view, its events and the action list, and
    the standard encoder was the largest single cost left in a sampled profile)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS)


def dumps(obj: Any) -> str:
    return to_json(obj).decode()


def token_hash_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_id(prefix: str) -> str:
    return prefix + secrets.token_hex(8)
