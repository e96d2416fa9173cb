"""The Spit table's controller (no Flet): a person (seat 0) against a bot or a second person, over a
mode (views/spit/modes.py). The view passes the time of every tap and calls :meth:`tick` from its
timer; the live mode saves every action the driver applies in order, so a game resumes exactly
(Spit replays by arrival order)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Event, Why
from engine.spit import RULES, SpitOptions
from engine.spit.actions import CallSpit, Fill, PlayCard, Slap, SpitAction
from engine.spit.notation import SpitObservation
from engine.spit.state import SpitState
from storage.seats import PERSON
from views.spit.modes import LiveSpit, SpitMode

if TYPE_CHECKING:
    from storage.db import Storage


class SpitGame:
    """What the Spit table reads and sends, over any mode (views/spit/modes.py): the stock each
    player has picked up, the lit piles and slots, and which player a shared pile answers."""

    def __init__(self, mode: SpitMode) -> None:
        self.mode = mode
        #: split screen: two people on one device, player 1 across the table (its half is turned)
        self.split = mode.levels[1] == PERSON
        #: the stock each player has picked up (player 0 is ``selected``, kept for the one-person table)
        self.picked: dict[int, int | None] = {0: None, 1: None}
        self._picked_order: list[int] = []
        #: why the last tap was rejected (the pile changed under the finger, or it never fitted)
        self.refusal: Why | None = None

    @classmethod
    def new(cls, storage: Storage, level: str, seed: int, now: float, options: SpitOptions | None = None) -> SpitGame:
        return cls(LiveSpit.create(storage, level, seed, now, options))

    @classmethod
    def resume(cls, storage: Storage, game_id: int, now: float) -> SpitGame:
        return cls(LiveSpit.resume(storage, game_id, now))

    @property
    def level(self) -> str:
        return self.mode.levels[1]

    @property
    def state(self) -> SpitState:
        return self.mode.state

    @property
    def observation(self) -> SpitObservation:
        return RULES.observe(self.state, 0)

    def tick(self, now: float) -> list[Event]:
        return self.mode.tick(now)

    @property
    def selected(self) -> int | None:
        return self.picked[0]

    @selected.setter
    def selected(self, slot: int | None) -> None:
        self.picked[0] = slot

    def _submit(self, action: PlayCard | Fill | CallSpit | Slap, now: float) -> list[Event]:
        events = self.mode.submit(action, now)
        player = action.player
        self.picked[player] = None
        self.refusal = next((e["reason"] for e in events if e.type == "rejected" and e.get("player") == player
                             and isinstance(e.get("reason"), Why)), None)
        return events

    def countdown_ends(self) -> float | None:
        return self.mode.countdown_ends()

    # --- what a person can do -------------------------------------------------------------------
    def legal(self, player: int = 0) -> list[SpitAction]:
        """``player``'s legal actions now (none in a replay: it is read-only)."""
        if self.mode.powers.read_only:
            return []
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
        stock = self.picked[player]
        if stock is not None:
            # sent even if the pile changed under the finger: the engine answers 'rejected'
            return self._submit(PlayCard(player, stock, pile), now)
        return []

    def can_spit(self, player: int = 0) -> bool:
        return CallSpit(player) in self.legal(player)

    def spit(self, now: float, player: int = 0) -> list[Event]:
        return self._submit(CallSpit(player), now)
