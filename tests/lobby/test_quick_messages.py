"""Quick messages (#45 item 4): fixed phrases and emotes only, heard by both players as a public
event of the match, rate-limited per player, never in the record. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from lobby.messages import GAP_S, PER_MATCH, PHRASES
from tests.lobby.conftest import Lobby


def say(lobby: Lobby, who: dict[str, str], mid: str, phrase: Any) -> Any:
    return lobby.c.post(f"/matches/{mid}/say", json={"phrase": phrase}, headers=lobby.h(who))


def events(lobby: Lobby, who: dict[str, str], mid: str) -> list[dict[str, Any]]:
    r = lobby.c.get(f"/matches/{mid}/poll", params={"since": 0, "timeout": 0}, headers=lobby.h(who))
    return list(r.json()["events"])


def test_a_phrase_is_heard_by_both_players_and_stays_out_of_the_record(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    seat = lobby.view(a, mid)["seat"]
    r = say(lobby, a, mid, "good_luck")
    assert r.status_code == 200 and r.json()["seat"] == seat and r.json()["phrase"] == "good_luck"
    for who in (a, b):
        heard = [e for e in events(lobby, who, mid) if e["type"] == "say"]
        assert heard == [{"n": r.json()["n"], "type": "say", "seat": seat, "phrase": "good_luck"}]
    lobby.c.post(f"/matches/{mid}/resign", headers=lobby.h(b))
    record = lobby.c.get(f"/matches/{mid}/replay").json()
    assert all("phrase" not in a for a in record["actions"])  # the record holds the moves and the ending


def test_only_the_fixed_phrases_and_only_players(lobby: Lobby) -> None:
    a, b, c = lobby.player("Ann"), lobby.player("Bob"), lobby.player("Cy")
    mid = lobby.match(a, b)
    for bad in ("you are bad", "", "x" * 41, 7, None):
        r = say(lobby, a, mid, bad)
        assert r.status_code == 422, (bad, r.text)
    assert say(lobby, a, mid, "free text please").json()["detail"]["phrases"] == list(PHRASES)
    assert say(lobby, c, mid, "hello").status_code == 403
    assert say(lobby, a, "m_nosuch", "hello").status_code == 404
    assert not [e for e in events(lobby, a, mid) if e["type"] == "say"]


def test_one_message_every_few_seconds_and_a_cap_per_match(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b, tc="untimed")
    for _ in range(2):  # both have moved: no first-move rule while the test's clock runs on
        lobby.move(lobby.to_move(mid, a, b)[0], mid)
    assert say(lobby, a, mid, "hello").status_code == 200
    too_soon = say(lobby, a, mid, "hello")
    assert too_soon.status_code == 429 and int(too_soon.headers["Retry-After"]) >= 1
    assert say(lobby, b, mid, "hello").status_code == 200  # the limit is per player
    lobby.clock.advance(GAP_S)
    assert say(lobby, a, mid, "emote_smile").status_code == 200
    for _ in range(PER_MATCH - 2):
        lobby.clock.advance(GAP_S)
        lobby.view(b, mid)  # Bob is here too
        assert say(lobby, a, mid, "thanks").status_code == 200
    lobby.clock.advance(GAP_S * 2)
    capped = say(lobby, a, mid, "thanks")
    assert capped.status_code == 429 and "Retry-After" not in capped.headers
    assert len([e for e in events(lobby, b, mid) if e["type"] == "say" and e["phrase"] != "hello"]) == PER_MATCH - 1


def test_nothing_is_said_once_the_match_is_over(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    lobby.c.post(f"/matches/{mid}/resign", headers=lobby.h(a))
    assert say(lobby, b, mid, "good_game").status_code == 409
