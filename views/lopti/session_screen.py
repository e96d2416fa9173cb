"""The Lopti session between deals: the results so far and the house rules in force (each described
in the player's language, with its author), leaving the table, a new session at it (P-11), and the
ways on: the winner's rule (views/lopti/rule_screens.py), the one rule vote per deal
(vote_screens.py, with its tie-break in tie_screens.py) and the next deal. Decisions come from
:mod:`views.lopti.session` (the engine's session); these functions only draw them and send the
player's choices."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from engine.lopti.describe import describe
from engine.lopti.session_lesson import SessionLesson
from engine.lopti.votes import VoteError, votes_to_pass
from storage.seats import PERSON
from views.lopti.rule_screens import rule_builder
from views.lopti.session import OldRule, SessionFlow
from views.lopti.session_page import Between, author_label, page, seat_label
from views.lopti.vote_screens import proposal_screen
from views.ui import theme
from views.ui.i18n import counted, t
from views.ui.widgets import radius, tagged, text

if TYPE_CHECKING:
    from views.host import Host
    from views.lopti.controller import LoptiMatch

#: a session's next deal on its table (views/lopti/play.py)
OpenDeal = Callable[["Host", "LoptiMatch", SessionFlow], None]


def open_session_lesson(app: Host, lesson: SessionLesson) -> None:
    """A session lesson from its start: a practice table, never stored, coached on every screen."""
    session_screen(app, SessionFlow.practice(app.storage, lesson))


def session_screen(app: Host, flow: SessionFlow, notice: str = "", deal: OpenDeal | None = None) -> None:
    """Between deals: results, rules, the winner's rule (if a person won), the vote, the next deal
    (``deal`` opens it on its table: views/lopti/play.py, which imports this screen, gives it; a
    lesson's practice session deals no further deal)."""
    lang = app.lang

    def back(app: Host, flow: SessionFlow, notice: str = "") -> None:  # the screens below come back here
        session_screen(app, flow, notice, deal)

    if flow.rule_pending():
        rule_builder(app, back, flow)
        return
    sep = t(lang, "list_sep")
    results = [text(lang, t(lang, "sess_deal", n=i + 1, places=sep.join(seat_label(flow, s, lang) for s in places)),
                    theme.TYPE_SMALL)
               for i, places in enumerate(flow.session.results)]
    rules = rule_cards(app, flow, back)
    controls: list[ft.Control] = []
    if notice:
        controls.append(ft.Container(text(lang, notice, theme.TYPE_BODY, True), bgcolor=theme.PAGE_PANEL,
                                     padding=theme.SPACE_LOOSE, border_radius=radius(8)))
    controls += [text(lang, t(lang, "sess_results"), theme.TYPE_STRONG, True),
                 *(results or [text(lang, t(lang, "sess_none_yet"), theme.TYPE_SMALL)]),
                 tagged("sess-dealer", text(lang, dealer_line(flow, lang), theme.TYPE_SMALL)),
                 text(lang, t(lang, "sess_rules"), theme.TYPE_STRONG, True),
                 *(rules or [text(lang, t(lang, "sess_no_rules"), theme.TYPE_SMALL)])]
    if flow.session.options.first_out_ends:  # the table's setting, chosen when it sat down
        controls.append(text(lang, t(lang, "first_out_ends_on"), theme.TYPE_NOTE, color=theme.PAGE_MUTED))
    if flow.can_vote():
        controls.append(tagged("sess-vote", ft.OutlinedButton(
            t(lang, "sess_propose"), icon=ft.Icons.HOW_TO_VOTE,
            on_click=lambda e: proposal_screen(app, back, flow))))
    elif flow.session.results and flow.session.vote_used():
        controls.append(text(lang, t(lang, "sess_vote_used"), theme.TYPE_NOTE, color=theme.PAGE_MUTED))
    if deal is not None and flow.coach is None:  # a lesson's practice table deals no further deal
        controls.append(tagged("sess-next", ft.FilledButton(
            t(lang, "sess_next_deal", n=flow.deal_number + 1), icon=ft.Icons.PLAY_ARROW,
            on_click=lambda e: deal(app, flow.start_deal(), flow))))

    def end(e: object) -> None:
        flow.end()
        app.go("/")

    controls += leave_buttons(app, flow, back)
    if flow.session.results:
        controls.append(tagged("sess-again", ft.OutlinedButton(
            t(lang, "sess_again"), icon=ft.Icons.REPLAY, on_click=lambda e: carry_screen(app, flow, back))))
    if flow.coach is None:  # a practice table is never stored, so there is no session to end
        controls.append(tagged("sess-end", ft.TextButton(
            t(lang, "sess_end"), icon=ft.Icons.STOP_CIRCLE_OUTLINED, on_click=end)))
    page(app, t(lang, "sess_title", n=flow.deal_number) if flow.deal_number else t(lang, "sess_title_new"), controls,
          flow)


def dealer_line(flow: SessionFlow, lang: str) -> str:
    """Who deals the next deal and who plays first (P-2.3): the deal passes clockwise; the first
    deal's dealer leads, a later deal's winner of the deal before."""
    s = flow.session
    if not s.results:
        return t(lang, "sess_dealer_first", n=1, dealer=seat_label(flow, s.dealer, lang))
    return t(lang, "sess_dealer_next", n=s.deal_number + 1, dealer=seat_label(flow, s.dealer, lang),
             leader=seat_label(flow, s.leader, lang))


def leave_buttons(app: Host, flow: SessionFlow, back: Between) -> list[ft.Control]:
    """A person (not the device's owner) may leave the table between deals: after a confirmation
    a Casual bot takes the seat, and the rules they wrote stay (defended by their supporters)."""
    lang = app.lang

    def ask(seat: int) -> None:
        def leave(e: object) -> None:
            app.page.pop_dialog()
            try:
                flow.leave(seat)
            except VoteError as exc:
                app.tell(str(exc))
                return
            back(app, flow, t(lang, "sess_left", who=t(lang, "player_n", n=seat + 1)))
        app.page.show_dialog(ft.AlertDialog(
            title=text(lang, t(lang, "sess_leave_confirm", who=seat_label(flow, seat, lang)), theme.TYPE_STRONG, True),
            content=text(lang, t(lang, "sess_leave_means"), theme.TYPE_BODY),
            actions=[ft.TextButton(t(lang, "cancel"), on_click=lambda e: app.page.pop_dialog()),
                     tagged(f"leave-confirm-{seat}", ft.TextButton(
                         t(lang, "sess_leave", who=seat_label(flow, seat, lang)), on_click=leave))]))

    return [tagged(f"sess-leave-{s}", ft.TextButton(
        t(lang, "sess_leave", who=seat_label(flow, s, lang)), icon=ft.Icons.LOGOUT,
        on_click=lambda e, s=s: ask(s))) for s in flow.can_leave()]


def rule_cards(app: Host, flow: SessionFlow, back: Between) -> list[ft.Control]:
    """Every rule of the session with its author and status; its author (a person) may delete it
    without a vote (P-9.4)."""
    lang = app.lang

    def delete(rule_id: str, author: int, words: str) -> None:
        try:
            flow.delete_rule(rule_id, author)
        except VoteError as exc:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), theme.TYPE_BODY)))
            return
        back(app, flow, t(lang, "sess_deleted", rule=words))

    def save(rule_id: str, words: str) -> None:
        flow.save_to_library(rule_id, words)
        app.tell(t(lang, "lib_saved", rule=words))

    rules: list[ft.Control] = []
    table = flow.table_rules()
    for rid, words, author, in_force in flow.rules_in_force(lang):
        notes = [t(lang, "sess_rule_by", who=author_label(flow, author, lang)),
                 *([t(lang, "tr_kept")] if rid in table else []), *([] if in_force else [t(lang, "sess_removed")])]
        lines: list[ft.Control] = [
            text(lang, words, theme.TYPE_BODY, color=None if in_force else theme.PAGE_MUTED),
            text(lang, " · ".join(notes), theme.TYPE_NOTE, color=theme.PAGE_MUTED)]
        if author is not None and rid in flow.deletable(author):  # P-9.4: no vote needed
            lines.append(tagged(f"sess-delete-{rid}", ft.TextButton(
                t(lang, "sess_delete", who=seat_label(flow, author, lang)), icon=ft.Icons.DELETE_OUTLINE,
                on_click=lambda e, rid=rid, a=author, w=words: delete(rid, a, w))))
        if author is not None and flow.levels[author] == PERSON:  # a rule written here: keep it for later
            lines.append(tagged(f"sess-save-{rid}", ft.TextButton(
                t(lang, "lib_save"), icon=ft.Icons.BOOKMARK_ADD_OUTLINED,
                on_click=lambda e, rid=rid, w=words: save(rid, w))))
        rules.append(ft.Semantics(identifier=f"sess-rule-{rid}", content=ft.Card(content=ft.Container(
            padding=theme.SPACE_LOOSE, content=ft.Column(lines, spacing=theme.SPACE_FINE)))))
    return rules


def carry_screen(app: Host, flow: SessionFlow, back: Between) -> None:
    """P-11: the next session at this table starts with base rules; an old rule comes back only if
    more than half of the table votes to keep it (the bots keep only their own) — one of this
    session's, of an earlier session at this table, or of the device's library (#36 item 6)."""
    lang = app.lang
    keep: dict[str, dict[int, bool]] = {}

    def start(e: object) -> None:
        try:
            new = flow.next_session(app.new_seed(), keep)
        except VoteError as exc:  # the engine refused an old rule: nothing was stored
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), theme.TYPE_BODY)))
            return
        kept = len(new.session.rules)
        back(app, new, t(lang, counted("carry_kept", kept), n=kept))

    rows = [carry_row(app, flow, keep, rid, words, t(lang, "sess_rule_by", who=seat_label(flow, author, lang)))
            for rid, words, author, in_force in flow.rules_in_force(lang) if in_force]
    def forgetting(o: OldRule) -> Callable[[object], None] | None:
        def forget(e: object) -> None:
            flow.forget(o)
            carry_screen(app, flow, back)
        return None if o.preset is None else forget

    old = [carry_row(app, flow, keep, o.key, describe(o.rule, lang),
                     t(lang, "lib_from") if o.author is None else t(lang, "sess_rule_by", who=seat_label(
                         flow, o.author, lang)), forgetting(o)) for o in flow.old_rules()]
    need = votes_to_pass(flow.session.players)  # P-9.2, as the engine counts it
    page(app, t(lang, "sess_again"), [
        text(lang, t(lang, counted("carry_hint", need), n=need, of=flow.session.players), theme.TYPE_SMALL),
        *(rows or [text(lang, t(lang, "sess_no_rules"), theme.TYPE_SMALL)]),
        *([text(lang, t(lang, "lib_older"), theme.TYPE_STRONG, True), *old] if old else []),
        tagged("carry-start", ft.FilledButton(
            t(lang, "carry_start"), icon=ft.Icons.PLAY_ARROW, on_click=start)),
        ft.TextButton(t(lang, "cancel"), on_click=lambda e: back(app, flow, ""))], flow)


def carry_row(app: Host, flow: SessionFlow, keep: dict[str, dict[int, bool]], key: str, words: str,
              whose: str, forget: Callable[[object], None] | None = None) -> ft.Control:
    """One old rule at a new session's setup: its words, whose it is, each person's switch, and
    for a library rule the way to take it out of the library."""
    lang = app.lang
    keep[key] = {}
    switches: list[ft.Control] = []
    for seat in (s for s, lv in enumerate(flow.levels) if lv == PERSON):
        def flip(e: ft.Event[ft.Switch], seat: int = seat) -> None:
            keep[key][seat] = bool(e.control.value)
        switches.append(ft.Semantics(identifier=f"keep-{key}-{seat}", content=ft.Switch(
            label=t(lang, "carry_keep", who=seat_label(flow, seat, lang)), value=False, on_change=flip)))
    if forget is not None:
        switches.append(tagged(f"forget-{key}", ft.TextButton(
            t(lang, "lib_forget"), icon=ft.Icons.BOOKMARK_REMOVE_OUTLINED, on_click=forget)))
    return ft.Card(content=ft.Container(padding=theme.SPACE_LOOSE, content=ft.Column([
        text(lang, words, theme.TYPE_BODY), text(lang, whose, theme.TYPE_NOTE, color=theme.PAGE_MUTED), *switches],
        spacing=theme.SPACE_TIGHT)))
