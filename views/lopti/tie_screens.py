"""P-10 on screen: a tied rule vote settled by rock-paper-scissors between the proposer and the
defender (thrown by hand or by the app), the defender chosen among volunteers (P-10.2) and their
knockout (P-10.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from engine.lopti.rps import RpsSeries, progress
from engine.lopti.votes import Proposal, VoteError
from storage.seats import PERSON
from views.lopti.session import SessionFlow, Tie
from views.lopti.session_page import Between, author_label, outcome, page, proposal_words, seat_label
from views.ui import theme
from views.ui.i18n import t
from views.ui.reconcile import send
from views.ui.widgets import tagged, text

if TYPE_CHECKING:
    from views.host import Host


THROW_ICONS = {"rock": ft.Icons.SPORTS_MMA, "paper": ft.Icons.BACK_HAND, "scissors": ft.Icons.CONTENT_CUT}


def rps_screen(app: Host, back: Between, flow: SessionFlow, proposal: Proposal, votes: dict[int, bool],
               sides: tuple[int, int], tie: Tie | None = None, notice: str = "") -> None:
    """P-10: the tie is settled by 30 decisive throws between the proposer and the defender. A
    person throws by hand (on a shared device the second person throws without seeing the first
    throw) or lets the app throw; a bot's throws are the engine's seeded ones, so the series
    shown here is the series the engine records."""
    lang = app.lang
    series = RpsSeries(sides, {s for s in sides if flow.levels[s] == PERSON},
                       {s: flow.bot_throws(s) for s in sides if flow.levels[s] != PERSON})
    a, b = sides
    status = text(lang, "", theme.TYPE_BODY)
    score, prompt = text(lang, "", theme.TYPE_TITLE, True), text(lang, "", theme.TYPE_LEAD, True)

    def finish(e: object = None) -> None:
        # the pairs thrown so far are kept; the app throws the rest of the series for the people
        record = flow.vote(proposal, votes, hands=series.hands, tie=tie)
        back(app, flow, " ".join(x for x in (notice, outcome(flow, record, lang)) if x))

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
        send(score, status, prompt)

    buttons = ft.Row([tagged(f"rps-{c}", ft.FilledTonalButton(
        t(lang, f"rps_{c}"), icon=THROW_ICONS[c], on_click=lambda e, c=c: throw(c))) for c in THROW_ICONS],
        wrap=True, alignment=ft.MainAxisAlignment.CENTER)
    show()
    page(app, t(lang, "rps_title"), [
        text(lang, proposal_words(flow, proposal, lang), theme.TYPE_BODY),
        text(lang, t(lang, "rps_sides", a=seat_label(flow, a, lang), b=seat_label(flow, b, lang)), theme.TYPE_SMALL,
             color=theme.PAGE_MUTED),
        score, status, prompt, buttons,
        tagged("rps-auto", ft.TextButton(
            t(lang, "rps_auto"), icon=ft.Icons.CASINO, on_click=finish))], flow)


def defender_screen(app: Host, back: Between, flow: SessionFlow, proposal: Proposal, votes: dict[int, bool],
                    choices: list[int]) -> None:
    """P-10.2: the rule's author cannot defend it (they left, or they ask for the change), so its
    supporters may step forward; each person says whether they will, bots that kept the rule do.
    Nobody: the change passes. One: they face the proposer. Several: a knockout (P-10.4)."""
    lang = app.lang
    people = [s for s in choices if not flow.bot_defends(s)]
    bots = [s for s in choices if flow.bot_defends(s)]
    steps: dict[int, bool] = {s: False for s in people}

    def toggle(e: ft.Event[ft.Switch], seat: int) -> None:
        steps[seat] = bool(e.control.value)

    def go(e: object) -> None:
        volunteers = [s for s in choices if s in bots or steps.get(s)]
        if len(volunteers) > 1:
            knockout_screen(app, back, flow, proposal, votes, volunteers)
            return
        settle(app, back, flow, proposal, votes, Tie(volunteers))

    rule = next((r for r in flow.session.rules if r.id == proposal.rule_id), None)
    author = author_label(flow, rule.author if rule else None, lang)
    page(app, t(lang, "def_title"), [
        text(lang, proposal_words(flow, proposal, lang), theme.TYPE_BODY, True),
        text(lang, t(lang, "def_intro", author=author), theme.TYPE_BODY),
        *(ft.Semantics(identifier=f"defend-{s}", content=ft.Switch(
            label=t(lang, "def_volunteer", who=seat_label(flow, s, lang)), value=False,
            on_change=lambda e, s=s: toggle(e, s))) for s in people),
        *(text(lang, t(lang, "def_bot", who=seat_label(flow, s, lang)), theme.TYPE_BODY) for s in bots),
        text(lang, t(lang, "def_none"), theme.TYPE_SMALL, color=theme.PAGE_MUTED),
        tagged("defend-go", ft.FilledButton(
            t(lang, "def_go"), on_click=go))], flow)


def objector_screen(app: Host, back: Between, flow: SessionFlow, proposal: Proposal, votes: dict[int, bool],
                    choices: list[int]) -> None:
    """P-10.2: a tied change to a base rule — the proposer faces the first player who formally
    objected, so the table says who that was (the app saw only the votes at the count)."""
    lang = app.lang

    def first(seat: int) -> None:
        settle(app, back, flow, proposal, votes, Tie(first_objector=seat))

    page(app, t(lang, "obj_title"), [
        text(lang, proposal_words(flow, proposal, lang), theme.TYPE_BODY, True),
        text(lang, t(lang, "obj_intro", who=seat_label(flow, proposal.proposer, lang)), theme.TYPE_BODY),
        *(tagged(f"objector-{s}", ft.FilledTonalButton(seat_label(flow, s, lang), on_click=lambda e, s=s: first(s)))
          for s in choices)], flow)


def knockout_screen(app: Host, back: Between, flow: SessionFlow, proposal: Proposal, votes: dict[int, bool],
                    volunteers: list[int]) -> None:
    """P-10.4: several volunteers — a single-elimination knockout, one decisive throw a match. A
    person throws by hand (the others' throws stay hidden until the knockout is decided); a bot
    throws the engine's seeded throws. The engine plays the knockout from the throws made."""
    lang = app.lang
    throws: dict[int, list[str]] = {s: [] for s in volunteers if not flow.bot_defends(s)}
    prompt = text(lang, "", theme.TYPE_STRONG, True)
    made = text(lang, "", theme.TYPE_SMALL, color=theme.PAGE_MUTED)

    def advance() -> None:
        winner, seat = flow.knockout(volunteers, throws)
        if winner is not None:
            settle(app, back, flow, proposal, votes, Tie(list(volunteers), throws), notice=t(
                lang, "ko_chosen", who=seat_label(flow, winner, lang)))
            return
        prompt.value = t(lang, "ko_throw", who=seat_label(flow, seat, lang))
        made.value = t(lang, "ko_made", n=sum(len(v) for v in throws.values()))
        send(prompt, made)

    def throw(choice: str) -> None:
        _, seat = flow.knockout(volunteers, throws)
        if seat is not None:
            throws[seat].append(choice)
        advance()

    buttons = ft.Row([tagged(f"ko-{c}", ft.FilledTonalButton(
        t(lang, f"rps_{c}"), icon=THROW_ICONS[c], on_click=lambda e, c=c: throw(c))) for c in THROW_ICONS],
        wrap=True, alignment=ft.MainAxisAlignment.CENTER)
    page(app, t(lang, "ko_title"), [
        text(lang, t(lang, "ko_who", who=t(lang, "list_sep").join(seat_label(flow, s, lang) for s in volunteers)),
             theme.TYPE_BODY),
        prompt, made, buttons], flow)
    advance()


def settle(app: Host, back: Between, flow: SessionFlow, proposal: Proposal, votes: dict[int, bool], tie: Tie,
           notice: str = "") -> None:
    """The defender is known: a person on either side throws the series by hand, else the vote
    is counted at once (no defender: the change passes)."""
    lang = app.lang
    try:
        sides = flow.throwers_by_hand(proposal, votes, tie)
        if sides is not None:
            rps_screen(app, back, flow, proposal, votes, sides, tie, notice)
            return
        record = flow.vote(proposal, votes, tie=tie)
    except VoteError as exc:
        app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), theme.TYPE_BODY)))
        return
    back(app, flow, " ".join(x for x in (notice, outcome(flow, record, lang)) if x))
