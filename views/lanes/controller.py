"""The Lanes table's controller: the selection, the lit targets and the words, over a mode.

No Flet here, so plain pytest covers it. Legality comes only from ``legal_actions`` (through the
mode): a target is lit exactly when an action for it is in the legal list. Who moves and where a
move goes is the mode's (views/table/modes.py): a stored game keeps every action as it is applied,
so it resumes exactly after a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.cards import Card, Rng, parse_card
from engine.core import EngineError, Event, Why
from engine.lanes import RULES, LanesOptions
from engine.lanes.actions import Disband, Discard, LanesAction, Play
from engine.lanes.notation import LanesObservation
from engine.lanes.state import is_number
from storage.seats import PERSON
from views.table.contract import Refused, Status
from views.table.modes import Local, TurnMode
from views.ui.i18n import clauses, said, t

if TYPE_CHECKING:
    from storage.db import Storage


def reason_seen(observation: LanesObservation, action: LanesAction) -> Why | None:
    """The engine's reason ``action`` is illegal, from what this player sees. Legality depends only
    on the player's own hand and the table, so any world consistent with the observation gives the
    reason (the online table's referee stays the lobby)."""
    world = RULES.determinise(observation, Rng(0))
    try:
        why = RULES.why_illegal(world, action)
    except EngineError as exc:
        return exc.why
    return why if isinstance(why, Why) or why is None else Why("rejected", str(why))


@dataclass
class Targets:
    lanes: set[int] = field(default_factory=set)
    stacks: set[tuple[int, int, int]] = field(default_factory=set)
    discard: bool = False


class LanesMatch:
    """What the Lanes table reads and sends (``views/lanes/table.py``), over any mode: the mode
    says who moves and where a move goes (views/table/modes.py); this keeps the selection, the lit
    targets and the words."""

    def __init__(self, mode: TurnMode[LanesObservation, LanesAction], names: list[str] | None = None) -> None:
        self.mode = mode
        #: the seats' names, for a table where neither seat is the viewer's (a spectator's): moves are
        #: told by name ("Ann put …") instead of "you" and "opponent"
        self.names = names
        self.selected: Card | None = None
        #: why the last tapped move was refused (shown translated; cleared by the next tap)
        self.refusal: Why | None = None

    @classmethod
    def new(cls, storage: Storage, level: str, seed: int, options: LanesOptions | None = None,
            seat: int = 0) -> LanesMatch:
        """A new stored game against ``level`` ("person": two people on this device)."""
        levels = [PERSON, level]
        if seat == 1:
            levels.reverse()
        return cls(Local.create(RULES, "lanes", storage, options or LanesOptions(), seed, levels))

    @classmethod
    def resume(cls, storage: Storage, game_id: int) -> LanesMatch:
        return cls(Local.resume(RULES, storage, game_id))

    # --- what the player sees -------------------------------------------------------------------

    @property
    def status(self) -> Status:
        return self.mode.status()

    @property
    def human(self) -> int:
        """The seat whose view is shown: the person's, or in pass-and-play whoever moves."""
        return self.mode.viewer()

    @property
    def level(self) -> str:
        """Who the player faces: a bot level, "person" (pass-and-play) or "online"."""
        return self.mode.levels[1 - self.human]

    @property
    def pass_and_play(self) -> bool:
        return self.mode.levels.count(PERSON) > 1

    @property
    def last_events(self) -> list[Event]:
        return self.mode.last_events

    @property
    def observation(self) -> LanesObservation:
        return self.mode.observation()

    @property
    def my_turn(self) -> bool:
        status = self.status
        return not status.over and status.to_move == self.human and not self.mode.powers.read_only

    def legal(self) -> list[LanesAction]:
        return self.mode.legal() if self.my_turn else []

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

    def coach_cards(self) -> set[str]:
        return self.mode.coach.cards() if self.mode.coach is not None else set()

    # --- what the player does -------------------------------------------------------------------

    def select(self, card_text: str) -> None:
        """Pick up a hand card (again: put it down). Only on my move: a replay or the opponent's
        turn selects nothing."""
        if not self.my_turn:
            return
        card = parse_card(card_text)
        self.selected = None if self.selected == card else card
        self.refusal = self._stuck(card) if self.selected is not None else None

    def _stuck(self, card: Card) -> Why | None:
        """Why ``card`` can go nowhere now, said as soon as it is picked up (a face card during the
        opening: L-3.2), not after a tap on a lane that cannot light (#42); None when any legal
        action uses it."""
        if any(isinstance(a, (Play, Discard)) and a.card == card for a in self.legal()):
            return None
        tries: list[LanesAction] = [Play(card, 0) if is_number(card) else Play(card, 0, self.human, 0), Discard(card)]
        for action in tries:
            why = reason_seen(self.observation, action)
            if why is not None:
                return why
        return None

    def play_at(self, owner: int, lane: int, stack: int | None = None) -> list[Event]:
        """The selected card tapped onto a lane or a card of it, lit or not. A legal action for that
        spot is played (a face card tapped on the lane goes on its last card it may take); with
        none, the action the tap means is sent anyway so the engine explains its refusal
        (``refusal``) and nothing changes; with no card picked up, ``refusal`` says to pick one."""
        card = self.selected
        if card is None:
            if self.my_turn:
                self.refusal = Why("no_card", "Pick a card from your hand first, then tap where it goes.")
            return []
        here = [a for a in self.legal() if isinstance(a, Play) and a.card == card and a.lane == lane]
        mine = owner == self.human
        spot = [a for a in here if (a.owner is None and mine)
                or (a.owner == owner and stack in (None, a.stack))]
        if spot:
            return self._apply(max(spot, key=lambda a: -1 if a.stack is None else a.stack))
        if is_number(card):
            return self._apply(Play(card, lane, None if mine else owner))
        stacks = self.observation["players"][owner]["lanes"][lane]
        return self._apply(Play(card, lane, owner, (len(stacks) - 1 if stacks else 0) if stack is None else stack))

    def _apply(self, action: LanesAction) -> list[Event]:
        try:
            events = self.mode.submit(action)
        except Refused as exc:
            self.refusal = exc.why  # the card stays selected: tap another target
            return []
        self.refusal = None
        self.selected = None
        return events

    def discard(self) -> list[Event]:
        """The selected card onto the discard (nothing selected: nothing happens)."""
        if self.selected is None:
            return []
        return self._apply(Discard(self.selected))

    def disband(self, lane: int) -> list[Event]:
        return self._apply(Disband(lane))

    def can_undo(self) -> bool:
        return self.mode.can_undo()

    def undo(self) -> bool:
        """Take back my last move and the bot's reply (Beginner/Casual only)."""
        self.selected, self.refusal = None, None
        return self.mode.undo()

    def resign(self) -> list[Event]:
        """Resign (L-8.3): the mode records it (a lesson starts over instead)."""
        self.selected, self.refusal = None, None
        return self.mode.resign()

    def suggest(self, level: str = "casual") -> LanesAction | None:
        """The hint's move from ``level`` without touching the selection (safe in a worker thread)."""
        return self.mode.suggestion(level) if self.my_turn else None

    def hint(self) -> LanesAction | None:
        """The mode's suggestion (the Casual level's move from this player's observation, or the
        lesson's move); its card is selected so its target lights up."""
        if not self.my_turn:
            return None
        action = self.mode.suggestion()
        self.point_at(action)
        return action

    def point_at(self, action: LanesAction | None) -> None:
        """Show a suggested move on the table (a hint's, a review's): its card is selected, so its
        target lights up where the mode allows play."""
        self.selected = action.card if isinstance(action, (Play, Discard)) else None

    def suggest_words(self, action: LanesAction, lang: str) -> str:
        """A suggested move (a hint's, the review's) in words: "10♣ on lane 1", "discard 4♠"."""
        from views.ui.i18n import card_label

        if isinstance(action, Play):
            card = card_label(str(action.card))
            if action.owner is None:
                return t(lang, "sg_play_number", card=card, lane=action.lane + 1)
            owner = t(lang, "your") if action.owner == self.human else t(lang, "their")
            return t(lang, "sg_play_face", card=card, owner=owner, lane=action.lane + 1)
        if isinstance(action, Discard):
            return t(lang, "sg_discard", card=card_label(str(action.card)))
        if isinstance(action, Disband):
            return t(lang, "sg_disband", lane=action.lane + 1)
        return self.describe_action(action, lang)

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

    def bot_choice(self, should_stop: Callable[[], bool] | None = None) -> LanesAction | None:
        """The bot's decision (pure and slow-ish: call it off the UI loop; ``should_stop`` ends a
        search early)."""
        return self.mode.bot_move(should_stop)

    def apply_bot(self, action: LanesAction) -> list[Event]:
        return self.mode.apply_bot(action)

    # --- words --------------------------------------------------------------------------------------

    def explain(self, events: list[Event], lang: str) -> str:
        """The last move in words (for the opponent's move highlight)."""
        from views.ui.i18n import card_label

        parts = []
        for e in events:
            mine = e.get("player") == self.human and self.names is None
            who = t(lang, "you") if mine else t(lang, "opponent") if self.names is None else self.names[e["player"]]
            if e.type == "play":
                if e["owner"] == e["player"] and is_number(parse_card(e["card"])):
                    parts.append(said(lang, "ev_play_number", mine, who=who, card=card_label(e["card"]),
                                      lane=e["lane"] + 1))
                else:
                    owner = self._owner(lang, e["owner"])
                    parts.append(said(lang, "ev_play_face", mine, who=who, card=card_label(e["card"]), owner=owner,
                                      lane=e["lane"] + 1))
            elif e.type == "discard":
                parts.append(said(lang, "ev_discard", mine, who=who, card=card_label(e["card"])))
            elif e.type == "disband":
                parts.append(said(lang, "ev_disband", mine, who=who, lane=e["lane"] + 1))
            elif e.type == "remove":
                owner = self._owner(lang, e["owner"])
                parts.append(t(lang, "ev_remove", cards=" ".join(map(card_label, e["cards"])), owner=owner,
                               lane=e["lane"] + 1))
            elif e.type == "sold":
                parts.append(said(lang, "ev_sold", mine, who=who, pair=e["pair"] + 1))
        return clauses(lang, parts)

    def _owner(self, lang: str, seat: int) -> str:
        """Whose lane, in words: "your" / "their", or the seat's name on a spectator's table."""
        if self.names is not None:
            return t(lang, "owner_of", name=self.names[seat])
        return t(lang, "your") if seat == self.human else t(lang, "their")
