"""The Lopti table's controller (no Flet): one deal against 1–4 bots, multi-card selection of one
rank, the setup swap, flips and takes. Legality comes only from ``legal_actions``; every action is
saved as it happens."""

from __future__ import annotations

from typing import Any

from engine.bots import decide
from engine.cards import Card, parse_card
from engine.core import BadRequest, Event, IllegalAction, Why
from engine.lopti import RULES, LoptiOptions
from engine.lopti.actions import Flip, Keep, LoptiAction, Play, Swap, Take
from engine.lopti.state import LoptiState, order
from views.table.undo import UNDO_LEVELS, undo_point
from views.table.undo import undo as take_back
from views.ui.i18n import card_label, said, t


class LoptiMatch:
    def __init__(self, storage: Any, levels: list[str], seed: int, game_id: int | None = None,
                 options: LoptiOptions | None = None, session_id: int | None = None) -> None:
        from storage import api

        self.api = api
        self.storage = storage
        self.levels = ["person", *levels]
        self.players = len(self.levels)
        #: seats played by people on this device (seat 0 always; pass-and-play adds more)
        self.people = [i for i, lv in enumerate(self.levels) if lv == "person"]
        self.pass_and_play = len(self.people) > 1
        #: whose cards are shown: the person to move, else the person who moved last
        self.viewer = 0
        self.handover_pending = False
        self.options = options or LoptiOptions()
        self.selected: list[Card] = []
        self.selected_up: Card | None = None
        self.last_events: list[Event] = []
        #: why the last tapped move was refused (shown translated; cleared by the next tap)
        self.refusal: Why | None = None
        if game_id is None:
            self.state: LoptiState = RULES.new_game(self.options, seed, self.players)
            seats = [{"kind": "person"} if lv == "person" else {"kind": "bot", "level": lv} for lv in self.levels]
            self.game_id = api.new_game(storage, "lopti", self.options.to_json(), seed, self.players, seats,
                                        mode="pass_and_play" if self.pass_and_play else "bots", session_id=session_id)
            self.seq = 0
            #: the index of my last action in the record (what undo takes back), kept as I play
            self.own_last: int | None = None
        else:
            info, self.state = api.resume_game(storage, game_id)
            self.game_id, self.seq = game_id, len(info.actions)
            start = RULES.new_game(self.options, seed, self.players)
            self.own_last = undo_point(RULES, start, info.actions, self.people[0])

    @classmethod
    def resume(cls, storage: Any, game_id: int) -> LoptiMatch:
        from storage import api

        info = api.load_game(storage, game_id)
        levels = ["person" if s.get("kind") == "person" else s.get("level", "casual") for s in info.seats[1:]]
        match = cls(storage, levels, info.seed, game_id, RULES.parse_options(info.options))
        match.viewer = match.human
        match.handover_pending = match.pass_and_play  # whoever holds the device now must say who they are
        return match

    @property
    def human(self) -> int:
        """The seat whose view is shown: the person to move, or the last person who was."""
        to_move = self.state.to_move
        if not self.state.over and to_move in self.people:
            return int(to_move)
        return self.viewer

    @property
    def observation(self) -> dict[str, Any]:
        return RULES.observe(self.state, self.human)

    @property
    def my_turn(self) -> bool:
        return not self.state.over and self.state.to_move in self.people

    def needs_handover(self) -> bool:
        """Pass-and-play: the device must go to another person before their cards are shown."""
        return self.pass_and_play and self.my_turn and (self.state.to_move != self.viewer or self.handover_pending)

    def hand_over(self) -> None:
        self.viewer = int(self.state.to_move)
        self.handover_pending = False

    def legal(self) -> list[LoptiAction]:
        return RULES.legal_actions(self.state) if self.my_turn else []

    # --- selection ------------------------------------------------------------------------------
    def tap_hand(self, card_text: str) -> None:
        self.refusal = None
        card = parse_card(card_text)
        if card in self.selected:
            self.selected.remove(card)
        elif self.selected and self.selected[0].rank != card.rank or self.state.phase == "setup":
            self.selected = [card]
        else:
            self.selected.append(card)

    def tap_up(self, card_text: str) -> None:
        card = parse_card(card_text)
        self.selected_up = None if self.selected_up == card else card

    def can_play(self) -> bool:
        if not self.selected or self.state.phase != "play":
            return False
        key = (self.selected[0].rank, len(self.selected))
        return any(isinstance(a, Play) and a.key == key for a in self.legal())

    def playable_ranks(self) -> set[int]:
        return {a.key[0] for a in self.legal() if isinstance(a, Play)}

    def can_take(self) -> bool:
        return any(isinstance(a, Take) for a in self.legal())

    def can_flip(self) -> bool:
        return any(isinstance(a, Flip) for a in self.legal())

    def can_swap(self) -> bool:
        if len(self.selected) != 1 or self.selected_up is None:
            return False
        return Swap(self.selected[0], self.selected_up) in self.legal()

    def can_keep(self) -> bool:
        return Keep() in self.legal()

    # --- actions ----------------------------------------------------------------------------------
    def _apply(self, action: LoptiAction) -> list[Event]:
        mine = self.state.to_move == self.human
        try:
            self.state, events = RULES.apply(self.state, action)
        except (IllegalAction, BadRequest) as exc:
            self.refusal = exc.why
            self.selected, self.selected_up = [], None
            return []
        self.refusal = None
        if mine:
            self.own_last = self.seq
        self.api.append_action(self.storage, self.game_id, self.seq, RULES.action_to_json(action))
        self.seq += 1
        if self.state.over:
            self.api.finish_game(self.storage, self.game_id, self.state.winner, "out", list(self.state.places))
        self.selected, self.selected_up = [], None
        self.last_events = events
        return events

    def play(self) -> list[Event]:
        return self._apply(Play(tuple(self.selected)))

    def take(self) -> list[Event]:
        return self._apply(Take())

    def flip(self, index: int = 0) -> list[Event]:
        return self._apply(Flip(index))

    def swap(self) -> list[Event]:
        assert self.selected_up is not None
        return self._apply(Swap(self.selected[0], self.selected_up))

    def keep(self) -> list[Event]:
        return self._apply(Keep())

    def can_undo(self) -> bool:
        bots = [lv for lv in self.levels if lv != "person"]
        return (not self.pass_and_play and bool(bots) and all(lv in UNDO_LEVELS for lv in bots)
                and not self.state.over and self.game_id is not None and self.own_last is not None)

    def undo(self) -> bool:
        """Take back my last move and the bots' replies (only against Beginner/Casual bots)."""
        if not self.can_undo():
            return False
        self.selected, self.selected_up = [], None
        return take_back(self, RULES, self.human)

    def bot_choice(self) -> LoptiAction | None:
        if self.state.over or self.state.to_move in self.people:
            return None
        seat = self.state.to_move
        return decide("lopti", RULES.observe(self.state, seat), self.levels[seat], self.seq, 300)

    def apply_bot(self, action: LoptiAction) -> list[Event]:
        return self._apply(action)

    def sorted_hand(self) -> list[str]:
        return [str(c) for c in sorted(self.state.seats[self.human].hand, key=lambda c: (order(c.rank), str(c)))]

    # --- words --------------------------------------------------------------------------------------
    def who(self, seat: int | None, lang: str) -> str:
        if seat == self.human:
            return t(lang, "you")
        if seat is not None and self.levels[seat] == "person":
            return t(lang, "player_n", n=seat + 1)
        return t(lang, "seat_name", n=(seat or 0) + 1, level=t(lang, self.levels[seat or 0]))

    def explain(self, events: list[Event], lang: str) -> str:
        parts = []
        for e in events:
            w = self.who(e.get("player"), lang)
            mine = e.get("player") == self.human
            if e.type == "play":
                parts.append(said(lang, "lp_play", mine, who=w, cards=" ".join(card_label(c) for c in e["cards"])))
            elif e.type == "take":
                parts.append(said(lang, "lp_take", mine, who=w, n=e["count"]))
            elif e.type == "clear":
                parts.append(said(lang, "lp_clear", mine, who=w))
            elif e.type == "flip":
                parts.append(said(lang, "lp_flip", mine, who=w, card=card_label(e["card"])))
            elif e.type == "out":
                parts.append(said(lang, "lp_out", mine, who=w, place=e["place"]))
            elif e.type == "swap":
                parts.append(said(lang, "lp_swap", mine, who=w))
        return "; ".join(parts)
