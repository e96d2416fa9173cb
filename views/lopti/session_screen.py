"""The Lopti session screens: between deals, the results so far and the house rules (each described
in the player's language), the winner's rule builder, and the one rule vote per deal with its
rock-paper-scissors tie-break. Decisions come from :mod:`views.lopti.session` (the engine's
session); these functions only draw them and send the player's choices."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import flet as ft

from engine.lopti.describe import describe
from engine.lopti.dryrun import dry_run
from engine.lopti.rps import RpsSeries, progress
from engine.lopti.session_lesson import SessionLesson
from engine.lopti.votes import Proposal, VoteError, VoteRecord
from storage.seats import PERSON
from views.lopti.rule_builder import draft_editor
from views.lopti.rule_draft import RuleDraft
from views.lopti.session import SessionFlow, Tie
from views.screens.rules import rules_dialog
from views.table.lessons import Coach, next_lesson
from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import coach_panel, icon_button, text

if TYPE_CHECKING:
    from views.host import Host


def seat_label(flow: SessionFlow, seat: int | None, lang: str) -> str:
    if seat is None:
        return "—"
    if seat == 0:
        return t(lang, "you")
    if flow.levels[seat] == PERSON:
        return t(lang, "player_n", n=seat + 1)
    if seat in flow.session.absent:
        return t(lang, "seat_stand_in", n=seat + 1, level=t(lang, flow.levels[seat]))
    return t(lang, "seat_name", n=seat + 1, level=t(lang, flow.levels[seat]))


def author_label(flow: SessionFlow, seat: int | None, lang: str) -> str:
    """Who wrote a rule: a person who left the table is named as such, not by the bot in their seat."""
    if seat is not None and seat in flow.session.absent:
        return t(lang, "author_left", n=seat + 1)
    return seat_label(flow, seat, lang)


def _page(app: Host, title: str, controls: list[ft.Control], flow: SessionFlow | None = None) -> ft.Column:
    """Show a session screen: a header, a lesson's coach when ``flow`` is a practice session, then
    ``controls`` in a scrolling column (returned, so a screen can redraw its controls in place and
    keep the scroll position)."""
    lang = app.lang
    coach = [] if flow is None or flow.coach is None else [_coach(app, flow)]
    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: app.back()),
                ft.Container(text(lang, title, 20, True), expand=True),
                icon_button(ft.Icons.MENU_BOOK, t(lang, "rules"), lambda e: rules_dialog(app, "lopti", "P-8.1"))]),
        *coach,
        *controls,
    ], spacing=10, scroll=ft.ScrollMode.AUTO)
    app.show(ft.Container(body, padding=ft.Padding.all(16)))
    return body


def _coach(app: Host, flow: SessionFlow) -> ft.Control:
    """A session lesson's coach: the step the session has reached (the engine's session is the
    check), its words, the hint once asked for, and Retry / Next lesson."""
    coach = flow.coach
    assert coach is not None
    lang, lesson = app.lang, coach.lesson
    holder = ft.Container()
    following = next_lesson(lesson)

    def nxt(e: Any) -> None:
        if following is not None:
            app.go(f"/lesson/{following.id}")
        else:
            app.start_game("lopti", "beginner")

    def draw() -> None:
        n = coach.step(flow.session)
        panel = Coach(n + 1, len(lesson.steps), coach.text(flow.session, lang), "", coach.hint(flow.session, lang),
                      False, coach.finished(flow.session))
        holder.content = coach_panel(
            lang, panel, on_hint=hint, on_retry=lambda e: open_session_lesson(app, lesson), on_continue=lambda e: None,
            on_next=nxt,
            next_label=t(lang, "next_lesson") if following is not None else t(lang, "play_beginner"),
            on_learn=lambda e: app.go("/learn/lopti"))

    def hint(e: Any) -> None:
        coach.hint_shown = True
        draw()
        app.page.update()

    draw()
    return ft.Semantics(identifier="session-coach", container=True, content=holder)


def open_session_lesson(app: Host, lesson: SessionLesson) -> None:
    """A session lesson from its start: a practice table, never stored, coached on every screen."""
    session_screen(app, SessionFlow.practice(app.storage, lesson))


def _builder_page(app: Host, title: str, draft: RuleDraft, actions: ft.Control, flow: SessionFlow) -> None:
    """The rule builder's page: each choice redraws the controls *in place*, so the page keeps its
    scroll position (on a phone, a change at the bottom of the rule stays in view)."""
    def controls() -> list[ft.Control]:
        preview, *editor = draft_editor(app, draft, redraw)
        return [preview, actions, *editor]  # the sentence and its button on top; the choices follow

    def redraw() -> None:
        body.controls[first:] = controls()
        app.page.update()

    body = _page(app, title, controls(), flow)
    first = 1 if flow.coach is None else 2  # after the header (and a lesson's coach)


def session_screen(app: Host, flow: SessionFlow, notice: str = "") -> None:
    """Between deals: results, rules, the winner's rule (if a person won), the vote, the next deal."""
    lang = app.lang
    if flow.rule_pending():
        rule_builder(app, flow)
        return
    sep = t(lang, "list_sep")
    results = [text(lang, t(lang, "sess_deal", n=i + 1, places=sep.join(seat_label(flow, s, lang) for s in places)), 13)
               for i, places in enumerate(flow.session.results)]
    rules = rule_cards(app, flow)
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
    if flow.coach is not None:  # a lesson's practice table deals no further deal
        _page(app, t(lang, "sess_title", n=flow.deal_number), controls, flow)
        return
    controls.append(ft.Semantics(identifier="sess-next", button=True, content=ft.FilledButton(
        t(lang, "sess_next_deal", n=flow.deal_number + 1), icon=ft.Icons.PLAY_ARROW,
        on_click=lambda e: app.open_lopti(flow.start_deal(), flow))))

    def end(e: Any) -> None:
        flow.end()
        app.go("/")

    controls += leave_buttons(app, flow)
    if flow.session.results:
        controls.append(ft.Semantics(identifier="sess-again", button=True, content=ft.OutlinedButton(
            t(lang, "sess_again"), icon=ft.Icons.REPLAY, on_click=lambda e: carry_screen(app, flow))))

    controls.append(ft.Semantics(identifier="sess-end", button=True, content=ft.TextButton(
        t(lang, "sess_end"), icon=ft.Icons.STOP_CIRCLE_OUTLINED, on_click=end)))
    _page(app, t(lang, "sess_title", n=flow.deal_number) if flow.deal_number else t(lang, "sess_title_new"), controls,
          flow)


def leave_buttons(app: Host, flow: SessionFlow) -> list[ft.Control]:
    """A person (not the device's owner) may leave the table between deals: after a confirmation
    a Casual bot takes the seat, and the rules they wrote stay (defended by their supporters)."""
    lang = app.lang

    def ask(seat: int) -> None:
        def leave(e: Any) -> None:
            app.page.pop_dialog()
            try:
                flow.leave(seat)
            except VoteError as exc:
                app.tell(str(exc))
                return
            session_screen(app, flow, t(lang, "sess_left", who=t(lang, "player_n", n=seat + 1)))
        app.page.show_dialog(ft.AlertDialog(
            title=text(lang, t(lang, "sess_leave_confirm", who=seat_label(flow, seat, lang)), 16, True),
            content=text(lang, t(lang, "sess_leave_means"), 14),
            actions=[ft.TextButton(t(lang, "cancel"), on_click=lambda e: app.page.pop_dialog()),
                     ft.Semantics(identifier=f"leave-confirm-{seat}", button=True, content=ft.TextButton(
                         t(lang, "sess_leave", who=seat_label(flow, seat, lang)), on_click=leave))]))

    return [ft.Semantics(identifier=f"sess-leave-{s}", button=True, content=ft.TextButton(
        t(lang, "sess_leave", who=seat_label(flow, s, lang)), icon=ft.Icons.LOGOUT,
        on_click=lambda e, s=s: ask(s))) for s in flow.can_leave()]


def rule_cards(app: Host, flow: SessionFlow) -> list[ft.Control]:
    """Every rule of the session with its author and status; its author (a person) may delete it
    without a vote (P-9.4)."""
    lang = app.lang

    def delete(rule_id: str, author: int, words: str) -> None:
        try:
            flow.delete_rule(rule_id, author)
        except VoteError as exc:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), 14)))
            return
        session_screen(app, flow, t(lang, "sess_deleted", rule=words))

    rules: list[ft.Control] = []
    for rid, words, author, in_force in flow.rules_in_force(lang):
        lines: list[ft.Control] = [
            text(lang, words, 14, color=None if in_force else ft.Colors.ON_SURFACE_VARIANT),
            text(lang, t(lang, "sess_rule_by", who=author_label(flow, author, lang)) +
                 ("" if in_force else " · " + t(lang, "sess_removed")), 12, color=ft.Colors.ON_SURFACE_VARIANT)]
        if author is not None and rid in flow.deletable(author):  # P-9.4: no vote needed
            lines.append(ft.Semantics(identifier=f"sess-delete-{rid}", button=True, content=ft.TextButton(
                t(lang, "sess_delete", who=seat_label(flow, author, lang)), icon=ft.Icons.DELETE_OUTLINE,
                on_click=lambda e, rid=rid, a=author, w=words: delete(rid, a, w))))
        rules.append(ft.Semantics(identifier=f"sess-rule-{rid}", content=ft.Card(content=ft.Container(
            padding=10, content=ft.Column(lines, spacing=2)))))
    return rules


def carry_screen(app: Host, flow: SessionFlow) -> None:
    """P-11: the next session at this table starts with base rules; each old rule in force comes
    back only if more than half of the table votes to keep it (the bots keep only their own)."""
    lang = app.lang
    people = [s for s, lv in enumerate(flow.levels) if lv == PERSON]
    keep: dict[str, dict[int, bool]] = {}

    def start(e: Any) -> None:
        new = flow.next_session(app.new_seed(), keep)
        session_screen(app, new, t(lang, "carry_kept", n=len(new.session.rules)))

    rows: list[ft.Control] = []
    for rid, words, author, in_force in flow.rules_in_force(lang):
        if not in_force:
            continue
        keep[rid] = {}
        switches: list[ft.Control] = []
        for seat in people:
            def flip(e: Any, rid: str = rid, seat: int = seat) -> None:
                keep[rid][seat] = bool(e.control.value)
            switches.append(ft.Semantics(identifier=f"keep-{rid}-{seat}", content=ft.Switch(
                label=t(lang, "carry_keep", who=seat_label(flow, seat, lang)), value=False, on_change=flip)))
        rows.append(ft.Card(content=ft.Container(padding=10, content=ft.Column([
            text(lang, words, 14),
            text(lang, t(lang, "sess_rule_by", who=seat_label(flow, author, lang)), 12,
                 color=ft.Colors.ON_SURFACE_VARIANT), *switches], spacing=4))))
    _page(app, t(lang, "sess_again"), [
        text(lang, t(lang, "carry_hint", n=flow.session.players // 2 + 1, of=flow.session.players), 13),
        *(rows or [text(lang, t(lang, "sess_no_rules"), 13)]),
        ft.Semantics(identifier="carry-start", button=True, content=ft.FilledButton(
            t(lang, "carry_start"), icon=ft.Icons.PLAY_ARROW, on_click=start)),
        ft.TextButton(t(lang, "cancel"), on_click=lambda e: session_screen(app, flow))], flow)


def rule_builder(app: Host, flow: SessionFlow) -> None:
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
    own = ft.Semantics(identifier="rb-own", button=True, content=ft.OutlinedButton(
        t(lang, "rb_own"), icon=ft.Icons.EDIT_NOTE, on_click=lambda e: own_rule_screen(app, flow)))
    _page(app, t(lang, "sess_title", n=flow.deal_number), [
        text(lang, t(lang, "sess_pick_rule", who=winner, n=flow.deal_number), 15, True),
        text(lang, t(lang, "sess_pick_hint"), 13, color=ft.Colors.ON_SURFACE_VARIANT),
        own,
        text(lang, t(lang, "rb_or_pick"), 13, True),
        ft.Semantics(identifier="sess-add-rule", button=True, content=add),  # above the long list
        group], flow)


def own_rule_screen(app: Host, flow: SessionFlow) -> None:
    """The winner writes a rule from scratch: when → if → then, read back as it is built."""
    lang = app.lang
    draft = RuleDraft()

    def done(e: Any) -> None:
        problems = draft.problems()
        if problems:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, "\n".join(problems), 14)))
            return
        try:
            rule = flow.add_own_rule(draft)
        except VoteError as exc:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), 14)))
            return
        session_screen(app, flow, t(lang, "sess_rule_added", rule=describe(rule, lang)))

    _builder_page(app, t(lang, "rb_title"), draft, flow=flow, actions=ft.Column([ft.Row([
        ft.Semantics(identifier="rb-done", button=True, content=ft.FilledButton(
            t(lang, "sess_add_rule"), icon=ft.Icons.CHECK, on_click=done)),
        ft.TextButton(t(lang, "rb_back_to_list"), on_click=lambda e: rule_builder(app, flow))], wrap=True),
        dry_run_row(app, draft)], spacing=4))


def dry_run_row(app: Host, draft: RuleDraft) -> ft.Control:
    """House-rules guarantee 8: the engine's dry run of the rule being built — 200 simulated deals
    with and without it, off the UI's loop — before it is saved."""
    lang = app.lang
    result = text(lang, "", 13)

    async def run(e: Any) -> None:
        problems = draft.problems()
        if problems:
            result.value, result.color = "\n".join(problems), theme.PAGE_ERROR
            app.page.update()
            return
        result.value, result.color = t(lang, "rb_dry_running"), None
        app.page.update()
        report = await asyncio.to_thread(dry_run, draft.to_rule("dry-run"), 200)
        change = report.mean_turns / report.base_mean_turns - 1 if report.base_mean_turns else 0.0
        words = t(lang, "rb_dry_result", deals=report.deals, players=report.players, turns=f"{report.mean_turns:.0f}",
                  change=f"{change:+.0%}", base=f"{report.base_mean_turns:.0f}", fires=f"{report.rule_fires:.1f}",
                  caps=report.cap_hits)
        if report.flagged:
            words += " " + t(lang, "rb_dry_flag", why=report.reason)
        result.value, result.color = words, theme.PAGE_ERROR if report.flagged else None
        app.page.update()

    return ft.Column([ft.Semantics(identifier="rb-dry-run", button=True, content=ft.OutlinedButton(
        t(lang, "rb_dry_run"), icon=ft.Icons.SCIENCE, on_click=run)),
        ft.Semantics(identifier="rb-dry-result", content=result)], spacing=4)


def proposal_screen(app: Host, flow: SessionFlow, proposer: int = 0) -> None:
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
        chooser.on_select = lambda e: proposal_screen(app, flow, int(e.control.value or proposer))
        who.append(ft.Semantics(identifier="proposer", content=chooser))
    options: list[ft.Control] = []
    for i, p in enumerate(flow.proposals(proposer)):
        label = t(lang, f"prop_{p.kind}", rule=words.get(p.rule_id or "", p.rule_id or ""))
        pick = ((lambda e, p=p: modify_screen(app, flow, p)) if p.kind == "modify"
                else (lambda e, p=p: vote_screen(app, flow, p)))
        options.append(ft.Semantics(identifier=f"prop-{i}", button=True, content=ft.OutlinedButton(
            label, on_click=pick, style=ft.ButtonStyle(alignment=ft.Alignment.CENTER_LEFT))))
    params: list[ft.Control] = []
    chosen: dict[str, int] = {}
    for name, now, choices in flow.params():
        def put(e: Any, name: str = name) -> None:
            value = chosen.get(name)
            if value is not None:
                vote_screen(app, flow, Proposal("param", proposer, param=name, value=value))
        dd = ft.Dropdown(label=t(lang, "param_" + name, v=now), dense=True,
                         options=[ft.DropdownOption(key=str(v), text=t(lang, "param_" + name, v=v)) for v in choices])

        def picked(e: Any, name: str = name) -> None:
            if e.control.value is not None:
                chosen[name] = int(e.control.value)
        dd.on_select = picked
        vote = ft.Semantics(identifier=f"param-{name}-vote", button=True,
                            content=ft.OutlinedButton(t(lang, "param_vote"), on_click=put))
        # the dropdown gets the whole width (its sentences are long on a phone), its button below
        params.append(ft.Column([ft.Semantics(identifier=f"param-{name}", content=dd),
                                 ft.Row([vote], alignment=ft.MainAxisAlignment.END)],
                                spacing=4, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
    cancel = ft.TextButton(t(lang, "cancel"), on_click=lambda e: session_screen(app, flow))
    _page(app, t(lang, "sess_propose"), [
        *who, text(lang, t(lang, "sess_vote_rule"), 13), *options,
        text(lang, t(lang, "param_title"), 15, True), text(lang, t(lang, "param_hint"), 13), *params, cancel], flow)


def modify_screen(app: Host, flow: SessionFlow, proposal: Proposal) -> None:
    """A change to a rule in force, written in the builder from the rule as it stands."""
    lang = app.lang
    draft = RuleDraft.from_rule(proposal.new_rule or {})

    def done(e: Any) -> None:
        changed = Proposal("modify", proposal.proposer, rule_id=proposal.rule_id,
                           new_rule=draft.to_rule(proposal.rule_id or "draft"))
        try:
            flow.check(changed)
        except VoteError as exc:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), 14)))
            return
        vote_screen(app, flow, changed)

    _builder_page(app, t(lang, "sess_propose"), draft, flow=flow, actions=ft.Row([
        ft.Semantics(identifier="rb-done", button=True, content=ft.FilledButton(
            t(lang, "rb_propose"), icon=ft.Icons.HOW_TO_VOTE, on_click=done)),
        ft.TextButton(t(lang, "cancel"), on_click=lambda e: proposal_screen(app, flow))], wrap=True))


def proposal_words(flow: SessionFlow, proposal: Proposal, lang: str) -> str:
    """The proposal as one line: what changes, in the player's language."""
    words = {rid: w for rid, w, _, _ in flow.rules_in_force(lang)}
    if proposal.kind == "param":
        return t(lang, "prop_param", change=t(lang, f"param_{proposal.param}", v=proposal.value))
    if proposal.kind == "modify" and proposal.new_rule is not None:
        return t(lang, "prop_modify_to", rule=words.get(proposal.rule_id or "", ""),
                 new=describe({**proposal.new_rule, "id": proposal.rule_id or "draft"}, lang))
    return t(lang, f"prop_{proposal.kind}", rule=words.get(proposal.rule_id or "", ""))


def vote_screen(app: Host, flow: SessionFlow, proposal: Proposal) -> None:
    """The table states when the change applies (P-9.6), every person says yes or no (the bots
    vote for themselves), then the count; a tie in which a person throws goes to their RPS."""
    lang = app.lang
    people = [s for s, lv in enumerate(flow.levels) if lv == PERSON]
    votes: dict[int, bool] = {s: False for s in people}
    chosen = {"when": proposal.when}

    def toggle(e: Any, seat: int) -> None:
        votes[seat] = bool(e.control.value)

    rows: list[ft.Control] = [ft.Semantics(identifier=f"vote-{s}", content=ft.Switch(
        label=t(lang, "sess_votes_yes", who=seat_label(flow, s, lang)), value=False,
        on_change=lambda e, s=s: toggle(e, s))) for s in people]
    n = flow.deal_number + 1  # the next deal to be played
    when = ft.RadioGroup(value=chosen["when"], content=ft.Column([
        ft.Semantics(identifier="when-now", content=ft.Radio(value="now", label=t(lang, "when_now", n=n))),
        ft.Semantics(identifier="when-next", content=ft.Radio(value="next_deal", label=t(lang, "when_next", n=n + 1))),
    ], spacing=0))

    def set_when(e: Any) -> None:
        chosen["when"] = str(e.control.value or "next_deal")
    when.on_change = set_when

    def count(e: Any) -> None:
        final = replace(proposal, when=chosen["when"])
        try:
            flow.check(final)
            choices = flow.defender_choices(final, votes)
            if choices:
                defender_screen(app, flow, final, dict(votes), choices)
                return
            sides = flow.throwers_by_hand(final, votes)
            if sides is not None:
                rps_screen(app, flow, final, dict(votes), sides)
                return
            record = flow.vote(final, votes)
        except VoteError as exc:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), 14)))
            return
        session_screen(app, flow, outcome(flow, record, lang))

    _page(app, t(lang, "sess_propose"), [
        text(lang, proposal_words(flow, proposal, lang), 15, True),
        text(lang, t(lang, "when_title"), 13, True), when,
        text(lang, t(lang, "sess_majority", n=flow.session.players // 2 + 1, of=flow.session.players), 13,
             color=ft.Colors.ON_SURFACE_VARIANT),
        *rows,
        ft.Semantics(identifier="vote-count", button=True, content=ft.FilledButton(
            t(lang, "sess_count"), on_click=count)),
        ft.TextButton(t(lang, "cancel"), on_click=lambda e: session_screen(app, flow))], flow)


THROW_ICONS = {"rock": ft.Icons.SPORTS_MMA, "paper": ft.Icons.BACK_HAND, "scissors": ft.Icons.CONTENT_CUT}


def rps_screen(app: Host, flow: SessionFlow, proposal: Proposal, votes: dict[int, bool],
               sides: tuple[int, int], tie: Tie | None = None, notice: str = "") -> None:
    """P-10: the tie is settled by 30 decisive throws between the proposer and the defender. A
    person throws by hand (on a shared device the second person throws without seeing the first
    throw) or lets the app throw; a bot's throws are the engine's seeded ones, so the series
    shown here is the series the engine records."""
    lang = app.lang
    series = RpsSeries(sides, {s for s in sides if flow.levels[s] == PERSON},
                       {s: flow.bot_throws(s) for s in sides if flow.levels[s] != PERSON})
    a, b = sides
    status, score, prompt = text(lang, "", 14), text(lang, "", 20, True), text(lang, "", 15, True)

    def finish(e: Any = None) -> None:
        # the pairs thrown so far are kept; the app throws the rest of the series for the people
        record = flow.vote(proposal, votes, hands=series.hands, tie=tie)
        session_screen(app, flow, " ".join(x for x in (notice, outcome(flow, record, lang)) if x))

    def show() -> None:
        (sa, sb), _ = progress(series.pairs)
        score.value = f"{seat_label(flow, a, lang)} {sa} – {sb} {seat_label(flow, b, lang)}"
        if series.pairs:
            ta, tb = series.pairs[-1]
            status.value = t(lang, "rps_last", a=seat_label(flow, a, lang), ta=t(lang, f"rps_{ta}"),
                             b=seat_label(flow, b, lang), tb=t(lang, f"rps_{tb}"))
        prompt.value = t(lang, "rps_your_throw", who=seat_label(flow, series.thrower(), lang))

    def throw(choice: str) -> None:
        result = series.throw(choice)
        if result == "done":
            finish()
            return
        if result == "hidden":
            status.value = t(lang, "rps_hidden", who=seat_label(flow, next(iter(series.pending)), lang))
            prompt.value = t(lang, "rps_your_throw", who=seat_label(flow, series.thrower(), lang))
        else:
            show()
        app.page.update()

    buttons = ft.Row([ft.Semantics(identifier=f"rps-{c}", button=True, content=ft.FilledTonalButton(
        t(lang, f"rps_{c}"), icon=THROW_ICONS[c], on_click=lambda e, c=c: throw(c))) for c in THROW_ICONS],
        wrap=True, alignment=ft.MainAxisAlignment.CENTER)
    show()
    _page(app, t(lang, "rps_title"), [
        text(lang, proposal_words(flow, proposal, lang), 14),
        text(lang, t(lang, "rps_sides", a=seat_label(flow, a, lang), b=seat_label(flow, b, lang)), 13,
             color=ft.Colors.ON_SURFACE_VARIANT),
        score, status, prompt, buttons,
        ft.Semantics(identifier="rps-auto", button=True, content=ft.TextButton(
            t(lang, "rps_auto"), icon=ft.Icons.CASINO, on_click=finish))], flow)


def defender_screen(app: Host, flow: SessionFlow, proposal: Proposal, votes: dict[int, bool],
                    choices: list[int]) -> None:
    """P-10.2: the rule's author cannot defend it (they left, or they ask for the change), so its
    supporters may step forward; each person says whether they will, bots that kept the rule do.
    Nobody: the change passes. One: they face the proposer. Several: a knockout (P-10.4)."""
    lang = app.lang
    people = [s for s in choices if not flow.bot_defends(s)]
    bots = [s for s in choices if flow.bot_defends(s)]
    steps: dict[int, bool] = {s: False for s in people}

    def toggle(e: Any, seat: int) -> None:
        steps[seat] = bool(e.control.value)

    def go(e: Any) -> None:
        volunteers = [s for s in choices if s in bots or steps.get(s)]
        if len(volunteers) > 1:
            knockout_screen(app, flow, proposal, votes, volunteers)
            return
        settle(app, flow, proposal, votes, Tie(volunteers))

    rule = next((r for r in flow.session.rules if r.id == proposal.rule_id), None)
    author = author_label(flow, rule.author if rule else None, lang)
    _page(app, t(lang, "def_title"), [
        text(lang, proposal_words(flow, proposal, lang), 14, True),
        text(lang, t(lang, "def_intro", author=author), 14),
        *(ft.Semantics(identifier=f"defend-{s}", content=ft.Switch(
            label=t(lang, "def_volunteer", who=seat_label(flow, s, lang)), value=False,
            on_change=lambda e, s=s: toggle(e, s))) for s in people),
        *(text(lang, t(lang, "def_bot", who=seat_label(flow, s, lang)), 14) for s in bots),
        text(lang, t(lang, "def_none"), 13, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Semantics(identifier="defend-go", button=True, content=ft.FilledButton(
            t(lang, "def_go"), on_click=go))], flow)


def knockout_screen(app: Host, flow: SessionFlow, proposal: Proposal, votes: dict[int, bool],
                    volunteers: list[int]) -> None:
    """P-10.4: several volunteers — a single-elimination knockout, one decisive throw a match. A
    person throws by hand (the others' throws stay hidden until the knockout is decided); a bot
    throws the engine's seeded throws. The engine plays the knockout from the throws made."""
    lang = app.lang
    throws: dict[int, list[str]] = {s: [] for s in volunteers if not flow.bot_defends(s)}
    prompt = text(lang, "", 16, True)
    made = text(lang, "", 13, color=ft.Colors.ON_SURFACE_VARIANT)

    def advance() -> None:
        winner, seat = flow.knockout(volunteers, throws)
        if winner is not None:
            settle(app, flow, proposal, votes, Tie(list(volunteers), throws), notice=t(
                lang, "ko_chosen", who=seat_label(flow, winner, lang)))
            return
        prompt.value = t(lang, "ko_throw", who=seat_label(flow, seat, lang))
        made.value = t(lang, "ko_made", n=sum(len(v) for v in throws.values()))
        app.page.update()

    def throw(choice: str) -> None:
        _, seat = flow.knockout(volunteers, throws)
        if seat is not None:
            throws[seat].append(choice)
        advance()

    buttons = ft.Row([ft.Semantics(identifier=f"ko-{c}", button=True, content=ft.FilledTonalButton(
        t(lang, f"rps_{c}"), icon=THROW_ICONS[c], on_click=lambda e, c=c: throw(c))) for c in THROW_ICONS],
        wrap=True, alignment=ft.MainAxisAlignment.CENTER)
    _page(app, t(lang, "ko_title"), [
        text(lang, t(lang, "ko_who", who=t(lang, "list_sep").join(seat_label(flow, s, lang) for s in volunteers)), 14),
        prompt, made, buttons], flow)
    advance()


def settle(app: Host, flow: SessionFlow, proposal: Proposal, votes: dict[int, bool], tie: Tie,
           notice: str = "") -> None:
    """The defender is known: a person on either side throws the series by hand, else the vote
    is counted at once (no defender: the change passes)."""
    lang = app.lang
    try:
        sides = flow.throwers_by_hand(proposal, votes, tie)
        if sides is not None:
            rps_screen(app, flow, proposal, votes, sides, tie, notice)
            return
        record = flow.vote(proposal, votes, tie=tie)
    except VoteError as exc:
        app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), 14)))
        return
    session_screen(app, flow, " ".join(x for x in (notice, outcome(flow, record, lang)) if x))


def outcome(flow: SessionFlow, record: VoteRecord, lang: str) -> str:
    yes = sum(1 for v in record.votes.values() if v)
    line = t(lang, "vote_passed" if record.outcome == "passed" else "vote_failed", yes=yes,
             no=len(record.votes) - yes)
    if record.rps:
        score = record.rps.get("score")
        line += " " + (t(lang, "vote_rps", score="–".join(map(str, score))) if score
                       else t(lang, "vote_undefended"))
    return line
