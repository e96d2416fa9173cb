"""The Lopti table's controller (no Flet): one deal against 1–4 bots or people on this device,
multi-card selection of one rank, the setup swap, flips and takes, over a mode. Legality comes only
from ``legal_actions``; a stored game's mode saves every action as it happens."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.cards import Card, parse_card
from engine.core import Event, Why
from engine.lopti import RULES, LoptiOptions
from engine.lopti.actions import DeleteRule, Flip, Keep, LoptiAction, Play, Swap, Take
from engine.lopti.describe import describe
from engine.lopti.notation import LoptiObservation
from engine.lopti.rules import deletable
from engine.lopti.state import order
from storage.seats import PERSON
from views.table.contract import Refused, Status
from views.table.modes import Local, TurnMode
from views.ui.i18n import card_label, clauses, counted, listed, said, t

if TYPE_CHECKING:
    from storage.db import Storage


class LoptiMatch:
    """What the Lopti table reads and sends, over any mode (views/table/modes.py): the one-rank
    selection, the face-up card picked for the setup swap, and pass-and-play's handover (whose
    cards may be shown)."""

    def __init__(self, mode: TurnMode[LoptiObservation, LoptiAction]) -> None:
        self.mode = mode
        #: the person who last held the device; pass-and-play shows nobody's cards until the next
        #: person says they hold it (also when a game is resumed: whoever holds it now must say so)
        self.viewer = mode.viewer()
        self.handover_pending = self.pass_and_play
        self.selected: list[Card] = []
        self.selected_up: Card | None = None
        #: why the last tapped move was refused (shown translated; cleared by the next tap)
        self.refusal: Why | None = None

    @classmethod
    def new(cls, storage: Storage, levels: list[str], seed: int, options: LoptiOptions | None = None,
            session_id: int | None = None) -> LoptiMatch:
        """A new stored deal: seat 0 is the person holding the device, ``levels`` the others."""
        mode = Local.create(RULES, "lopti", storage, options or LoptiOptions(), seed, [PERSON, *levels],
                            session_id=session_id)
        match = cls(mode)
        match.handover_pending = False
        return match

    @classmethod
    def resume(cls, storage: Storage, game_id: int) -> LoptiMatch:
        return cls(Local.resume(RULES, storage, game_id))

    @property
    def status(self) -> Status:
        return self.mode.status()

    @property
    def game_id(self) -> int | None:
        return self.mode.game_id

    @property
    def levels(self) -> list[str]:
        return self.mode.levels

    @property
    def people(self) -> list[int]:
        return [i for i, lv in enumerate(self.levels) if lv == PERSON]

    @property
    def pass_and_play(self) -> bool:
        return len(self.people) > 1

    @property
    def last_events(self) -> list[Event]:
        return self.mode.last_events

    @property
    def human(self) -> int:
        """The seat whose view is shown: the person to move, or the last person who was."""
        return self.mode.viewer()

    @property
    def observation(self) -> LoptiObservation:
        return self.mode.observation()

    @property
    def phase(self) -> str:
        return str(self.observation["phase"])

    @property
    def my_turn(self) -> bool:
        status = self.status
        return not status.over and status.to_move in self.people and not self.mode.powers.read_only

    def needs_handover(self) -> bool:
        """Pass-and-play: the device must go to another person before their cards are shown."""
        return self.pass_and_play and self.my_turn and (self.status.to_move != self.viewer or self.handover_pending)

    def hand_over(self) -> None:
        self.viewer = int(self.status.to_move or 0)
        self.handover_pending = False

    def legal(self) -> list[LoptiAction]:
        return self.mode.legal() if self.my_turn else []

    def coach_cards(self) -> set[str]:
        return self.mode.coach.cards() if self.mode.coach is not None else set()

    # --- selection ------------------------------------------------------------------------------
    def cards_of(self, action: LoptiAction) -> list[Card]:
        """The hand cards a play means: its own cards, or for "rank × count" the first ones of that
        rank in hand (suits carry no meaning, P-1.1)."""
        if not isinstance(action, Play):
            return []
        if action.cards:
            return list(action.cards)
        hand = [parse_card(c) for c in self.observation["hand"]]
        return [c for c in hand if c.rank == action.rank][: action.count or 0]

    def suggest(self, level: str = "casual") -> LoptiAction | None:
        """The hint's move from ``level`` without touching the selection (safe in a worker thread)."""
        return self.mode.suggestion(level) if self.my_turn else None

    def point_at(self, action: LoptiAction | None) -> None:
        """Show a suggested move on the table (a review's, a hint's): its cards are selected."""
        self.selected, self.selected_up = self.cards_of(action) if action is not None else [], None

    def suggest_words(self, action: LoptiAction, lang: str) -> str:
        """A suggested move (a hint's, the review's) in words: "play 7♥ 7♦", "Take the pile"."""
        if isinstance(action, Play):
            return t(lang, "sg_play_cards", cards=" ".join(card_label(str(c)) for c in self.cards_of(action)))
        if isinstance(action, Take):
            return t(lang, "take")
        if isinstance(action, Flip):
            return t(lang, "flip")
        return t(lang, "keep") if isinstance(action, Keep) else str(RULES.action_to_json(action))

    def tap_hand(self, card_text: str) -> None:
        self.refusal = None
        card = parse_card(card_text)
        if card in self.selected:
            self.selected.remove(card)
        elif self.selected and self.selected[0].rank != card.rank or self.phase == "setup":
            self.selected = [card]
        else:
            self.selected.append(card)

    def tap_up(self, card_text: str) -> None:
        card = parse_card(card_text)
        self.selected_up = None if self.selected_up == card else card

    def can_play(self) -> bool:
        if not self.selected or self.phase != "play":
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

    def offers_swap(self) -> bool:
        """Whether the setup offers any swap at all: none when the session deals no face-up card
        (P-2.1, P-2.2 as a vote changed them), and then only Keep is shown."""
        return any(isinstance(a, Swap) for a in self.legal())

    def can_keep(self) -> bool:
        return Keep() in self.legal()

    # --- actions ----------------------------------------------------------------------------------
    def _apply(self, action: LoptiAction) -> list[Event]:
        self.selected, self.selected_up = [], None
        try:
            events = self.mode.submit(action)
        except Refused as exc:
            self.refusal = exc.why
            return []
        self.refusal = None
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

    def deletions(self) -> list[DeleteRule]:
        """The house rules a person at this device wrote and may delete now, on anyone's turn
        (P-9.4): the engine's list for each person's seat, from the deal's options."""
        options = LoptiOptions.from_json(self.observation["options"])
        return [d for seat in self.people for d in deletable(options, seat)]

    def delete_rule(self, deletion: DeleteRule) -> list[Event]:
        """The author deletes their rule in this deal, at once (stored with the deal's actions)."""
        try:
            events = self.mode.submit(deletion)
        except Refused as exc:
            self.refusal = exc.why
            return []
        return events

    def can_undo(self) -> bool:
        return self.mode.can_undo()

    def undo(self) -> bool:
        """Take back my last move and the bots' replies (only against Beginner/Casual bots)."""
        self.selected, self.selected_up = [], None
        return self.mode.undo()

    def bot_choice(self, should_stop: Callable[[], bool] | None = None) -> LoptiAction | None:
        """The bot's decision (call it off the UI loop; ``should_stop`` ends a search early)."""
        return self.mode.bot_move(should_stop)

    def apply_bot(self, action: LoptiAction) -> list[Event]:
        return self.mode.apply_bot(action)

    def sorted_hand(self) -> list[str]:
        return sorted(self.observation["hand"], key=lambda c: (order(parse_card(c).rank), c))

    # --- words --------------------------------------------------------------------------------------
    def who(self, seat: int | None, lang: str) -> str:
        if seat == self.human:
            return t(lang, "you")
        if seat is not None and self.levels[seat] == PERSON:
            return t(lang, "player_n", n=seat + 1)
        return t(lang, "seat_name", n=(seat or 0) + 1, level=t(lang, self.levels[seat or 0]))

    def explain(self, events: list[Event], lang: str) -> str:
        """The last move in words: the base events, then each house rule that fired and what it did."""
        return clauses(lang, [*self._base_lines(events, lang), *self._rule_lines(events, lang)])

    def _base_lines(self, events: list[Event], lang: str) -> list[str]:
        parts = []
        for e in events:
            w = self.who(e.get("player"), lang)
            mine = e.get("player") == self.human
            if e.type == "play":
                parts.append(said(lang, "lp_play", mine, who=w, cards=" ".join(card_label(c) for c in e["cards"])))
            elif e.type == "take":
                parts.append(said(lang, "lp_take", mine, who=w, n=e["count"]))
            elif e.type == "clear" and not e.get("rule"):  # a rule's clear is said with its rule
                parts.append(said(lang, "lp_clear", mine, who=w))
            elif e.type == "flip":
                parts.append(said(lang, "lp_flip", mine, who=w, card=card_label(e["card"])))
            elif e.type == "out":
                parts.append(said(lang, "lp_out", mine, who=w, place=e["place"]))
            elif e.type == "swap":
                parts.append(said(lang, "lp_swap", mine, who=w))
            elif e.type == "keep":
                parts.append(said(lang, "lp_keep", mine, who=w))
            elif e.type == "skipped":
                parts.append(t(lang, "lp_skipped", who=w))
            elif e.type == "rule_deleted":
                parts.append(said(lang, "lp_rule_deleted", mine, who=w))
        return parts

    def _rule_lines(self, events: list[Event], lang: str) -> list[str]:
        """Each house rule that fired, with what its effects did: "Aces punish: Seat 2 draws 1"."""
        lines: list[tuple[str, list[str]]] = []
        for e in events:
            if e.type == "rule":
                lines.append((self._rule_name(str(e["rule"]), lang), []))
            elif (e.type.startswith("rule_") and e.type != "rule_deleted") or e.type == "announce" or (
                    e.type == "clear" and e.get("rule")):
                if not lines:
                    lines.append(("", []))
                lines[-1][1].append(self._effect(e, lang))
        return [t(lang, "lp_rule", rule=name, what=listed(lang, what) or t(lang, "lp_rule_fired")) if name
                else listed(lang, what) for name, what in lines]

    def _rule_name(self, rule_id: str, lang: str) -> str:
        """A house rule as the table knows it: its title, else its sentence in ``lang``."""
        for rule in LoptiOptions.from_json(self.observation["options"]).house_rules:
            if rule.id == rule_id:
                return rule.title or describe(rule.raw, lang)
        return rule_id

    def _effect(self, e: Event, lang: str) -> str:
        """What one effect of a house rule did, in words (the engine's derived events, P-8)."""
        who = self.who(e.get("player"), lang)
        if e.type == "rule_draw":
            return said(lang, "lp_rule_draw", e.get("player") == self.human, who=who, n=e["count"])
        if e.type == "rule_give":
            return t(lang, "lp_rule_give", who=who, to=self.who(e.get("to"), lang))
        if e.type == "rule_reveal":
            return t(lang, "lp_rule_reveal", who=who, card=card_label(str(e["card"])))
        if e.type == "rule_skip":
            return t(lang, "lp_rule_skip", who=who)
        if e.type == "rule_reverse":
            return t(lang, "lp_reverse", dir=t(lang, f"lp_dir_{e['direction']}"))
        if e.type == "rule_return":
            return t(lang, counted("lp_rule_return", e["count"]), n=e["count"])
        if e.type == "announce":
            return t(lang, "lp_announce", text=e["text"])
        if e.type == "clear":
            return t(lang, "lp_rule_clear")
        return t(lang, "lp_rule_cap")
