"""The Lopti table (phone first): opponents across the top with their face-up cards and counts,
the pile with its visible 3-chain, low and obligation markers in the middle, your face-up and
face-down cards, and your hand below (it scrolls when large). Tap cards of one rank, then Play;
only legal moves are enabled (from ``legal_actions`` via the controller)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import flet as ft

from engine.cards import parse_card
from engine.lopti.actions import DeleteRule, LoptiAction
from engine.lopti.describe import describe
from engine.lopti.house_rules import BaseParams
from engine.lopti.options import LoptiOptions
from engine.lopti.state import rank_label
from engine.lopti.votes import VoteError
from storage.seats import PERSON
from views.lopti.contract import LoptiControls
from views.lopti.session import SessionFlow
from views.screens.rules import rules_button, rules_dialog
from views.table.coach import coach_for
from views.table.motion import (
    SWEPT,
    TOWARD_ME,
    TOWARD_THEM,
    drawn,
    lopti_departed,
    lopti_flipped,
    lopti_landed,
)
from views.table.screen import NewGame
from views.table.turn_table import TurnBasedTable
from views.ui import sizing, theme
from views.ui.fan import Fan, hand_fan, hand_room, lay_out
from views.ui.i18n import RTL, counted, listed, t, why_text
from views.ui.reconcile import show
from views.ui.widgets import (
    HIGHLIGHT,
    HandCard,
    border,
    card_back,
    card_face,
    card_slot,
    hand_card,
    handler,
    pad,
    radius,
    seat_plate,
    status_box,
    table_button,
    table_header,
    tagged,
    tap_area,
    text,
)

if TYPE_CHECKING:
    from engine.core import Event
    from engine.lopti.notation import LoptiObservation, LoptiSeatView
    from views.host import Host


OPPONENT_DOWN = (20, 28)  # an opponent's face-down cards, as a small back with the count


def _fanned(cards: list[str], width: float, height: float, step: float = 18) -> ft.Control:
    """One play's cards overlapping, as they are put down together."""
    return ft.Stack([ft.Container(card_face(c, width, height), left=i * step) for i, c in enumerate(cards)],
                    width=width + step * max(0, len(cards) - 1), height=height)


class LoptiTable(TurnBasedTable[LoptiAction]):
    bot_delay = 0.5
    game = "lopti"

    def __init__(self, app: Host, match: LoptiControls, new_game: NewGame, session: SessionFlow | None = None,
                 deal_done: Callable[[LoptiTable], None] | None = None) -> None:
        super().__init__(app, match, new_game)
        self.match: LoptiControls = match
        #: the session this deal belongs to (views/lopti/session.py); None in a lesson or a replay
        self.session = session
        #: "Continue" after a session's deal: record it, then the screen between deals
        self.deal_done = deal_done or (lambda table: None)
        if match.observation["ply"] == 0 and not match.mode.powers.read_only:
            self.motion.deal()

    def _opponent(self, obs: LoptiObservation, seat: int) -> ft.Control:
        p = obs["players"][seat]
        turn = obs["to_move"] == seat and obs["phase"] != "over"
        ups = [card_face(c, 26, 36) for c in p["up"]]
        place = obs["places"].index(seat) + 1 if seat in obs["places"] else None
        # the face-down cards as a small back with their count (a screen reader says "Face-down
        # cards: 3"): the plate stays narrow enough for two a row on a 360-px phone (sizing.lopti)
        downs = [card_back(*OPPONENT_DOWN, str(p["down_count"]))] if p["down_count"] else []
        lines: list[ft.Control] = [ft.Row([*ups, *downs], spacing=theme.SPACE_FINE, tight=True)]
        if place:
            lines.append(text(self.lang, t(self.lang, "place", n=place), theme.TYPE_NOTE, True, theme.SELLING))
        return seat_plate(self.lang, self.match.who(seat, self.lang),
                          ft.Column(lines, spacing=theme.SPACE_FINE, tight=True),
                          count=p["hand_size"], turn=turn)

    def _my_seat(self, obs: LoptiObservation) -> ft.Control:
        """My place at the table, named as the others' are: "You" (and which player, when people
        share the device), lit on my turn, with my finishing place once I am out (#42: my own seat
        had no name, so a newcomer could not tell which cards were theirs)."""
        m = self.match
        name = t(self.lang, "you")
        if PERSON in m.levels[1:]:
            name += " · " + t(self.lang, "player_n", n=m.human + 1)
        me = obs["players"][m.human]
        detail = t(self.lang, "place", n=obs["places"].index(m.human) + 1) if m.human in obs["places"] else \
            t(self.lang, "face_down", n=me["down_count"])
        turn = obs["to_move"] == m.human and obs["phase"] != "over"
        plate = seat_plate(self.lang, name, text(self.lang, detail, theme.TYPE_TINY, color=theme.ON_FELT_MUTED),
                           turn=turn)
        return ft.Semantics(identifier="seat-me", content=plate)

    def _pile(self, obs: LoptiObservation) -> ft.Control:
        """The centre of the table: the draw deck (a card back with its count) beside the pile —
        its last three plays fanned, the newest largest and on top, and how many cards it holds.
        The play that just landed grows (or turns, when it was flipped); a pile that was cleared or
        taken sweeps away or slides to its taker."""
        events = self.match.last_events
        fresh = self.motion.fresh(events)
        pw, ph = self.sizes.pile
        ow, oh = sizing.card(ph * 0.72)  # the older plays beneath
        plays = [list(p) for p in obs["pile"][-3:]]
        before = self.motion.remember("pile", plays)
        landed = lopti_landed(events) if fresh else False
        cards: list[ft.Control] = []
        for k, play in enumerate(plays):
            top = k == len(plays) - 1
            row = _fanned(play, pw if top else ow, ph if top else oh, step=pw * 0.3)
            cards.append(self.motion.wrap(row, turn=lopti_flipped(events)) if landed and top else row)
        if not cards:
            cards = [card_slot(pw, ph, t(self.lang, "empty_pile"))]
        departed = lopti_departed(events) if fresh else None
        gone = [c for p in (before or [])[-2:] for c in p] + [c for e in events if e.get("type") == "play"
                                                               for c in e.get("cards", [])]
        row_of_cards: ft.Control = ft.Row(cards, spacing=theme.SPACE, alignment=ft.MainAxisAlignment.CENTER,
                                          vertical_alignment=ft.CrossAxisAlignment.END, tight=True)
        if departed and gone:
            kind, who = departed
            toward = SWEPT if kind == "clear" else TOWARD_ME if who == self.match.human else TOWARD_THEM
            row_of_cards = ft.Stack([row_of_cards, self.motion.ghost(_fanned(gone[-6:], pw, ph), toward)],
                                    alignment=ft.Alignment.CENTER, clip_behavior=ft.ClipBehavior.NONE)
        held = sum(len(p) for p in obs["pile"])
        pile = ft.Semantics(identifier="lopti-pile", content=ft.Column(
            [row_of_cards, text(self.lang, t(self.lang, "lp_pile_n", n=held), theme.TYPE_NOTE,
                                color=theme.ON_FELT_MUTED)],
            spacing=theme.SPACE_TIGHT, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER))
        badges = self._badges(obs)
        centre: list[ft.Control] = [ft.Row([self._deck(obs), pile], spacing=theme.SPACE_WIDE,
                                           alignment=ft.MainAxisAlignment.CENTER,
                                           vertical_alignment=ft.CrossAxisAlignment.END)]
        if badges:
            centre.append(ft.Row(badges, spacing=theme.SPACE_SNUG, wrap=True, alignment=ft.MainAxisAlignment.CENTER))
        return ft.Container(ft.Column(centre, horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                                      spacing=theme.SPACE_FINE, tight=True),
                            padding=pad(theme.SPACE), bgcolor=theme.SHADE_LIGHT,
                            border_radius=radius(10))

    def _badges(self, obs: LoptiObservation) -> list[ft.Control]:
        """The pile's markers: the pass card's chain, play low, the obligation (P-4), each naming
        the session's card (P-9.1: a vote may make another rank special)."""
        params = BaseParams.from_json(obs["options"].get("params", {}))
        passing, low = rank_label(params.pass_rank), rank_label(params.low_rank)
        badges: list[ft.Control] = []
        if obs["threes"]:
            badges.append(self._badge(t(self.lang, "lp_threes", n=obs["threes"], rank=passing), theme.THREES, "P-4.2"))
        if obs["low"]:
            badges.append(self._badge(t(self.lang, "lp_low", rank=low), theme.LOW, "P-4.4"))
        if obs["obligation"]:
            badges.append(self._badge(t(self.lang, "lp_obligation", rank=passing), theme.OBLIGATION, "P-4.6"))
        return badges

    def _deck(self, obs: LoptiObservation) -> ft.Control:
        """The draw deck (P-3.5) as a card back with its count; tapping it explains drawing."""
        w, h = sizing.card(max(sizing.MIN_CARD, self.sizes.pile[1] * 0.72))
        n = obs["draw_size"]
        face = card_back(w, h, str(n)) if n else card_slot(w, h, "0")
        count = text(self.lang, t(self.lang, "draw_pile", n=n), theme.TYPE_NOTE, color=theme.ON_FELT_MUTED)
        return tap_area("lopti-deck", ft.Container(
            ft.Column([face, count], spacing=theme.SPACE_TIGHT, tight=True,
                      horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            on_click=lambda e: rules_dialog(self.app, "lopti", "P-3.5"), ink=True))

    def on_drop(self, card: str) -> None:
        """A card dropped on the pile plays it together with any cards of its rank already selected
        (or alone); a play the rules refuse is explained, as for the Play button."""
        m = self.match
        if self.busy or not m.my_turn or m.phase != "play":
            return
        if card not in {str(c) for c in m.selected}:
            m.tap_hand(card)
        self.on_play(None)

    def _badge(self, label: str, color: str, rule: str) -> ft.Control:
        """A marker that explains itself: tapping it shows the rule behind it."""
        words = text(self.lang, label, theme.TYPE_TINY, True, theme.INK)
        chip = ft.Container(
            ft.Row([words, ft.Icon(ft.Icons.INFO_OUTLINE, size=12, color=theme.INK)], spacing=theme.SPACE_FINE,
                   tight=True),
            bgcolor=color, border_radius=radius(8),
            padding=ft.Padding.symmetric(horizontal=theme.SPACE_SNUG, vertical=theme.SPACE_HAIR))
        # the chip is small; the finger's target around it is MIN_TARGET tall
        return tap_area(f"rule-{rule}", ft.Container(
            chip, height=theme.MIN_TARGET, alignment=ft.Alignment.CENTER,
            on_click=lambda e: rules_dialog(self.app, "lopti", rule), ink=True))

    def _status(self, obs: LoptiObservation) -> str:
        caption = self.match.mode.caption(self.lang)
        if caption is not None:
            return caption
        said = self.said_instead()
        if said:
            return said
        m = self.match
        if m.refusal is not None:
            return t(self.lang, "not_possible", why=why_text(self.lang, m.refusal))
        if obs["phase"] == "over":
            return t(self.lang, "lp_won") if obs["places"][:1] == [m.human] else t(
                self.lang, "lp_deal_over", places=listed(self.lang, (m.who(s, self.lang) for s in obs["places"])))
        if m.human in obs["places"]:
            return t(self.lang, "lp_you_out", place=obs["places"].index(m.human) + 1)
        if not m.my_turn:
            return t(self.lang, "bot_thinking", bot=m.who(obs["to_move"], self.lang))
        if obs["phase"] == "setup":
            return t(self.lang, "lp_setup" if m.offers_swap() else "lp_setup_keep")
        if obs["extra_play"]:
            return t(self.lang, "lp_extra")
        return t(self.lang, "lp_pick")

    def refresh(self, update: bool = True) -> None:
        m = self.match
        if m.needs_handover() and not self.busy:  # pass-and-play: another person's turn

            def ready() -> None:
                m.hand_over()
                self.refresh()

            self.show_privacy(int(m.status.to_move or 0) + 1, ready, update)
            return
        obs = m.observation
        me = obs["players"][m.human]
        setup = obs["phase"] == "setup"
        room = hand_room(self.app.page.width)
        self.sizes = sizing.lopti(self.app.page.width, self.app.page.height, len(obs["players"]) - 1,
                                  max(len(me["up"]), me["down_count"]))
        fan = lay_out(len(m.sorted_hand()), room, *self.sizes.hand, rtl=self.lang in RTL)
        hand = self._hand(setup, fan)
        opponents = [self._opponent(obs, s) for s in range(len(obs["players"])) if s != m.human]
        rows = [
            self._header(),
            ft.Row(opponents, spacing=theme.SPACE_TIGHT, wrap=True, run_spacing=theme.SPACE_TIGHT),
            ft.DragTarget(group="lopti-card", content=self._pile(obs),
                          on_accept=lambda e: self.on_drop(str(e.src.data))),
            self._status_rows(obs),
            ft.Container(expand=True),
            ft.Row([self._my_seat(obs), *self._slots(me, setup)], spacing=theme.SPACE_SNUG, wrap=True,
                   alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            hand_fan(hand, fan, room, m.sorted_hand(), t(self.lang, "said_hand"), self.parts),
            ft.Row(self._buttons(setup), spacing=theme.SPACE, wrap=True, alignment=ft.MainAxisAlignment.CENTER),
        ]
        show(self.root, rows, update, self.parts)
        self.motion.settle(self.app.page, self.refresh)

    def _hand(self, setup: bool, fan: Fan) -> list[ft.Control]:
        """My hand, sorted; the ranks I cannot play now are dimmed (from the legal actions)."""
        m = self.match
        playable = m.playable_ranks()
        sel = {str(c) for c in m.selected}
        coached = m.coach_cards()
        arrived = set(drawn(m.last_events, m.human)) if self.motion.fresh(m.last_events) else set()
        cards = m.sorted_hand()
        # in play, a hand card can be dragged onto the pile: the same as selecting it and tapping Play
        drag = "lopti-card" if m.my_turn and not setup else None
        hand: list[ft.Control] = []
        for i, c in enumerate(cards):  # each kept while it is drawn the same
            dim = m.my_turn and not setup and parse_card(c).rank not in playable
            held = HandCard(c, i, c in sel, c in coached, dim, None, fan.card_width, fan.card_height, fan.shows[i],
                            self.motion.hand_card(i, len(cards), c in arrived), m.my_turn, drag, theme.look())
            hand.append(self.parts.part(("hand", i), held, partial(hand_card, held, self.on_hand)))
        return hand

    def _ups(self, me: LoptiSeatView, setup: bool) -> list[ft.Control]:
        """My face-up cards (tappable during the setup swap)."""
        m = self.match
        coached = m.coach_cards()
        w, h = self.sizes.table
        return [card_face(c, w, h, selected=m.selected_up is not None and str(m.selected_up) == c,
                          suggested=c in coached, ident=f"up-{i}",
                          on_click=handler(self.on_up, c) if setup and m.my_turn else None)
                for i, c in enumerate(me["up"])]

    def _slots(self, me: LoptiSeatView, setup: bool) -> list[ft.Control]:
        """My table cards as they lie: each face-up card on its face-down card (P-2.1), offset so the
        back shows; once the face-up cards are played, the face-down ones lie alone."""
        ups, downs = self._ups(me, setup), self._downs(me)
        slots: list[ft.Control] = []
        for i in range(max(len(ups), len(downs))):
            if i < len(ups) and i < len(downs):
                w, h = self.sizes.table
                slots.append(ft.Stack([ft.Container(downs[i], left=0, top=0), ft.Container(ups[i], left=5, top=9)],
                                      width=w + 5 + 4, height=h + 9 + 4))
            else:
                slots.append(ups[i] if i < len(ups) else downs[i])
        return slots

    def _downs(self, me: LoptiSeatView) -> list[ft.Control]:
        """My face-down cards, lit when one may be flipped; then each is a button of its own, named
        by its place ("Face-down card 2"), that Tab reaches and Enter turns over."""
        if not self.match.can_flip():
            return [ft.Semantics(identifier=f"down-{i}", content=card_back(*self.sizes.table))
                    for i in range(me["down_count"])]
        return [tap_area(f"down-{i}", ft.Container(
            ft.Semantics(label=t(self.lang, "card_down_i", n=i + 1), exclude_semantics=True,
                         content=card_back(*self.sizes.table)),
            on_click=handler(self.on_flip, i), ink=True, border=border(2, HIGHLIGHT), border_radius=radius(8)))
            for i in range(me["down_count"])]

    def _buttons(self, setup: bool) -> list[ft.Control]:
        m = self.match
        sel = m.selected
        buttons: list[ft.Control] = []
        if setup:
            if m.offers_swap() or not m.my_turn:
                buttons.append(table_button(t(self.lang, "swap"), self.on_swap,
                                            disabled=not (m.my_turn and sel and m.selected_up is not None)))
            buttons.append(table_button(t(self.lang, "keep"), self.on_keep, disabled=not m.can_keep()))
        else:
            # enabled with any selection: a play the rules refuse is explained, not silently blocked
            buttons += [table_button(t(self.lang, "play") + (f" ({len(sel)})" if sel else ""), self.on_play,
                                     disabled=not (m.my_turn and sel), kind="primary"),
                        table_button(t(self.lang, "take"), self.on_take, disabled=not m.can_take())]
            if m.can_flip():
                buttons.append(table_button(t(self.lang, "flip"), lambda e: self.on_flip(0)))
            if m.mode.powers.hint and m.mode.coach is None:
                buttons.append(table_button(t(self.lang, "hint"), self.on_hint, disabled=not m.my_turn or self.thinking,
                                            kind="text", color=theme.LAST_MOVE, ident="lopti-hint"))
        if m.mode.powers.read_only:
            buttons = []  # a replay has its own bar
        elif self.session is not None and m.status.over:
            buttons = [table_button(t(self.lang, "sess_continue"), lambda e: self.deal_done(self),
                                    kind="primary", icon=ft.Icons.ARROW_FORWARD, ident="deal-done"),
                       *self._review_button()]
        if m.can_undo():
            buttons.append(table_button(t(self.lang, "undo"), self.on_undo, disabled=not m.my_turn, kind="text",
                                        icon=ft.Icons.UNDO))
        return buttons

    def _review_button(self) -> list[ft.Control]:
        """A finished deal can be reviewed by the expert (it is stored; the session waits)."""
        gid = self.match.mode.game_id
        if gid is None:
            return []
        return [table_button(t(self.lang, "review"), lambda e: self.app.go(f"/review/{gid}"), kind="text",
                             icon=ft.Icons.INSIGHTS, ident="deal-review")]

    def handover_notes(self) -> list[ft.Control]:
        """#36 item 1: the table rules, which only the players keep, read out at each handover."""
        kept = self.session.table_rules_now() if self.session is not None else []
        if not kept:
            return []
        lang = self.lang
        return [tagged("handover-rules", ft.Column([
            text(lang, t(lang, "tr_handover"), theme.TYPE_BODY, True, theme.ON_FELT, align=ft.TextAlign.CENTER),
            *(text(lang, words, theme.TYPE_SMALL, color=theme.ON_FELT, align=ft.TextAlign.CENTER)
              for _, words, _ in kept)], horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            spacing=theme.SPACE_TIGHT))]

    def _header(self) -> ft.Control:
        m = self.match
        coach = m.mode.coach
        title = coach.lesson.title[self.lang] if coach else \
            f"{t(self.lang, 'lopti')} · {t(self.lang, counted('players_n', len(m.levels)), n=len(m.levels))}"
        rules = rules_button(self.app, "lopti")
        in_force = house_rules_button(self.app, self.match, self.session, self._rule_deleted)
        return table_header(self.lang, title, lambda e: self.leave(), t(self.lang, "back"),
                            rules if in_force is None else ft.Row([in_force, rules], spacing=theme.SPACE_NONE))

    def _status_rows(self, obs: LoptiObservation) -> ft.Control:
        """Whose move and the last move in words; in a lesson, the coach above them."""
        m = self.match
        last = m.explain(m.last_events, self.lang) if m.last_events else ""
        coach = m.mode.coach
        if coach is None:
            status = self._status(obs)
            if obs.get("direction", 1) != 1 and obs["phase"] == "play":  # after a house rule's reverse
                status += " · " + t(self.lang, "lp_direction", dir=t(self.lang, "lp_dir_-1"))
            last_line = t(self.lang, "last_move", text=last) if last else ""
            self.announce(status, last_line)
            return status_box(self.lang, status, last_line)
        self.announce("", t(self.lang, "last_move", text=last) if last else "")
        return ft.Column([coach_for(self.app, coach, m.status, m.refusal, self.refresh, self._lesson_hint,
                                    self._lesson_retry, lambda: self.new_game("beginner")),
                          status_box(self.lang, "", t(self.lang, "last_move", text=last)) if last
                          else ft.Container()], spacing=theme.SPACE_TIGHT, tight=True)

    # --- events -------------------------------------------------------------------------------
    def on_hand(self, card: str) -> None:
        if not self.busy and self.match.my_turn:
            self.match.tap_hand(card)
            self.refresh()

    def on_up(self, card: str) -> None:
        if not self.busy and self.match.my_turn:
            self.match.tap_up(card)
            self.refresh()

    def _rule_deleted(self, events: list[Event]) -> None:
        """A rule deleted on anyone's turn: said and drawn; whoever was to move still is (a bot
        already thinking plays on, so no second bot turn starts here). A table rule's deletion
        changes nothing in the deal (no events): only the header is drawn again."""
        if events:
            self.feedback(events)
        self.refresh()

    def _after(self, events: list[Event]) -> None:
        self.feedback(events)
        self.refresh()
        if not self.match.status.over and not self.match.my_turn:
            self.app.page.run_task(self.bot_turn)

    def _lesson_hint(self) -> None:
        self.match.mode.suggestion()  # the coach shows the step's hint

    def _lesson_retry(self) -> None:
        self.match.selected, self.match.selected_up, self.match.refusal = [], None, None

    def on_undo(self, e: object) -> None:
        if not self.busy and self.match.undo():
            self.refresh()

    def on_play(self, e: object) -> None:
        if not self.busy and self.match.my_turn and self.match.selected:
            events = self.match.play()  # refused → match.refusal says why
            self._after(events)

    def on_take(self, e: object) -> None:
        if not self.busy and self.match.can_take():
            events = self.match.take()
            self._after(events)

    def on_flip(self, index: int) -> None:
        if not self.busy and self.match.can_flip():
            events = self.match.flip(index)
            self._after(events)

    def on_swap(self, e: object) -> None:
        if not self.busy and self.match.my_turn and self.match.selected and self.match.selected_up is not None:
            events = self.match.swap()
            self._after(events)

    def on_keep(self, e: object) -> None:
        if not self.busy and self.match.can_keep():
            events = self.match.keep()
            self._after(events)


def house_rules_button(app: Host, match: LoptiControls, session: SessionFlow | None = None,
                       deleted: Callable[[list[Event]], None] | None = None) -> ft.Control | None:
    """P-8: the house rules in force in this deal and the session's base-rule changes, as the
    engine applies them (the deal's options in the observation); a tap lists each rule in the
    player's language with its author, who — a person at this device, in a session — may delete
    it there and then, on anyone's turn, without a vote (P-9.4): the engine's deletion, stored with
    the deal's actions, so the rule no longer fires from the next move; the session keeps it
    deleted for the deals after. ``deleted`` redraws the table. None when the deal plays the base
    rules."""
    options = LoptiOptions.from_json(match.observation["options"])
    changes = options.params.to_json()
    kept = session.table_rules_now() if session is not None else []
    if not options.house_rules and not changes and not kept:
        return None
    lang = app.lang

    def delete(deletion: DeleteRule) -> None:
        assert session is not None
        delete_in_deal(app, match, session, deletion, deleted)

    def show(e: object) -> None:
        deletable = {d.rule_id: d for d in match.deletions()} if session else {}
        lines: list[ft.Control] = []
        for rule in options.house_rules:
            parts: list[ft.Control] = [
                text(lang, describe(rule.raw, lang), theme.TYPE_BODY),
                text(lang, t(lang, "sess_rule_by", who=match.who(rule.author, lang) if rule.author is not None
                             else "—"), theme.TYPE_NOTE, color=theme.PAGE_MUTED)]
            if rule.id in deletable and rule.author is not None:
                parts.append(tagged(f"delete-{rule.id}", ft.TextButton(
                    t(lang, "sess_delete", who=match.who(rule.author, lang)), icon=ft.Icons.DELETE_OUTLINE,
                    on_click=lambda e, d=deletable[rule.id]: delete(d))))
            lines.append(ft.Semantics(identifier=f"in-force-{rule.id}",
                                      content=ft.Column(parts, spacing=theme.SPACE_FINE)))
        if session is not None:
            lines += table_rule_lines(app, match, session, lambda: deleted([]) if deleted else None)
        if changes:
            lines.append(text(lang, t(lang, "base_changes"), theme.TYPE_BODY, True))
            lines += [text(lang, t(lang, f"param_{name}", v=BaseParams.label(name, value)), theme.TYPE_SMALL)
                      for name, value in changes.items()]
        app.page.show_dialog(ft.AlertDialog(
            title=text(lang, t(lang, "house_rules_title"), theme.TYPE_STRONG, True),
            # the dialog scrolls a long list itself; a scrolling column took the whole screen's
            # height for one rule
            content=ft.Column(lines, spacing=theme.SPACE_LOOSE, tight=True), scrollable=True,
            actions=[ft.TextButton(t(lang, "close"), on_click=lambda e: app.page.pop_dialog())]))

    return tagged("house-rules", ft.TextButton(
        t(lang, "house_rules_n", n=len(options.house_rules) + len(kept) + len(changes)), icon=ft.Icons.GAVEL,
        on_click=show,
        style=ft.ButtonStyle(color=theme.ON_FELT)))


def table_rule_lines(app: Host, match: LoptiControls, session: SessionFlow,
                     redraw: Callable[[], object]) -> list[ft.Control]:
    """The session's table rules in force in this deal (#36 item 1): words the table keeps by hand,
    each with its author, who (a person here) may delete it without a vote (P-9.4). Never in the
    deal's options: the engine plays on as it did."""
    lang = app.lang

    def delete(rule_id: str, author: int, words: str) -> None:
        try:
            session.delete_rule(rule_id, author)
        except VoteError as exc:
            app.tell(str(exc))
            return
        app.page.pop_dialog()
        redraw()
        app.tell(t(lang, "sess_deleted", rule=words))

    lines: list[ft.Control] = []
    for rid, words, author in session.table_rules_now():
        who = match.who(author, lang) if author is not None else "—"
        parts: list[ft.Control] = [
            text(lang, words, theme.TYPE_BODY),
            text(lang, t(lang, "sess_rule_by", who=who) + " · " + t(lang, "tr_kept"), theme.TYPE_NOTE,
                 color=theme.PAGE_MUTED)]
        if author is not None and rid in session.deletable(author):
            parts.append(tagged(f"delete-{rid}", ft.TextButton(
                t(lang, "sess_delete", who=who), icon=ft.Icons.DELETE_OUTLINE,
                on_click=lambda e, r=rid, a=author, w=words: delete(r, a, w))))
        lines.append(ft.Semantics(identifier=f"in-force-{rid}", content=ft.Column(parts, spacing=theme.SPACE_FINE)))
    return lines


def delete_in_deal(app: Host, match: LoptiControls, session: SessionFlow, deletion: DeleteRule,
                   deleted: Callable[[list[Event]], None] | None) -> None:
    """P-9.4: the author's deletion, in the running deal (the engine's action, stored with it) and
    in the session (for the deals after); the session is asked first, so a refusal changes nothing."""
    lang = app.lang
    try:
        session.session.delete_own_rule(deletion.rule_id, deletion.by)
    except VoteError as exc:
        app.tell(str(exc))
        return
    events = match.delete_rule(deletion)
    if not events:  # the engine refused it (the deal ended meanwhile)
        if match.refusal is not None:
            app.tell(t(lang, "not_possible", why=why_text(lang, match.refusal)))
        return
    session.delete_rule(deletion.rule_id, deletion.by)
    app.page.pop_dialog()
    if deleted is not None:
        deleted(events)
    app.tell(t(lang, "deleted_now"))
