"""The hot path (lobby/hot.py) answers exactly as the FastAPI routes it stands in front of.

A whole rated match is played twice from the same secrets and the same fake clock, once with the
hot path on and once with it off, and every answer is compared byte for byte; then a list of bad
requests (L-8.3's ordered, idempotent moves; bad tokens; malformed bodies) gets the same answers
both ways. Counters check which requests the hot path served, so the comparison is never between
FastAPI and itself."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lobby import accounts, common, hot, matchmaking
from lobby import service as svc
from lobby.app import create_app
from lobby.clock import FakeClock
from lobby.rows import PRESENCE
from tests.lobby.conftest import Lobby


class SeededSecrets:
    """Stands in for ``secrets`` in the lobby's modules: the same ids, tokens and codes each run."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def randbits(self, k: int) -> int:
        return self.r.getrandbits(k)

    def token_hex(self, n: int) -> str:
        return self.r.randbytes(n).hex()

    def token_urlsafe(self, n: int) -> str:
        return self.r.randbytes(n).hex()

    def choice(self, seq: Any) -> Any:
        return self.r.choice(seq)


def forget_process_memory() -> None:
    """The caches keyed by ids (the same ids in both runs here, never in real use)."""
    svc._tokens.clear()
    svc._players.clear()
    svc.STATES.entries.clear()
    PRESENCE.take()


class Counting:
    """Counts the requests the hot path answered and the ones it handed on to FastAPI."""

    def __init__(self, routes: hot.HotRoutes) -> None:
        self.served = self.passed = 0
        inner = routes.serve

        async def serve(scope: Any, receive: Any, send: Any) -> Any:
            r = await inner(scope, receive, send)
            if scope["type"] == "http":
                if r is None:
                    self.served += 1
                else:
                    self.passed += 1
            return r
        routes.serve = serve  # type: ignore[method-assign]


def open_lobby(tmp_path: Path, name: str, on: bool, monkeypatch: pytest.MonkeyPatch,
               **kw: Any) -> tuple[Any, FakeClock, Counting]:
    forget_process_memory()
    seeded = SeededSecrets(7)
    for module in (common, accounts, matchmaking):  # the lobby's modules that draw ids, tokens, codes
        monkeypatch.setattr(module, "secrets", seeded)
    clock = FakeClock()
    app = create_app(f"sqlite:///{tmp_path / name}", clock=clock, run_sweeper=False,
                     **({"rate": 1000, "burst": 5000} | kw))
    assert app.hot_routes is not None
    app.hot_routes.enabled = on
    return app, clock, Counting(app.hot_routes)


def answer(r: Any) -> tuple[int, str, bytes]:
    return r.status_code, r.headers.get("content-type", ""), r.content


def seat_to_move(view: dict[str, Any]) -> bool:
    return bool(view["clock"]["to_move"] == view["seat"])


def play_a_match(c: TestClient, clock: FakeClock) -> list[tuple[int, str, bytes]]:
    """A rated 3+2 match: both views every move, a repeated move, a stale one, a resignation."""
    out = []

    def player(name: str) -> dict[str, str]:
        r = c.post("/players", json={"name": name})
        out.append(answer(r))
        return {"Authorization": "Bearer " + r.json()["token"]}
    a, b = player("Ana"), player("Bo")
    code = c.post("/challenges", json={"rated": True, "time_control": "3+2"}, headers=a).json()["code"]
    r = c.post(f"/challenges/{code}/accept", headers=b)
    out.append(answer(r))
    mid = r.json()["match_id"]
    for turn in range(40):
        views = {}
        for who in (a, b):
            r = c.get(f"/matches/{mid}", headers=who)
            out.append(answer(r))
            views[who["Authorization"]] = r.json()
        mover = next(w for w in (a, b) if seat_to_move(views[w["Authorization"]]))
        v = views[mover["Authorization"]]
        if v["status"] != "running":
            break
        clock.advance(1.5 + turn % 3)
        body = mv(v["move_count"], f"c{turn}", v["legal"][turn % len(v["legal"])])
        out.append(answer(c.post(f"/matches/{mid}/moves", json=body, headers=mover)))
        if turn % 7 == 3:
            out.append(answer(c.post(f"/matches/{mid}/moves", json=body, headers=mover)))  # repeated: the receipt
            out.append(answer(c.post(f"/matches/{mid}/moves", json={**body, "client_move_id": "late"},
                                     headers=mover)))  # stale move number: 409 with the view
    out.append(answer(c.post(f"/matches/{mid}/resign", headers=a)))
    out.append(answer(c.get(f"/matches/{mid}", headers=b)))
    return out


def test_a_whole_match_is_answered_byte_for_byte_as_fastapi_answers_it(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    runs: dict[Any, Any] = {}
    for on in (True, False):
        app, clock, count = open_lobby(tmp_path, f"m{on}.sqlite", on, monkeypatch)
        with TestClient(app) as c:
            runs[on] = play_a_match(c, clock)
        runs[on, "count"] = (count.served, count.passed)
    assert runs[True] == runs[False]
    served, passed = runs[True, "count"]
    assert served > 80 and passed == 5  # every view and move here; players, challenge, accept, resign there
    assert runs[False, "count"][0] == 0
    statuses = {s for s, _, _ in runs[True]}
    assert {200, 201, 409} <= statuses  # the repeated move answers 200 again, the stale one 409
    assert any(b'"rating_change":{"0"' in body for _, _, body in runs[True])  # the match ended rated


def mv(n: Any, cid: Any, action: Any) -> dict[str, Any]:
    return {"expected_move": n, "client_move_id": cid, "action": action}


BAD: list[tuple[str, str, str, Any, Any]] = [
    # (label, method, path suffix, JSON body or raw bytes, extra headers); "{m}" is a match id
    ("no token", "GET", "/matches/{m}", None, {"Authorization": ""}),
    ("a wrong token", "GET", "/matches/{m}", None, {"Authorization": "Bearer nope"}),
    ("not bearer", "GET", "/matches/{m}", None, {"Authorization": "Basic abc"}),
    ("an unknown match", "GET", "/matches/m_0000", None, None),
    ("a trailing slash", "GET", "/matches/{m}/", None, None),
    ("HEAD", "HEAD", "/matches/{m}", None, None),
    ("GET on moves", "GET", "/matches/{m}/moves", None, None),
    ("someone else's match", "GET", "/matches/{m}", None, "outsider"),
    ("out of turn", "POST", "/matches/{m}/moves", mv(0, "x1", "legal"), "waiter"),
    ("an unknown action type", "POST", "/matches/{m}/moves", mv(0, "x2", {"type": "discard_lane", "lane": 9}), None),
    ("not an action", "POST", "/matches/{m}/moves", mv(0, "x3", {}), None),
    ("a stale move number", "POST", "/matches/{m}/moves", mv(5, "x4", "legal"), None),
    ("a fraction", "POST", "/matches/{m}/moves", mv(0.5, "x7", "legal"), None),
    ("negative", "POST", "/matches/{m}/moves", mv(-1, "x8", "legal"), None),
    ("an empty move id", "POST", "/matches/{m}/moves", mv(0, "", "legal"), None),
    ("a long move id", "POST", "/matches/{m}/moves", mv(0, "y" * 65, "legal"), None),
    ("no action", "POST", "/matches/{m}/moves", {"expected_move": 0, "client_move_id": "x9"}, None),
    ("an action list", "POST", "/matches/{m}/moves", mv(0, "x10", []), None),
    ("a list", "POST", "/matches/{m}/moves", [1, 2], None),
    ("not JSON", "POST", "/matches/{m}/moves", b"{nope", None),
    ("NaN", "POST", "/matches/{m}/moves", b'{"expected_move": NaN, "client_move_id": "x", "action": {}}', None),
    ("a huge number", "POST", "/matches/{m}/moves",
     b'{"expected_move": 0, "client_move_id": "x", "action": -9223372036854775809}', None),
    ("no body", "POST", "/matches/{m}/moves", b"", None),
    ("text/plain", "POST", "/matches/{m}/moves", mv(0, "x11", "legal"), {"Content-Type": "text/plain"}),
    ("a made-up JSON type", "POST", "/matches/{m}/moves", mv(0, "x13", "legal"), {"Content-Type": "application/jsonx"}),
    ("a JSON type with a charset", "POST", "/matches/{m}/moves", mv(0, "x14", {}),
     {"Content-Type": "Application/JSON; charset=utf-8"}),
    ("an unknown match's move", "POST", "/matches/m_0000/moves", mv(0, "x12", "legal"), None),
    # strict types (#21): neither "0" nor false is move number 0
    ("a number as text", "POST", "/matches/{m}/moves", mv("0", "x5", "legal"), None),
    ("a boolean number", "POST", "/matches/{m}/moves", mv(False, "x6", "legal"), None),
]


def bad_requests(c: TestClient, clock: FakeClock, count: Counting,
                 served: set[str]) -> list[tuple[str, int, str, bytes]]:
    """Each request of BAD, sent by the player to move unless it says otherwise (only the last but
    one moves)."""
    ids = {}
    for name in ("Ana", "Bo", "Cy"):
        ids[name] = {"Authorization": "Bearer " + c.post("/players", json={"name": name}).json()["token"]}
    code = c.post("/challenges", json={"rated": True, "time_control": "5+3"}, headers=ids["Ana"]).json()["code"]
    mid = c.post(f"/challenges/{code}/accept", headers=ids["Bo"]).json()["match_id"]
    v = c.get(f"/matches/{mid}", headers=ids["Ana"]).json()
    mover, waiter = (ids["Ana"], ids["Bo"]) if v["clock"]["to_move"] == v["seat"] else (ids["Bo"], ids["Ana"])
    legal = c.get(f"/matches/{mid}", headers=mover).json()["legal"][0]
    out = []
    for label, method, path, body, extra in BAD:
        headers = dict(mover)
        if extra == "outsider":
            headers = dict(ids["Cy"])
        elif extra == "waiter":
            headers = dict(waiter)
        elif extra:
            headers.update(extra)
        if isinstance(body, dict) and body.get("action") == "legal":
            body = {**body, "action": legal}
        url = path.replace("{m}", mid)
        before = count.served
        if isinstance(body, bytes):
            r = c.request(method, url, content=body, headers={"Content-Type": "application/json", **headers})
        else:
            r = c.request(method, url, headers=headers, **({} if body is None else {"json": body}))
        out.append((label, *answer(r)))
        if count.served > before:
            served.add(label)
        clock.advance(0.25)
    return out


def test_bad_requests_get_fastapis_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runs: dict[Any, Any] = {}
    for on in (True, False):
        app, clock, count = open_lobby(tmp_path, f"b{on}.sqlite", on, monkeypatch)
        runs[on, "served"] = set()
        with TestClient(app) as c:
            runs[on] = bad_requests(c, clock, count, runs[on, "served"])
    for fast, slow in zip(runs[True], runs[False], strict=True):
        assert fast == slow, fast[0]
    by_label = {label: status for label, status, _, _ in runs[True]}
    assert by_label["no token"] == 401 and by_label["a wrong token"] == 401 and by_label["an unknown match"] == 404
    assert by_label["someone else's match"] == 403 and by_label["out of turn"] == 409
    assert by_label["a stale move number"] == 409 and by_label["an unknown action type"] == 422
    for label in ("a number as text", "a boolean number", "a fraction", "negative", "an empty move id",
                  "a long move id", "no action", "an action list", "a list", "not JSON", "NaN", "a huge number",
                  "no body",
                  "a JSON type with a charset", "text/plain", "a made-up JSON type"):
        assert by_label[label] == 422, label
    # the hot path answered the well-formed ones (the lobby's own 401/403/404/409 and the engine's
    # 422); FastAPI the rest ("a trailing slash" is FastAPI's redirect, then the view here)
    assert runs[True, "served"] == {
        "no token", "a wrong token", "not bearer", "an unknown match", "a trailing slash", "someone else's match",
        "out of turn", "an unknown action type", "not an action", "a stale move number", "an unknown match's move",
        "a JSON type with a charset"}
    assert runs[False, "served"] == set()


def test_the_hot_path_keeps_the_rate_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, _, count = open_lobby(tmp_path, "r.sqlite", True, monkeypatch, rate=1, burst=5)
    with TestClient(app) as c:
        r = [c.get("/matches/m_1", headers={"Authorization": "Bearer t"}) for _ in range(8)]
    assert [x.status_code for x in r[:5]] == [401] * 5
    assert r[-1].status_code == 429 and r[-1].headers["retry-after"] == "1" and "slow down" in r[-1].json()["error"]
    assert count.served == 8


def test_the_move_bounds_are_the_schemas() -> None:
    schema = create_app("sqlite:///:memory:", run_sweeper=False).openapi()["components"]["schemas"]["MoveIn"]
    props = schema["properties"]
    assert props["client_move_id"]["maxLength"] == hot.CLIENT_MOVE_ID_MAX and props["client_move_id"]["minLength"] == 1
    assert props["expected_move"]["minimum"] == 0 and props["expected_move"]["type"] == "integer"
    assert props["action"]["type"] == "object"
    assert set(schema["required"]) == {"expected_move", "client_move_id", "action"}


@pytest.mark.parametrize("body, fields", [
    (b'{"expected_move": 3, "client_move_id": "a", "action": {"type": "x"}}', (3, "a", {"type": "x"})),
    (b'{"expected_move": 0, "client_move_id": "a", "action": {}, "extra": 1}', None),  # FastAPI refuses extras
    (b'{"expected_move": true, "client_move_id": "a", "action": {}}', None),
    (b'{"expected_move": 1, "client_move_id": 5, "action": {}}', None),
    (b'{"expected_move": 99999999999999999999999, "client_move_id": "a", "action": {}}', None),
    (b'[]', None),
])
def test_move_fields_takes_only_what_needs_no_judgement(body: bytes, fields: Any) -> None:
    assert hot.move_fields(body) == fields


def test_presence_is_flushed_in_one_order_so_two_sweepers_cannot_deadlock(monkeypatch: pytest.MonkeyPatch) -> None:
    """#34: with several workers each sweeper flushes the presence it noted, and two of them locking
    the same match rows in different orders deadlocked on PostgreSQL (a failed pass and a 1 s wait,
    measured by tests/bench_lobby.py --compare). Every flush locks its rows in the order of their
    ids first, whatever order the players were seen in, then writes them in one statement."""
    from lobby import rows

    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(rows, "run", lambda db, statement, params: sent.append((statement, params)))
    monkeypatch.setattr(rows, "for_update", lambda db: " FOR UPDATE")  # as on PostgreSQL
    PRESENCE.take()
    for mid in ("m-7", "m-2", "m-9", "m-1"):
        PRESENCE.note(mid, 0, 5.0)
    PRESENCE.note("m-2", 1, 6.0)
    assert rows.flush_presence(object()) == 4  # type: ignore[arg-type]  # run stands in for the database
    (lock, params), (update, _) = sent
    assert lock.endswith("ORDER BY id FOR UPDATE") and update.startswith('UPDATE "match"')
    assert [params[f"id{i}"] for i in range(4)] == ["m-1", "m-2", "m-7", "m-9"]
    assert (params["a1"], params["b1"]) == (5.0, 6.0)


def test_a_presence_flush_never_moves_a_time_back(lobby: Lobby) -> None:
    """The sweeper's one statement writes a noted seat only when the note is later than the stored
    time (a note older than it changes nothing), on both databases."""
    from sqlmodel import Session

    from lobby import rows
    from lobby.models import Match

    a, b, c, d = (lobby.player(n) for n in "abcd")
    first, second = lobby.match(a, b), lobby.match(c, d)
    engine = lobby.app.state.engine
    with Session(engine) as db:
        stored = {mid: (m.last_seen0, m.last_seen1) for mid in (first, second) if (m := db.get(Match, mid))}
    PRESENCE.take()
    PRESENCE.note(first, 1, stored[first][1] + 30)
    PRESENCE.note(second, 0, stored[second][0] - 30)  # older than what is stored
    with Session(engine) as db:
        assert rows.flush_presence(db) == 2
        db.commit()
    with Session(engine) as db:
        now = {mid: (m.last_seen0, m.last_seen1) for mid in (first, second) if (m := db.get(Match, mid))}
    assert now[first] == (stored[first][0], stored[first][1] + 30)
    assert now[second] == stored[second]
