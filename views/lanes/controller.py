"""The Lanes table's controller: selection, highlighted targets, turn flow and saving.

No Flet here, so plain pytest covers it. Legality comes only from ``legal_actions``: a target is
highlighted exactly when an action for it is in the legal list. Every action is stored right after
it is applied (storage.api.append_action), so the match resumes exactly after a crash.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.bots import decide
from engine.cards import Card, parse_card
from engine.core import BadRequest, Event, IllegalAction, Why
from engine.lanes import RULES, LanesOptions
from engine.lanes.actions import Disband, Discard, LanesAction, Play
from engine.lanes.state import LanesState, is_number
from views.table.undo import UNDO_LEVELS, undo_point
from views.table.undo import undo as take_back
from views.ui.i18n import said, t


@dataclass
class Targets:
    lanes: set[int] = field(default_factory=set)
    stacks: set[tuple[int, int, int]] = field(default_factory=set)
    discard: bool = False


class LanesMatch:
    def __init__(self, storage: Any, level: str, seed: int, human: int = 0, game_id: int | None = None,
                 options: LanesOptions | None = None) -> None:
        from storage import api

        self.api = api
        self.storage = storage
        self.level = level
        self.seat = human
        #: pass-and-play: two people share the device; the viewer is whoever is to move
        self.pass_and_play = level == "person"
        self.options = options or LanesOptions()
        self.selected: Card | None = None
        self.last_events: list[Event] = []
        #: why the last tapped move was refused (shown translated; cleared by the next tap)
        self.refusal: Why | None = None
        if game_id is None:
            self.state: LanesState = RULES.new_game(self.options, seed)
            seats = [{"kind": "person"}, {"kind": "person"} if self.pass_and_play else {"kind": "bot", "level": level}]
            if human == 1:
                seats.reverse()
            self.game_id = api.new_game(storage, "lanes", self.options.to_json(), seed, 2, seats,
                                        mode="pass_and_play" if self.pass_and_play else "bots")
            self.seq = 0
            #: the index of my last action in the record (what undo takes back), kept as I play
            self.own_last: int | None = None
        else:
            info, self.state = api.resume_game(storage, game_id)
            self.game_id = game_id
            self.seq = len(info.actions)
            self.own_last = undo_point(RULES, RULES.new_game(self.options, seed), info.actions, human)

    @classmethod
    def resume(cls, storage: Any, game_id: int) -> LanesMatch:
        from storage import api

        info = api.load_game(storage, game_id)
        human = next((i for i, s in enumerate(info.seats) if s.get("kind") == "person"), 0)
        bots = [s for s in info.seats if s.get("kind") == "bot"]
        level = bots[0].get("level", "casual") if bots else "person"
        return cls(storage, level, info.seed, human, game_id, RULES.parse_options(info.options))

    # --- what the player sees -------------------------------------------------------------------

    @property
    def human(self) -> int:
        """The seat whose view is shown: the person's, or in pass-and-play whoever moves."""
        if self.pass_and_play:
            return self.state.to_move
        return self.seat

    @property
    def observation(self) -> dict[str, Any]:
        return RULES.observe(self.state, self.human)

    @property
    def my_turn(self) -> bool:
        return not self.state.over and self.state.to_move == self.human

    def legal(self) -> list[LanesAction]:
        return RULES.legal_actions(self.state) if self.my_turn else []

    def targets(self) -> Targets:
        out = Targets()
        if self.selected is None:
            return out
        for a in self.legal():
            if isinstance(a, Play) and a.card == self.selected:
                if a.owner is None:
                    out.lanes.add(a.lane)
                else:
                    out.stacks.add((a.owner, a.lane, a.stack or 0))
            elif isinstance(a, Discard) and a.card == self.selected:
                out.discard = True
        return out

    def disbandable(self) -> set[int]:
        return {a.lane for a in self.legal() if isinstance(a, Disband)}

    def playable_cards(self) -> set[Card]:
        return {a.card for a in self.legal() if isinstance(a, (Play, Discard))}

    # --- what the player does -------------------------------------------------------------------

    def select(self, card_text: str) -> None:
        card = parse_card(card_text)
        self.selected = None if self.selected == card else card
        self.refusal = None

    def play_at(self, owner: int, lane: int, stack: int | None = None) -> list[Event]:
        """The selected card tapped onto a lane or a card of it, lit or not: a move the rules refuse
        is not sent as a malformed action but explained (``refusal``) and nothing changes."""
        card = self.selected
        if card is None:
            return []
        if is_number(card):
            return self._apply(Play(card, lane, None if owner == self.human else owner))
        stacks = self.state.sides[owner].lanes[lane]
        if not stacks:
            self.refusal = Why("face_needs_card", "a face card goes on a number card")
            return []
        return self._apply(Play(card, lane, owner, len(stacks) - 1 if stack is None else stack))

    def _apply(self, action: LanesAction) -> list[Event]:
        mine = self.state.to_move == self.human
        try:
            self.state, events = RULES.apply(self.state, action)
        except (IllegalAction, BadRequest) as exc:
            self.refusal = exc.why  # the card stays selected: tap another target
            return []
        self.refusal = None
        if mine:
            self.own_last = self.seq
        self.api.append_action(self.storage, self.game_id, self.seq, RULES.action_to_json(action))
        self.seq += 1
        if self.state.over:
            self.api.finish_game(self.storage, self.game_id, self.state.winner, self.state.reason or "")
        self.last_events = events
        self.selected = None
        return events

    def play_on_lane(self, lane: int) -> list[Event]:
        assert self.selected is not None
        return self._apply(Play(self.selected, lane))

    def play_on_stack(self, owner: int, lane: int, stack: int) -> list[Event]:
        assert self.selected is not None
        return self._apply(Play(self.selected, lane, owner, stack))

    def discard(self) -> list[Event]:
        assert self.selected is not None
        return self._apply(Discard(self.selected))

    def disband(self, lane: int) -> list[Event]:
        return self._apply(Disband(lane))

    def can_undo(self) -> bool:
        return (not self.pass_and_play and self.level in UNDO_LEVELS and not self.state.over
                and self.game_id is not None and self.own_last is not None)

    def undo(self) -> bool:
        """Take back my last move and the bot's reply (Beginner/Casual only, see views/table/undo.py)."""
        if not self.can_undo():
            return False
        self.selected = None
        return take_back(self, RULES, self.human)

    def resign(self) -> list[Event]:
        self.state, events = RULES.apply(self.state, RULES.parse_action({"resign": True, "player": self.human}))
        self.api.append_action(self.storage, self.game_id, self.seq, {"resign": True, "player": self.human})
        self.seq += 1
        self.api.finish_game(self.storage, self.game_id, self.state.winner, self.state.reason or "")
        self.last_events = events
        return events

    def hint(self) -> LanesAction | None:
        """What the Casual level would play here (from this player's observation only); the card is
        selected so its target lights up."""
        if not self.my_turn:
            return None
        from engine.bots import hint

        action = hint("lanes", self.observation, self.seq)
        if isinstance(action, (Play, Discard)):
            self.selected = action.card
        return action

    def describe_action(self, action: LanesAction | None, lang: str) -> str:
        from views.ui.i18n import card_label

        if isinstance(action, Play):
            if action.owner is None:
                return said(lang, "ev_play_number", True, who=t(lang, "you"), card=card_label(str(action.card)),
                         lane=action.lane + 1)
            owner = t(lang, "your") if action.owner == self.human else t(lang, "their")
            return said(lang, "ev_play_face", True, who=t(lang, "you"), card=card_label(str(action.card)), owner=owner,
                     lane=action.lane + 1)
        if isinstance(action, Discard):
            return said(lang, "ev_discard", True, who=t(lang, "you"), card=card_label(str(action.card)))
        if isinstance(action, Disband):
            return said(lang, "ev_disband", True, who=t(lang, "you"), lane=action.lane + 1)
        return ""

    def bot_choice(self) -> LanesAction | None:
        """The bot's decision (pure and slow-ish: call it off the UI loop)."""
        if self.state.over or self.state.to_move == self.human:
            return None
        return decide("lanes", RULES.observe(self.state, self.state.to_move), self.level, self.seq, 300)

    def apply_bot(self, action: LanesAction) -> list[Event]:
        if action not in RULES.legal_actions(self.state):
            return []  # the position changed meanwhile (e.g. the player resigned)
        return self._apply(action)

    # --- words --------------------------------------------------------------------------------------

    def explain(self, events: list[Event], lang: str) -> str:
        """The last move in words (for the opponent's move highlight)."""
        from views.ui.i18n import card_label

        parts = []
        for e in events:
            mine = e.get("player") == self.human
            who = t(lang, "you") if mine else t(lang, "opponent")
            if e.type == "play":
                if e["owner"] == e["player"] and parse_card(e["card"]).rank <= 10:
                    parts.append(said(lang, "ev_play_number", mine, who=who, card=card_label(e["card"]),
                                      lane=e["lane"] + 1))
                else:
                    owner = t(lang, "your") if e["owner"] == self.human else t(lang, "their")
                    parts.append(said(lang, "ev_play_face", mine, who=who, card=card_label(e["card"]), owner=owner,
                                      lane=e["lane"] + 1))
            elif e.type == "discard":
                parts.append(said(lang, "ev_discard", mine, who=who, card=card_label(e["card"])))
            elif e.type == "disband":
                parts.append(said(lang, "ev_disband", mine, who=who, lane=e["lane"] + 1))
            elif e.type == "remove":
                owner = t(lang, "your") if e["owner"] == self.human else t(lang, "their")
                parts.append(t(lang, "ev_remove", cards=" ".join(map(card_label, e["cards"])), owner=owner,
                               lane=e["lane"] + 1))
            elif e.type == "sold":
                parts.append(said(lang, "ev_sold", mine, who=who, pair=e["pair"] + 1))
        return "; ".join(parts)
