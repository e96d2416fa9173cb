"""The Spit table's controller (no Flet): a person (seat 0) against a bot through the real-time
driver. The view passes the time of every tap and calls :meth:`tick` from its timer; every action
the driver applies is saved in order, so a game resumes exactly (Spit replays by arrival order)."""

from __future__ import annotations

from typing import Any

from engine.bots.spit_bots import SpitBot
from engine.core import Event, Why
from engine.spit import RULES, SpitOptions
from engine.spit.actions import CallSpit, Fill, PlayCard, Slap
from engine.spit.driver import SpitDriver
from engine.spit.state import SpitState


class SpitGame:
    def __init__(self, storage: Any, level: str, seed: int, now: float, game_id: int | None = None,
                 options: SpitOptions | None = None) -> None:
        from storage import api

        self.api = api
        self.storage = storage
        self.level = level
        #: split screen: two people on one device, player 1 across the table (its half is turned)
        self.split = level == "person"
        self.options = options or SpitOptions()
        #: the stock each player has picked up (player 0 is ``selected``, kept for the one-person table)
        self.picked: dict[int, int | None] = {0: None, 1: None}
        self._picked_order: list[int] = []
        #: why the last tap was rejected (the pile changed under the finger, or it never fitted)
        self.refusal: Why | None = None
        if game_id is None:
            state: SpitState = RULES.new_game(self.options, seed)
            seats = [{"kind": "person"}, {"kind": "person"} if self.split else {"kind": "bot", "level": level}]
            self.game_id = api.new_game(storage, "spit", self.options.to_json(), seed, 2, seats,
                                        mode="pass_and_play" if self.split else "bots")
            self.seq = 0
        else:
            info, state = api.resume_game(storage, game_id)
            self.game_id, self.seq = game_id, len(info.actions)
        bots = {} if self.split else {1: SpitBot(level, seed)}
        self.driver = SpitDriver(state, bots, seed=seed + self.seq, now=now,
                                 spit_countdown=1.2, round_pause=2.5, auto_spit=False)
        self.saved_log = len(self.driver.log)

    @classmethod
    def resume(cls, storage: Any, game_id: int, now: float) -> SpitGame:
        from storage import api

        info = api.load_game(storage, game_id)
        level = next((s.get("level", "casual") for s in info.seats if s.get("kind") == "bot"), "person")
        return cls(storage, level, info.seed, now, game_id, RULES.parse_options(info.options))

    @property
    def state(self) -> SpitState:
        return self.driver.state

    @property
    def observation(self) -> dict[str, Any]:
        return RULES.observe(self.state, 0)

    def _save(self) -> None:
        for _t, action in self.driver.log[self.saved_log:]:
            self.api.append_action(self.storage, self.game_id, self.seq, action)
            self.seq += 1
        self.saved_log = len(self.driver.log)
        if self.state.over:
            info = self.api.load_game(self.storage, self.game_id)
            if info.finished_at is None:
                self.api.finish_game(self.storage, self.game_id, self.state.winner, "cards")

    def tick(self, now: float) -> list[Event]:
        events = self.driver.advance(now)
        if events:
            self._save()
        return events

    @property
    def selected(self) -> int | None:
        return self.picked[0]

    @selected.setter
    def selected(self, slot: int | None) -> None:
        self.picked[0] = slot

    def _submit(self, action: Any, now: float) -> list[Event]:
        events = self.driver.submit(action, now)
        self._save()
        player = getattr(action, "player", 0)
        self.picked[player] = None
        self.refusal = next((e["reason"] for e in events if e.type == "rejected" and e.get("player") == player
                             and isinstance(e.get("reason"), Why)), None)
        return events

    def countdown_ends(self) -> float | None:
        return self.driver.countdown_ends()

    # --- what a person can do -------------------------------------------------------------------
    def legal(self, player: int = 0) -> list[Any]:
        return RULES.legal_actions(self.state, player)

    def tap_stock(self, slot: int, now: float, player: int = 0) -> list[Event]:
        """Pick up a stock; tapping an empty slot with a stock picked up fills it."""
        picked = self.picked[player]
        if picked is not None and Fill(player, picked, slot) in self.legal(player):
            return self._submit(Fill(player, picked, slot), now)
        self.picked[player] = None if picked == slot else (slot if self.state.players[player].stocks[slot] else None)
        if self.picked[player] is not None:
            self._picked_order = [p for p in self._picked_order if p != player] + [player]
        return []

    def target_piles(self, player: int = 0) -> set[int]:
        picked = self.picked[player]
        if picked is None:
            return set()
        return {a.pile for a in self.legal(player) if isinstance(a, PlayCard) and a.stock == picked}

    def target_slots(self, player: int = 0) -> set[int]:
        picked = self.picked[player]
        if picked is None:
            return set()
        return {a.slot for a in self.legal(player) if isinstance(a, Fill) and a.source == picked}

    def pile_player(self, pile: int) -> int:
        """Split screen: whose card a tap on a shared pile moves — the one player holding a card, or
        the one whose card fits there, or the one who picked up last."""
        holding = [p for p in (0, 1) if self.picked[p] is not None]
        if len(holding) == 1:
            return holding[0]
        fitting = [p for p in holding if pile in self.target_piles(p)]
        if len(fitting) == 1:
            return fitting[0]
        return self._picked_order[-1] if self._picked_order else 0

    def tap_pile(self, pile: int, now: float, player: int | None = None) -> list[Event]:
        if player is None:
            player = self.pile_player(pile) if self.split else 0
        if self.state.phase == "slap" and Slap(player, pile) in self.legal(player):
            return self._submit(Slap(player, pile), now)
        if self.picked[player] is not None:
            # sent even if the pile changed under the finger: the engine answers 'rejected'
            return self._submit(PlayCard(player, self.picked[player], pile), now)
        return []

    def can_spit(self, player: int = 0) -> bool:
        return CallSpit(player) in self.legal(player)

    def spit(self, now: float, player: int = 0) -> list[Event]:
        return self._submit(CallSpit(player), now)
