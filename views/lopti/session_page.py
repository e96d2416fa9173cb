"""What the Lopti session screens share: the seats' and authors' names, the words of a proposal and
of a vote's outcome, and the page each screen is drawn on (with a session lesson's coach).

The screens under the one between deals (views/lopti/session_screen.py) go back to it through a
`Between` callback it gives them, so none of them imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from engine.lopti.describe import describe
from engine.lopti.house_rules import BaseParams
from engine.lopti.table_rules import MAX_CHARS
from engine.lopti.votes import Proposal, VoteRecord
from storage.seats import PERSON
from views.lopti.rule_builder import draft_editor
from views.lopti.rule_draft import RuleDraft
from views.lopti.session import SessionFlow
from views.screens.rules import rules_dialog
from views.table.lessons import Coach, next_lesson
from views.ui import theme
from views.ui.i18n import t
from views.ui.reconcile import send
from views.ui.widgets import coach_panel, icon_button, pad, text

if TYPE_CHECKING:
    from views.host import Host

#: back to the screen between deals, with a notice ("" for none)
Between = Callable[["Host", SessionFlow, str], None]


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


def proposal_words(flow: SessionFlow, proposal: Proposal, lang: str) -> str:
    """The proposal as one line: what changes, in the player's language."""
    words = {rid: w for rid, w, _, _ in flow.rules_in_force(lang)}
    if proposal.kind == "param":
        name, value = proposal.param or "", proposal.value or 0
        return t(lang, "prop_param", change=t(lang, f"param_{name}", v=BaseParams.label(name, value)))
    if proposal.kind == "modify" and proposal.new_rule is not None:
        return t(lang, "prop_modify_to", rule=words.get(proposal.rule_id or "", ""),
                 new=describe({**proposal.new_rule, "id": proposal.rule_id or "draft"}, lang))
    return t(lang, f"prop_{proposal.kind}", rule=words.get(proposal.rule_id or "", ""))


def outcome(flow: SessionFlow, record: VoteRecord, lang: str) -> str:
    yes = sum(1 for v in record.votes.values() if v)
    line = t(lang, "vote_passed" if record.outcome == "passed" else "vote_failed", yes=yes,
             no=len(record.votes) - yes)
    if record.rps:
        score = record.rps.get("score")
        line += " " + (t(lang, "vote_rps", score="–".join(map(str, score))) if score
                       else t(lang, "vote_undefended"))
    return line


def page(app: Host, title: str, controls: list[ft.Control], flow: SessionFlow | None = None) -> ft.Column:
    """Show a session screen: a header, a lesson's coach when ``flow`` is a practice session, then
    ``controls`` in a scrolling column (returned, so a screen can redraw its controls in place and
    keep the scroll position)."""
    lang = app.lang
    coach = [] if flow is None or flow.coach is None else [lesson_coach(app, flow)]
    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: app.back()),
                ft.Container(text(lang, title, theme.TYPE_TITLE, True), expand=True),
                icon_button(ft.Icons.MENU_BOOK, t(lang, "rules"), lambda e: rules_dialog(app, "lopti", "P-8.1"))]),
        *coach,
        *controls,
    ], spacing=theme.SPACE_LOOSE, scroll=ft.ScrollMode.AUTO)
    app.show(ft.Container(body, padding=pad(theme.SPACE_WIDE)))
    return body


def lesson_coach(app: Host, flow: SessionFlow) -> ft.Control:
    """A session lesson's coach: the step the session has reached (the engine's session is the
    check), its words, the hint once asked for, and Retry / Next lesson."""
    coach = flow.coach
    assert coach is not None
    lang, lesson = app.lang, coach.lesson
    holder = ft.Container()
    following = next_lesson(lesson)

    def nxt(e: object) -> None:
        if following is not None:
            app.go(f"/lesson/{following.id}")
        else:
            app.start_game("lopti", "beginner")

    def draw() -> None:
        n = coach.step(flow.session)
        panel = Coach(n + 1, len(lesson.steps), coach.text(flow.session, lang), "", coach.hint(flow.session, lang),
                      False, coach.finished(flow.session))
        holder.content = coach_panel(
            lang, panel, on_hint=hint, on_retry=lambda e: app.go(f"/lesson/{lesson.id}"), on_continue=lambda e: None,
            on_next=nxt,
            next_label=t(lang, "next_lesson") if following is not None else t(lang, "play_beginner"),
            on_learn=lambda e: app.go("/learn/lopti"))

    def hint(e: object) -> None:
        coach.hint_shown = True
        draw()
        send(holder)

    draw()
    return ft.Semantics(identifier="session-coach", container=True, content=holder)


def builder_page(app: Host, title: str, draft: RuleDraft, actions: ft.Control, flow: SessionFlow) -> None:
    """The rule builder's page: each choice redraws the controls *in place*, so the page keeps its
    scroll position (on a phone, a change at the bottom of the rule stays in view)."""
    def controls() -> list[ft.Control]:
        preview, *editor = draft_editor(app, draft, redraw)
        return [preview, actions, *editor]  # the sentence and its button on top; the choices follow

    def redraw() -> None:
        body.controls[first:] = controls()
        send(body)

    body = page(app, title, controls(), flow)
    first = 1 if flow.coach is None else 2  # after the header (and a lesson's coach)


def words_field(lang: str, value: str = "") -> ft.TextField:
    """Where a table rule's words are written: a few lines, as long as the engine keeps (P-13)."""
    return ft.TextField(label=t(lang, "tr_label"), value=value, multiline=True, min_lines=2, max_lines=5,
                        max_length=MAX_CHARS)


def words_page(app: Host, title: str, field: ft.TextField, flow: SessionFlow, actions: list[ft.Control]) -> None:
    """A table rule's words being written (a winner's rule, or a change put to the vote): what
    such a rule is, the words, the actions."""
    lang = app.lang
    page(app, title, [text(lang, t(lang, "tr_means"), theme.TYPE_SMALL),
                      ft.Semantics(identifier="tr-words", content=field), ft.Row(actions, wrap=True)], flow)
