"""The online Lanes controller (views/online/controller.py) against the lobby app in-process (fake clock):
legal targets only from the server's list, moves with expected numbers, the opponent's moves by
numbered events with catch-up, clocks that tick locally, and a lost connection said plainly."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from engine.bots import decide  # noqa: E402
from engine.lanes import RULES  # noqa: E402
from lobby.app import create_app  # noqa: E402
from lobby.clock import FakeClock  # noqa: E402
from storage.lobby_client import LobbyClient  # noqa: E402
from views.lanes.controller import LanesMatch  # noqa: E402
from views.online.controller import OnlineMode  # noqa: E402


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[LobbyClient, LobbyClient, FakeClock]]:
    clock = FakeClock()
    app = create_app(f"sqlite:///{tmp_path / 'l.sqlite'}", clock=clock, run_sweeper=False, rate=1000, burst=5000)
    with TestClient(app) as tc:
        transport = tc._transport  # the in-process ASGI transport, shared by both clients
        a = LobbyClient("http://testserver", transport=transport)
        b = LobbyClient("http://testserver", transport=transport)
        a.sign_up("Ann")
        b.sign_up("Bob")
        yield a, b, clock


def friendly_on_my_turn(a: LobbyClient, b: LobbyClient) -> tuple[OnlineMode, LanesMatch]:
    """``b`` accepts ``a``'s unrated challenge; ``a``'s table, once it is ``a``'s move."""
    vb = b.accept(a.challenge(rated=False))
    online = OnlineMode(a, a.view(vb["match_id"]), now=0.0)
    m = LanesMatch(online)
    until_my_turn(m, online, b)
    return online, m


def until_my_turn(m: LanesMatch, online: OnlineMode, opponent: LobbyClient) -> None:
    """Let the opponent move (as the beginner bot) until it is this player's turn."""
    for _ in range(4):
        if m.my_turn:
            return
        v = opponent.view(online.match_id)
        act = decide("lanes", v["observation"], "beginner", v["move_count"])
        opponent.move(online.match_id, v["move_count"], RULES.action_to_json(act))
        assert online.sync(now=1.0)
    assert m.my_turn


def test_online_match_plays_through_the_server_and_follows_the_opponent(pair) -> None:  # type: ignore[no-untyped-def]
    a, b, clock = pair
    code = a.challenge(rated=True, time_control="5+3")
    vb = b.accept(code)
    online = OnlineMode(a, a.view(vb["match_id"]), now=0.0)
    m = LanesMatch(online)
    assert m.status.over is False and m.refusal is None
    for _ in range(6):
        if m.my_turn:
            legal = m.legal()
            assert legal and all(x in [RULES.parse_action(y) for y in online.view["legal"]] for x in legal)
            action = legal[0]
            events = m._apply(action)
            assert events and m.refusal is None and len(online.queued()) == 1  # sent off the UI loop:
            assert online.flush(1.0) and online.queued() == []  # the table's worker thread sends it
        else:
            v = b.view(online.match_id)
            act = decide("lanes", v["observation"], "beginner", v["move_count"])
            b.move(online.match_id, v["move_count"], RULES.action_to_json(act))
            assert online.sync(now=1.0)  # the opponent's move arrives as numbered events
            assert m.last_events and online.since >= online.view["event_count"] - 1
    rem = online.remaining(online.view_at + 2.0)
    assert rem is not None and all(isinstance(x, int) for x in rem)
    # a stale move (the server has moved on) is refused with the server's words, nothing breaks
    until_my_turn(m, online, b)
    online.seq -= 1
    assert m._apply(m.legal()[0]) != [] and online.flush(2.0)
    assert online.notice is not None and online.queued() == [] and m.my_turn  # dropped, said, my turn still


def test_lost_connection_is_reported_and_nothing_crashes(pair) -> None:  # type: ignore[no-untyped-def]
    a, b, clock = pair
    code = a.challenge(rated=False)
    vb = b.accept(code)
    online = OnlineMode(a, a.view(vb["match_id"]), now=0.0)
    m = LanesMatch(online)
    until_my_turn(m, online, b)

    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("down")

    online.client = LobbyClient("http://testserver", token=a.token, transport=httpx.MockTransport(down), timeout=0.2)
    assert online.sync(now=1.0) is False and online.connection == "lost"
    assert m._apply(m.legal()[0]) != [] and online.flush(1.0) is False and online.connection == "lost"
    assert len(online.queued()) == 1 and m.legal() == []  # it waits; no other move meanwhile
    online.client = a  # back: catch up from the last event number
    assert online.sync(now=2.0) or online.connection == "ok"
    assert online.connection == "ok"


def test_a_refused_tap_online_is_explained_in_the_engines_words(pair) -> None:  # type: ignore[no-untyped-def]
    """#20: the online table does not invent refusals — a number card on the opponent's lane is
    refused with the engine's reason (L-5.1), and nothing is sent."""
    a, b, clock = pair
    online, m = friendly_on_my_turn(a, b)
    number = next(c for c in m.observation["hand"] if c[:-1] in {"A", *map(str, range(2, 11))})
    seq = online.seq
    m.select(number)
    assert m.play_at(1 - m.human, 0) == [] and m.refusal is not None
    assert m.refusal.key in ("own_lanes", "opening_lane") and online.seq == seq


def test_the_servers_countdowns_are_shown_and_tick_locally(pair) -> None:  # type: ignore[no-untyped-def]
    """#18, L-8.4: the first-move minute, the untimed five minutes on one move and the opponent's
    away minute, read from the server's deadlines and counting down between its answers."""
    a, b, clock = pair
    vb = b.accept(a.challenge(rated=False, time_control="untimed"))
    online = OnlineMode(a, a.view(vb["match_id"]), now=100.0)
    m = LanesMatch(online)
    first = dict(online.countdowns(100.0))
    assert first in ({"first_you": 60}, {"first_them": 60})
    assert dict(online.countdowns(110.0)) == {k: 50 for k in first}  # ticking here, no request
    for _ in range(2):  # both first moves: now the untimed move rule runs
        until_my_turn(m, online, b)
        m._apply(m.legal()[0])
        assert online.flush(150.0)
    until_my_turn(m, online, b)
    clock.advance(30)  # the opponent has been quiet for half a minute
    online.sync(now=200.0)
    shown = dict(online.countdowns(205.0))
    assert shown["move_you"] == 300 - 30 - 5 and shown["away"] == 60 - 30 - 5


def test_a_finished_online_match_is_kept_in_the_local_history_once(pair, st) -> None:  # type: ignore[no-untyped-def]
    """#18: the published record of a finished match goes into the local history (replayed first),
    counted under the opponent type "online", the winner from the player's seat; kept once."""
    from storage import api

    a, b, clock = pair
    online, m = friendly_on_my_turn(a, b)
    m._apply(m.legal()[0])
    assert online.flush(1.0)
    b.resign(online.match_id)  # the friend resigns: I win
    record = a.record(online.match_id)
    gid = api.keep_online_match(st, record, online.seat, "Bob", online.match_id)
    assert api.keep_online_match(st, record, online.seat, "Bob", online.match_id) == gid  # once
    [game] = api.history(st)
    assert game.id == gid and game.winner == online.seat and game.mode == "online"
    assert api.stats(st)["lanes/online"]["won"] == 1
    # and the expert reviews it from my seat like any other game (my one move, judged)
    from engine.bots.review import review_game

    review = review_game(api.load_game(st, gid).record, online.seat, budget_ms=20)
    assert review is not None and [m.ply for m in review.moves] == [
        i for i, a in enumerate(record["actions"]) if "resign" not in a][-1:]


class LostAnswers(httpx.BaseTransport):
    """The request reaches the lobby, but its answer never comes back (a connection cut mid-move)."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.inner.handle_request(request)
        raise httpx.ConnectError("cut")


def test_a_move_made_while_the_connection_drops_arrives_exactly_once(pair, st, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """#18: the connection is cut while a move is sent (the lobby took it, the answer is lost): the
    move waits in the outbox ("sending…", no other move meanwhile), goes again with the same move
    number and id when the connection is back, and counts once."""
    from storage import api

    a, b, clock = pair
    vb = b.accept(a.challenge(rated=False))
    online = OnlineMode(a, a.view(vb["match_id"]), now=0.0, storage=st)
    m = LanesMatch(online)
    until_my_turn(m, online, b)
    seq = online.seq
    online.client = LobbyClient("http://testserver", token=a.token, timeout=0.5,
                                transport=LostAnswers(a.http._transport))
    assert m._apply(m.legal()[0]) != [] and m.refusal is None
    assert online.flush(1.0) is False  # the lobby took it, but the answer was lost
    assert len(online.queued()) == 1 and m.legal() == [] and online.connection == "lost"
    assert online.sync(now=1.0) is False  # still cut: it waits
    online.client = a  # the connection is back
    online.sync(now=2.0)
    assert online.queued() == [] and api.pending(st) == [] and online.seq == seq + 1
    assert b.view(online.match_id)["move_count"] == seq + 1  # once, not twice


def test_a_queued_move_the_lobby_no_longer_takes_is_dropped_and_said(pair, st) -> None:  # type: ignore[no-untyped-def]
    """The match ended while the move waited (here the opponent resigned): it is not made, the
    outbox is emptied, and the player is told why."""
    from storage import api

    a, b, clock = pair
    vb = b.accept(a.challenge(rated=False))
    online = OnlineMode(a, a.view(vb["match_id"]), now=0.0, storage=st)
    m = LanesMatch(online)
    until_my_turn(m, online, b)

    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("down")

    online.client = LobbyClient("http://testserver", token=a.token, transport=httpx.MockTransport(down), timeout=0.2)
    m._apply(m.legal()[0])
    assert len(online.queued()) == 1
    b.resign(online.match_id)
    online.client = a
    online.sync(now=3.0)
    assert api.pending(st) == [] and online.notice is not None and "over" in online.notice
    assert online.status().over


def test_while_another_thread_sends_the_move_a_sync_still_polls(pair) -> None:  # type: ignore[no-untyped-def]
    """#41: the table's worker thread is sending my move when the follow loop syncs: the sync polls
    (and waits on its poll) instead of returning at once, which made the follow loop spin."""
    a, b, clock = pair
    online, m = friendly_on_my_turn(a, b)
    m._apply(m.legal()[0])
    online.since = 0  # events to catch up on: a poll answers at once
    with online._sending:  # another thread holds the outbox
        assert online.sync(now=1.0, wait=0.5) is True and len(online.queued()) == 1
    assert online.flush(2.0) and online.queued() == []
