"""The winner's rule on screen (P-8): pick one from the list or write one with the builder, with the
engine's dry run before saving.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import flet as ft

from engine.lopti.describe import describe
from engine.lopti.dryrun import dry_run
from engine.lopti.votes import VoteError
from views.lopti.rule_draft import RuleDraft
from views.lopti.session import SessionFlow
from views.lopti.session_page import Between, builder_page, page, seat_label, words_field, words_page
from views.ui import theme
from views.ui.i18n import t
from views.ui.reconcile import send
from views.ui.widgets import tagged, text

if TYPE_CHECKING:
    from views.host import Host


def rule_builder(app: Host, back: Between, flow: SessionFlow) -> None:
    """P-8.1: the winner of the last deal (a person) adds one rule; it applies from the next deal."""
    lang = app.lang
    choices = flow.rule_choices(lang)
    picked: dict[str, Any] = {}
    add = ft.FilledButton(t(lang, "sess_add_rule"), disabled=True)

    def confirm(e: object) -> None:
        if "rule" not in picked:
            return
        try:
            flow.add_rule(picked["rule"])
        except VoteError as exc:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), theme.TYPE_BODY)))
            return
        words = next(w for tpl, w in choices if tpl is picked["rule"])
        back(app, flow, t(lang, "sess_rule_added", rule=words))

    add.on_click = confirm

    def pick(rule_id: str) -> None:
        group.value = rule_id
        picked["rule"] = next(tpl for tpl, _ in choices if tpl["id"] == rule_id)
        add.disabled = False
        send(group, add)

    # a rule is a sentence: it wraps beside its radio button, and a tap anywhere on it picks it
    group = ft.RadioGroup(value=None, on_change=lambda e: pick(str(e.control.value)), content=ft.Column([
        ft.Semantics(identifier=f"pick-{tpl['id']}", content=ft.Container(
            ft.Row([ft.Radio(value=tpl["id"]), ft.Container(text(lang, words, theme.TYPE_SMALL), expand=True)],
                   vertical_alignment=ft.CrossAxisAlignment.START, spacing=theme.SPACE_FINE),
            on_click=lambda e, rid=tpl["id"]: pick(rid), padding=ft.Padding.only(bottom=theme.SPACE_TIGHT)))
        for tpl, words in choices], spacing=theme.SPACE_FINE))
    winner = seat_label(flow, flow.winner, lang)
    own = tagged("rb-own", ft.OutlinedButton(
        t(lang, "rb_own"), icon=ft.Icons.EDIT_NOTE, on_click=lambda e: own_rule_screen(app, back, flow)))
    words = tagged("rb-words", ft.OutlinedButton(
        t(lang, "rb_words"), icon=ft.Icons.SHORT_TEXT, on_click=lambda e: table_rule_screen(app, back, flow)))
    page(app, t(lang, "sess_title", n=flow.deal_number), [
        text(lang, t(lang, "sess_pick_rule", who=winner, n=flow.deal_number), theme.TYPE_LEAD, True),
        text(lang, t(lang, "sess_pick_hint"), theme.TYPE_SMALL, color=theme.PAGE_MUTED),
        own, words,
        text(lang, t(lang, "rb_or_pick"), theme.TYPE_SMALL, True),
        tagged("sess-add-rule", add),  # above the long list
        group], flow)


def own_rule_screen(app: Host, back: Between, flow: SessionFlow) -> None:
    """The winner writes a rule from scratch: when → if → then, read back as it is built."""
    lang = app.lang
    draft = RuleDraft()

    def done(e: object) -> None:
        problems = draft.problems()
        if problems:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, "\n".join(problems), theme.TYPE_BODY)))
            return
        try:
            rule = flow.add_own_rule(draft)
        except VoteError as exc:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), theme.TYPE_BODY)))
            return
        back(app, flow, t(lang, "sess_rule_added", rule=describe(rule, lang)))

    builder_page(app, t(lang, "rb_title"), draft, flow=flow, actions=ft.Column([ft.Row([
        tagged("rb-done", ft.FilledButton(
            t(lang, "sess_add_rule"), icon=ft.Icons.CHECK, on_click=done)),
        ft.TextButton(t(lang, "rb_back_to_list"), on_click=lambda e: rule_builder(app, back, flow))], wrap=True),
        dry_run_row(app, draft)], spacing=theme.SPACE_TIGHT))


def table_rule_screen(app: Host, back: Between, flow: SessionFlow) -> None:
    """The winner writes a rule in their own words: the table keeps it, the engine never enforces
    it, and the screen says so before it is added (#36 item 1)."""
    lang = app.lang
    field = words_field(lang)

    def done(e: object) -> None:
        if not (field.value or "").strip():
            app.page.show_dialog(ft.AlertDialog(title=text(lang, t(lang, "tr_empty"), theme.TYPE_BODY)))
            return
        try:
            rule = flow.add_table_rule(field.value or "")
        except VoteError as exc:
            app.page.show_dialog(ft.AlertDialog(title=text(lang, str(exc), theme.TYPE_BODY)))
            return
        back(app, flow, t(lang, "sess_rule_added", rule=describe(rule, lang)))

    words_page(app, t(lang, "tr_title"), field, flow, [
        tagged("tr-done", ft.FilledButton(t(lang, "sess_add_rule"), icon=ft.Icons.CHECK, on_click=done)),
        ft.TextButton(t(lang, "rb_back_to_list"), on_click=lambda e: rule_builder(app, back, flow))])


def dry_run_row(app: Host, draft: RuleDraft) -> ft.Control:
    """House-rules guarantee 8: the engine's dry run of the rule being built — 200 simulated deals
    with and without it, off the UI's loop — before it is saved."""
    lang = app.lang
    result = text(lang, "", theme.TYPE_SMALL)

    async def run(e: object) -> None:
        problems = draft.problems()
        if problems:
            result.value, result.color = "\n".join(problems), theme.PAGE_ERROR
            send(result)
            return
        result.value, result.color = t(lang, "rb_dry_running"), None
        send(result)
        report = await asyncio.to_thread(dry_run, draft.to_rule("dry-run"), 200)
        change = report.mean_turns / report.base_mean_turns - 1 if report.base_mean_turns else 0.0
        words = t(lang, "rb_dry_result", deals=report.deals, players=report.players, turns=f"{report.mean_turns:.0f}",
                  change=f"{change:+.0%}", base=f"{report.base_mean_turns:.0f}", fires=f"{report.rule_fires:.1f}",
                  caps=report.cap_hits)
        if report.flagged:
            words += " " + t(lang, "rb_dry_flag", why=report.reason)
        result.value, result.color = words, theme.PAGE_ERROR if report.flagged else None
        send(result)

    return ft.Column([tagged("rb-dry-run", ft.OutlinedButton(
        t(lang, "rb_dry_run"), icon=ft.Icons.SCIENCE, on_click=run)),
        ft.Semantics(identifier="rb-dry-result", content=result)], spacing=theme.SPACE_TIGHT)
