"""Online Lanes against a person through the lobby (no Flet here; plain pytest covers it).

The server is the referee: this controller never has the match state, only the viewer's own view
(``observation``, ``legal``, clocks) as the lobby sends it. It looks like ``LanesMatch`` to the Lanes
table, so the same table plays online: legal targets come from the server's ``legal`` list, a move
is sent with its expected move number and a client move id (a retry after a lost answer is
answered with the original result), and the opponent's moves arrive as numbered events (long poll,
with catch-up from the last number seen after a lost connection).

Clocks tick locally between server answers: ``remaining(now_local)`` starts from the server's
``remaining_ms`` at the moment of the last answer and subtracts the time since on the side to move;
every answer corrects it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.core import Event, Why, ev
from engine.lanes import RULES
from engine.lanes.actions import LanesAction, Play
from engine.lanes.state import is_number
from storage.lobby_client import LobbyClient, LobbyRefused, LobbyUnavailable
from views.lanes.controller import LanesMatch


@dataclass
class _Public:
    """The part of a match's state the table reads, taken from the server's view."""

    over: bool
    to_move: int
    winner: int | None
    reason: str | None


class OnlineLanesMatch(LanesMatch):
    def __init__(self, client: LobbyClient, view: dict[str, Any], now: float = 0.0,
                 clock: Callable[[], float] | None = None) -> None:
        #: the local clock the view's arrival is stamped with (the table passes time.monotonic)
        self.clock = clock
        self.client = client
        self.match_id = str(view["match_id"])
        self.api = None
        self.storage = None
        self.game_id = None
        self.level = "online"
        self.pass_and_play = False
        self.options = RULES.parse_options(view["observation"].get("options", {}))
        self.selected: Card | None = None
        self.refusal: Why | None = None
        self.last_events: list[Event] = []
        #: "ok", or "lost" while the lobby cannot be reached (the table says so and keeps retrying)
        self.connection = "ok"
        self.since = int(view.get("event_count", 0))
        self._set_view(view, now)

    # --- the server's view ---------------------------------------------------------------------
    def _set_view(self, view: dict[str, Any], now: float | None = None) -> None:
        """Take the server's answer, stamped with the local time it arrived (for the clocks)."""
        self.view = view
        self.seat = int(view["seat"])
        self.seq = int(view["move_count"])
        self.view_at = now if now is not None else (self.clock() if self.clock else 0.0)
        self.since = max(self.since, int(view.get("event_count", 0)))

    @property
    def human(self) -> int:
        return self.seat

    @property
    def state(self) -> Any:  # type: ignore[override]
        v = self.view
        return _Public(v["status"] != "running", int(v["clock"]["to_move"]), v.get("winner"), v.get("reason"))

    @property
    def observation(self) -> dict[str, Any]:
        return dict(self.view["observation"])

    @property
    def my_turn(self) -> bool:
        return self.view["status"] == "running" and int(self.view["clock"]["to_move"]) == self.seat

    def legal(self) -> list[LanesAction]:
        return [RULES.parse_action(a) for a in self.view["legal"]] if self.my_turn else []

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

    # --- moves ---------------------------------------------------------------------------------
    def play_at(self, owner: int, lane: int, stack: int | None = None) -> list[Event]:
        card = self.selected
        if card is None:
            return []
        if is_number(card):
            return self._apply(Play(card, lane, None if owner == self.human else owner))
        stacks = self.observation["players"][owner]["lanes"][lane]
        if not stacks:
            self.refusal = Why("face_needs_card", "a face card goes on a number card")
            return []
        return self._apply(Play(card, lane, owner, len(stacks) - 1 if stack is None else stack))

    def _apply(self, action: LanesAction, now: float | None = None) -> list[Event]:
        if action not in self.legal():
            self.refusal = Why("rejected", "that move is not possible now")
            return []
        try:
            body = self.client.move(self.match_id, self.seq, RULES.action_to_json(action), uuid.uuid4().hex)
        except LobbyRefused as exc:  # stale (the opponent moved, a flag fell): take the server's view
            if isinstance(exc.body, dict) and isinstance(exc.body.get("view"), dict):
                self._set_view(exc.body["view"], now)
            self.refusal = Why("rejected", exc.message)
            return []
        except LobbyUnavailable:
            self.connection = "lost"
            return []
        self.connection = "ok"
        self.selected, self.refusal = None, None
        if isinstance(body.get("view"), dict):
            self._set_view(body["view"], now)
        events = [ev(e["type"], **{k: v for k, v in e.items() if k not in ("type", "n")})
                  for e in body.get("events", []) if isinstance(e, dict) and "type" in e]
        self.last_events = events
        return events or [ev("move")]

    def resign(self) -> list[Event]:
        try:
            self.client.resign(self.match_id)
            self._set_view(self.client.view(self.match_id))
        except (LobbyRefused, LobbyUnavailable):
            self.connection = "lost"
        return []

    def can_undo(self) -> bool:
        return False

    def bot_choice(self) -> LanesAction | None:
        return None

    def hint(self) -> LanesAction | None:
        return None  # no help from the app in a game against a person

    # --- the opponent's moves -------------------------------------------------------------------
    def sync(self, now: float, wait: float = 0.0) -> bool:
        """Fetch events after the last number seen (catch-up after a lost connection) and the current
        view; True when something changed."""
        try:
            body = self.client.poll(self.match_id, self.since, timeout=wait)
        except LobbyUnavailable:
            self.connection = "lost"
            return False
        except LobbyRefused:
            return False
        self.connection = "ok"
        events = [e for e in body.get("events", []) if isinstance(e, dict)]
        before = (self.seq, self.view["status"])
        if events:
            self.since = max(self.since, max(int(e.get("n", 0)) for e in events))
            engine_events = [ev(e["type"], **{k: v for k, v in e.items() if k not in ("type", "n")})
                             for e in events if e.get("type") not in ("move", "start", "end")]
            if engine_events:
                self.last_events = engine_events
        if isinstance(body.get("view"), dict):
            self._set_view(body["view"], now)
        return bool(events) or before != (self.seq, self.view["status"])
