"""Rematch (#45 item 1): after a match ends either player offers, the other accepts or declines;
an accepted rematch is a new match with the seats swapped and the same terms; the offer ends when
either leaves the result screen or after REMATCH_LIFETIME_S. On SQLite and PostgreSQL (db_url)."""

from __future__ import annotations

import json
from typing import Any

from lobby.rematch import REMATCH_LIFETIME_S
from tests.lobby.conftest import Lobby


def resign(lobby: Lobby, who: dict[str, str], mid: str) -> None:
    r = lobby.c.post(f"/matches/{mid}/resign", headers=lobby.h(who))
    assert r.status_code == 200, r.text


def rematch(lobby: Lobby, who: dict[str, str], mid: str, verb: str = "post") -> tuple[int, dict[str, Any]]:
    r = lobby.c.request(verb.upper(), f"/matches/{mid}/rematch", headers=lobby.h(who))
    return r.status_code, r.json()


def state(lobby: Lobby, who: dict[str, str], mid: str, since: int = 0, timeout: float = 0.0) -> dict[str, Any]:
    r = lobby.c.get(f"/matches/{mid}/rematch", params={"since": since, "timeout": timeout}, headers=lobby.h(who))
    assert r.status_code == 200, r.text
    return dict(r.json())


def ended(lobby: Lobby, rated: bool = True, tc: str = "3+2",
          variants: list[str] | None = None) -> tuple[dict[str, str], dict[str, str], str]:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b, rated=rated, tc=tc, variants=variants)
    resign(lobby, a, mid)
    return a, b, mid


def test_an_accepted_rematch_swaps_the_seats_and_keeps_the_terms(lobby: Lobby) -> None:
    a, b, mid = ended(lobby, rated=False, tc="10+5", variants=["king_adds"])
    old = lobby.view(a, mid)
    assert state(lobby, b, mid)["status"] == "none"
    status, offered = rematch(lobby, a, mid)
    assert status == 200 and offered["status"] == "offered" and offered["mine"] is True
    assert offered["offered_by"] == old["seat"] and offered["match_id"] is None
    assert offered["expires_at"] == lobby.clock.now() + REMATCH_LIFETIME_S
    seen = state(lobby, b, mid)  # the other player learns of it (an event of the ended match)
    assert seen["status"] == "offered" and seen["mine"] is False and seen["event_count"] > old["event_count"]
    status, accepted = rematch(lobby, b, mid)  # offering back accepts
    assert status == 200 and accepted["status"] == "accepted" and accepted["match_id"]
    new_id = accepted["match_id"]
    assert state(lobby, a, mid)["match_id"] == new_id  # the offerer finds the new match too
    assert rematch(lobby, a, mid) == (200, {**accepted, "mine": True})  # asking again: the same match
    new = lobby.view(a, new_id)
    assert new["status"] == "running" and new["seat"] == 1 - old["seat"]  # seats swapped
    assert (new["rated"], new["time_control"]) == (False, "10+5")
    assert new["observation"]["options"] == old["observation"]["options"]  # the same house rules
    record = lobby.c.get(f"/matches/{mid}/replay").json()
    assert record["actions"][-1] == {"player": old["seat"], "resign": True}  # the old record is unchanged


def test_a_rated_match_rematches_rated(lobby: Lobby) -> None:
    a, b, mid = ended(lobby)
    rematch(lobby, b, mid)
    new_id = rematch(lobby, a, mid)[1]["match_id"]
    assert lobby.view(b, new_id)["rated"] is True and lobby.view(b, new_id)["time_control"] == "3+2"


def test_two_offers_at_once_make_one_match(lobby: Lobby) -> None:
    a, b, mid = ended(lobby)
    first = rematch(lobby, a, mid)[1]
    again = rematch(lobby, a, mid)[1]  # a retry of one's own offer changes nothing
    assert first == again and first["status"] == "offered"
    made = {rematch(lobby, b, mid)[1]["match_id"], rematch(lobby, a, mid)[1]["match_id"],
            rematch(lobby, b, mid)[1]["match_id"]}
    assert len(made) == 1 and None not in made
    mine = lobby.c.get("/players/me/matches", headers=lobby.h(a)).json()
    assert [m["match_id"] for m in mine] == list(made)


def test_declined_or_left_the_offer_is_over_for_both(lobby: Lobby) -> None:
    a, b, mid = ended(lobby)
    rematch(lobby, a, mid)
    status, declined = rematch(lobby, b, mid, "delete")
    assert status == 200 and declined["status"] == "declined" and declined["match_id"] is None
    assert state(lobby, a, mid)["status"] == "declined"
    for who in (a, b):
        status, body = rematch(lobby, who, mid)
        assert status == 409 and "declined" in body["error"] and body["detail"]["status"] == "declined"
    # leaving the result screen before anyone offered: no rematch of that match either
    c, d, other = ended(lobby)
    assert rematch(lobby, d, other, "delete")[1]["status"] == "declined"
    assert rematch(lobby, c, other)[0] == 409


def test_withdrawing_ones_own_offer_ends_it(lobby: Lobby) -> None:
    a, b, mid = ended(lobby)
    rematch(lobby, a, mid)
    assert rematch(lobby, a, mid, "delete")[1]["status"] == "declined"
    assert rematch(lobby, b, mid)[0] == 409


def test_an_offer_expires_after_its_lifetime(lobby: Lobby) -> None:
    a, b, mid = ended(lobby)
    rematch(lobby, a, mid)
    lobby.clock.advance(REMATCH_LIFETIME_S - 1)
    assert state(lobby, b, mid)["status"] == "offered"
    lobby.clock.advance(2)
    assert state(lobby, b, mid)["status"] == "expired"
    status, body = rematch(lobby, b, mid)  # too late to accept
    assert status == 409 and "expired" in body["error"]
    assert lobby.c.get("/players/me/matches", headers=lobby.h(b)).json() == []


def test_no_rematch_while_the_match_runs_and_none_for_strangers(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    assert rematch(lobby, a, mid)[0] == 409
    assert rematch(lobby, a, mid, "delete")[0] == 409
    assert state(lobby, a, mid)["status"] == "none"
    resign(lobby, a, mid)
    c = lobby.player("Cy")
    assert rematch(lobby, c, mid)[0] == 403
    assert lobby.c.get(f"/matches/{mid}/rematch", headers=lobby.h(c)).status_code == 403
    assert rematch(lobby, a, "m_nosuch")[0] == 404


def test_the_wait_answers_at_once_when_something_happened_since(lobby: Lobby) -> None:
    a, b, mid = ended(lobby)
    seen = state(lobby, b, mid)
    rematch(lobby, a, mid)
    later = state(lobby, b, mid, since=seen["event_count"], timeout=20)  # no wait: the offer is news
    assert later["status"] == "offered"
    rematch(lobby, b, mid, "delete")
    final = state(lobby, a, mid, since=later["event_count"] + 5, timeout=20)  # final: answered at once
    assert final["status"] == "declined"


def test_an_aborted_match_can_be_rematched(lobby: Lobby) -> None:
    a, b = lobby.player("Ann"), lobby.player("Bob")
    mid = lobby.match(a, b)
    assert lobby.c.post(f"/matches/{mid}/abort", headers=lobby.h(a)).status_code == 200
    rematch(lobby, a, mid)
    new_id = rematch(lobby, b, mid)[1]["match_id"]
    assert lobby.view(a, new_id)["status"] == "running"
    assert json.loads(json.dumps(lobby.view(a, new_id)["players"]))  # both players named
