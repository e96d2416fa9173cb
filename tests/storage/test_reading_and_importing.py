"""Lists read in a fixed number of queries, an import kept whole or not at all, and a circle of
carried sessions refused (#43 item 5)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from storage import api, transfer
from storage.damage import DamagedRecord
from storage.db import Storage, open_storage
from storage.models import GameAction, LoptiSessionRow, SavedGame
from tests.storage.test_storage import carried_session, play_lanes


@contextmanager
def counted(st: Storage) -> Iterator[list[str]]:
    """The SQL statements run inside the block."""
    seen: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        seen.append(statement)

    event.listen(st.engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(st.engine, "before_cursor_execute", note)


def selects(statements: list[str]) -> int:
    return sum(s.lstrip().upper().startswith("SELECT") for s in statements)


@pytest.mark.parametrize("games", [1, 12])
def test_the_lists_of_games_and_sessions_take_the_same_queries_for_one_game_or_many(tmp_path: Path,
                                                                                     games: int) -> None:
    st = open_storage(tmp_path / "app.sqlite")
    for seed in range(games):
        play_lanes(st, 6, seed)  # in progress
        gid, _ = play_lanes(st, 6, seed)
        api.finish_game(st, gid, 1, "resigned")
        api.save_session(st, {"steps": []}, [{"kind": "person"}])
    with counted(st) as sql:
        in_progress = api.games_in_progress(st)
        done = api.history(st)
        sessions = api.sessions(st)
    assert len(in_progress) == len(done) == len(sessions) == games
    assert all(g.actions for g in in_progress + done)
    assert selects(sql) == 5  # games and their actions, twice; the sessions
    st.close()


def test_the_lists_read_the_same_games_as_one_by_one(tmp_path: Path) -> None:
    st = open_storage(tmp_path / "app.sqlite")
    for seed in range(3):
        play_lanes(st, 5 + seed, seed)
    listed = api.games_in_progress(st)
    assert sorted(g.id for g in listed) == [1, 2, 3]
    assert listed == [api.load_game(st, g.id) for g in listed]
    st.close()


def test_an_archive_that_fails_half_way_stores_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = open_storage(tmp_path / "src.sqlite")
    play_lanes(src, 6)
    carried_session(src)
    archive = api.export_all(src)
    src.close()
    dst = open_storage(tmp_path / "dst.sqlite")
    real = api.save_session
    calls = []

    def the_disk_fills_at_the_second_session(*args: Any, **kwargs: Any) -> int:
        calls.append(1)
        if len(calls) == 2:
            raise OSError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(transfer, "save_session", the_disk_fills_at_the_second_session)
    with pytest.raises(OSError):
        api.import_all(dst, archive)
    assert len(calls) == 2  # the first session and the games before it had been written
    assert [api.count_rows(dst, t) for t in (SavedGame, GameAction, LoptiSessionRow)] == [0, 0, 0]
    monkeypatch.setattr(transfer, "save_session", real)
    assert api.import_all(dst, archive) == (1, 2)  # and the same archive, whole, afterwards
    dst.close()


def test_sessions_that_carry_each_other_in_a_circle_are_refused_not_followed(tmp_path: Path) -> None:
    st = open_storage(tmp_path / "app.sqlite")
    first, second = carried_session(st)
    row = api.load_session(st, first.session_id)
    data = {**row["data"], "steps": [["carry", second.session_id, {}], *row["data"]["steps"]]}
    api.save_session(st, data, row["seats"], session_id=first.session_id)
    with pytest.raises(DamagedRecord, match="carries"):
        api.export_session(st, second.session_id)
    with pytest.raises(DamagedRecord):
        api.export_all(st)
    st.close()


def test_a_transaction_inside_a_transaction_is_the_same_one(tmp_path: Path) -> None:
    st = open_storage(tmp_path / "app.sqlite")
    with pytest.raises(RuntimeError), st.transaction():
        api.new_game(st, "lanes", {}, 1, 2, [{"kind": "person"}, {"kind": "bot", "level": "casual"}])
        with st.transaction():
            api.new_game(st, "lanes", {}, 2, 2, [{"kind": "person"}, {"kind": "bot", "level": "casual"}])
        raise RuntimeError("after both")
    assert api.count_rows(st, SavedGame) == 0
    api.new_game(st, "lanes", {}, 3, 2, [{"kind": "person"}, {"kind": "bot", "level": "casual"}])
    assert api.count_rows(st, SavedGame) == 1  # and outside one, each call commits as before
    st.close()


def test_json_of_a_session_row_that_is_damaged_is_a_damaged_record(tmp_path: Path) -> None:
    st = open_storage(tmp_path / "app.sqlite")
    sid = api.save_session(st, {"steps": []}, [])
    with st.session() as s:
        s.connection().exec_driver_sql("UPDATE loptisessionrow SET data = '{' WHERE id = ?", (sid,))
    with pytest.raises(DamagedRecord):
        api.load_session(st, sid)
    st.close()
