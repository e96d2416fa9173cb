"""Local storage: every table round-trips, nothing is lost after a kill, migrations, bad files,
concurrent writers, export/import."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from engine.core import EngineError
from engine.lanes import RULES, LanesOptions
from engine.lopti.session import LoptiSession
from storage import api
from storage.db import SCHEMA_VERSION, open_storage
from storage.models import GameAction, Outbox, SavedGame
from tests.conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "storage_v1.sqlite"


@pytest.fixture
def st(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = open_storage(tmp_path / "app.sqlite")
    yield s
    s.close()


def play_lanes(st, n: int, seed: int = 5) -> tuple[int, Any]:  # type: ignore[no-untyped-def]
    gid = api.new_game(st, "lanes", {}, seed, 2, [{"kind": "person"}, {"kind": "bot", "level": "casual"}])
    s = RULES.new_game(LanesOptions(), seed)
    for i in range(n):
        if s.over:
            break
        a = RULES.legal_actions(s)[i % len(RULES.legal_actions(s))]
        s, _ = RULES.apply(s, a)
        api.append_action(st, gid, i, RULES.action_to_json(a))
    return gid, s


def test_profile_and_settings_round_trip(st) -> None:  # type: ignore[no-untyped-def]
    assert api.get_profile(st)[0] == "Player"
    api.update_profile(st, display_name="Layla", language="ar", sound=False, card_style="large")
    name, settings = api.get_profile(st)
    assert name == "Layla" and settings["language"] == "ar" and not settings["sound"]
    assert settings["card_style"] == "large"
    with pytest.raises(ValueError):
        api.update_profile(st, colour="red")
    with pytest.raises(ValueError):
        api.update_profile(st, display_name="   ")


def test_saved_game_resumes_to_the_identical_state(st) -> None:  # type: ignore[no-untyped-def]
    gid, state = play_lanes(st, 30)
    info, again = api.resume_game(st, gid)
    assert RULES.position_to_json(again) == RULES.position_to_json(state)
    assert [g.id for g in api.games_in_progress(st)] == [gid]
    api.finish_game(st, gid, 0, "sold")
    assert api.games_in_progress(st) == [] and api.history(st)[0].id == gid


def test_actions_are_never_lost_or_doubled(st) -> None:  # type: ignore[no-untyped-def]
    gid, _ = play_lanes(st, 5)
    info = api.load_game(st, gid)
    api.append_action(st, gid, 4, info.actions[4])  # a retry of the last save: no-op
    assert len(api.load_game(st, gid).actions) == 5
    with pytest.raises(ValueError):
        api.append_action(st, gid, 4, {"discard": "KS"})  # a different action at the same number
    with pytest.raises(ValueError):
        api.append_action(st, gid, 9, {"discard": "KS"})  # a gap


def test_stats_per_game_and_bot_level(st) -> None:  # type: ignore[no-untyped-def]
    for winner in (0, 0, 1, 0):
        gid, _ = play_lanes(st, 3)
        api.finish_game(st, gid, winner, "sold")
    s = api.stats(st)["lanes/casual"]
    assert (s["played"], s["won"], s["streak"], s["best_streak"]) == (4, 3, 1, 2) and s["avg_actions"] == 3


def test_lopti_session_paused_and_resumed(st) -> None:  # type: ignore[no-untyped-def]
    sess = LoptiSession(players=3, seed=2)
    sid = api.save_session(st, sess.to_json(), [{"kind": "person"}, {"kind": "bot", "level": "expert"},
                                               {"kind": "bot", "level": "casual"}], name="Friday", status="paused")
    back = api.load_session(st, sid)
    assert back["data"] == json.loads(json.dumps(sess.to_json())) and back["status"] == "paused"
    api.save_session(st, back["data"], back["seats"], "Friday", session_id=sid, status="running")
    assert [x["status"] for x in api.sessions(st)] == ["running"]


def test_presets_tutorial_account_outbox(st, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    api.save_preset(st, "lanes_variants", "Soft", ["king_adds", "reshuffle"])
    with pytest.raises(EngineError):
        api.save_preset(st, "lanes_variants", "Bad", ["no_such_variant"])
    from engine.lopti.templates import TEMPLATES
    api.save_preset(st, "lopti_rule", "Eights", TEMPLATES[0])
    with pytest.raises(ValueError):
        api.save_preset(st, "lopti_rule", "Broken", {"id": "x"})
    assert [p[1] for p in api.presets(st, "lanes_variants")] == ["Soft"]
    api.set_lesson(st, "lanes-1", 3, False)
    api.set_lesson(st, "lanes-1", 5, True)
    api.set_lesson(st, "lanes-1", 0, False)
    assert api.lesson_progress(st) == {"lanes-1": (0, True)}  # completion is never lost
    api.set_account(st, "http://127.0.0.1:8600", "p1", "secret-token", "Layla")
    assert api.get_account(st, "http://127.0.0.1:8600/").token == "secret-token"  # type: ignore[union-attr]
    assert oct(os.stat(st.path).st_mode & 0o777) == "0o600"
    a, b = api.enqueue(st, "move", {"n": 1}), api.enqueue(st, "move", {"n": 2})
    assert [p[2]["n"] for p in api.pending(st)] == [1, 2]
    api.done(st, a)
    assert [p[0] for p in api.pending(st)] == [b]


def test_migrates_the_schema_1_fixture(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    shutil.copy(FIXTURE, path)
    st = open_storage(path)
    try:
        assert st.notice is None
        name, settings = api.get_profile(st)
        assert name == "Old Friend" and settings["language"] == "ar" and settings["card_style"] == "classic"
        info, state = api.resume_game(st, 1)
        assert len(info.actions) == 6 and state.ply == 6
        assert api.presets(st, "lanes_variants")[0][2] == ["king_adds"]
        api.enqueue(st, "hello", {})  # the table schema 2 added works
        assert api.count_rows(st, Outbox) == 1
    finally:
        st.close()
    import sqlite3
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_corrupt_file_is_kept_aside_and_the_app_starts_fresh(tmp_path: Path) -> None:
    path = tmp_path / "app.sqlite"
    path.write_bytes(b"this is not sqlite at all" * 100)
    st = open_storage(path)
    try:
        assert st.notice and "could not be read" in st.notice
        kept = list(tmp_path.glob("app.sqlite.corrupt-*.bak"))
        assert len(kept) == 1 and kept[0].read_bytes().startswith(b"this is not sqlite")
        assert api.get_profile(st)[0] == "Player"
    finally:
        st.close()


def test_newer_version_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "app.sqlite"
    st = open_storage(path)
    api.update_profile(st, display_name="Future")
    st.close()
    import sqlite3
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    st2 = open_storage(path)
    try:
        assert st2.notice and "newer version" in st2.notice
        kept = list(tmp_path.glob("app.sqlite.newer-*.bak"))
        assert len(kept) == 1
        assert sqlite3.connect(kept[0]).execute("SELECT display_name FROM profile").fetchone()[0] == "Future"
        assert api.get_profile(st2)[0] == "Player"
    finally:
        st2.close()


def test_concurrent_writers_never_see_database_is_locked(tmp_path: Path) -> None:
    path = tmp_path / "app.sqlite"
    st = open_storage(path)
    other = open_storage(path)  # a second engine, like a background task
    gid = api.new_game(st, "lanes", {}, 1, 2, [])
    errors: list[BaseException] = []

    def writer(store, kind: str) -> None:  # type: ignore[no-untyped-def]
        try:
            for i in range(60):
                api.enqueue(store, kind, {"i": i})
                api.update_profile(store, sound=bool(i % 2))
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)
    threads = [threading.Thread(target=writer, args=(s, k)) for s, k in ((st, "a"), (other, "b"), (st, "c"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert api.count_rows(st, Outbox) == 180 and api.load_game(st, gid).actions == []
    st.close()
    other.close()


CHILD = r"""
import sys, json
sys.path.insert(0, sys.argv[2])
from engine.lanes import RULES, LanesOptions
from storage.db import open_storage
from storage import api
st = open_storage(sys.argv[1])
gid = api.new_game(st, "lanes", {}, 77, 2, [])
s = RULES.new_game(LanesOptions(), 77)
i = 0
while True:
    if s.over:
        s = RULES.new_game(LanesOptions(), 77 + i)
        gid = api.new_game(st, "lanes", {}, 77 + i, 2, [])
        i = 0
    a = RULES.legal_actions(s)[0]
    s, _ = RULES.apply(s, a)
    api.append_action(st, gid, i, RULES.action_to_json(a))
    print(gid, i, flush=True)
    i += 1
"""


def test_resume_after_sigkill_loses_and_doubles_nothing(tmp_path: Path) -> None:
    path = tmp_path / "app.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(ROOT)], stdout=subprocess.PIPE, text=True)
    lines: list[str] = []
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while len(lines) < 40 and time.monotonic() < deadline:
        lines.append(proc.stdout.readline())
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # the child runs on while we read: every line it printed before the kill is an acknowledged
    # action (a loaded machine once left three more in the pipe, and the check counted them as lost)
    lines += [line for line in proc.stdout.read().splitlines(keepends=True) if line.endswith("\n")]
    gid, last = map(int, lines[-1].split())
    st = open_storage(path)
    try:
        info, state = api.resume_game(st, gid)
        # every acknowledged action is there; at most the one in flight beyond it
        assert last + 1 <= len(info.actions) <= last + 2
        with st.session() as s:
            from sqlmodel import select
            seqs = [a.seq for a in s.exec(select(GameAction).where(GameAction.game_id == gid))]
            row = s.get(SavedGame, gid)
        assert sorted(seqs) == list(range(len(seqs))) and row is not None and row.action_count == len(seqs)
        replayed = RULES.new_game(LanesOptions(), info.seed)
        for a in info.actions:
            replayed, _ = RULES.apply(replayed, RULES.parse_action(a))
        assert RULES.position_to_json(replayed) == RULES.position_to_json(state)
    finally:
        st.close()


def test_export_and_import_validate_through_the_engine(st) -> None:  # type: ignore[no-untyped-def]
    gid, state = play_lanes(st, 12)
    text = api.export_game(st, gid)
    new_id = api.import_game(st, text)
    assert RULES.position_to_json(api.resume_game(st, new_id)[1]) == RULES.position_to_json(state)
    bad = json.loads(text)
    bad["actions"][3] = {"play": "KS", "lane": 0, "owner": 1, "stack": 9}
    with pytest.raises(api.ImportError_) as info:
        api.import_game(st, json.dumps(bad))
    assert "action #3" in str(info.value)
    for junk in ("not json", "[]", json.dumps({"format": "cardtable-game", "version": 9}),
                 json.dumps({**json.loads(text), "game": "poker"})):
        with pytest.raises(api.ImportError_):
            api.import_game(st, junk)
    assert len(api.games_in_progress(st)) == 2  # nothing half-imported


def test_session_export_import(st, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A session survives export and import on another device whole: the same rules, deals,
    results, votes and base rules once its steps are replayed from the imported deals; the deals
    hold the same records."""
    from engine.lopti.votes import Proposal
    from tests.views.test_rule_builder import _session_after_a_bot_win
    from views.lopti.session import SessionFlow

    flow = _session_after_a_bot_win(st)  # deals played, a rule written by the bot's win
    name, _now, choices = flow.params()[0]
    flow.vote(Proposal("param", 0, when="next_deal", param=name, value=choices[0][0]), {0: True})
    before = flow.session.to_json()
    assert before["results"] and before["rules"] and before["votes"]  # something to lose
    text = api.export_session(st, flow.session_id)  # type: ignore[arg-type]
    other = open_storage(tmp_path / "other-device.sqlite")
    try:
        api.new_game(other, "lanes", {}, 1, 2, [{"kind": "bot"}] * 2)  # its ids are not the exporter's
        new_sid = api.import_session(other, text)
        assert SessionFlow.resume(other, new_sid).session.to_json() == before
        old_row, new_row = api.load_session(st, flow.session_id), api.load_session(other, new_sid)  # type: ignore[arg-type]
        assert (new_row["status"], new_row["seats"], new_row["name"]) == ("paused", old_row["seats"], old_row["name"])

        def deals(t: str) -> list[dict[str, object]]:
            return [{k: v for k, v in d.items() if k != "id"} for d in json.loads(t)["deals"]]

        assert deals(api.export_session(other, new_sid)) == deals(text) and deals(text)
        with pytest.raises(api.ImportError_):
            api.import_session(other, text.replace("cardtable-lopti-session", "nope"))
    finally:
        other.close()


def test_database_location_flag_env_mobile_and_default(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from storage.paths import database_path
    monkeypatch.delenv("CARDTABLE_DB", raising=False)
    monkeypatch.delenv("FLET_APP_STORAGE_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert database_path() == tmp_path / "xdg" / "cardtable" / "cardtable.sqlite"
    monkeypatch.setenv("FLET_APP_STORAGE_DATA", str(tmp_path / "mobile"))
    assert database_path() == tmp_path / "mobile" / "cardtable.sqlite"
    monkeypatch.setenv("CARDTABLE_DB", str(tmp_path / "env.sqlite"))
    assert database_path() == tmp_path / "env.sqlite"
    assert database_path(tmp_path / "flag.sqlite") == tmp_path / "flag.sqlite"


def test_export_all_and_import_all_round_trip_and_refuse_bad_files_changing_nothing(tmp_path: Path) -> None:
    """#18, "Your data": one versioned file with every game and session; importing it into a fresh
    database gives the same games and results; a damaged, foreign or newer file is refused with a
    reason and nothing is stored."""
    import json as _json

    from storage.api import ImportError_, export_all, import_all

    src = open_storage(tmp_path / "src.sqlite")
    gid, state = play_lanes(src, 400)
    assert state.over
    api.finish_game(src, gid, state.winner, state.reason)
    info = api.load_game(src, gid)
    text = export_all(src)
    src.close()
    dst = open_storage(tmp_path / "dst.sqlite")
    assert import_all(dst, text) == (1, 0)
    [again] = api.history(dst)
    assert again.actions == info.actions and again.winner == info.winner and api.games_in_progress(dst) == []
    before = api.count_rows(dst, SavedGame)
    newer = {**_json.loads(text), "version": 99}
    broken = _json.loads(text)
    broken["games"][0]["actions"][0] = {"play": "ZZ"}
    for bad, says in (("{nope", "not valid JSON"), (_json.dumps({"format": "other"}), "not a Card Table"),
                      (_json.dumps(newer), "newer version"), (_json.dumps(broken), "does not replay")):
        with pytest.raises(ImportError_) as exc:
            import_all(dst, bad)
        assert says in str(exc.value)
    assert api.count_rows(dst, SavedGame) == before
    dst.close()


def test_an_imported_session_resumes_with_its_deals_under_their_new_ids(tmp_path: Path) -> None:
    """A session file names its deals by stored ids: imported elsewhere, the deals get new ids and
    the session's steps follow them, so the session resumes to the same state."""
    from tests.views.test_rule_builder import session_won_by_the_person
    from views.lopti.session import SessionFlow

    src = open_storage(tmp_path / "src.sqlite")
    flow = session_won_by_the_person(src)
    text = api.export_session(src, flow.session_id)  # type: ignore[arg-type]
    src.close()
    dst = open_storage(tmp_path / "dst.sqlite")
    api.new_game(dst, "lanes", {}, 1, 2, [{"kind": "person"}, {"kind": "bot"}])  # the ids here differ
    sid = api.import_session(dst, text)
    again = SessionFlow.resume(dst, sid)
    assert again.session.to_json() == flow.session.to_json()
    dst.close()


def carried_session(st: Any) -> tuple[Any, Any]:
    """A session in which seat 2 (a person) won a deal and added a rule, and the next session at
    that table, which kept the rule: three people of four vote for it at setup (P-11.2)."""
    from tests.views.test_lopti_session import session_won_by_seat_1

    first = session_won_by_seat_1(st, ["person", "person", "casual"], seed=13)
    rule = next(r.id for r in first.session.rules if r.author == 1)
    second = first.next_session(77, {rule: {0: True, 1: True, 2: True}})
    assert rule in [r.id for r in second.session.rules]
    return first, second


def test_P_11_2_a_session_that_carried_rules_is_exported_whole_and_imports_anywhere(tmp_path: Path) -> None:
    from views.lopti.session import SessionFlow

    src = open_storage(tmp_path / "src.sqlite")
    first, second = carried_session(src)
    alone = api.export_session(src, second.session_id)
    archive = api.export_all(src)
    src.close()
    for text, importer in ((alone, api.import_session), (archive, api.import_all)):
        dst = open_storage(tmp_path / f"dst-{importer.__name__}.sqlite")
        for _ in range(3):  # other sessions here first: the ids differ from the file's
            SessionFlow(dst, ["beginner"], seed=5).save()
        importer(dst, text)
        found = [SessionFlow.resume(dst, int(x["id"])) for x in api.sessions(dst)]
        carried = [f for f in found if f.steps and f.steps[0][0] == "carry"]
        assert len(carried) == 1 and carried[0].session.to_json() == second.session.to_json()
        assert sum(f.session.to_json() == first.session.to_json() for f in found) == 1  # brought along once
        dst.close()


def test_a_session_file_whose_earlier_session_is_missing_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    src = open_storage(tmp_path / "src.sqlite")
    _, second = carried_session(src)
    obj = json.loads(api.export_session(src, second.session_id))
    src.close()
    del obj["carried_from"]
    dst = open_storage(tmp_path / "dst.sqlite")
    with pytest.raises(api.ImportError_, match="earlier session"):
        api.import_session(dst, json.dumps(obj))
    assert api.sessions(dst) == [] and api.history(dst) == []
    dst.close()
