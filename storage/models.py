"""SQLModel tables (schema version 3; see :mod:`storage.db` for migrations)."""

from __future__ import annotations

from sqlmodel import Field, SQLModel, UniqueConstraint


class Profile(SQLModel, table=True):
    """The one local player: display name and settings (settings as JSON: language, theme, card
    style, sound, bot speed, default variants)."""

    id: int | None = Field(default=None, primary_key=True)
    display_name: str = "Player"
    settings: str = "{}"
    card_style: str = "classic"  # added in schema 2


class SavedGame(SQLModel, table=True):
    """A game in progress or finished: the record ``(game, options, seed, players)``; its actions
    live one per row in :class:`GameAction`, written after every action."""

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(index=True)
    options: str = "{}"
    seed: int = 0
    players: int = 2
    seats: str = "[]"  # JSON: per seat {"kind": "person"|"bot", "name", "level"}
    mode: str = "bots"  # bots | pass_and_play | online | tutorial
    started_at: float = 0.0
    updated_at: float = 0.0
    finished_at: float | None = None
    winner: int | None = None
    reason: str | None = None
    places: str | None = None
    action_count: int = 0
    session_id: int | None = Field(default=None, index=True)


class GameReviewRow(SQLModel, table=True):
    """The expert's review of a finished game from one seat (``engine.bots.review.GameReview``
    as JSON), kept so a second look is instant (added in schema 3)."""

    game_id: int = Field(primary_key=True, foreign_key="savedgame.id")
    seat: int = 0
    data: str = "{}"
    created_at: float = 0.0


class GameAction(SQLModel, table=True):
    """One action of a saved game. (game_id, seq) is unique, so an action is never stored twice."""

    __table_args__ = (UniqueConstraint("game_id", "seq"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True, foreign_key="savedgame.id")
    seq: int
    action: str


class LoptiSessionRow(SQLModel, table=True):
    """A Lopti session (engine ``LoptiSession.to_json``) with its seats; paused or running."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = "Session"
    seats: str = "[]"
    data: str = "{}"
    status: str = "running"  # running | paused | ended
    current_game_id: int | None = None
    updated_at: float = 0.0


class Preset(SQLModel, table=True):
    """A named Lanes variant set or a Lopti rule from the player's library."""

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(index=True)  # lanes_variants | lopti_rule
    name: str
    data: str = "{}"
    created_at: float = 0.0


class TutorialProgress(SQLModel, table=True):
    lesson_id: str = Field(primary_key=True)
    step: int = 0
    completed: bool = False
    updated_at: float = 0.0


class Account(SQLModel, table=True):
    """The online account. The token is a secret: the database file is created owner-only (0600)."""

    id: int | None = Field(default=None, primary_key=True)
    lobby_url: str
    player_id: str
    token: str
    display_name: str = "Player"


class Outbox(SQLModel, table=True):
    """Anything waiting to be sent to the lobby, in order (added in schema 2)."""

    id: int | None = Field(default=None, primary_key=True)
    kind: str
    payload: str
    created_at: float = 0.0
    attempts: int = 0
