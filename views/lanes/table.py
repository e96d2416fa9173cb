"""The Lanes table (phone first): the opponent's three lanes above yours, each with its value,
direction, suit and whether it sells; attachments beside their number card; your hand below.
Tap a card to select it; only legal targets light up (from ``legal_actions`` via the controller);
tap one to play. The opponent's last move is highlighted in words."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol

import flet as ft

from engine.lanes.actions import LanesAction
from views.lanes.contract import LanesControls, LanesTargets
from views.lanes.ending import ending_said
from views.lanes.lane import DRAG_GROUP, LaneDrawn, droppable, lane_column
from views.screens.rules import rules_button
from views.table.coach import coach_for
from views.table.motion import (
    drawn,
    lanes_landed,
    lanes_removed,
    lanes_sold,
)
from views.table.result import Outcome, result_dialog
from views.table.screen import NewGame, Table
from views.table.turn_table import TurnBasedTable
from views.ui import sizing, theme
from views.ui.fan import Fan, hand_fan, hand_room, lay_out
from views.ui.i18n import RTL, card_name, listed, t, why_text
from views.ui.reconcile import Same, show
from views.ui.widgets import (
    SUIT_GLYPH,
    HandCard,
    copies_said,
    hand_card,
    seat_plate,
    status_box,
    table_button,
    table_header,
    tagged,
    text,
)

if TYPE_CHECKING:
    from engine.core import Event
    from engine.lanes.notation import LanesObservation
    from views.host import Host

ARROW = {"up": "↑", "down": "↓", None: "·"}


class Remote(Protocol):
    """What a match played elsewhere adds to the Lanes table (``OnlineSeat``, views/online/table.py:
    the lobby's clocks, its follow loop, its result). The table calls it at these points and is
    otherwise the table every mode uses; a game on this device has none."""

    def join(self, table: Table) -> None:
        """The table it belongs to (redrawn when the lobby answers)."""

    def start(self) -> None:
        """The table is built: follow the match."""

    def before_refresh(self) -> None:
        """The table redraws: bring the lines it owns up to date (the clocks)."""

    def rows(self) -> list[ft.Control]:
        """Rows under the header (the clocks, Abort)."""

    def moved(self) -> None:
        """A move of mine was taken: send it (off the loop)."""

    def resign(self, call: Callable[[], object]) -> None:
        """The player asked to resign: confirm, then ``call`` off the loop."""

    def show_result(self) -> None:
        """The match is over: its result, as the lobby reports it."""

    def leave(self) -> None:
        """Back from the table (the match goes on elsewhere)."""

    def stop(self) -> None:
        """The table left the page."""

    async def resync(self) -> None:
        """Back from the background: what happened meanwhile."""

    def seat_name(self, seat: int) -> str:
        """The name on a seat's plate (the player's, at the lobby)."""

    def said_by(self, seat: int) -> list[ft.Control]:
        """The quick message ``seat`` is showing now, drawn beside that seat (none when muted)."""

    def bar(self) -> list[ft.Control]:
        """What it adds to the player's action bar (the quick-message button)."""


class LanesTable(TurnBasedTable[LanesAction]):
    bot_delay = 0.35
    game = "lanes"

    def __init__(self, app: Host, match: LanesControls, new_game: NewGame, remote: Remote | None = None) -> None:
        super().__init__(app, match, new_game)
        #: a match played elsewhere (online): its clocks, loops and result; None on this device
        self.remote = remote
        if remote is not None:
            remote.join(self)
        self.match: LanesControls = match
        self.landed: set[tuple[int, int, int]] = set()
        self.removed: dict[tuple[int, int], tuple[int | None, list[str]]] = {}
        self.sold: set[int] = set()
        self.result_shown = False
        #: pass-and-play: the device is being handed to the next player; until they tap Ready every
        #: redraw (the motion's second frame, a resize) shows the privacy screen, never a hand
        self.handing_over = False
        self.lane_card = sizing.lanes(None, None).lane
        if match.observation["ply"] == 0 and not match.mode.powers.read_only:
            self.motion.deal()

    # --- building blocks ------------------------------------------------------------------------

    def _lane_said(self, obs: LanesObservation, owner: int, lane: int) -> str:
        """What a screen reader says for a lane: "Lane 2: 23, descending, hearts, selling" (the
        opponent's: "Beginner's lane 2: …")."""
        p = obs["players"][owner]
        v, d, s = p["value"][lane], p["direction"][lane], p["suit"][lane]
        parts = [str(v)] + ([t(self.lang, f"dir_{d}")] if d else []) + ([t(self.lang, f"suit_{s}")] if s else [])
        if obs["selling"][lane] == owner:
            parts.append(t(self.lang, "selling"))
        value = listed(self.lang, parts) if v else t(self.lang, "lane_empty")
        if owner == self.match.human:
            return t(self.lang, "lane_said", n=lane + 1, value=value)
        return t(self.lang, "lane_said_of", who=self._opponent_name(), n=lane + 1, value=value)

    def _card_in_lane_said(self, card: str, owner: int, lane: int, stack: int) -> str:
        """A card on a lane says where it lies ("King of hearts, Beginner's lane 2, card 3"): the
        same card can lie on both sides (each player has a deck), and a screen reader or the
        keyboard must tell them apart when a face card can go on either."""
        what = card_name(self.lang, card)
        if owner == self.match.human:
            return t(self.lang, "said_in_lane", what=what, n=lane + 1, k=stack + 1)
        return t(self.lang, "said_in_lane_of", what=what, who=self._opponent_name(), n=lane + 1, k=stack + 1)

    def _lane(self, obs: LanesObservation, owner: int, lane: int, targets: LanesTargets,
              disbandable: set[int]) -> ft.Control:
        """The lane, kept on screen while what it is drawn from is the same (``LaneDrawn``)."""
        drawn = self._lane_drawn(obs, owner, lane, targets, disbandable)
        return self.parts.part(("lane", owner, lane), drawn, partial(lane_column, drawn, self, self.motion))

    def _lane_drawn(self, obs: LanesObservation, owner: int, lane: int, targets: LanesTargets,
                    disbandable: set[int]) -> LaneDrawn:
        """Everything the lane is drawn from, in words and flags (the spoken words need the names)."""
        m = self.match
        p = obs["players"][owner]
        stacks = tuple(tuple(stack) for stack in p["lanes"][lane])
        v, d, s = p["value"][lane], p["direction"][lane], p["suit"][lane]
        me = owner == m.human
        removed = self.removed.get((owner, lane))
        landed = frozenset(i for i in range(len(stacks)) if (owner, lane, i) in self.landed)
        return LaneDrawn(
            owner=owner, lane=lane, mine=me, stacks=stacks,
            stacks_said=tuple(self._card_in_lane_said(stack[0], owner, lane, i) for i, stack in enumerate(stacks)),
            said=self._lane_said(obs, owner, lane),
            label=f"{v} {ARROW[d]} {SUIT_GLYPH.get(s, '') if s else ''}".strip() if v else "—",
            selling=t(self.lang, "selling") if obs["selling"][lane] == owner else None,
            lit=me and lane in targets.lanes,
            targets=frozenset(i for i in range(len(stacks)) if (owner, lane, i) in targets.stacks),
            my_turn=m.my_turn,
            disband=(t(self.lang, "disband"), t(self.lang, "disband_lane", n=lane + 1))
            if me and lane in disbandable else None,
            card=self.lane_card,
            landed=landed, removed=None if removed is None else (removed[0], tuple(removed[1])), glow=lane in self.sold,
            # only what moves reads the motion's frame (a lane at rest stays kept through it)
            arriving=self.motion.arriving and bool(landed or removed or lane in self.sold), look=theme.look())

    # --- drag and drop: the same moves as tapping, through the same controller calls ----------------

    def on_drop(self, card: str, owner: int, lane: int | None, stack: int | None) -> None:
        """A card dropped on a target plays exactly as a tap on the card then on the target would
        (lane ``None``: the Discard button); a move the rules refuse is explained the same way."""
        if self.busy or not self.match.my_turn:
            return
        if self.match.selected is None or str(self.match.selected) != card:
            self.match.select(card)
        if lane is None:
            self._played(self.match.discard())
        elif stack is None:
            self._played(self.match.play_at(owner, lane))
        else:
            self._played(self.match.play_at(owner, lane, stack))

    def _side(self, obs: LanesObservation, owner: int) -> ft.Control:
        targets = self.match.targets()
        dis = self.match.disbandable()
        lanes = [self._lane(obs, owner, i, targets, dis) for i in range(3)]
        return self.parts.part(("side", owner), tuple(Same(lane) for lane in lanes), lambda: ft.Row(
            lanes, spacing=theme.SPACE_TIGHT, expand=True, vertical_alignment=ft.CrossAxisAlignment.STRETCH))

    def _hand(self, obs: LanesObservation, fan: Fan, arrived: set[str]) -> list[ft.Control]:
        """My hand at the fan's card size: the selected card lifted, the coach's cards lit, the ones I
        cannot play now greyed (from the legal actions), the card just drawn sliding in."""
        m = self.match
        playable = {str(x) for x in m.playable_cards()}
        coached = m.coach_cards()
        said = copies_said(self.lang, obs["hand"])
        n = len(obs["hand"])
        cards: list[ft.Control] = []
        for i, c in enumerate(obs["hand"]):
            # kept while it is drawn the same: a selection redraws one card, not the hand
            drawn = HandCard(c, i, m.selected is not None and str(m.selected) == c, c in coached,
                             m.my_turn and c not in playable, said[i], fan.card_width, fan.card_height, fan.shows[i],
                             self.motion.hand_card(i, n, c in arrived), m.my_turn, DRAG_GROUP if m.my_turn else None,
                             theme.look())
            cards.append(self.parts.part(("hand", i), drawn, partial(hand_card, drawn, self.on_card)))
        return cards

    def _status(self, obs: LanesObservation) -> str:
        caption = self.match.mode.caption(self.lang)
        if caption is not None:
            return caption
        said = self.said_instead()
        if said:
            return said
        if self.match.refusal is not None:
            return t(self.lang, "not_possible", why=why_text(self.lang, self.match.refusal))
        if obs["over"]:
            return t(self.lang, "won") if obs["winner"] == self.match.human else t(self.lang, "lost")
        if obs["to_move"] != self.match.human:
            return t(self.lang, "bot_thinking", bot=t(self.lang, self.match.level))
        if self.match.pass_and_play and not self.match.selected:
            return t(self.lang, "player_n", n=self.match.human + 1) + ": " + t(self.lang, "your_turn")
        if self.match.selected is not None:
            return t(self.lang, "pick_target")
        if obs["in_opening"][self.match.human]:
            return t(self.lang, "opening")
        return t(self.lang, "your_turn")

    # --- rendering ------------------------------------------------------------------------------

    def _header(self, obs: LanesObservation) -> ft.Control:
        """The title (the lesson's, or the game and the opponent's level), back, rules, resign."""
        m = self.match
        coach, powers = m.mode.coach, m.mode.powers
        title = coach.lesson.title[self.lang] if coach else f"{t(self.lang, 'lanes')} · {t(self.lang, m.level)}"
        return self.parts.part("header", (self.lang, title, powers.resign, obs["over"]),
                               partial(self._header_bar, title, powers.resign, obs["over"]))

    def _header_bar(self, title: str, resign: bool, over: bool) -> ft.Control:
        rules = rules_button(self.app, "lanes")
        if resign:
            rules = ft.Row([rules, table_button(t(self.lang, "resign"), self.on_resign, disabled=over, kind="text",
                                                color=theme.RESIGN)], spacing=theme.SPACE_NONE, tight=True)
        return table_header(self.lang, title, lambda e: self.leave(), t(self.lang, "back"), rules)

    def _seat_row(self, obs: LanesObservation, opp: int, name: str | None = None) -> ft.Control:
        """The opponent's seat plate: name or level, cards in hand and deck, lit on their turn (also
        the bottom seat's, named, on a spectator's table, where no hand shows it)."""
        info = obs["players"][opp]
        held = t(self.lang, "hand", n=info["hand_size"]) + " · " + t(self.lang, "deck", n=info["deck_size"])
        plate = (name or self._opponent_name(), held, info["hand_size"], obs["to_move"] == opp and not obs["over"])
        if self.remote is not None:  # with the quick message said beside it
            return ft.Row([self._plate(*plate), *self._said_by(opp)], spacing=theme.SPACE_SNUG)
        return self.parts.part(("seat", opp), (plate, self.lang),
                               lambda: ft.Row([self._plate(*plate)], spacing=theme.SPACE_SNUG))

    def _plate(self, name: str, held: str, count: int, turn: bool) -> ft.Control:
        return seat_plate(self.lang, name, text(self.lang, held, theme.TYPE_NOTE, color=theme.ON_FELT_MUTED),
                          count=count, turn=turn)

    def _said_by(self, seat: int) -> list[ft.Control]:
        return [] if self.remote is None else self.remote.said_by(seat)

    def refresh(self, update: bool = True) -> None:
        if self.remote is not None:
            self.remote.before_refresh()
        if self.handing_over:
            self.show_privacy(self.match.human + 1, self.ready, update)
            return
        m = self.match
        obs = m.observation
        me, opp = m.human, 1 - m.human
        fresh = self.motion.fresh(m.last_events)
        self.landed = lanes_landed(m.last_events) if fresh else set()
        self.removed = lanes_removed(m.last_events) if fresh else {}
        self.sold = lanes_sold(m.last_events) if fresh else set()
        room = hand_room(self.app.page.width)
        longest = sum(max((len(lane) for lane in p["lanes"]), default=1) - 1 for p in obs["players"])
        sizes = sizing.lanes(self.app.page.width, self.app.page.height, max(0, longest))
        self.lane_card = sizes.lane
        fan = lay_out(len(obs["hand"]), room, *sizes.hand, rtl=self.lang in RTL)
        hand = self._hand(obs, fan, set(drawn(m.last_events, me)) if fresh else set())
        targets = m.targets()
        last = m.explain(m.last_events, self.lang) if m.last_events else ""
        my_info = obs["players"][me]
        coach, powers = m.mode.coach, m.mode.powers
        lesson = coach is not None
        last_line = t(self.lang, "last_move", text=last) if last else ""
        said = self._status(obs)
        status = status_box(self.lang, said, last_line)
        self.announce("" if coach is not None else said, last_line)
        if coach is not None:
            status = ft.Column([coach_for(self.app, coach, m.status, m.refusal, self.refresh, self._lesson_hint,
                                          self._lesson_retry, lambda: self.new_game("beginner")),
                                status_box(self.lang, "", t(self.lang, "last_move", text=last)) if last
                                else ft.Container()], spacing=theme.SPACE_TIGHT, tight=True)
        actions = ft.Row([
            droppable(table_button(t(self.lang, "discard"), self.on_discard, disabled=not targets.discard),
                      self, self.match.human, None, None, self.match.my_turn),
            *([table_button(t(self.lang, "hint"), self.on_hint, disabled=not m.my_turn or self.thinking, kind="text",
                            color=theme.LAST_MOVE)]
              if powers.hint and not lesson else []),  # a lesson's coach has its own Hint; online has none
            *([table_button(t(self.lang, "undo"), self.on_undo, disabled=not m.my_turn, kind="text",
                            icon=ft.Icons.UNDO)] if m.can_undo() else []),
            *([] if self.remote is None else [*self.remote.bar(), *self._said_by(me)]),
            text(self.lang, t(self.lang, "deck", n=my_info["deck_size"]), theme.TYPE_NOTE, color=theme.ON_FELT_MUTED),
        ], alignment=ft.MainAxisAlignment.SPACE_BETWEEN)
        rows = [
            self._header(obs), *self.top_rows(), self._seat_row(obs, opp), self._side(obs, opp), status,
            self._side(obs, me),
            hand_fan(hand, fan, room, obs["hand"], t(self.lang, "said_hand"), self.parts),
            *([] if powers.read_only else [actions]),  # a replay has its own bar
            *([self._seat_row(obs, me, self.remote.seat_name(me))] if self.remote and powers.read_only
              else []),  # a spectator's table: the bottom seat's plate (and its quick message)
        ]
        show(self.root, rows, update, self.parts)
        self.motion.settle(self.app.page, self.refresh)
        if obs["over"] and not self.busy and powers.result:
            self.after_said(lambda: self.show_result(obs))

    # --- events -------------------------------------------------------------------------------

    def on_card(self, card: str) -> None:
        if self.busy or not self.match.my_turn:
            return
        self.match.select(card)
        self.refresh()

    def _after_human(self) -> None:
        if self.remote is not None:
            self.remote.moved()
            return
        if self.match.pass_and_play and not self.match.status.over:
            self.privacy_screen()
            return
        self.refresh()
        if not self.match.status.over:
            self.app.page.run_task(self.bot_turn)

    def privacy_screen(self) -> None:
        """Pass-and-play: hide the hand that just played until the next player holds the device."""
        self.handing_over = True
        self.refresh()

    def ready(self) -> None:
        """The next player holds the device: their hand shows."""
        self.handing_over = False
        self.refresh()

    def on_undo(self, e: object) -> None:
        if not self.busy and self.match.undo():
            self.refresh()

    def _lesson_hint(self) -> None:
        self.match.hint()  # the lesson's move: its card is selected so its target lights up

    def _lesson_retry(self) -> None:
        self.match.selected, self.match.refusal = None, None

    def on_lane(self, lane: int, owner: int | None = None) -> None:
        """A tap on a lane: the picked-up card goes there, or the status says why not (also when
        no card is picked up: every lane answers taps throughout my turn, views/lanes/lane.py)."""
        if self.busy:
            return
        self._played(self.match.play_at(self.match.human if owner is None else owner, lane))

    def on_stack(self, owner: int, lane: int, stack: int) -> None:
        if self.busy:
            return
        self._played(self.match.play_at(owner, lane, stack))

    def _played(self, events: list[Event]) -> None:
        self.feedback(events)
        if events:
            self._after_human()
        else:  # refused: the status says why, nothing changed
            self.refresh()

    def on_discard(self, e: object) -> None:
        if self.busy or self.match.selected is None:
            return
        self._played(self.match.discard())

    def on_disband(self, lane: int) -> None:
        """Disbanding throws a whole lane away (L-4.3), so it asks first, as resigning does: a stray
        tap on the word under a lane must not cost the lane (#42)."""
        if self.busy:
            return

        def confirm(ev: object) -> None:
            self.app.page.pop_dialog()
            if not self.busy:
                self._played(self.match.disband(lane))

        self.app.page.show_dialog(ft.AlertDialog(
            title=text(self.lang, t(self.lang, "disband_confirm", n=lane + 1), theme.TYPE_STRONG, True),
            actions=[ft.TextButton(t(self.lang, "cancel"), on_click=lambda ev: self.app.page.pop_dialog()),
                     tagged("disband-confirm", ft.TextButton(
                         t(self.lang, "disband"), on_click=confirm))]))

    def on_resign(self, e: object) -> None:
        if self.remote is not None:
            self.remote.resign(self.match.resign)
            return

        def confirm(ev: object) -> None:
            self.app.page.pop_dialog()
            self.match.resign()
            self.refresh()

        self.app.page.show_dialog(ft.AlertDialog(
            title=text(self.lang, t(self.lang, "resign_confirm"), theme.TYPE_STRONG, True),
            actions=[ft.TextButton(t(self.lang, "cancel"), on_click=lambda ev: self.app.page.pop_dialog()),
                     ft.TextButton(t(self.lang, "resign"), on_click=confirm)]))

    def top_rows(self) -> list[ft.Control]:
        """Rows under the header that a match played elsewhere adds (the online clocks)."""
        return [] if self.remote is None else self.remote.rows()

    def build(self) -> ft.Control:
        built = super().build()
        if self.remote is not None:
            self.remote.start()
        return built

    def leave(self) -> None:
        if self.remote is not None:
            self.remote.leave()
        else:
            super().leave()

    def stop(self) -> None:
        super().stop()
        if self.remote is not None:
            self.remote.stop()

    async def resync(self) -> None:
        if self.remote is not None:
            await self.remote.resync()

    def show_result(self, obs: LanesObservation) -> None:
        if self.remote is not None:
            self.remote.show_result()
            return
        if self.result_shown:
            return
        self.result_shown = True
        me = self.match.human
        sold = [s for s in obs["selling"] if s is not None]
        won = None if obs["winner"] is None else obs["winner"] == me
        them = self._opponent_name()  # the only other seat: whoever ended the game, if not me
        outcome = Outcome(won, ending_said(self.lang, obs["reason"], obs["winner"], me, lambda seat: them),
                          t(self.lang, "lanes_sold_score", me=sold.count(me), them=them, other=sold.count(1 - me)))
        self.app.page.show_dialog(result_dialog(self.lang, outcome, on_rematch=self._again, on_home=self._home,
                                                on_review=self._review, on_replay=self._replay))

    def _opponent_name(self) -> str:
        m = self.match
        if self.remote is not None:
            return self.remote.seat_name(1 - m.human)
        return t(self.lang, "player_n", n=2 - m.human) if m.pass_and_play else t(self.lang, m.level)

    def _replay(self) -> None:
        self.app.page.pop_dialog()
        if self.match.mode.game_id is not None:
            self.app.go(f"/replay/{self.match.mode.game_id}")

    def _review(self) -> None:
        self.app.page.pop_dialog()
        if self.match.mode.game_id is not None:
            self.app.go(f"/review/{self.match.mode.game_id}")

    def _again(self) -> None:
        self.app.page.pop_dialog()
        self.new_game(self.match.level)

    def _home(self) -> None:
        self.app.page.pop_dialog()
        self.app.go("/")

