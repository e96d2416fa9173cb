"""The Lopti session screens: between deals, the results so far and the house rules (each described
in the player's language), the winner's rule builder, and the one rule vote per deal with its
rock-paper-scissors tie-break. Decisions come from :mod:`views.lopti_session` (the engine's
session); these functions only draw them and send the player's choices."""

from __future__ import annotations

from typing import Any

import flet as ft

from engine.lopti.votes import Proposal, VoteError, VoteRecord
from views.i18n import t
from views.lopti_session import SessionFlow
from views.widgets import icon_button, text


def seat_label(flow: SessionFlow, seat: int | None, lang: str) -> str:
    if seat is None:
        return "—"
    if seat == 0:
        return t(lang, "you")
    if flow.levels[seat] == "person":
        return t(lang, "player_n", n=seat + 1)
    return t(lang, "seat_name", n=seat + 1, level=t(lang, flow.levels[seat]))


def _page(app: Any, title: str, controls: list[ft.Control]) -> None:
    lang = app.lang
    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: app.home()),
                ft.Container(text(lang, title, 20, True), expand=True),
                icon_button(ft.Icons.MENU_BOOK, t(lang, "rules"), lambda e: app.rules_dialog("lopti", "P-8.1"))]),
        *controls,
    ], spacing=10, scroll=ft.ScrollMode.AUTO)
    app.show(ft.Container(body, padding=ft.Padding.all(16)))


def session_screen(app: Any, flow: SessionFlow, notice: str = "") -> None:
    """Between deals: results, rules, the winner's rule (if a person won), the vote, the next deal."""
    lang = app.lang
    app.table = None
    if flow.rule_pending():
        rule_builder(app, flow)
        return
    sep = t(lang, "list_sep")
    results = [text(lang, t(lang, "sess_deal", n=i + 1, places=sep.join(seat_label(flow, s, lang) for s in places)), 13)
               for i, places in enumerate(flow.session.results)]
    rules: list[ft.Control] = []
    for rid, words, author, in_force in flow.rules_in_force(lang):
        rules.append(ft.Semantics(identifier=f"sess-rule-{rid}", content=ft.Card(content=ft.Container(
            padding=10, content=ft.Column([
                text(lang, words, 14, color=None if in_force else ft.Colors.ON_SURFACE_VARIANT),
                text(lang, t(lang, "sess_rule_by", who=seat_label(flow, author, lang)) +
                     ("" if in_force else " · " + t(lang, "sess_removed")), 12, color=ft.Colors.ON_SURFACE_VARIANT),
            ], spacing=2)))))
    controls: list[ft.Control] = []
    if notice:
        controls.append(ft.Container(text(lang, notice, 14, True), bgcolor=ft.Colors.SECONDARY_CONTAINER,
                                     padding=10, border_radius=ft.BorderRadius.all(8)))
    controls += [text(lang, t(lang, "sess_results"), 16, True),
                 *(results or [text(lang, t(lang, "sess_none_yet"), 13)]),
                 text(lang, t(lang, "sess_rules"), 16, True),
                 *(rules or [text(lang, t(lang, "sess_no_rules"), 13)])]
    if flow.can_vote():
        controls.append(ft.Semantics(identifier="sess-vote", button=True, content=ft.OutlinedButton(
            t(lang, "sess_propose"), icon=ft.Icons.HOW_TO_VOTE, on_click=lambda e: proposal_screen(app, flow))))
    elif flow.session.results and flow.session.vote_used():
        controls.append(text(lang, t(lang, "sess_vote_used"), 12, color=ft.Colors.ON_SURFACE_VARIANT))
    controls.append(ft.Semantics(identifier="sess-next", button=True, content=ft.FilledButton(
        t(lang, "sess_next_deal", n=flow.deal_number + 1), icon=ft.Icons.PLAY_ARROW,
        on_click=lambda e: app.open_lopti(flow.start_deal(), flow))))

    def end(e: Any) -> None:
        flow.end()
        app.home()

    controls.append(ft.Semantics(identifier="sess-end", button=True, content=ft.TextButton(
        t(lang, "sess_end"), icon=ft.Icons.STOP_CIRCLE_OUTLINED, on_click=end)))
    _page(app, t(lang, "sess_title", n=flow.deal_number), controls)


def rule_builder(app: Any, flow: SessionFlow) -> None:
    """P-8.1: the winner of the last deal (a person) adds one rule; it applies from the next deal."""
    lang = app.lang
    choices = flow.rule_choices(lang)
    picked: dict[str, Any] = {}
    add = ft.FilledButton(t(lang, "sess_add_rule"), disabled=True)

    def confirm(e: Any) -> None:
        if "rule" not in picked:
            return
        try:
            flow.add_rule(picked["rule"])
        except VoteError as exc:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), 14)))
            return
        words = next(w for tpl, w in choices if tpl is picked["rule"])
        session_screen(app, flow, t(lang, "sess_rule_added", rule=words))

    add.on_click = confirm

    def pick(rule_id: str) -> None:
        group.value = rule_id
        picked["rule"] = next(tpl for tpl, _ in choices if tpl["id"] == rule_id)
        add.disabled = False
        app.page.update()

    # a rule is a sentence: it wraps beside its radio button, and a tap anywhere on it picks it
    group = ft.RadioGroup(value=None, on_change=lambda e: pick(str(e.control.value)), content=ft.Column([
        ft.Semantics(identifier=f"pick-{tpl['id']}", content=ft.Container(
            ft.Row([ft.Radio(value=tpl["id"]), ft.Container(text(lang, words, 13), expand=True)],
                   vertical_alignment=ft.CrossAxisAlignment.START, spacing=2),
            on_click=lambda e, rid=tpl["id"]: pick(rid), padding=ft.Padding.only(bottom=4)))
        for tpl, words in choices], spacing=2))
    winner = seat_label(flow, flow.winner, lang)
    _page(app, t(lang, "sess_title", n=flow.deal_number), [
        text(lang, t(lang, "sess_pick_rule", who=winner, n=flow.deal_number), 15, True),
        text(lang, t(lang, "sess_pick_hint"), 13, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Semantics(identifier="sess-add-rule", button=True, content=add),  # above the long list
        group])


def proposal_screen(app: Any, flow: SessionFlow) -> None:
    """Choose what to put to this deal's vote (remove a rule in force, or restore a removed one)."""
    lang = app.lang
    words = {rid: w for rid, w, _, _ in flow.rules_in_force(lang)}
    options: list[ft.Control] = []
    for i, p in enumerate(flow.proposals(0)):
        label = t(lang, f"prop_{p.kind}", rule=words.get(p.rule_id or "", p.rule_id or ""))
        options.append(ft.Semantics(identifier=f"prop-{i}", button=True, content=ft.OutlinedButton(
            label, on_click=lambda e, p=p: vote_screen(app, flow, p),
            style=ft.ButtonStyle(alignment=ft.Alignment.CENTER_LEFT))))
    cancel = ft.TextButton(t(lang, "cancel"), on_click=lambda e: session_screen(app, flow))
    _page(app, t(lang, "sess_propose"), [text(lang, t(lang, "sess_vote_rule"), 13), *options, cancel])


def vote_screen(app: Any, flow: SessionFlow, proposal: Proposal) -> None:
    """Every person at the table says yes or no (the bots vote for themselves); then the count."""
    lang = app.lang
    people = [s for s, lv in enumerate(flow.levels) if lv == "person"]
    votes: dict[int, bool] = {s: False for s in people}
    words = {rid: w for rid, w, _, _ in flow.rules_in_force(lang)}

    def toggle(e: Any, seat: int) -> None:
        votes[seat] = bool(e.control.value)

    rows: list[ft.Control] = [ft.Semantics(identifier=f"vote-{s}", content=ft.Switch(
        label=t(lang, "sess_votes_yes", who=seat_label(flow, s, lang)), value=False,
        on_change=lambda e, s=s: toggle(e, s))) for s in people]

    def count(e: Any) -> None:
        try:
            record = flow.vote(proposal, votes)
        except VoteError as exc:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), 14)))
            return
        session_screen(app, flow, outcome(flow, record, lang))

    _page(app, t(lang, "sess_propose"), [
        text(lang, t(lang, f"prop_{proposal.kind}", rule=words.get(proposal.rule_id or "", "")), 15, True),
        text(lang, t(lang, "sess_majority", n=flow.session.players // 2 + 1, of=flow.session.players), 13,
             color=ft.Colors.ON_SURFACE_VARIANT),
        *rows,
        ft.Semantics(identifier="vote-count", button=True, content=ft.FilledButton(
            t(lang, "sess_count"), on_click=count)),
        ft.TextButton(t(lang, "cancel"), on_click=lambda e: session_screen(app, flow))])


def outcome(flow: SessionFlow, record: VoteRecord, lang: str) -> str:
    yes = sum(1 for v in record.votes.values() if v)
    line = t(lang, "vote_passed" if record.outcome == "passed" else "vote_failed", yes=yes,
             no=len(record.votes) - yes)
    if record.rps:
        score = record.rps.get("score")
        line += " " + (t(lang, "vote_rps", score="–".join(map(str, score))) if score
                       else t(lang, "vote_undefended"))
    return line
