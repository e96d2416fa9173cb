"""Online Lanes against a person through the lobby (no Flet here; plain pytest covers it).

The server is the referee: this controller never has the match state, only the viewer's own view
(``observation``, ``legal``, clocks) as the lobby sends it. It is a mode of ``LanesMatch``, so the
same table plays online: legal targets come from the server's ``legal`` list, a move
is sent with its expected move number and a client move id (a retry after a lost answer is
answered with the original result), and the opponent's moves arrive as numbered events (long poll,
with catch-up from the last number seen after a lost connection).

Clocks tick locally between server answers: ``remaining(now_local)`` starts from the server's
``remaining_ms`` at the moment of the last answer and subtracts the time since on the side to move;
every answer corrects it.

Nothing here that talks to the lobby may run on Flet's event loop, which every browser session of
the web app shares (one slow answer would freeze every player): :meth:`submit` only puts the move
in the outbox ("sending…"), and :meth:`flush`, :meth:`sync` and :meth:`resign` — the calls that go
over the network — are run by the table in a worker thread (``asyncio.to_thread``). Several of
them may run at once (the follow loop's long poll, a move being sent, the re-sync on return from the
background), so each takes the server's answer under one lock, and only an answer at least as new
as the view held (by event and move count) replaces it: an old answer arriving late changes nothing.
"""

from __future__ import annotations

import itertools
import threading
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from engine.core import Event, Why, ev
from engine.lanes import RULES
from engine.lanes.actions import LanesAction
from engine.lanes.notation import LanesObservation
from storage.lobby_client import LobbyClient, LobbyRefused, LobbyUnavailable
from storage.seats import ONLINE, PERSON
from views.lanes.controller import reason_seen
from views.table.contract import Powers, Refused, Status
from views.table.lessons import LessonCoach
from views.table.modes import NoBotNoUndo

if TYPE_CHECKING:
    from storage.db import Storage


#: a JSON answer of the lobby: a view, a poll's body, a queued move
LobbyJson = dict[str, Any]

#: the lobby's events that are not the engine's (the table draws only the engine's)
NOT_PLAY = ("move", "start", "end", "rematch", "say")


class OnlineMode(NoBotNoUndo[LanesAction]):
    """A Lanes match at the lobby, seen from my seat: the server's view is all there is."""

    powers = Powers(hint=False)
    coach: LessonCoach | None = None
    game_id: int | None = None

    def __init__(self, client: LobbyClient, view: LobbyJson, now: float = 0.0,
                 clock: Callable[[], float] | None = None, storage: Storage | None = None) -> None:
        #: the local clock the view's arrival is stamped with (the table passes time.monotonic)
        self.clock = clock
        self.client = client
        #: the app's storage, whose outbox keeps a move made while the lobby cannot be reached
        self.storage = storage
        #: what to tell the player about a queued move the lobby no longer took (then cleared)
        self.notice: str | None = None
        self.match_id = str(view["match_id"])
        self.last_events: list[Event] = []
        #: quick messages heard since the table last took them: (seat, phrase)
        self.heard: list[tuple[int, str]] = []
        #: "ok", or "lost" while the lobby cannot be reached (the table says so and keeps retrying)
        self.connection = "ok"
        self.since = int(view.get("event_count", 0))
        #: every answer from the lobby is taken under this lock; one sender at a time
        self._lock, self._sending = threading.Lock(), threading.Lock()
        self._mark = (-1, -1)
        #: the outbox without a storage (tests): (id, move) pairs
        self._unsent: list[tuple[int, LobbyJson]] = []
        self._ids = itertools.count(1)
        self._set_view(view, now)
        self.levels: list[str] = [PERSON, ONLINE] if self.seat == 0 else [ONLINE, PERSON]

    # --- the server's view ---------------------------------------------------------------------
    def _set_view(self, view: LobbyJson, now: float | None = None) -> bool:
        """Take the server's answer, stamped with the local time it arrived (for the clocks), unless
        the view held is newer (a late answer to an older request). True when taken."""
        with self._lock:
            return self._take_if_newer(view, now)

    def _take_if_newer(self, view: LobbyJson, now: float | None) -> bool:
        """:meth:`_set_view` with the lock already held."""
        mark = (int(view.get("event_count", 0)), int(view["move_count"]))
        if mark < self._mark:
            return False
        self._mark = mark
        self.view = view
        self.seat = int(view["seat"])
        self.seq = int(view["move_count"])
        self.view_at = now if now is not None else (self.clock() if self.clock else 0.0)
        self.since = max(self.since, int(view.get("event_count", 0)))
        return True

    def viewer(self) -> int:
        return self.seat

    def status(self) -> Status:
        v = self.view
        over = v["status"] != "running"
        return Status(over, None if over else int(v["clock"]["to_move"]), v.get("winner"), v.get("reason"))

    def observation(self) -> LanesObservation:
        """The lobby's ``observe(state, seat)``, the engine's own JSON (docs/lobby.md)."""
        return cast("LanesObservation", self.view["observation"])

    def legal(self) -> list[LanesAction]:
        """The server's list of my legal moves (the lobby asks the engine); none while a move of
        mine waits to be sent."""
        v = self.view
        if self.queued():
            return []
        mine = v["status"] == "running" and int(v["clock"]["to_move"]) == self.seat
        return [RULES.parse_action(a) for a in v["legal"]] if mine else []

    def remaining(self, now: float) -> list[int] | None:
        """Both clocks in ms, ticking locally on the side to move since the last server answer."""
        clock = self.view["clock"]
        if clock.get("remaining_ms") is None:
            return None
        out = [int(x) for x in clock["remaining_ms"]]
        if self.view["status"] == "running" and clock.get("running"):
            side = int(clock["to_move"])
            out[side] = max(0, out[side] - int((now - self.view_at) * 1000))
        return out

    def countdowns(self, now: float) -> list[tuple[str, int]]:
        """The time rules the server enforces, counting down locally since its last answer (L-8.4):
        the first-move minute ("first_you"/"first_them"), the untimed five minutes on one move
        ("move_you"/"move_them") and the opponent's away minute ("away"), in whole seconds."""
        v = self.view
        if v["status"] != "running":
            return []
        clock = v["clock"]
        since = now - self.view_at
        side = "you" if int(clock["to_move"]) == self.seat else "them"
        out = []
        for key, kind in (("first_move_deadline", "first"), ("move_deadline", "move")):
            deadline = clock.get(key)
            if deadline is not None:
                out.append((f"{kind}_{side}", max(0, int(deadline - clock["server_now"] - since))))
        if v.get("opponent_loses_in_s") is not None:
            out.append(("away", max(0, int(v["opponent_loses_in_s"] - since))))
        return out

    # --- moves ---------------------------------------------------------------------------------
    def _why_not(self, action: LanesAction) -> Why:
        """The engine's reason a move the server does not list is illegal. Legality depends only on
        what this player sees (own hand, the table), so any world consistent with the observation
        gives the reason; the server stays the referee."""
        v = self.view
        if v["status"] != "running" or int(v["clock"]["to_move"]) != self.seat:
            return Why("not_your_turn", "it is not your turn")
        return reason_seen(self.observation(), action) or Why("rejected", "that move is not possible now")


    def submit(self, action: LanesAction, now: float | None = None) -> list[Event]:
        """Put a legal move in the outbox with its expected move number and a client move id, and
        return at once ("sending…"): :meth:`flush` sends it, off the UI loop. Raises
        :class:`Refused` (nothing queued) when the move is not in the server's list or one is still
        being sent. A move the lobby then refuses (the opponent's flag fell meanwhile) is dropped
        and :attr:`notice` says why; one sent while the lobby cannot be reached waits in the
        storage's outbox and goes, with the same number and id, when the connection is back."""
        if self.queued():
            raise Refused(Why("sending", "your move is still being sent"))
        if action not in self.legal():
            raise Refused(self._why_not(action))
        move = {"match_id": self.match_id, "expected_move": self.seq, "action": RULES.action_to_json(action),
                "client_move_id": uuid.uuid4().hex}
        if self.storage is None:
            self._unsent.append((next(self._ids), move))
        else:
            from storage import api

            api.enqueue(self.storage, "move", move)
        return [ev("queued")]

    def _moved(self, body: LobbyJson, now: float | None) -> list[Event]:
        self.connection = "ok"
        events = [ev(e["type"], **{k: v for k, v in e.items() if k not in ("type", "n")})
                  for e in body.get("events", []) if isinstance(e, dict) and "type" in e
                  and e["type"] not in NOT_PLAY]
        with self._lock:
            if isinstance(body.get("view"), dict) and not self._take_if_newer(body["view"], now):
                return [ev("move")]
            self.last_events = events
        return events or [ev("move")]

    def queued(self) -> list[tuple[int, LobbyJson]]:
        """This match's moves waiting in the outbox (at most one: no move is made past it)."""
        if self.storage is None:
            return list(self._unsent)
        from storage import api

        return [(i, p) for i, kind, p in api.pending(self.storage)
                if kind == "move" and isinstance(p, dict) and p.get("match_id") == self.match_id]

    def _done(self, outbox_id: int) -> None:
        if self.storage is None:
            self._unsent = [(i, p) for i, p in self._unsent if i != outbox_id]
            return
        from storage import api

        api.done(self.storage, outbox_id)

    def flush(self, now: float | None = None) -> bool:
        """Send the queued move, exactly as it was (the lobby's idempotent moves make it count once
        however often it is sent); over the network, so never on the UI loop. True when the outbox
        is empty for this match afterwards (False while the lobby cannot be reached, or while
        another thread is sending it). A move the lobby no longer takes (the match ended meanwhile,
        on time perhaps) is dropped and :attr:`notice` says so plainly."""
        if not self._sending.acquire(blocking=False):
            return False
        try:
            for outbox_id, move in self.queued():
                try:
                    body = self.client.move(self.match_id, int(move["expected_move"]), move["action"],
                                            str(move["client_move_id"]))
                except LobbyUnavailable:
                    self.connection = "lost"
                    return False
                except LobbyRefused as exc:
                    if isinstance(exc.body, dict) and isinstance(exc.body.get("view"), dict):
                        self._set_view(exc.body["view"], now)
                    self.notice = exc.message
                    self._done(outbox_id)
                    continue
                self._done(outbox_id)
                self._moved(body, now)
            return True
        finally:
            self._sending.release()

    def can_abort(self) -> bool:
        """Before both players have moved, either may abort (unrated, no winner; the lobby says)."""
        return bool(self.view.get("can_abort"))

    def abort(self) -> None:
        """Abort at the lobby (over the network: the table runs it off the UI loop)."""
        try:
            self._set_view(self.client.abort(self.match_id))
        except LobbyRefused:
            self._set_view(self.client.view(self.match_id))  # both moved meanwhile: the match goes on
        except LobbyUnavailable:
            self.connection = "lost"

    def resign(self) -> list[Event]:
        """Resign at the lobby (L-8.3): the server records it and ends the match (over the
        network: the table runs it off the UI loop)."""
        try:
            self.client.resign(self.match_id)
            self._set_view(self.client.view(self.match_id))
        except (LobbyRefused, LobbyUnavailable):
            self.connection = "lost"
        return []

    def say(self, phrase: str) -> str | None:
        """Send a quick message (network: off the UI loop). None when sent, else why not: "soon"
        (the lobby's rate limit), "lost" (cannot be reached) or "refused"."""
        try:
            self.client.say(self.match_id, phrase)
        except LobbyRefused as exc:
            return "soon" if exc.status == 429 else "refused"
        except LobbyUnavailable:
            return "lost"
        return None

    def take_heard(self) -> list[tuple[int, str]]:
        """The quick messages heard since the last call (each given once)."""
        with self._lock:
            heard, self.heard = self.heard, []
        return heard

    def suggestion(self, level: str = "casual") -> LanesAction | None:
        return None  # no help from the app in a game against a person

    def names(self) -> list[str]:
        """Both seats' names as the lobby gives them ("?" for one it does not)."""
        return [p["name"] if p else "?" for p in self.view.get("players", [None, None])]

    @property
    def watching(self) -> bool:
        """A spectator's view (views/online/watch.py): nobody's seat is mine."""
        return bool(self.view.get("spectator"))

    def _poll(self, wait: float) -> LobbyJson:
        """The lobby's long poll for this match's events after :attr:`since` (network)."""
        return self.client.poll(self.match_id, self.since, timeout=wait)

    # --- the opponent's moves -------------------------------------------------------------------
    def sync(self, now: float, wait: float = 0.0) -> bool:
        """Fetch events after the last number seen (catch-up after a lost connection) and the current
        view; True when something changed."""
        if self.queued() and not self.flush(now) and self.connection == "lost":
            return False  # the waiting move goes first once the lobby is back; while another thread
            # is sending it, the poll below waits for the answer instead of spinning
        try:
            body = self._poll(wait)
        except LobbyUnavailable:
            self.connection = "lost"
            return False
        except LobbyRefused:
            return False
        self.connection = "ok"
        events = [e for e in body.get("events", []) if isinstance(e, dict)]
        with self._lock:
            before = (self.seq, self.view["status"])
            if isinstance(body.get("view"), dict) and not self._take_if_newer(body["view"], now):
                return False  # an answer older than the view held (another sync was quicker)
            if events:
                self.since = max(self.since, max(int(e.get("n", 0)) for e in events))
                self.heard += [(int(e["seat"]), str(e["phrase"])) for e in events
                               if e.get("type") == "say" and isinstance(e.get("seat"), int)
                               and isinstance(e.get("phrase"), str)]
                engine_events = [ev(e["type"], **{k: v for k, v in e.items() if k not in ("type", "n")})
                                 for e in events if e.get("type") not in NOT_PLAY]
                if engine_events:
                    self.last_events = engine_events
            return bool(events) or before != (self.seq, self.view["status"])
