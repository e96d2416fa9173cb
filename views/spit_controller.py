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
        self.options = options or SpitOptions()
        self.selected: int | None = None
        #: why the last tap was rejected (the pile changed under the finger, or it never fitted)
        self.refusal: Why | None = None
        if game_id is None:
            state: SpitState = RULES.new_game(self.options, seed)
            self.game_id = api.new_game(storage, "spit", self.options.to_json(), seed, 2,
                                        [{"kind": "person"}, {"kind": "bot", "level": level}])
            self.seq = 0
        else:
            info, state = api.resume_game(storage, game_id)
            self.game_id, self.seq = game_id, len(info.actions)
        self.driver = SpitDriver(state, {1: SpitBot(level, seed)}, seed=seed + self.seq, now=now,
                                 spit_countdown=1.2, round_pause=2.5, auto_spit=False)
        self.saved_log = len(self.driver.log)

    @classmethod
    def resume(cls, storage: Any, game_id: int, now: float) -> SpitGame:
        from storage import api

        info = api.load_game(storage, game_id)
        level = next((s.get("level", "casual") for s in info.seats if s.get("kind") == "bot"), "casual")
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

    def _submit(self, action: Any, now: float) -> list[Event]:
        events = self.driver.submit(action, now)
        self._save()
        self.selected = None
        self.refusal = next((e["reason"] for e in events if e.type == "rejected" and e.get("player") == 0
                             and isinstance(e.get("reason"), Why)), None)
        return events

    def countdown_ends(self) -> float | None:
        return self.driver.countdown_ends()

    # --- what the person can do -----------------------------------------------------------------
    def legal(self) -> list[Any]:
        return RULES.legal_actions(self.state, 0)

    def tap_stock(self, slot: int, now: float) -> list[Event]:
        """Select a stock; tapping an empty slot with a stock selected fills it."""
        if self.selected is not None and Fill(0, self.selected, slot) in self.legal():
            return self._submit(Fill(0, self.selected, slot), now)
        self.selected = None if self.selected == slot else (slot if self.state.players[0].stocks[slot] else None)
        return []

    def target_piles(self) -> set[int]:
        if self.selected is None:
            return set()
        return {a.pile for a in self.legal() if isinstance(a, PlayCard) and a.stock == self.selected}

    def target_slots(self) -> set[int]:
        if self.selected is None:
            return set()
        return {a.slot for a in self.legal() if isinstance(a, Fill) and a.source == self.selected}

    def tap_pile(self, pile: int, now: float) -> list[Event]:
        if self.state.phase == "slap" and Slap(0, pile) in self.legal():
            return self._submit(Slap(0, pile), now)
        if self.selected is not None:
            # sent even if the pile changed under the finger: the engine answers 'rejected'
            return self._submit(PlayCard(0, self.selected, pile), now)
        return []

    def can_spit(self) -> bool:
        return CallSpit(0) in self.legal()

    def spit(self, now: float) -> list[Event]:
        return self._submit(CallSpit(0), now)
