"""Lobby tables."""

from __future__ import annotations

from sqlalchemy import BigInteger, Index
from sqlmodel import Field, SQLModel, UniqueConstraint


class Player(SQLModel, table=True):
    id: str = Field(primary_key=True)
    name: str
    token_hash: str = Field(index=True)
    revoked: bool = False
    rating: float = 1500.0
    rd: float = 500.0
    vol: float = 0.09
    rated_games: int = 0
    last_rated_at: float | None = None
    created_at: float = 0.0


class Privacy(SQLModel, table=True):
    """A player's wish about being watched (lobby.spectate): no row means spectators are welcome."""

    player_id: str = Field(primary_key=True)
    spectators: bool = True


class Seek(SQLModel, table=True):
    id: str = Field(primary_key=True)
    player_id: str = Field(index=True)
    rated: bool
    time_control: str
    variants: str = "[]"
    rating: float = 1500.0
    created_at: float = 0.0
    status: str = "open"  # open | matched | cancelled | expired (lobby.matchmaking.SEEK_LIFETIME_S)
    match_id: str | None = None


class Challenge(SQLModel, table=True):
    code: str = Field(primary_key=True)
    player_id: str
    rated: bool
    time_control: str
    variants: str = "[]"
    created_at: float = 0.0
    match_id: str | None = None


class Match(SQLModel, table=True):
    id: str = Field(primary_key=True)
    seed: int = Field(sa_type=BigInteger)  # 63 bits; secret: never sent until the match is over
    options: str = "{}"
    player0: str = Field(index=True)
    player1: str = Field(index=True)
    rated: bool = False
    base_ms: int = 0  # 0 = untimed
    inc_ms: int = 0
    status: str = Field(default="running", index=True)  # running | finished | aborted
    winner: int | None = None
    reason: str | None = None
    remaining0: int = 0
    remaining1: int = 0
    turn_started_at: float = 0.0
    last_seen0: float = 0.0
    last_seen1: float = 0.0
    actions: str = "[]"
    move_count: int = 0
    moved0: bool = False
    moved1: bool = False
    created_at: float = 0.0
    finished_at: float | None = None
    rating_change: str | None = None  # JSON {seat: {"before", "after"}}
    event_count: int = 0


class Rematch(SQLModel, table=True):
    """The rematch of an ended match (lobby.rematch): offered by one seat, then accepted (the new
    match's id), declined or left by either, or expired. One row per ended match, never reopened."""

    match_id: str = Field(primary_key=True)
    status: str  # offered | accepted | declined | expired
    offered_by: int | None = None  # the seat that offered (None: left before anyone offered)
    offered_at: float = 0.0
    new_match_id: str | None = None


class QuickMessage(SQLModel, table=True):
    """A phrase or emote a player sent during a match (lobby.messages): what the rate limit counts."""

    __table_args__ = (Index("ix_quickmessage_match_seat", "match_id", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    match_id: str
    seat: int
    phrase: str
    at: float


class MatchEvent(SQLModel, table=True):
    """Numbered events of a match; ``seat`` None is for both players, else only that seat."""

    # the unique index (match_id, n, seat) also serves "this match's events after n": no second
    # index on match_id to update on every event
    __table_args__ = (UniqueConstraint("match_id", "n", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    match_id: str
    n: int
    seat: int | None = None
    data: str


class MoveReceipt(SQLModel, table=True):
    """Idempotency: the response to each client move id, returned again on a retry."""

    __table_args__ = (UniqueConstraint("match_id", "client_move_id"),)  # also the lookup's index
    id: int | None = Field(default=None, primary_key=True)
    match_id: str
    player_id: str
    client_move_id: str
    move_no: int
    response: str


class RatingHistory(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    player_id: str = Field(index=True)
    match_id: str
    rating: float
    rd: float
    at: float


class ServerState(SQLModel, table=True):
    id: int = Field(default=1, primary_key=True)
    last_alive: float = 0.0
