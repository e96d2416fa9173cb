"""The storage API: plain functions over the tables. Views call these; they never write SQL.

Games are stored as their record — ``(game, options, seed, players)`` plus one row per action —
and :func:`append_action` runs after **every** action in its own transaction, so a crash or a dead
battery loses nothing: :func:`resume_game` replays the record through the engine to the identical
state. (Replaying a 200-action game takes milliseconds — ``tests/bench.py storage`` — so no
snapshots are kept.)
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlmodel import col, func, select

from engine.bots.review import GameReview
from engine.core import EngineError, GameRecord, replay
from engine.games import GAMES, rules_for
from storage.damage import DamagedRecord, check_seats
from storage.db import Storage
from storage.lobby_address import BadAddress, normalise
from storage.models import (
    Account,
    GameAction,
    GameReviewRow,
    LoptiSessionRow,
    Outbox,
    Preset,
    Profile,
    SavedGame,
    TutorialProgress,
)
from storage.seats import ONLINE, PERSON

DEFAULT_SETTINGS: dict[str, Any] = {"language": "en", "theme": "system", "sound": True, "haptics": True,
                                    "bot_speed": "normal", "default_variants": [], "card_style": "classic",
                                    "hint_level": "casual", "reduce_motion": False,
                                    "lopti_bots": "mixed",  # the quick Lopti table's bots: a level, or mixed
                                    "lobby_url": ""}  # "": the built-in address (storage/lobby_address.py)
EXPORT_FORMAT = "cardtable-game"
SESSION_FORMAT = "cardtable-lopti-session"


class ImportError_(ValueError):
    """A file that cannot be imported; the message says why in plain words."""


def _now() -> float:
    return time.time()


# --- profile and settings ---------------------------------------------------------------------------

def get_profile(st: Storage) -> tuple[str, dict[str, Any]]:
    with st.session() as s:
        row = s.get(Profile, 1)
        if row is None:
            return "Player", dict(DEFAULT_SETTINGS)
        settings = {**DEFAULT_SETTINGS, **json.loads(row.settings)}
        settings["card_style"] = row.card_style
        return row.display_name, settings


def update_profile(st: Storage, display_name: str | None = None, **settings: Any) -> dict[str, Any]:
    unknown = set(settings) - set(DEFAULT_SETTINGS)
    if unknown:
        raise ValueError(f"unknown setting(s): {', '.join(sorted(unknown))}")
    with st.session() as s:
        row = s.get(Profile, 1) or Profile(id=1)
        merged = {**DEFAULT_SETTINGS, **json.loads(row.settings), **settings}
        row.card_style = merged.pop("card_style")
        row.settings = json.dumps(merged, sort_keys=True)
        if display_name is not None:
            name = display_name.strip()
            if not 1 <= len(name) <= 40:
                raise ValueError("a display name has 1 to 40 characters")
            row.display_name = name
        s.add(row)
        return {**merged, "card_style": row.card_style}


# --- saved games ---------------------------------------------------------------------------------------

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
                        seats=json.dumps(seats), mode=mode, started_at=_now(), updated_at=_now(),
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
        row.updated_at = _now()
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
        row.updated_at = _now()
        s.add(row)


def finish_game(st: Storage, game_id: int, winner: int | None, reason: str, places: list[int] | None = None) -> None:
    with st.session() as s:
        row = s.get(SavedGame, game_id)
        if row is None:
            raise KeyError(f"no saved game {game_id}")
        row.finished_at = _now()
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
        row.seat, row.data, row.created_at = review.seat, json.dumps(review.to_json()), _now()
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


# --- Lopti sessions ---------------------------------------------------------------------------------------

def save_session(st: Storage, data: dict[str, Any], seats: list[dict[str, Any]], name: str = "Session",
                 session_id: int | None = None, status: str = "running", current_game_id: int | None = None) -> int:
    if status not in ("running", "paused", "ended"):
        raise ValueError("status is running, paused or ended")
    with st.session() as s:
        row = (s.get(LoptiSessionRow, session_id) if session_id is not None else None) or LoptiSessionRow()
        row.name, row.seats, row.data = name, json.dumps(seats), json.dumps(data, sort_keys=True)
        row.status, row.current_game_id, row.updated_at = status, current_game_id, _now()
        s.add(row)
        s.flush()
        assert row.id is not None
        return row.id


def load_session(st: Storage, session_id: int) -> dict[str, Any]:
    with st.session() as s:
        row = s.get(LoptiSessionRow, session_id)
        if row is None:
            raise KeyError(f"no session {session_id}")
        return _session(row)


def _session(row: LoptiSessionRow) -> dict[str, Any]:
    try:
        seats, data = json.loads(row.seats), json.loads(row.data)
    except json.JSONDecodeError as exc:
        raise DamagedRecord(f"session {row.id} is not readable: {exc}") from None
    return {"id": row.id, "name": row.name, "seats": seats, "data": data, "status": row.status,
            "current_game_id": row.current_game_id, "updated_at": row.updated_at}


def sessions(st: Storage) -> list[dict[str, Any]]:
    """Every Lopti session, the latest first (one query)."""
    with st.session() as s:
        rows = s.exec(select(LoptiSessionRow).order_by(col(LoptiSessionRow.updated_at).desc())).all()
    return [_session(r) for r in rows]


# --- presets, tutorial progress, account, outbox ----------------------------------------------------

def save_preset(st: Storage, kind: str, name: str, data: Any) -> int:
    if kind == "lanes_variants":
        rules_for("lanes").parse_options({"variants": data})
    elif kind == "lopti_rule":
        from engine.lopti.house_rules import RuleError, parse_rule
        try:
            parse_rule(data)
        except RuleError as exc:
            raise ValueError("; ".join(exc.problems)) from None
    else:
        raise ValueError("a preset is a lanes_variants set or a lopti_rule")
    with st.session() as s:
        row = Preset(kind=kind, name=name, data=json.dumps(data, sort_keys=True), created_at=_now())
        s.add(row)
        s.flush()
        assert row.id is not None
        return row.id


def presets(st: Storage, kind: str) -> list[tuple[int, str, Any]]:
    with st.session() as s:
        rows = s.exec(select(Preset).where(Preset.kind == kind).order_by(col(Preset.id))).all()
        return [(r.id or 0, r.name, json.loads(r.data)) for r in rows]


def set_lesson(st: Storage, lesson_id: str, step: int, completed: bool) -> None:
    with st.session() as s:
        row = s.get(TutorialProgress, lesson_id) or TutorialProgress(lesson_id=lesson_id)
        row.step, row.completed, row.updated_at = step, completed or row.completed, _now()
        s.add(row)


def lesson_progress(st: Storage) -> dict[str, tuple[int, bool]]:
    with st.session() as s:
        return {r.lesson_id: (r.step, r.completed) for r in s.exec(select(TutorialProgress)).all()}


def _same_lobby(a: str, b: str) -> bool:
    try:
        return normalise(a) == normalise(b)
    except BadAddress:
        return a.rstrip("/") == b.rstrip("/")


def accounts(st: Storage) -> list[Account]:
    """Every online account kept here, one per lobby: a guest account belongs to its lobby, so
    changing the address keeps the old one for when the player switches back."""
    with st.session() as s:
        return list(s.exec(select(Account).order_by(col(Account.id))).all())


def get_account(st: Storage, lobby_url: str) -> Account | None:
    """The account at this lobby, if the player signed in there."""
    return next((a for a in accounts(st) if _same_lobby(a.lobby_url, lobby_url)), None)


def set_account(st: Storage, lobby_url: str, player_id: str, token: str, display_name: str) -> None:
    """Signed in at ``lobby_url``: its account is added, or replaces the one kept for that lobby."""
    old = get_account(st, lobby_url)
    with st.session() as s:
        row = (s.get(Account, old.id) if old is not None else None) or Account(
            lobby_url=lobby_url, player_id=player_id, token=token)
        row.lobby_url, row.player_id, row.token, row.display_name = lobby_url, player_id, token, display_name
        s.add(row)


def clear_account(st: Storage, lobby_url: str) -> None:
    """Sign out of one lobby: forget its account (the lobby keeps the player; the token is gone here)."""
    old = get_account(st, lobby_url)
    if old is None:
        return
    with st.session() as s:
        row = s.get(Account, old.id)
        if row is not None:
            s.delete(row)


def enqueue(st: Storage, kind: str, payload: Any) -> int:
    with st.session() as s:
        row = Outbox(kind=kind, payload=json.dumps(payload, sort_keys=True), created_at=_now())
        s.add(row)
        s.flush()
        assert row.id is not None
        return row.id


def pending(st: Storage) -> list[tuple[int, str, Any]]:
    with st.session() as s:
        rows = s.exec(select(Outbox).order_by(col(Outbox.id))).all()
        return [(r.id or 0, r.kind, json.loads(r.payload)) for r in rows]


def done(st: Storage, outbox_id: int) -> None:
    with st.session() as s:
        row = s.get(Outbox, outbox_id)
        if row is not None:
            s.delete(row)


def count_rows(st: Storage, table: type[Any]) -> int:
    with st.session() as s:
        return int(s.exec(select(func.count()).select_from(table)).one())


# --- export / import ---------------------------------------------------------------------------------

def export_game(st: Storage, game_id: int) -> str:
    """One game as JSON (a position to share, a replay, a bug report)."""
    info = load_game(st, game_id)
    return json.dumps({"format": EXPORT_FORMAT, "version": 1, "game": info.game, "options": info.options,
                       "seed": info.seed, "players": info.players, "seats": info.seats, "actions": info.actions},
                      indent=1, sort_keys=True)


def _validate_game(obj: Any) -> GameRecord[Any]:
    if not isinstance(obj, dict) or obj.get("format") != EXPORT_FORMAT:
        raise ImportError_("this is not a Card Table game file")
    if obj.get("version") != 1:
        raise ImportError_("this game file was written by a newer version of the app")
    for key in ("game", "options", "seed", "players", "actions"):
        if key not in obj:
            raise ImportError_(f"the game file has no {key!r}")
    if obj["game"] not in GAMES:
        raise ImportError_(f"unknown game {obj['game']!r}")
    if isinstance(obj["seed"], bool) or not isinstance(obj["seed"], int) or not isinstance(obj["actions"], list):
        raise ImportError_("the game file's seed or actions are malformed")
    rec: GameRecord[Any] = GameRecord(obj["game"], obj["options"], obj["seed"], obj["players"], tuple(obj["actions"]))
    try:
        replay(rules_for(rec.game), rec)
    except EngineError as exc:
        where = f" at action #{exc.index}" if exc.index is not None else ""
        raise ImportError_(f"the game does not replay{where}: {exc.message}") from None
    except (TypeError, ValueError, KeyError) as exc:
        raise ImportError_(f"the game file is malformed: {exc}") from None
    return rec


def import_game(st: Storage, text: str) -> int:
    """Import a game file after replaying it through the engine; nothing is stored if it fails."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportError_(f"the file is not valid JSON ({exc.msg}, line {exc.lineno})") from None
    rec = _validate_game(obj)
    seats = obj.get("seats") if isinstance(obj.get("seats"), list) else []
    with st.session() as s:
        row = SavedGame(game=rec.game, options=json.dumps(rec.options, sort_keys=True), seed=rec.seed,
                        players=rec.players or 2, seats=json.dumps(seats), mode="imported", started_at=_now(),
                        updated_at=_now(), action_count=len(rec.actions))
        s.add(row)
        s.flush()
        assert row.id is not None
        for i, a in enumerate(rec.actions):
            s.add(GameAction(game_id=row.id, seq=i, action=json.dumps(a, sort_keys=True)))
        return row.id


def export_session(st: Storage, session_id: int) -> str:
    return json.dumps(_session_file(st, session_id), indent=1, sort_keys=True)


def _session_file(st: Storage, session_id: int, later: frozenset[int] = frozenset()) -> dict[str, Any]:
    """A session in the session-file form. A session that began by carrying rules over from an
    earlier one (P-11.2: its first step names that session) carries the earlier session's file
    with it (``carried_from``), so the file is whole on any device. ``later`` are the sessions
    that carry this one: a damaged file whose carries go round in a circle is refused, not
    followed for ever."""
    if session_id in later:
        raise DamagedRecord(f"session {session_id} carries rules from a session that carries its own")
    sess = load_session(st, session_id)
    with st.session() as s:
        ids = s.exec(select(SavedGame.id).where(SavedGame.session_id == session_id).order_by(col(SavedGame.id))).all()
    games = [json.loads(export_game(st, i)) for i in ids if i is not None]
    out = {"format": SESSION_FORMAT, "version": 1, "id": session_id, "name": sess["name"], "seats": sess["seats"],
           "session": sess["data"], "deals": games}
    earlier = _carried_from(sess["data"])
    if earlier is not None:
        out["carried_from"] = _session_file(st, earlier, later | {session_id})
    return out


def _carried_from(data: Any) -> int | None:
    """The earlier session a session's first step carries rules from, if it does."""
    steps = data.get("steps") if isinstance(data, dict) else None
    first = steps[0] if isinstance(steps, list) and steps else None
    if isinstance(first, list) and first[:1] == ["carry"] and len(first) > 1 and isinstance(first[1], int):
        return first[1]
    return None


def _check_session_file(obj: Any, known: set[int]) -> None:
    """Refuse a session file (and any earlier session it carries) that cannot be imported whole:
    its deals are replayed here, and a session carrying rules from one that is neither in the
    file nor ``known`` (imported from the same archive) is refused."""
    if not isinstance(obj, dict) or obj.get("format") != SESSION_FORMAT:
        raise ImportError_("this is not a Card Table Lopti session file")
    deals = obj.get("deals")
    if not isinstance(deals, list) or not isinstance(obj.get("session"), dict):
        raise ImportError_("the session file has no deals or session data")
    if any(_validate_game(d).game != "lopti" for d in deals):
        raise ImportError_("a Lopti session holds only Lopti deals")
    earlier = _carried_from(obj["session"])
    if earlier is not None and earlier not in known:
        if not isinstance(obj.get("carried_from"), dict):
            raise ImportError_("this session carried rules from an earlier session that is not in the file")
        _check_session_file(obj["carried_from"], known)


def import_session(st: Storage, text: str, imported: dict[int, int] | None = None) -> int:
    """A session file: its deals are replayed and stored, then the session. ``imported`` maps the
    ids of sessions already brought in from the same archive to their new ids (an earlier
    session a session carried rules from is not imported twice)."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportError_(f"the file is not valid JSON ({exc.msg}, line {exc.lineno})") from None
    imported = {} if imported is None else imported
    _check_session_file(obj, set(imported))  # the whole file, before anything is stored
    with st.transaction():
        return _store_session(st, obj, imported)


def _store_session(st: Storage, obj: dict[str, Any], imported: dict[int, int]) -> int:
    game_ids = [import_game(st, json.dumps(d)) for d in obj["deals"]]
    data = dict(obj["session"])
    # the session's steps name its deals by their stored ids: the nth deal step is the nth deal of
    # the file (exported in the order they were played), now under its new id here
    new_ids = iter(game_ids)
    data["steps"] = [["deal", next(new_ids, step[1])] if isinstance(step, list) and step[:1] == ["deal"] else step
                     for step in data.get("steps", [])]
    earlier = _carried_from(data)
    if earlier is not None:  # the session it carried rules from, under its id here
        if earlier not in imported:
            import_session(st, json.dumps(obj["carried_from"]), imported)
        data["steps"][0] = ["carry", imported[earlier], *data["steps"][0][2:]]
    sid = save_session(st, data, obj.get("seats") or [], str(obj.get("name", "Imported session")), status="paused")
    for gid in game_ids:
        with st.session() as s:
            row = s.get(SavedGame, gid)
            assert row is not None
            row.session_id = sid
            s.add(row)
    if isinstance(obj.get("id"), int):
        imported[obj["id"]] = sid
    return sid


ARCHIVE_FORMAT = "cardtable-archive"
ARCHIVE_VERSION = 1


def export_all(st: Storage) -> str:
    """Everything played on this device as one file (documented in docs/app.md, "Your data"): each
    game outside a session in the game-file form, each Lopti session in the session-file form."""
    with st.session() as s:
        ids = s.exec(select(SavedGame.id).where(col(SavedGame.session_id).is_(None)).order_by(col(SavedGame.id))).all()
    games = [json.loads(export_game(st, i)) for i in ids if i is not None]
    sessions_ = [json.loads(export_session(st, int(x["id"]))) for x in sessions(st)]
    return json.dumps({"format": ARCHIVE_FORMAT, "version": ARCHIVE_VERSION, "exported_at": _now(),
                       "games": games, "sessions": sessions_}, indent=1, sort_keys=True)


def import_all(st: Storage, text: str) -> tuple[int, int]:
    """An archive from :func:`export_all`: every game is replayed through the engine *before*
    anything is stored, so a damaged, foreign or too-new file changes nothing. Returns (games,
    sessions) imported."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ImportError_(f"the file is not valid JSON ({exc})") from None
    if not isinstance(obj, dict) or obj.get("format") != ARCHIVE_FORMAT:
        raise ImportError_("this is not a Card Table export file")
    if not isinstance(obj.get("version"), int) or obj["version"] > ARCHIVE_VERSION:
        raise ImportError_("this export file was written by a newer version of the app")
    games, sessions_ = obj.get("games"), obj.get("sessions")
    if not isinstance(games, list) or not isinstance(sessions_, list):
        raise ImportError_("the export file has no games or sessions list")
    for g in games:
        _validate_game(g)
    for sess in sessions_:
        _check_session_file(sess, set())
    with st.transaction():  # all of the archive, or (a disk full half-way) none of it
        for g in games:
            _finish_imported(st, import_game(st, json.dumps(g)))
        imported: dict[int, int] = {}
        for sess in sessions_:
            if sess.get("id") not in imported:  # one carried by a later session may be in already
                import_session(st, json.dumps(sess), imported)
    return len(games), len(sessions_)


def _finish_imported(st: Storage, game_id: int) -> None:
    """An imported game that had ended is in the history, not among the games to continue."""
    info, state = resume_game(st, game_id)
    result = rules_for(info.game).result(state)
    if result is not None:
        finish_game(st, game_id, result.winner, result.reason, list(result.places) or None)


def keep_online_match(st: Storage, record: dict[str, Any], seat: int, opponent: str | None, match_id: str) -> int:
    """A finished online match into the local history (stats by opponent type "online", replay from
    the player's seat): its published record replayed through the engine first, stored once per
    match id. Returns the local game id."""
    for g in history(st, "lanes", limit=200):
        if any(x.get("match_id") == match_id for x in g.seats):
            return g.id
    rec = _validate_game({"format": EXPORT_FORMAT, "version": 1, **{k: record[k] for k in
                          ("game", "options", "seed", "players", "actions")}})
    seats: list[dict[str, Any]] = [{}, {}]
    seats[seat] = {"kind": PERSON}
    seats[1 - seat] = {"kind": ONLINE, "level": ONLINE, "name": opponent, "match_id": match_id}
    gid = new_game(st, rec.game, rec.options, rec.seed, 2, seats, mode="online")
    for i, a in enumerate(rec.actions):
        append_action(st, gid, i, a)
    _finish_imported(st, gid)
    return gid
