"""Files in and out: a game, a Lopti session (with any session it carried rules from) and the
whole archive. Every game is replayed through the engine before anything is stored, and an import
is one transaction: a file is kept whole or not at all. A finished online match is kept the same way.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import col, select

from engine.core import EngineError, GameRecord, replay
from engine.games import GAMES, rules_for
from storage.damage import DamagedRecord
from storage.db import Storage, now
from storage.games import append_action, finish_game, history, load_game, new_game, resume_game
from storage.models import GameAction, SavedGame
from storage.seats import ONLINE, PERSON
from storage.sessions import load_session, save_session, sessions
from storage.settings import check_preset, presets, save_preset

EXPORT_FORMAT = "cardtable-game"
SESSION_FORMAT = "cardtable-lopti-session"


class ImportError_(ValueError):
    """A file that cannot be imported; the message says why in plain words."""


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
                        players=rec.players or 2, seats=json.dumps(seats), mode="imported", started_at=now(),
                        updated_at=now(), action_count=len(rec.actions))
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
    library = [{"kind": kind, "name": name, "data": data}
               for kind in PRESET_KINDS for _, name, data in presets(st, kind)]
    return json.dumps({"format": ARCHIVE_FORMAT, "version": ARCHIVE_VERSION, "exported_at": now(),
                       "games": games, "sessions": sessions_, "library": library}, indent=1, sort_keys=True)


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
    library = _library(obj.get("library", []))  # an archive from before the library has none
    with st.transaction():  # all of the archive, or (a disk full half-way) none of it
        for kind, name, data in library:
            save_preset(st, kind, name, data)  # one already in the library is kept once
        for g in games:
            _finish_imported(st, import_game(st, json.dumps(g)))
        imported: dict[int, int] = {}
        for sess in sessions_:
            if sess.get("id") not in imported:  # one carried by a later session may be in already
                import_session(st, json.dumps(sess), imported)
    return len(games), len(sessions_)


#: what the library keeps (storage/settings.py ``check_preset``)
PRESET_KINDS = ("lanes_variants", "lopti_rule")


def _library(items: Any) -> list[tuple[str, str, Any]]:
    """An archive's library (saved Lanes variant sets and Lopti rules), every item checked first."""
    if not isinstance(items, list):
        raise ImportError_("the export file's library is not a list")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise ImportError_(f"library item {i + 1} is not an object")
        try:
            check_preset(item.get("kind", ""), item.get("name"), item.get("data"))
        except (EngineError, ValueError, TypeError, AttributeError, KeyError) as exc:
            raise ImportError_(f"library item {i + 1}: {exc}") from None
        out.append((item["kind"], item["name"], item["data"]))
    return out


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
