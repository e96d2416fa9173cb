"""A damaged stored record is refused in words; a bug met while opening one is not (#43 item 6).

The four screens that open a stored record (a table resumed, a replay, a review, a Lopti session)
catch `storage.damage.DAMAGE` only: what a damaged record raises. Before, each caught every
``Exception`` and so turned a programming error into "this game cannot be replayed"."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.core import IllegalAction
from storage import api
from storage.damage import DamagedRecord
from storage.db import Storage, open_storage
from tests.views.test_screens import played_lanes_game
from views.ui.i18n import t


class Host:
    """What the four screens use of the app before they open a record (and where they go if not)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.lang = "en"
        self.turned_back: list[tuple[str, str]] = []

    def turn_back(self, message: str, route: str = "/") -> None:
        self.turned_back.append((route, message))


def resume_table(host: Any, game_id: int, monkeypatch: pytest.MonkeyPatch, fault: Exception) -> None:
    from views.lanes.controller import LanesMatch
    from views.screens import play

    monkeypatch.setattr(LanesMatch, "resume", lambda *a: (_ for _ in ()).throw(fault))
    play.resume(host, game_id)


def replay(host: Any, game_id: int, monkeypatch: pytest.MonkeyPatch, fault: Exception) -> None:
    from views.screens import replay as replay_screen

    monkeypatch.setattr(replay_screen, "open_replay", lambda *a: (_ for _ in ()).throw(fault))
    replay_screen.replay(host, game_id)


def lopti_session(host: Any, game_id: int, monkeypatch: pytest.MonkeyPatch, fault: Exception) -> None:
    from views.lopti import play

    monkeypatch.setattr(play.api, "sessions", lambda st: [{"id": 7}])
    monkeypatch.setattr(play.SessionFlow, "resume", lambda *a: (_ for _ in ()).throw(fault))
    play.session(host, 7)


OPENERS: list[Callable[..., None]] = [resume_table, replay, lopti_session]
#: the words each opener says of a damaged record
SAYS = {resume_table: "replay_broken", replay: "replay_broken", lopti_session: "sess_broken"}
DAMAGE = [IllegalAction("there is no lane 9", index=3), DamagedRecord("the seats are not a list"),
          KeyError("levels"), TypeError("int() argument must be a number, not 'NoneType'"),
          IndexError("list index out of range"), ValueError("Expecting value: line 1 column 1")]
BUGS = [AttributeError("'NoneType' object has no attribute 'seats'"), AssertionError(), RuntimeError("bug"),
        sqlite3.OperationalError("disk I/O error")]


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[tuple[Storage, int]]:
    game_id = played_lanes_game(tmp_path / "app.sqlite", 0)
    st = open_storage(tmp_path / "app.sqlite")
    yield st, game_id
    st.close()


@pytest.mark.parametrize("fault", DAMAGE, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("opener", OPENERS, ids=lambda f: f.__name__)
def test_damage_is_refused_in_words(stored: tuple[Storage, int], opener: Callable[..., None], fault: Exception,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    host = Host(stored[0])
    opener(host, stored[1], monkeypatch, fault)
    assert host.turned_back == [(host.turned_back[0][0], t("en", SAYS[opener], why=str(fault)))]


@pytest.mark.parametrize("fault", BUGS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("opener", OPENERS, ids=lambda f: f.__name__)
def test_a_bug_surfaces(stored: tuple[Storage, int], opener: Callable[..., None], fault: Exception,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    host = Host(stored[0])
    with pytest.raises(type(fault)):
        opener(host, stored[1], monkeypatch, fault)
    assert host.turned_back == []


@pytest.mark.parametrize(("column", "value"), [("seats", "[1, 2]"), ("seats", "{"), ("options", "not json")])
def test_a_row_of_the_wrong_shape_is_a_damaged_record(stored: tuple[Storage, int], column: str, value: str) -> None:
    st, game_id = stored
    with st.session() as s:
        s.connection().exec_driver_sql(f"UPDATE savedgame SET {column} = ? WHERE id = ?", (value, game_id))
    with pytest.raises(DamagedRecord):
        api.load_game(st, game_id)


def test_a_damaged_seat_list_says_so_when_its_table_is_opened(stored: tuple[Storage, int]) -> None:
    from views.screens import play

    st, game_id = stored
    with st.session() as s:
        s.connection().exec_driver_sql("UPDATE savedgame SET seats = '[1, 2]' WHERE id = ?", (game_id,))
    host = Host(st)
    play.resume(host, game_id)  # type: ignore[arg-type]
    assert host.turned_back and "seats" in host.turned_back[0][1]
