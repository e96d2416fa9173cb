"""The one rule vote per deal on screen (P-9): a proposal (remove, restore, modify a rule, or change a
base rule for the session), the people's votes, and the tie-break it may need.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import flet as ft

from engine.core import Why
from engine.lopti.house_rules import BaseParams
from engine.lopti.table_rules import is_table_rule
from engine.lopti.votes import Proposal, VoteError, votes_to_pass
from storage.seats import PERSON
from views.lopti.rule_draft import RuleDraft
from views.lopti.session import SessionFlow
from views.lopti.session_page import (
    Between,
    builder_page,
    outcome,
    page,
    proposal_words,
    seat_label,
    words_field,
    words_page,
)
from views.lopti.tie_screens import defender_screen, objector_screen, rps_screen
from views.ui import theme
from views.ui.i18n import counted, t, why_text
from views.ui.reconcile import send
from views.ui.widgets import tagged, text

if TYPE_CHECKING:
    from views.host import Host


def proposal_screen(app: Host, back: Between, flow: SessionFlow, proposer: int = 0) -> None:
    """Choose what to put to this deal's vote: remove or change a rule in force, restore a removed
    one, or change a base rule for the session (P-9.1). Any person at the table may propose: with
    several, the first choice is who does (it matters in a tie, P-10.2)."""
    lang = app.lang
    words = {rid: w for rid, w, _, _ in flow.rules_in_force(lang)}
    people = [s for s, lv in enumerate(flow.levels) if lv == PERSON]
    who: list[ft.Control] = []
    if len(people) > 1:
        chooser = ft.Dropdown(label=t(lang, "sess_proposer"), value=str(proposer), dense=True, options=[
            ft.DropdownOption(key=str(s), text=seat_label(flow, s, lang)) for s in people])
        chooser.on_select = lambda e: proposal_screen(app, back, flow, int(e.control.value or proposer))
        who.append(ft.Semantics(identifier="proposer", content=chooser))
    options: list[ft.Control] = []
    for i, p in enumerate(flow.proposals(proposer)):
        label = t(lang, f"prop_{p.kind}", rule=words.get(p.rule_id or "", p.rule_id or ""))
        pick = ((lambda e, p=p: modify_screen(app, back, flow, p)) if p.kind == "modify"
                else (lambda e, p=p: vote_screen(app, back, flow, p)))
        options.append(tagged(f"prop-{i}", ft.OutlinedButton(
            label, on_click=pick, style=ft.ButtonStyle(alignment=ft.Alignment.CENTER_LEFT))))
    params = [param_choice(app, back, flow, proposer, *choice) for choice in flow.params()]
    cancel = ft.TextButton(t(lang, "cancel"), on_click=lambda e: back(app, flow, ""))
    page(app, t(lang, "sess_propose"), [
        *who, text(lang, t(lang, "sess_vote_rule"), theme.TYPE_SMALL), *options,
        text(lang, t(lang, "param_title"), theme.TYPE_LEAD, True), text(lang, t(lang, "param_hint"),
                                                                        theme.TYPE_SMALL), *params, cancel], flow)


def param_choice(app: Host, back: Between, flow: SessionFlow, proposer: int, name: str, now: int,
                 choices: list[tuple[int, Why | None]]) -> ft.Control:
    """One base rule's values (P-9.1), as the engine lists them: a value it refuses beside the
    other base rules in force (two special jobs for one rank, more cards than the deck) says why
    where the vote button was, and cannot be put to the vote."""
    lang = app.lang
    refused = dict(choices)
    why = text(lang, "", theme.TYPE_SMALL, color=theme.PAGE_MUTED)
    said = tagged(f"param-{name}-why", why, visible=False)  # a hidden Semantics must hide whole

    def put(e: object) -> None:
        if dd.value is not None and refused.get(int(dd.value)) is None:
            vote_screen(app, back, flow, Proposal("param", proposer, param=name, value=int(dd.value)))

    def picked(e: object) -> None:
        problem = refused.get(int(dd.value)) if dd.value is not None else None
        why.value = why_text(lang, problem) if problem is not None else ""
        said.visible = vote.disabled = problem is not None
        send(said, vote)

    dd = ft.Dropdown(label=t(lang, "param_" + name, v=BaseParams.label(name, now)), dense=True, expand=True,
                     on_select=picked,
                     options=[ft.DropdownOption(key=str(v), text=t(lang, "param_" + name, v=BaseParams.label(name, v)))
                              for v, _ in choices])
    vote = ft.OutlinedButton(t(lang, "param_vote"), on_click=put)
    # the dropdown gets the whole width (its sentences are long on a phone), its button below
    return ft.Column([ft.Semantics(identifier=f"param-{name}", content=dd), said,
                      ft.Row([tagged(f"param-{name}-vote", vote)], alignment=ft.MainAxisAlignment.END)],
                     spacing=theme.SPACE_TIGHT, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def modify_screen(app: Host, back: Between, flow: SessionFlow, proposal: Proposal) -> None:
    """A change to a rule in force, written in the builder from the rule as it stands (a table
    rule: in other words)."""
    lang = app.lang
    if is_table_rule(proposal.new_rule):
        reword_screen(app, back, flow, proposal)
        return
    draft = RuleDraft.from_rule(proposal.new_rule or {})

    def done(e: object) -> None:
        propose_change(app, back, flow, Proposal("modify", proposal.proposer, rule_id=proposal.rule_id,
                                                 new_rule=draft.to_rule(proposal.rule_id or "draft")))

    builder_page(app, t(lang, "sess_propose"), draft, flow=flow, actions=ft.Row([
        tagged("rb-done", ft.FilledButton(
            t(lang, "rb_propose"), icon=ft.Icons.HOW_TO_VOTE, on_click=done)),
        ft.TextButton(t(lang, "cancel"), on_click=lambda e: proposal_screen(app, back, flow))], wrap=True))


def reword_screen(app: Host, back: Between, flow: SessionFlow, proposal: Proposal) -> None:
    """A change to a table rule: its words rewritten, then put to the vote like any change."""
    lang = app.lang
    field = words_field(lang, str((proposal.new_rule or {}).get("table", "")))

    def done(e: object) -> None:
        propose_change(app, back, flow, Proposal("modify", proposal.proposer, rule_id=proposal.rule_id,
                                                 new_rule={"table": field.value or ""}))

    words_page(app, t(lang, "sess_propose"), field, flow, [
        tagged("rb-done", ft.FilledButton(t(lang, "rb_propose"), icon=ft.Icons.HOW_TO_VOTE, on_click=done)),
        ft.TextButton(t(lang, "cancel"), on_click=lambda e: proposal_screen(app, back, flow))])


def propose_change(app: Host, back: Between, flow: SessionFlow, changed: Proposal) -> None:
    """A changed rule goes to the vote once the engine accepts it; a refusal is said, nothing moves."""
    try:
        flow.check(changed)
    except VoteError as exc:
        app.page.show_dialog(ft.AlertDialog(title=text(app.lang, str(exc), theme.TYPE_BODY)))
        return
    vote_screen(app, back, flow, changed)


def vote_screen(app: Host, back: Between, flow: SessionFlow, proposal: Proposal) -> None:
    """The table states when the change applies (P-9.6), every person says yes or no (the bots
    vote for themselves), then the count; a tie in which a person throws goes to their RPS."""
    lang = app.lang
    people = [s for s, lv in enumerate(flow.levels) if lv == PERSON]
    votes: dict[int, bool] = {s: False for s in people}
    chosen = {"when": proposal.when}

    def toggle(e: ft.Event[ft.Switch], seat: int) -> None:
        votes[seat] = bool(e.control.value)

    rows: list[ft.Control] = [ft.Semantics(identifier=f"vote-{s}", content=ft.Switch(
        label=t(lang, "sess_votes_yes", who=seat_label(flow, s, lang)), value=False,
        on_change=lambda e, s=s: toggle(e, s))) for s in people]
    n = flow.deal_number + 1  # the next deal to be played
    when = ft.RadioGroup(value=chosen["when"], content=ft.Column([
        ft.Semantics(identifier="when-now", content=ft.Radio(value="now", label=t(lang, "when_now", n=n))),
        ft.Semantics(identifier="when-next", content=ft.Radio(value="next_deal", label=t(lang, "when_next", n=n + 1))),
    ], spacing=theme.SPACE_NONE))

    def set_when(e: ft.Event[ft.RadioGroup]) -> None:
        chosen["when"] = str(e.control.value or "next_deal")
    when.on_change = set_when

    def count(e: object) -> None:
        final = replace(proposal, when=chosen["when"])
        try:
            flow.check(final)
            choices = flow.defender_choices(final, votes)
            if choices:
                defender_screen(app, back, flow, final, dict(votes), choices)
                return
            objectors = flow.objector_choices(final, votes)
            if objectors:
                objector_screen(app, back, flow, final, dict(votes), objectors)
                return
            sides = flow.throwers_by_hand(final, votes)
            if sides is not None:
                rps_screen(app, back, flow, final, dict(votes), sides)
                return
            record = flow.vote(final, votes)
        except VoteError as exc:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), theme.TYPE_BODY)))
            return
        back(app, flow, outcome(flow, record, lang))

    need = votes_to_pass(flow.session.players)  # P-9.2, as the engine counts it
    page(app, t(lang, "sess_propose"), [
        text(lang, proposal_words(flow, proposal, lang), theme.TYPE_LEAD, True),
        text(lang, t(lang, "when_title"), theme.TYPE_SMALL, True), when,
        text(lang, t(lang, counted("sess_majority", need), n=need, of=flow.session.players), theme.TYPE_SMALL,
             color=theme.PAGE_MUTED),
        *rows,
        tagged("vote-count", ft.FilledButton(
            t(lang, "sess_count"), on_click=count)),
        ft.TextButton(t(lang, "cancel"), on_click=lambda e: back(app, flow, ""))], flow)
