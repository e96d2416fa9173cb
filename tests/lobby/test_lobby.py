"""The lobby with a fake clock (no sleeping): accounts, matchmaking, every clock rule, idempotent
moves, ratings, restart continuity and what each player may see."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.lanes import RULES
from engine.lanes.notation import spectate
from engine.lanes.options import VARIANTS
from lobby.app import create_app
from lobby.glicko2 import Rating, after_game
from lobby.service import AWAY_S, FIRST_MOVE_S, UNTIMED_MOVE_S
from tests.lobby.conftest import Lobby


def both_first_moves(lb: Lobby, mid: str, a: dict[str, str], b: dict[str, str]) -> None:
    for _ in range(2):
        who, _other = lb.to_move(mid, a, b)
        assert lb.move(who, mid).status_code == 200


def test_guest_accounts_tokens_rename_revoke(lobby: Lobby) -> None:
    a = lobby.player("Ann")
    assert lobby.c.get("/players/me").status_code == 401
    assert lobby.c.get("/players/me", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert lobby.c.get("/players/me", headers=lobby.h(a)).json()["name"] == "Ann"
    assert lobby.c.patch("/players/me", json={"name": "Anna"}, headers=lobby.h(a)).json()["name"] == "Anna"
    assert lobby.c.post("/players", json={"name": ""}).status_code == 422
    lobby.c.post("/players/me/revoke", headers=lobby.h(a))
    assert lobby.c.get("/players/me", headers=lobby.h(a)).status_code == 401


def test_rated_seeks_refuse_variants_casual_ones_pair(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    r = lobby.c.post("/seeks", json={"rated": True, "time_control": "3+2", "variants": ["king_adds"]},
                     headers=lobby.h(a))
    assert r.status_code == 422 and "never rated" in r.json()["error"]
    assert lobby.c.post("/seeks", json={"rated": True, "time_control": "9+9"}, headers=lobby.h(a)).status_code == 422
    s1 = lobby.c.post("/seeks", json={"rated": False, "time_control": "untimed", "variants": ["king_adds"]},
                      headers=lobby.h(a)).json()
    s2 = lobby.c.post("/seeks", json={"rated": False, "time_control": "untimed", "variants": ["king_adds"]},
                      headers=lobby.h(b)).json()
    assert s2["status"] == "matched" and lobby.c.get(f"/seeks/{s1['id']}", headers=lobby.h(a)).json()["match_id"]


def test_pairing_window_widens_while_waiting(lobby: Lobby) -> None:
    from sqlmodel import Session

    from lobby.models import Player
    a, b = lobby.player("Ann"), lobby.player("Bob")
    with Session(lobby.app.state.engine) as db:
        p = db.get(Player, b["id"])
        assert p is not None
        p.rating = 1800
        db.add(p)
        db.commit()
    s1 = lobby.c.post("/seeks", json={"rated": True, "time_control": "5+3"}, headers=lobby.h(a)).json()
    s2 = lobby.c.post("/seeks", json={"rated": True, "time_control": "5+3"}, headers=lobby.h(b)).json()
    assert s1["status"] == s2["status"] == "open"  # 300 apart, window 100
    lobby.clock.advance(20)
    assert lobby.c.get(f"/seeks/{s1['id']}", headers=lobby.h(a)).json()["status"] == "open"  # a poll pairs nothing
    lobby.app.state.sweep_once()  # the sweeper pairs (every second in a running lobby)
    assert lobby.c.get(f"/seeks/{s1['id']}", headers=lobby.h(a)).json()["status"] == "matched"


def test_first_move_rule_aborts_without_result_or_rating(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    v = lobby.view(a, mid)
    assert v["clock"]["first_move_deadline"] == v["clock"]["server_now"] + FIRST_MOVE_S
    assert not v["clock"]["running"]
    lobby.clock.advance(FIRST_MOVE_S + 1)
    v = lobby.view(a, mid)
    assert v["status"] == "aborted" and v["winner"] is None and v["rating_change"] is None
    assert lobby.c.get("/players/me", headers=lobby.h(a)).json()["rated_games"] == 0


def test_clock_starts_after_both_first_moves_then_increment(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b, tc="3+2")
    lobby.clock.advance(30)  # thinking over a first move costs no clock time
    both_first_moves(lobby, mid, a, b)
    v = lobby.view(a, mid)
    assert v["clock"]["running"] and v["clock"]["remaining_ms"] == [180_000, 180_000]
    who, _ = lobby.to_move(mid, a, b)
    seat = lobby.view(who, mid)["seat"]
    lobby.clock.advance(10)
    assert lobby.view(who, mid)["clock"]["remaining_ms"][seat] == 170_000  # computed, never ticked
    lobby.move(who, mid)
    rem = lobby.view(who, mid)["clock"]["remaining_ms"][seat]
    assert rem == 180_000 - (10_000 - 300) + 2_000  # spent minus the lag allowance, plus increment


def test_flag_is_checked_before_the_move(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b, tc="1+0")
    both_first_moves(lobby, mid, a, b)
    who, other = lobby.to_move(mid, a, b)
    lobby.clock.advance(40)
    lobby.view(other, mid)  # the opponent is watching
    lobby.clock.advance(21)
    r = lobby.c.post(f"/matches/{mid}/moves", headers=lobby.h(who),
                     json={"expected_move": 2, "client_move_id": "late", "action": {"discard": "2S"}})
    assert r.status_code == 409 and r.json()["view"]["status"] == "finished"
    v = lobby.view(other, mid)
    assert v["reason"] == "timeout" and v["winner"] == v["seat"]


def test_sweeper_flags_without_any_request(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b, tc="1+0")
    both_first_moves(lobby, mid, a, b)
    lobby.clock.advance(62)
    lobby.app.state.sweep_once()
    from sqlmodel import Session

    from lobby.models import Match
    with Session(lobby.app.state.engine) as db:
        m = db.get(Match, mid)
        assert m is not None and m.status == "finished" and m.reason in ("timeout", "disconnected")


def test_untimed_five_minutes_on_one_move_loses(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b, tc="untimed")
    both_first_moves(lobby, mid, a, b)
    who, other = lobby.to_move(mid, a, b)
    for _ in range(5):  # both stay connected
        lobby.clock.advance(UNTIMED_MOVE_S / 5 - 1)
        lobby.view(who, mid)
        lobby.view(other, mid)
    assert lobby.view(other, mid)["status"] == "running"
    lobby.clock.advance(10)
    v = lobby.view(other, mid)
    assert v["status"] == "finished" and v["reason"] == "timeout" and v["winner"] == v["seat"]


def test_away_one_minute_loses_and_the_opponent_sees_the_countdown(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b, tc="10+5")
    both_first_moves(lobby, mid, a, b)
    lobby.clock.advance(30)
    v = lobby.view(a, mid)
    assert v["opponent_away_s"] == 30 and v["opponent_loses_in_s"] == AWAY_S - 30
    lobby.clock.advance(31)
    v = lobby.view(a, mid)
    assert v["status"] == "finished" and v["reason"] == "disconnected" and v["winner"] == v["seat"]


def test_moves_are_idempotent_and_ordered(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    who, other = lobby.to_move(mid, a, b)
    first = lobby.move(who, mid, cid="m1")
    again = lobby.c.post(f"/matches/{mid}/moves", headers=lobby.h(who),
                         json={"expected_move": 0, "client_move_id": "m1", "action": {"discard": "KS"}})
    assert again.status_code == 200 and again.json() == first.json()
    assert lobby.view(who, mid)["move_count"] == 1
    stale = lobby.c.post(f"/matches/{mid}/moves", headers=lobby.h(other),
                         json={"expected_move": 0, "client_move_id": "x", "action": {"discard": "KS"}})
    assert stale.status_code == 409 and stale.json()["view"]["move_count"] == 1


def test_out_of_turn_other_seat_outsiders_and_illegal_moves(lobby: Lobby) -> None:
    a, b, c = lobby.player("Ann"), lobby.player("Bob"), lobby.player("Cy")
    mid = lobby.match(a, b)
    who, other = lobby.to_move(mid, a, b)
    r = lobby.move(other, mid, action=lobby.view(who, mid)["legal"][0], cid="sneaky")
    assert r.status_code == 409 and "not your turn" in r.json()["error"]
    assert lobby.c.get(f"/matches/{mid}", headers=lobby.h(c)).status_code == 403
    bad = lobby.move(who, mid, action={"play": "QQ", "lane": 0}, cid="bad")
    assert bad.status_code == 422
    v = lobby.view(who, mid)
    for card in v["observation"]["hand"]:  # the server refuses exactly what the engine does not list
        r2 = lobby.move(who, mid, action={"discard": card}, cid=f"discard-{card}")
        assert (r2.status_code == 200) == ({"discard": card} in v["legal"]), (card, r2.text)
        if r2.status_code == 200:
            break
        assert r2.status_code == 422 and r2.json()["detail"]["code"] == "illegal_action"


def play_out(lobby: Lobby, mid: str, a: dict[str, str], b: dict[str, str], texts: dict[str, list[str]]) -> None:
    for _ in range(400):
        who, _ = lobby.to_move(mid, a, b)
        v = lobby.view(who, mid)
        texts[who["id"]].append(json.dumps(v))
        if v["status"] != "running":
            return
        from engine.bots import decide
        action = decide("lanes", v["observation"], "casual", v["move_count"])
        r = lobby.move(who, mid, action=RULES.action_to_json(action))
        assert r.status_code == 200, r.text
        texts[who["id"]].append(r.text)


def test_rated_match_changes_ratings_as_computed_and_variants_stay_unrated(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b, tc="10+5")
    texts: dict[str, list[str]] = {a["id"]: [], b["id"]: []}
    play_out(lobby, mid, a, b, texts)
    va = lobby.view(a, mid)
    assert va["status"] == "finished" and va["rating_change"] is not None
    score_a = 1.0 if va["winner"] == va["seat"] else 0.0
    ra, rb = after_game(Rating(), Rating(), score_a)
    me = lobby.c.get("/players/me", headers=lobby.h(a)).json()
    assert me["rating"] == round(ra.rating) and me["rated_games"] == 1
    assert lobby.c.get("/players/me", headers=lobby.h(b)).json()["rating"] == round(rb.rating)
    board = lobby.c.get("/leaderboard").json()
    assert [p["id"] for p in board][0] == (a["id"] if score_a else b["id"])
    prof = lobby.c.get(f"/players/{a['id']}").json()
    assert prof["history"][0]["match_id"] == mid and prof["recent"][0]["match_id"] == mid
    rep = lobby.c.get(f"/matches/{mid}/replay").json()
    assert rep["seed"] and len(rep["actions"]) >= va["move_count"]
    mid2 = lobby.match(a, b, rated=False, tc="10+5", variants=["king_adds"])
    play_out(lobby, mid2, a, b, {a["id"]: [], b["id"]: []})
    assert lobby.view(a, mid2)["rating_change"] is None
    assert lobby.c.get("/players/me", headers=lobby.h(a)).json()["rated_games"] == 1


@settings(max_examples=int(os.environ.get("LEAK_EXAMPLES", 200 if os.environ.get("SOAK") else 6)), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(picks=st.lists(st.integers(0, 999), min_size=4, max_size=18),
       variants=st.sets(st.sampled_from(sorted(VARIANTS)), max_size=3), waits=st.integers(0, 3))
def test_no_response_or_event_leaks_the_opponents_hand_deck_or_seed(lobby: Lobby, picks: list[int],
                                                                     variants: set[str], waits: int) -> None:
    """Property (#9 security): over random matches — random legal moves, casual variants — no
    answer a player gets (both views, the move's answer, a repeated move's answer, the events of a
    poll) holds the opponent's hand, the order of either deck or the seed; each view's observation
    is the engine's ``observe`` for that seat, and another player's draw never names the card. A
    spectator's view and events (#45) hold neither hand and are the engine's ``spectate``."""
    from sqlmodel import Session

    from lobby.models import Match
    from lobby.service import state_of
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b, rated=not variants, tc="10+5", variants=sorted(variants))
    assert lobby.c.get(f"/matches/{mid}/replay").status_code == 409  # not while running
    seats = {a["id"]: lobby.view(a, mid)["seat"], b["id"]: lobby.view(b, mid)["seat"]}

    def check(answer: Any, seat: int) -> None:
        text = json.dumps(answer.json())  # one spacing for the answer and the lists looked for
        with Session(lobby.app.state.engine) as db:
            m = db.get(Match, mid)
            assert m is not None
            state, seed = state_of(m), m.seed
        assert str(seed) not in text
        opp = state.sides[1 - seat]
        if len(opp.hand) > 1:
            assert json.dumps([str(c) for c in opp.hand]) not in text
        # any five cards in a row of the opponent's hand or of either deck (the order of the draws
        # to come), in any list of the answer: five, so that the same cards of the other deck in
        # the same order cannot show up by chance (about 1 in 4 * 10^8 per pair of places)
        for cards in (opp.hand, *(side.deck for side in state.sides)):
            names = [json.dumps(str(c)) for c in cards]
            for i in range(len(names) - 4):
                assert ", ".join(names[i:i + 5]) not in text

    for pick in picks:
        for who in (a, b):
            seat = seats[who["id"]]
            r = lobby.c.get(f"/matches/{mid}", headers=lobby.h(who))
            check(r, seat)
            with Session(lobby.app.state.engine) as db:
                m = db.get(Match, mid)
                assert m is not None
                assert r.json()["observation"] == RULES.observe(state_of(m), seat)
            events = lobby.c.get(f"/matches/{mid}/poll?since=0&timeout=0", headers=lobby.h(who))
            check(events, seat)
            for e in events.json()["events"]:
                if e["type"] == "draw" and e["player"] != seat:
                    assert "card" not in e
        watched = lobby.c.get(f"/live/{mid}")  # #45: a spectator sees neither hand
        if variants:
            assert watched.status_code == 404  # a casual match is private
        else:
            public = lobby.c.get(f"/live/{mid}/poll?since=0&timeout=0")
            for seat in (0, 1):
                check(watched, seat)
                check(public, seat)
            with Session(lobby.app.state.engine) as db:
                m = db.get(Match, mid)
                assert m is not None
                assert watched.json()["observation"] == spectate(state_of(m))
            assert all("card" not in e for e in public.json()["events"] if e["type"] == "draw")
            assert watched.json()["legal"] == [] and watched.json()["observation"]["hand"] == []
        who, _ = lobby.to_move(mid, a, b)
        v = lobby.view(who, mid)
        if v["status"] != "running":
            break
        lobby.clock.advance(waits)
        body = {"expected_move": v["move_count"], "client_move_id": f"m{v['move_count']}",
                "action": v["legal"][pick % len(v["legal"])]}
        for _ in range(1 + pick % 2):  # sometimes the same move twice: the receipt's answer too
            r = lobby.c.post(f"/matches/{mid}/moves", headers=lobby.h(who), json=body)
            assert r.status_code == 200, r.text
            check(r, seats[who["id"]])


@contextmanager
def serving(url: str, clock: Any) -> Iterator[Lobby]:
    """A lobby on ``url`` from start to stop: one life of the server between two restarts."""
    app = create_app(url, clock=clock, run_sweeper=False)
    with TestClient(app) as c:
        yield Lobby(c, clock, app)


def timed_match(lb: Lobby) -> tuple[dict[str, str], dict[str, str], str]:
    """Ann and Bob in a 3+2 match after both first moves: its clocks are running."""
    a, b = lb.player("Ann"), lb.player("Bob")
    mid = lb.match(a, b, tc="3+2")
    both_first_moves(lb, mid, a, b)
    return a, b, mid


def test_restart_continues_with_correct_clocks(tmp_path: Any) -> None:
    from lobby.clock import FakeClock
    url = f"sqlite:///{tmp_path / 'lobby.sqlite'}"
    clock = FakeClock()
    with serving(url, clock) as lb:
        a, b, mid = timed_match(lb)
        lb.clock.advance(5)
        before = lb.view(a, mid)["clock"]["remaining_ms"]
        lb.app.state.sweep_once()  # the server was alive at this moment
    clock.advance(600)  # ten minutes of downtime
    with serving(url, clock) as lb2:
        v = lb2.view(a, mid)
        assert v["status"] == "running"
        assert all(abs(x - y) <= 1000 for x, y in zip(v["clock"]["remaining_ms"], before, strict=True))
        who, _ = lb2.to_move(mid, a, b)
        assert lb2.move(who, mid).status_code == 200


def test_restart_gives_back_no_time_spent_before_the_last_move_it_persisted(tmp_path: Any) -> None:
    """#39: the cause of the kill -9 test's flake. The heartbeat is written by the sweeper about once
    a second; a move made after it, then a crash: the restart must not rewind the mover's thinking to
    the heartbeat. Measured from the heartbeat the mover got back 0.5 s they never had."""
    from lobby.clock import FakeClock
    url = f"sqlite:///{tmp_path / 'lobby.sqlite'}"
    clock = FakeClock()
    with serving(url, clock) as lb:
        a, b, mid = timed_match(lb)
        lb.app.state.sweep_once()  # the last heartbeat
        clock.advance(0.5)
        who, _ = lb.to_move(mid, a, b)
        assert lb.move(who, mid).status_code == 200  # persisted: the new mover's clock starts here
        persisted = lb.view(a, mid)["clock"]["remaining_ms"]
        clock.advance(0.3)
        before = lb.view(a, mid)["clock"]["remaining_ms"]  # the last answer before the crash
    clock.advance(600)  # the crash, then ten minutes of downtime
    with serving(url, clock) as lb2:
        after = lb2.view(a, mid)["clock"]["remaining_ms"]
    assert after == persisted  # never more than at the last persisted instant
    assert sorted(p - q for p, q in zip(after, before, strict=True)) in ([0, 300], [0, 301])  # forgiven: 0.3 s


def test_long_poll_and_sse_catch_up(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    both_first_moves(lobby, mid, a, b)
    body = lobby.c.get(f"/matches/{mid}/poll?since=0&timeout=0", headers=lobby.h(a)).json()
    ns = [e["n"] for e in body["events"]]
    assert ns == sorted(ns) and ns[0] == 1 and body["events"][0]["type"] == "start"
    later = lobby.c.get(f"/matches/{mid}/poll?since={ns[-2]}&timeout=0", headers=lobby.h(a)).json()["events"]
    assert [e["n"] for e in later] == [ns[-1]]
    lobby.c.post(f"/matches/{mid}/resign", headers=lobby.h(b))
    with lobby.c.stream("GET", f"/matches/{mid}/events", headers={**lobby.h(a), "Last-Event-ID": str(ns[-1])}) as r:
        lines = [line for line in r.iter_lines() if line]
    ids = [int(x[4:]) for x in lines if x.startswith("id: ")]
    assert ids and ids[0] == ns[-1] + 1 and any("resigned" in x for x in lines) and lines[-1].startswith("data")


def test_rate_limit_per_token(tmp_path: Any) -> None:
    from lobby.clock import FakeClock
    app = create_app(f"sqlite:///{tmp_path / 'l.sqlite'}", clock=FakeClock(), run_sweeper=False, rate=1, burst=5)
    with TestClient(app) as c:
        codes = [c.get("/health").status_code for _ in range(12)]
    assert codes[:5] == [200] * 5 and 429 in codes


def test_openapi_schema_is_served() -> None:
    schema = create_app("sqlite:///:memory:", run_sweeper=False).openapi()
    assert "/matches/{match_id}/moves" in schema["paths"] and schema["info"]["title"] == "Card Table lobby"


def test_the_state_cache_follows_the_stored_record_even_when_another_worker_moved() -> None:
    """A cached engine state is only a shortcut: it is caught up by the stored actions it lacks,
    and replaced by a replay when the stored record is not a continuation of it (another worker's
    move, a rolled-back transaction, a different match under the same id)."""
    from engine.core import GameRecord, replay
    from lobby.models import Match
    from lobby.service import StateCache

    def record(seed: int, n: int) -> list[Any]:
        state = RULES.new_game(RULES.parse_options({}), seed)
        out: list[Any] = []
        for _ in range(n):
            a = RULES.legal_actions(state)[0]
            out.append(RULES.action_to_json(a))
            state, _ = RULES.apply(state, a)
        return out

    def truth(seed: int, actions: list[Any]) -> str:
        return json.dumps(RULES.position_to_json(replay(RULES, GameRecord("lanes", {}, seed, 2, tuple(actions)))[0]))

    cache = StateCache(size=2)
    acts = record(7, 12)
    m = Match(id="m1", player0="a", player1="b", seed=7, options="{}", actions=json.dumps(acts[:5]))
    got = lambda: json.dumps(RULES.position_to_json(cache.get(m)))  # noqa: E731
    assert got() == truth(7, acts[:5]) and cache.replays == 1
    m.actions = json.dumps(acts[:9])  # four moves made elsewhere: applied on top, no replay
    assert got() == truth(7, acts[:9]) and cache.replays == 1
    assert got() == truth(7, acts[:9]) and cache.replays == 1  # unchanged: the same state
    m.actions = json.dumps(acts[:6])  # the stored record is shorter (a rolled-back move): replayed
    assert got() == truth(7, acts[:6]) and cache.replays == 2
    other = record(8, 6)
    m.seed, m.actions = 8, json.dumps(other)  # another game under the same id: replayed
    assert got() == truth(8, other) and cache.replays == 3
    for i in range(3):  # beyond its size the least recently used match is dropped
        cache.get(Match(id=f"x{i}", player0="a", player1="b", seed=i, options="{}", actions="[]"))
    assert "m1" not in cache.entries and len(cache.entries) == 2


def test_a_change_is_committed_before_its_response_is_sent(tmp_path: Any) -> None:
    """Read-your-writes across workers: when the client receives "created", another connection
    already sees the row. (FastAPI ends a yield dependency after the response unless its scope is
    "function"; then a friend accepting the challenge through another worker got 404.)"""
    import anyio
    from sqlmodel import Session, select

    from lobby.clock import FakeClock
    from lobby.models import Challenge

    app = create_app(f"sqlite:///{tmp_path / 'rw.sqlite'}", clock=FakeClock(), run_sweeper=False)
    with TestClient(app) as c:
        token = c.post("/players", json={"name": "Ann"}).json()["token"]
    seen: list[int] = []

    async def call() -> None:
        body = json.dumps({"rated": False, "time_control": "5+3", "variants": []}).encode()
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": "/challenges", "raw_path": b"/challenges", "query_string": b"",
                 "root_path": "", "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
                 "headers": [(b"authorization", f"Bearer {token}".encode()), (b"content-type", b"application/json"),
                             (b"content-length", str(len(body)).encode())]}
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await anyio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                assert message["status"] == 201
                with Session(app.state.engine) as other:  # another connection, as another worker
                    seen.append(len(other.exec(select(Challenge)).all()))

        await app(scope, receive, send)

    anyio.run(call)
    assert seen == [1]


def test_the_match_row_has_exactly_the_match_tables_columns() -> None:
    """The hot path's plain row (lobby/rows.py) and the ORM model describe one table: a column
    added to one and not the other would be silently lost or fail to load."""
    from lobby.models import Match
    from lobby.rows import COLUMNS

    assert tuple(Match.model_fields) == COLUMNS
    assert set(COLUMNS) == {c.name for c in Match.__table__.columns}  # type: ignore[attr-defined]


def _stored_last_seen(lobby: Lobby, mid: str) -> tuple[float, float]:
    from sqlmodel import Session

    from lobby.models import Match

    with Session(lobby.app.state.engine) as db:
        m = db.get(Match, mid)
        assert m is not None
        return m.last_seen0, m.last_seen1


def test_a_view_notes_presence_in_memory_and_the_sweeper_writes_it(lobby: Lobby) -> None:
    """A view that changes nothing writes nothing (presence is noted in memory, lobby.rows.Presence);
    the process still sees it at once, and the sweeper writes it within its next pass — before it
    applies the away rule, so nobody is flagged for presence not yet written."""
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b, tc="10+5")
    both_first_moves(lobby, mid, a, b)
    lobby.app.state.sweep_once()
    before = _stored_last_seen(lobby, mid)
    lobby.clock.advance(40)
    v = lobby.view(a, mid)  # Ann is here at +40 s; Bob is not
    seat = v["seat"]
    assert _stored_last_seen(lobby, mid) == before  # nothing written by the view
    assert lobby.view(b, mid)["opponent_away_s"] is None  # ...but Bob's view sees Ann present
    lobby.app.state.sweep_once()
    after = _stored_last_seen(lobby, mid)
    assert after[seat] == before[seat] + 40 and after[1 - seat] == before[1 - seat] + 40
    lobby.clock.advance(59)  # 99 s after Bob's and Ann's views at +0 s/+40 s: nobody away for 60 s
    lobby.app.state.sweep_once()
    assert lobby.view(a, mid)["status"] == "running"


def test_a_checkpoint_copies_the_whole_log(tmp_path: Any) -> None:
    """SQLite: the sweeper's checkpoint (outside any request) copies every page of the log. SQLite
    only — PostgreSQL has no write-ahead log of ours to copy — so it runs on SQLite alone instead of
    passing on PostgreSQL without checking anything."""
    from lobby.clock import FakeClock

    with serving(f"sqlite:///{tmp_path / 'lobby.sqlite'}", FakeClock()) as lobby:
        timed_match(lobby)
        busy, log, copied = lobby.app.state.wal_checkpoint()
    assert busy == 0 and log > 0 and copied == log


def test_a_lone_surrogate_in_a_name_is_refused_with_a_422_not_a_500(lobby: Lobby) -> None:
    """#21: ``{"name": "\\ud800"}`` (JSON can spell it, UTF-8 cannot store it) is a 422 whose body
    is valid JSON, on sign-up and on rename; the connection stays usable."""
    raw = b'{"name": "\\ud800"}'
    cases: tuple[tuple[str, str, dict[str, str] | None], ...] = (("POST", "/players", {}),
                                                                  ("PATCH", "/players/me", None))
    for method, path, headers in cases:
        if headers is None:
            headers = lobby.h(lobby.player("Ann"))
        r = lobby.c.request(method, path, content=raw, headers={**headers, "Content-Type": "application/json"})
        assert r.status_code == 422, (path, r.status_code, r.text)
        assert json.loads(r.text)  # the quoted input arrives escaped, as valid JSON
    assert lobby.c.post("/players", json={"name": "Bea"}).status_code == 201


def test_event_numbers_beyond_64_bits_are_refused_at_the_edge(lobby: Lobby) -> None:
    """#21: ``since`` past 2**62 and a ``Last-Event-ID`` of a hundred digits are 422s (they were 500s
    from an overflow in the database driver)."""
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    r = lobby.c.get(f"/matches/{mid}/poll", params={"since": 2**63}, headers=lobby.h(a))
    assert r.status_code == 422, r.text
    r = lobby.c.get(f"/matches/{mid}/events", headers={**lobby.h(a), "Last-Event-ID": "1" + "0" * 100})
    assert r.status_code == 422, r.text
    assert lobby.c.get(f"/matches/{mid}/poll", params={"since": 0, "timeout": 0}, headers=lobby.h(a)).status_code == 200


def test_a_client_cannot_end_its_own_match_on_time_or_abort_it(lobby: Lobby) -> None:
    """#21, L-8.3-L-8.5: only the server's clock produces a timeout or an abort; as a move they
    are refused and the match goes on, unrated changes none."""
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    v = lobby.view(a, mid)
    mover = a if v["clock"]["to_move"] == v["seat"] else b
    for action in ({"timeout": True}, {"abort": True}):
        r = lobby.move(mover, mid, action)
        assert r.status_code == 422, (action, r.status_code, r.text)
    v = lobby.view(a, mid)
    assert v["status"] == "running" and v["move_count"] == 0


def _replays_to_its_result(lobby: Lobby, mid: str, who: dict[str, str]) -> dict[str, Any]:
    """The published record (game, options, seed, actions) replayed through the engine alone."""
    rec = lobby.c.get(f"/matches/{mid}/replay", headers=lobby.h(who)).json()
    state = RULES.new_game(RULES.parse_options(rec["options"]), rec["seed"], 2)
    for a in rec["actions"]:
        state, _ = RULES.apply(state, RULES.parse_action(a))
    assert state.over and (state.winner, state.reason) == (rec["winner"], rec["reason"]), rec
    return dict(rec)


def _end_by(lobby: Lobby, how: str, a: dict[str, str], b: dict[str, str]) -> str:
    tc = {"untimed": "untimed", "flag": "1+0"}.get(how, "10+5")
    mid = lobby.match(a, b, tc=tc)
    if how == "aborted":
        lobby.clock.advance(FIRST_MOVE_S + 1)
        return mid
    both_first_moves(lobby, mid, a, b)
    who, other = lobby.to_move(mid, a, b)
    if how == "sold":
        play_out(lobby, mid, a, b, {a["id"]: [], b["id"]: []})
    elif how == "resign_endpoint":
        assert lobby.c.post(f"/matches/{mid}/resign", headers=lobby.h(other)).status_code == 200
    elif how == "resign_move":
        assert lobby.move(other, mid, {"resign": True}).status_code == 200  # out of turn too (L-8.3a)
    elif how in ("flag", "untimed"):
        for _ in range(12):  # both stay present; only the clock runs out
            lobby.clock.advance(30)
            lobby.view(who, mid)
            lobby.view(other, mid)
    elif how == "away":
        for _ in range(3):
            lobby.clock.advance(25)
            lobby.view(other, mid)  # only the opponent stays
    return mid


@pytest.mark.parametrize("how, reason", [
    ("sold", "sold"), ("resign_endpoint", "resigned"), ("resign_move", "resigned"), ("flag", "timeout"),
    ("untimed", "timeout"), ("aborted", "aborted"), ("away", "disconnected")])
def test_every_ending_is_an_engine_action_and_the_record_replays_to_the_stored_result(
        lobby: Lobby, how: str, reason: str) -> None:
    """#20: L-8.1, L-8.3, L-8.3a, L-8.4 — the lobby ends a match only through the engine, so the
    stored record alone gives the result."""
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = _end_by(lobby, how, a, b)
    v = lobby.view(a, mid)
    assert v["status"] in ("finished", "aborted") and v["reason"] == reason
    rec = _replays_to_its_result(lobby, mid, a)
    last = rec["actions"][-1]
    if reason != "sold":
        expect = {"resigned": "resign", "timeout": "timeout", "aborted": "abort", "disconnected": "away"}[reason]
        assert last.get(expect) is True


def _limited_app(tmp_path: Any, monkeypatch: pytest.MonkeyPatch, proxies: str = "") -> Any:
    from lobby.clock import FakeClock
    monkeypatch.setenv("LOBBY_TRUSTED_PROXIES", proxies)
    return create_app(f"sqlite:///{tmp_path / 'l.sqlite'}", clock=FakeClock(), run_sweeper=False, rate=0.001, burst=5)


def test_junk_bearer_tokens_and_forged_forwarding_share_the_senders_budget(tmp_path: Any,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """#21: a new junk token or X-Forwarded-For per request is no new budget: sign-ups and lookups
    from one address stop at its burst."""
    with TestClient(_limited_app(tmp_path, monkeypatch)) as c:
        codes = [c.post("/players", json={"name": f"n{i}"}, headers={
            "Authorization": f"Bearer junk-{i}", "X-Forwarded-For": f"10.0.0.{i}"}).status_code for i in range(30)]
    assert codes.count(201) == 5 and codes[5:] == [429] * 25


def test_a_verified_player_has_a_budget_of_their_own(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Behind one address (a household, a café), a signed-in player's requests count against them,
    not against everyone there."""
    with TestClient(_limited_app(tmp_path, monkeypatch)) as c:
        token = c.post("/players", json={"name": "Ann"}).json()["token"]
        mine = {"Authorization": f"Bearer {token}"}
        assert c.get("/players/me", headers=mine).status_code == 200  # verified from now on
        assert all(c.get("/health").status_code == 200 for _ in range(3))  # the address's burst: 5 in all
        assert c.get("/health").status_code == 429
        assert [c.get("/players/me", headers=mine).status_code for _ in range(6)] == [200] * 5 + [429]


def test_forwarding_headers_count_only_from_a_trusted_proxy(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from lobby.ratelimit import RateLimiter
    limiter = RateLimiter(1, 1, trusted_proxies=["10.0.0.1"])
    def scope(peer: str, xff: str) -> dict[str, Any]:
        return {"client": (peer, 1), "headers": [(b"x-forwarded-for", xff.encode())]}
    assert limiter.client(scope("10.0.0.1", "203.0.113.9, 10.0.0.1")) == "203.0.113.9"
    assert limiter.client(scope("198.51.100.7", "203.0.113.9")) == "198.51.100.7"  # not a proxy: ignored
    with pytest.raises(ValueError):
        RateLimiter(trusted_proxies=["not-an-address"])


def test_the_limiter_forgets_the_least_recent_key_never_everyone() -> None:
    from lobby.ratelimit import RateLimiter
    limiter = RateLimiter(0.0, 1, max_keys=3)
    assert limiter.allow("a", 0) and not limiter.allow("a", 1)  # a has spent its one token
    for k in ("b", "c", "d"):
        assert limiter.allow(k, 2)
    assert len(limiter.buckets) == 3 and "a" not in limiter.buckets and not limiter.allow("d", 3)


def test_the_time_rules_are_configurable_with_the_rules_values_as_defaults(tmp_path: Any) -> None:
    """#21, L-8.4: an operator (or a test) sets how long each time rule runs; the server enforces
    and shows exactly those."""
    from lobby.clock import FakeClock, TimeRules
    assert (TimeRules().first_move_s, TimeRules().away_s, TimeRules().untimed_move_s) == (60, 60, 300)
    assert TimeRules.from_env({"LOBBY_AWAY_S": "30", "LOBBY_FIRST_MOVE_S": "5"}) == TimeRules(away_s=30, first_move_s=5)
    for bad in ({"LOBBY_AWAY_S": "soon"}, {"LOBBY_AWAY_S": "-1"}, {"LOBBY_AWAY_S": "5", "LOBBY_AWAY_WARN_S": "9"}):
        with pytest.raises(ValueError):
            TimeRules.from_env(bad)
    clock = FakeClock(rules=TimeRules(first_move_s=5, away_s=20, away_warn_s=4))
    app = create_app(f"sqlite:///{tmp_path / 'l.sqlite'}", clock=clock, run_sweeper=False, rate=1000, burst=5000)
    with TestClient(app) as client:
        lb = Lobby(client, clock, app)
        a, b = lb.player("Ann"), lb.player("Bob")
        mid = lb.match(a, b)
        v = lb.view(a, mid)
        assert v["clock"]["first_move_deadline"] == v["clock"]["server_now"] + 5
        clock.advance(6)
        assert lb.view(a, mid)["status"] == "aborted"
        mid2 = lb.match(a, b)
        both_first_moves(lb, mid2, a, b)
        clock.advance(5)
        v2 = lb.view(a, mid2)
        assert v2["opponent_away_s"] == 5 and v2["opponent_loses_in_s"] == 15
        clock.advance(16)
        assert lb.view(a, mid2)["reason"] == "disconnected"


def test_terms_and_moves_take_strict_types_and_no_unknown_fields(lobby: Lobby) -> None:
    """#21 (schemathesis --checks all): 0 is not a yes or no, true is not a move number, a body of
    unknown fields is not a default rated seek, and a 405 lists every method of its path."""
    a = lobby.player("Ann")
    for body in ({"rated": 0}, {"rated": "yes"}, {"colour": "red"}, {"time_control": "7+7"},
                 {"rated": True, "variants": ["king_adds"]}, {"rated": False, "variants": ["nope"]}):
        r = lobby.c.post("/seeks", json=body, headers=lobby.h(a))
        assert r.status_code == 422 and r.json()["error"], body
    assert lobby.c.post("/seeks", json={}, headers=lobby.h(a)).status_code == 201  # the defaults: rated 5+3
    mid = lobby.match(lobby.player("Bea"), lobby.player("Cid"))
    r = lobby.c.post(f"/matches/{mid}/moves", headers=lobby.h(a),
                     json={"expected_move": True, "client_move_id": "x", "action": {"discard": "2S"}})
    assert r.status_code == 422 and "expected_move" in r.json()["error"]
    for path, allowed in (("/players/me", "GET, PATCH"), ("/seeks/s_1", "DELETE, GET")):
        r = lobby.c.request("OPTIONS", path, headers=lobby.h(a))
        assert r.status_code == 405 and r.headers["allow"] == allowed and r.json()["error"]
    schema = lobby.app.openapi()
    assert schema["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    for code in ("401", "404", "409", "422", "429"):
        assert code in schema["paths"]["/matches/{match_id}/moves"]["post"]["responses"]


def test_a_player_lists_their_running_matches_to_come_back_to(lobby: Lobby) -> None:
    """#18: GET /players/me/matches — the caller's running matches only, with the opponent, the
    terms and whose move it is; a finished one is gone from the list."""
    a, b, c = lobby.player("Ann"), lobby.player("Bob"), lobby.player("Cy")
    mid = lobby.match(a, b, rated=False, tc="10+5")
    lobby.match(b, c)
    mine = lobby.c.get("/players/me/matches", headers=lobby.h(a)).json()
    assert [m["match_id"] for m in mine] == [mid]
    v = lobby.view(a, mid)
    assert mine[0]["opponent"] == "Bob" and mine[0]["time_control"] == "10+5" and mine[0]["rated"] is False
    assert mine[0]["seat"] == v["seat"] and mine[0]["to_move"] == v["clock"]["to_move"]
    lobby.c.post(f"/matches/{mid}/resign", headers=lobby.h(a))
    assert lobby.c.get("/players/me/matches", headers=lobby.h(a)).json() == []
    assert lobby.c.get("/players/me/matches").status_code == 401
