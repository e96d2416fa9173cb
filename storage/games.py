"""Stored games: their record and how it ends, the lists of games in progress and finished, the
expert's reviews and the stats.

Games are stored as their record — ``(game, options, seed, players)`` plus one row per action —
and :func:`append_action` runs after **every** action in its own transaction, so a crash or a dead
battery loses nothing: :func:`resume_game` replays the record through the engine to the identical
state. (Replaying a 200-action game takes milliseconds — ``tests/bench.py storage`` — so no
snapshots are kept.)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlmodel import col, func, select

from engine.bots.review import GameReview
from engine.core import GameRecord, replay
from engine.games import GAMES, rules_for
from storage.damage import DamagedRecord, check_seats
from storage.db import Storage, now
from storage.models import GameAction, GameReviewRow, SavedGame
from storage.seats import PERSON, seat_levels


@dataclass(frozen=True)
class GameInfo:
    id: int
    game: str
    options: Any
    seed: int
    players: int
    seats: list[dict[str, Any]]
    mode: str
    actions: list[Any]
    started_at: float
    finished_at: float | None
    winner: int | None
    reason: str | None
    #: the Lopti session this deal belongs to (None for a game of its own)
    session_id: int | None = None

    @property
    def record(self) -> GameRecord[Any]:
        return GameRecord(self.game, self.options, self.seed, self.players, tuple(self.actions))


def new_game(st: Storage, game: str, options: Any, seed: int, players: int, seats: list[dict[str, Any]],
             mode: str = "bots", session_id: int | None = None) -> int:
    """Store the start of a game (before its first action); returns its id."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    rules = rules_for(game)
    rules.parse_options(options)  # validate now, not on resume
    with st.session() as s:
        row = SavedGame(game=game, options=json.dumps(options, sort_keys=True), seed=seed, players=players,
                        seats=json.dumps(seats), mode=mode, started_at=now(), updated_at=now(),
                        session_id=session_id)
        s.add(row)
        s.flush()
        assert row.id is not None
        return row.id


def append_action(st: Storage, game_id: int, seq: int, action: Any) -> None:
    """Store action number ``seq`` (0-based) of a game. Idempotent: storing the same action again is
    a no-op; a gap or a different action at the same number is an error (nothing is lost or doubled)."""
    text = json.dumps(action, sort_keys=True)
    with st.session() as s:
        row = s.get(SavedGame, game_id)
        if row is None:
            raise KeyError(f"no saved game {game_id}")
        existing = s.exec(select(GameAction).where(GameAction.game_id == game_id, GameAction.seq == seq)).first()
        if existing is not None:
            if existing.action != text:
                raise ValueError(f"game {game_id} already has a different action #{seq}")
            return
        if seq != row.action_count:
            raise ValueError(f"game {game_id} expects action #{row.action_count}, got #{seq}")
        s.add(GameAction(game_id=game_id, seq=seq, action=text))
        row.action_count = seq + 1
        row.updated_at = now()
        s.add(row)


def truncate_actions(st: Storage, game_id: int, keep: int) -> None:
    """Undo against bots: keep the first ``keep`` actions and forget the rest, in one transaction
    (a crash leaves either the old record or the shortened one, never a gap). Only unfinished
    offline games can be shortened; online and finished games are history."""
    with st.session() as s:
        row = s.get(SavedGame, game_id)
        if row is None:
            raise KeyError(f"no saved game {game_id}")
        if row.mode not in ("bots", "pass_and_play") or row.finished_at is not None:
            raise ValueError(f"game {game_id} cannot be undone")
        if not 0 <= keep <= row.action_count:
            raise ValueError(f"game {game_id} has {row.action_count} actions, cannot keep {keep}")
        for act in s.exec(select(GameAction).where(GameAction.game_id == game_id, GameAction.seq >= keep)).all():
            s.delete(act)
        row.action_count = keep
        row.updated_at = now()
        s.add(row)


def finish_game(st: Storage, game_id: int, winner: int | None, reason: str, places: list[int] | None = None) -> None:
    with st.session() as s:
        row = s.get(SavedGame, game_id)
        if row is None:
            raise KeyError(f"no saved game {game_id}")
        row.finished_at = now()
        row.winner, row.reason = winner, reason
        row.places = json.dumps(places) if places is not None else None
        s.add(row)


def load_game(st: Storage, game_id: int) -> GameInfo:
    with st.session() as s:
        row = s.get(SavedGame, game_id)
        if row is None:
            raise KeyError(f"no saved game {game_id}")
        acts = s.exec(select(GameAction).where(GameAction.game_id == game_id).order_by(col(GameAction.seq))).all()
        return _info(row, [a.action for a in acts])


def _load_games(st: Storage, query: Any) -> list[GameInfo]:
    """The games ``query`` selects (rows of SavedGame, in its order), read with two queries in all
    rather than two per game."""
    with st.session() as s:
        rows = s.exec(query).all()
        ids = [r.id for r in rows]
        acts = s.exec(select(GameAction).where(col(GameAction.game_id).in_(ids))
                      .order_by(col(GameAction.game_id), col(GameAction.seq))).all() if ids else []
    by_game: dict[int, list[str]] = {}
    for a in acts:
        by_game.setdefault(a.game_id, []).append(a.action)
    return [_info(r, by_game.get(r.id or 0, [])) for r in rows]


def _info(row: SavedGame, actions: list[str]) -> GameInfo:
    """A stored game's row and its actions' JSON as a GameInfo; a damaged row raises DamagedRecord
    (a ValueError), never a surprise later on a screen."""
    assert row.id is not None
    try:
        options, seats = json.loads(row.options), check_seats(json.loads(row.seats))
        moves = [json.loads(a) for a in actions]
    except json.JSONDecodeError as exc:
        raise DamagedRecord(f"game {row.id} is not readable: {exc}") from None
    return GameInfo(row.id, row.game, options, row.seed, row.players, seats, row.mode, moves, row.started_at,
                    row.finished_at, row.winner, row.reason, row.session_id)


def resume_game(st: Storage, game_id: int) -> tuple[GameInfo, Any]:
    """The saved game and its state, rebuilt by replaying the record through the engine."""
    info = load_game(st, game_id)
    state, _ = replay(rules_for(info.game), info.record)
    return info, state


def games_in_progress(st: Storage) -> list[GameInfo]:
    return _load_games(st, select(SavedGame).where(col(SavedGame.finished_at).is_(None))
                       .order_by(col(SavedGame.updated_at).desc()))


#: the modes of a game played here, on this device (not an online match, an import or a lesson)
LOCAL_MODES = ("bots", "pass_and_play")


def local_games_in_progress(st: Storage, game: str | None = None) -> list[GameInfo]:
    """The unfinished games played on this device (of ``game``, when given), newest first: each one
    can be resumed or deleted, and none is lost by starting another."""
    return [g for g in games_in_progress(st) if g.mode in LOCAL_MODES and (game is None or g.game == game)]


def last_opponent(st: Storage, game: str) -> str | None:
    """Who the newest finished game of ``game`` played on this device was against: a bot's level,
    or PERSON for people at this device (None: no such game). Home offers it again in one tap."""
    with st.session() as s:
        row = s.exec(select(SavedGame).where(SavedGame.game == game, col(SavedGame.finished_at).is_not(None),
                                             col(SavedGame.mode).in_(LOCAL_MODES))
                     .order_by(col(SavedGame.finished_at).desc()).limit(1)).first()
    if row is None:
        return None
    try:
        levels = seat_levels(check_seats(json.loads(row.seats)))
    except ValueError:  # not JSON, or a DamagedRecord (a ValueError): a seat list of the wrong shape
        return None  # a damaged row offers nothing; it is refused in words where it is opened
    others = [lv for lv in levels if lv != PERSON]
    return others[0] if others else PERSON


def delete_game(st: Storage, game_id: int) -> None:
    with st.session() as s:
        review = s.get(GameReviewRow, game_id)
        if review is not None:
            s.delete(review)
        for a in s.exec(select(GameAction).where(GameAction.game_id == game_id)).all():
            s.delete(a)
        row = s.get(SavedGame, game_id)
        if row is not None:
            s.delete(row)


# --- history and stats ---------------------------------------------------------------------------------

def save_review(st: Storage, game_id: int, review: GameReview) -> None:
    """Keep the expert's review of a finished game (one per game; a new one replaces it)."""
    with st.session() as s:
        if s.get(SavedGame, game_id) is None:
            raise KeyError(f"no saved game {game_id}")
        row = s.get(GameReviewRow, game_id) or GameReviewRow(game_id=game_id)
        row.seat, row.data, row.created_at = review.seat, json.dumps(review.to_json()), now()
        s.add(row)


def load_review(st: Storage, game_id: int) -> GameReview | None:
    """The stored review, or None — also for a damaged or outdated one (it is simply made anew)."""
    with st.session() as s:
        row = s.get(GameReviewRow, game_id)
    if row is None:
        return None
    try:
        return GameReview.from_json(json.loads(row.data))
    except (ValueError, KeyError, TypeError):
        return None


def history(st: Storage, game: str | None = None, limit: int = 50) -> list[GameInfo]:
    q = select(SavedGame).where(col(SavedGame.finished_at).is_not(None))
    if game:
        q = q.where(SavedGame.game == game)
    return _load_games(st, q.order_by(col(SavedGame.finished_at).desc()).limit(limit))


def stats(st: Storage, me: int = 0) -> dict[str, dict[str, Any]]:
    """Per game and per opponent bot level: played, won, current and best streak, average length
    (actions) and average duration (seconds). ``me`` is the seat the local player took."""
    out: dict[str, dict[str, Any]] = {}
    with st.session() as s:
        rows = s.exec(select(SavedGame).where(col(SavedGame.finished_at).is_not(None))
                      .order_by(col(SavedGame.finished_at))).all()
    for r in rows:
        seats = json.loads(r.seats)
        mine = next((i for i, x in enumerate(seats) if x.get("kind") == PERSON), me)
        levels = sorted({x.get("level", PERSON) for i, x in enumerate(seats) if i != mine})
        key = f"{r.game}/{'+'.join(levels) or 'person'}"
        e = out.setdefault(key, {"played": 0, "won": 0, "streak": 0, "best_streak": 0, "total_actions": 0,
                                 "total_seconds": 0.0})
        e["played"] += 1
        won = r.winner == mine
        e["won"] += won
        e["streak"] = e["streak"] + 1 if won else 0
        e["best_streak"] = max(e["best_streak"], e["streak"])
        e["total_actions"] += r.action_count
        e["total_seconds"] += (r.finished_at or r.updated_at) - r.started_at
    for e in out.values():
        e["avg_actions"] = e.pop("total_actions") / e["played"]
        e["avg_seconds"] = e.pop("total_seconds") / e["played"]
    return out


def count_rows(st: Storage, table: type[Any]) -> int:
    with st.session() as s:
        return int(s.exec(select(func.count()).select_from(table)).one())
