"""Seeks and challenges expire, and pairing is the sweeper's (#45 item 5): an open seek lapses after
SEEK_LIFETIME_S and a challenge's code after CHALLENGE_LIFETIME_S; a poll of a seek reads its row
and pairs nothing, so it costs the same with 500 seeks open as with one; pairing sorts each set of
terms by rating instead of comparing every pair. On SQLite and PostgreSQL (the db_url fixture)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlmodel import Session, select

from lobby.matchmaking import CHALLENGE_LIFETIME_S, SEEK_LIFETIME_S, pair_seeks
from lobby.models import Player, Seek
from tests.lobby.conftest import Lobby

RATED = {"rated": True, "time_control": "5+3"}


def seek(lobby: Lobby, who: dict[str, str], terms: dict[str, Any] = RATED) -> dict[str, Any]:
    r = lobby.c.post("/seeks", json=terms, headers=lobby.h(who))
    assert r.status_code == 201, r.text
    return dict(r.json())


def poll(lobby: Lobby, who: dict[str, str], seek_id: str) -> dict[str, Any]:
    return dict(lobby.c.get(f"/seeks/{seek_id}", headers=lobby.h(who)).json())


def test_an_open_seek_expires_and_is_never_paired_afterwards(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    s = seek(lobby, a)
    lobby.clock.advance(SEEK_LIFETIME_S - 1)
    assert poll(lobby, a, s["id"])["status"] == "open"
    lobby.clock.advance(2)
    assert poll(lobby, a, s["id"])["status"] == "expired"
    late = seek(lobby, b)  # the same terms, the same rating: only an open seek would have matched it
    assert late["status"] == "open" and poll(lobby, a, s["id"])["match_id"] is None


def test_the_sweeper_expires_seeks_nobody_polls(lobby: Lobby) -> None:
    a = lobby.player("Ann")
    s = seek(lobby, a)
    lobby.clock.advance(SEEK_LIFETIME_S + 1)
    lobby.app.state.sweep_once()
    with Session(lobby.app.state.engine) as db:
        row = db.get(Seek, s["id"])
        assert row is not None and row.status == "expired"


def test_a_challenge_expires(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    code = lobby.c.post("/challenges", json=RATED, headers=lobby.h(a)).json()["code"]
    assert lobby.c.get(f"/challenges/{code}", headers=lobby.h(a)).json()["expired"] is False
    lobby.clock.advance(CHALLENGE_LIFETIME_S + 1)
    assert lobby.c.get(f"/challenges/{code}", headers=lobby.h(a)).json()["expired"] is True
    r = lobby.c.post(f"/challenges/{code}/accept", headers=lobby.h(b))
    assert r.status_code == 409 and "expired" in r.text


@contextmanager
def statements(lobby: Lobby) -> Iterator[list[str]]:
    seen: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        seen.append(statement)

    engine = lobby.app.state.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def test_a_poll_costs_the_same_with_500_open_seeks_as_with_one(lobby: Lobby) -> None:
    a = lobby.player("Ann")
    mine = seek(lobby, a, {"rated": False, "time_control": "untimed", "variants": []})
    with statements(lobby) as alone:
        assert poll(lobby, a, mine["id"])["status"] == "open"
    with Session(lobby.app.state.engine) as db:  # 500 others waiting, none of them a match for Ann
        for i in range(500):
            db.add(Player(id=f"p_{i}", name=f"P{i}", token_hash=f"h_{i}", rating=1500.0 + 400 + i))
            db.add(Seek(id=f"s_crowd_{i}", player_id=f"p_{i}", rated=True, time_control="10+5",
                        rating=1500.0 + 400 + i, created_at=lobby.clock.now()))
        db.commit()
    with statements(lobby) as crowded:
        assert poll(lobby, a, mine["id"])["status"] == "open"
    assert crowded == alone  # the same statements, whatever else waits
    seek_reads = [q for q in crowded if "FROM seek" in q]
    assert seek_reads and all("seek.id =" in q for q in seek_reads)  # Ann's row by its key: no scan, no pairing


def test_pairing_a_crowd_matches_closest_ratings_once_each(lobby: Lobby) -> None:
    """500 seeks of one set of terms, each rating twice: pairing makes 500 matches of equal ratings,
    each seek in at most one match."""
    with Session(lobby.app.state.engine) as db:
        for i in range(500):
            rating = 1000.0 + 10 * (i // 2)
            db.add(Player(id=f"p_{i}", name=f"P{i}", token_hash=f"h_{i}", rating=rating))
            db.add(Seek(id=f"s_{i:03d}", player_id=f"p_{i}", rated=True, time_control="10+5", rating=rating,
                        created_at=lobby.clock.now()))
        db.commit()
    with Session(lobby.app.state.engine) as db:
        made = pair_seeks(db, lobby.clock)
        db.commit()
    assert made == 250
    with Session(lobby.app.state.engine) as db:
        rows = list(db.exec(select(Seek)).all())
    by_match: dict[str, list[float]] = {}
    for r in rows:
        assert r.status == "matched" and r.match_id
        by_match.setdefault(r.match_id, []).append(r.rating)
    assert len(by_match) == 250 and all(len(v) == 2 and v[0] == v[1] for v in by_match.values())
