"""The house-rule builder (P-8, P-13): pick the event, optional conditions and 1–3 effects; the
rule reads back as a sentence in the player's language as it is built. The choices come from
:class:`views.rule_draft.RuleDraft`, which only offers what the engine's validator accepts; the
words come from the engine's own describer (``engine.lopti.describe.PHRASES``), so the builder and
the rule text can never disagree."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from engine.lopti.describe import PHRASES, describe
from engine.lopti.house_rules import CAUSES, EVENTS, MAX_CONDITIONS, RANK_LABELS, TIMINGS, ZONES
from views.lopti.rule_draft import ARG_CHOICES, RuleDraft
from views.ui import theme
from views.ui.i18n import t
from views.ui.reconcile import send
from views.ui.widgets import icon_button, radius, tagged, tap_area, text

if TYPE_CHECKING:
    from views.host import Host


def _dropdown(ident: str, label: str, value: Any, options: list[tuple[Any, str]],
              on_pick: Callable[[str], None], width: float | None = None) -> ft.Control:
    dd = ft.Dropdown(label=label, value=str(value), width=width, dense=True,
                     options=[ft.DropdownOption(key=str(k), text=v) for k, v in options])

    def picked(e: ft.Event[ft.Dropdown]) -> None:
        if e.control.value is not None:
            on_pick(str(e.control.value))
    dd.on_select = picked
    return ft.Semantics(identifier=ident, content=dd)


def draft_editor(app: Host, draft: RuleDraft, redraw: Callable[[], None]) -> list[ft.Control]:
    """The controls that edit ``draft``; every choice changes the draft and redraws the screen
    (the announcement text and the name only update the preview, so typing keeps its focus)."""
    lang = app.lang
    ph = PHRASES[lang]
    preview = text(lang, "", theme.TYPE_LEAD, True)

    def refresh_preview() -> None:
        problems = draft.problems()
        preview.value = describe(draft.to_rule("draft"), lang) if not problems else "\n".join(problems)
        preview.color = None if not problems else theme.PAGE_ERROR
        send(preview)  # (nothing is sent while the editor is being built)

    def change(fn: Callable[[], None]) -> None:
        fn()
        redraw()

    refresh_preview()

    # --- when ----------------------------------------------------------------------------------
    when = ft.Column([
        _dropdown("rb-timing", t(lang, "rb_timing"), draft.timing,
                  [(k, t(lang, f"rb_{k}")) for k in TIMINGS],
                  lambda v: change(lambda: draft.set_when(timing=v)), width=160),
        _dropdown("rb-event", t(lang, "rb_event"), draft.event, [(k, ph["events"][k]) for k in EVENTS],
                  lambda v: change(lambda: draft.set_when(event=v))),
    ], spacing=theme.SPACE)

    conditions = _conditions(lang, ph, draft, change)
    effects = _effects(app, ph, draft, change, refresh_preview)

    def named(e: ft.Event[ft.TextField]) -> None:
        draft.title = str(e.control.value or "")[:80]

    title = ft.TextField(label=t(lang, "rb_name"), value=draft.title, max_length=80, dense=True, on_change=named)
    return [
        ft.Semantics(identifier="rb-preview", content=ft.Container(
            ft.Column([text(lang, t(lang, "rb_reads"), theme.TYPE_NOTE, color=theme.PAGE_MUTED),
                       preview], spacing=theme.SPACE_TIGHT),
            bgcolor=theme.PAGE_PANEL, padding=theme.SPACE_LOOSE, border_radius=radius(8))),
        text(lang, t(lang, "rb_when"), theme.TYPE_LEAD, True), when,
        text(lang, t(lang, "rb_if"), theme.TYPE_LEAD, True), *conditions,
        text(lang, t(lang, "rb_then"), theme.TYPE_LEAD, True), *effects,
        title,
    ]


def _conditions(lang: str, ph: Any, draft: RuleDraft, change: Callable[[Callable[[], None]], None]) -> list[ft.Control]:
    """*Only if*: each test the event can answer (from the engine's vocabulary), and "add one"."""
    out: list[ft.Control] = []
    for i, cond in enumerate(draft.conditions):
        (kind, arg), = cond.items()

        def set_condition(v: str, i: int = i) -> None:
            change(lambda: draft.set_condition(i, v))

        def remove_condition(e: object, i: int = i) -> None:
            change(lambda: draft.remove_condition(i))

        head = ft.Row([
            ft.Container(_dropdown(f"rb-cond-{i}", t(lang, "rb_test"), kind,
                                   [(k, t(lang, f"rb_cond_{k}")) for k in draft.condition_kinds()],
                                   set_condition), expand=True),
            icon_button(ft.Icons.CLOSE, t(lang, "rb_remove"), remove_condition)])
        out.append(_box([head, *_condition_args(lang, ph, draft, i, kind, arg, change)]))
    if len(draft.conditions) < MAX_CONDITIONS:
        out.append(tagged("rb-add-if", ft.TextButton(
            t(lang, "rb_add_if"), icon=ft.Icons.ADD, on_click=lambda e: change(draft.add_condition))))
    return out


def _effects(app: Host, ph: Any, draft: RuleDraft, change: Callable[[Callable[[], None]], None],
             refresh_preview: Callable[[], None]) -> list[ft.Control]:
    """*Then*: one to three effects with their arguments, and "add one"."""
    lang = app.lang
    out: list[ft.Control] = []
    for i, eff in enumerate(draft.effects):
        kind = eff["effect"]

        def set_effect(v: str, i: int = i) -> None:
            change(lambda: draft.set_effect(i, v))

        def remove_effect(e: object, i: int = i) -> None:
            change(lambda: draft.remove_effect(i))

        top: list[ft.Control] = [ft.Container(_dropdown(
            f"rb-eff-{i}", t(lang, "rb_do"), kind, [(k, t(lang, f"rb_eff_{k}")) for k in draft.effect_kinds()],
            set_effect), expand=True)]
        if len(draft.effects) > 1:
            top.append(icon_button(ft.Icons.CLOSE, t(lang, "rb_remove"), remove_effect))
        out.append(_box([ft.Row(top), *_effect_args(lang, ph, draft, i, eff, change, refresh_preview, app)]))
    if len(draft.effects) < 3:
        out.append(tagged("rb-add-then", ft.TextButton(
            t(lang, "rb_add_then"), icon=ft.Icons.ADD, on_click=lambda e: change(draft.add_effect))))
    return out


def _box(rows: list[ft.Control]) -> ft.Control:
    """One condition or effect: its kind on top, its arguments below (wrapping on a phone)."""
    head, *args = rows
    body: list[ft.Control] = [head]
    if args:
        body.append(ft.Row(args, wrap=True, spacing=theme.SPACE, run_spacing=theme.SPACE))
    return ft.Container(ft.Column(body, spacing=theme.SPACE), border=ft.Border.all(1, theme.PAGE_LINE),
                        border_radius=radius(8), padding=theme.SPACE)


def _condition_args(lang: str, ph: dict[str, Any], draft: RuleDraft, i: int, kind: str, arg: Any,
                    change: Callable[[Callable[[], None]], None]) -> list[ft.Control]:
    def set_arg(v: Any, part: str | None = None) -> None:
        change(lambda: draft.set_condition_arg(i, v, part))

    if kind == "rank_in":
        chips: list[ft.Control] = []
        for r in RANK_LABELS:
            on = r in arg
            chips.append(tap_area(f"rb-rank-{i}-{r}", selected=on, control=ft.Container(
                ft.Text(r, size=theme.TYPE_SMALL, weight=ft.FontWeight.BOLD if on else None,
                        color=theme.ON_ACCENT if on else None),
                bgcolor=theme.PAGE_ACCENT if on else None, border=ft.Border.all(1, theme.PAGE_EDGE),
                border_radius=radius(6), padding=ft.Padding.symmetric(horizontal=theme.SPACE,
                                                                                   vertical=theme.SPACE_TIGHT),
                on_click=lambda e, r=r: change(lambda: draft.toggle_rank(i, r)), ink=True)))
        return chips  # they wrap with the other arguments
    if kind in ("count_at_least", "count_at_most"):
        return [_dropdown(f"rb-cond-{i}-n", t(lang, "rb_n"), arg, [(n, str(n)) for n in ARG_CHOICES["count"]],
                          lambda v: set_arg(int(v)), width=90)]
    if kind == "cause_in":
        return [_dropdown(f"rb-cond-{i}-cause", t(lang, "rb_cause"), arg[0], [(c, ph["causes"][c]) for c in CAUSES],
                          lambda v: set_arg([v]), width=170)]
    if kind == "zone":
        return [_dropdown(f"rb-cond-{i}-zone", t(lang, "rb_zone"), arg, [(z, ph["zones"][z]) for z in ZONES],
                          lambda v: set_arg(v), width=170)]
    if kind in ("legal", "forced", "draw_empty"):
        return [_dropdown(f"rb-cond-{i}-flag", t(lang, "rb_value"), "yes" if arg else "no",
                          [("yes", t(lang, "yes")), ("no", t(lang, "no"))], lambda v: set_arg(v == "yes"), width=100)]
    out: list[ft.Control] = []
    if kind in ("hand_size", "cards_left"):
        out.append(_dropdown(f"rb-cond-{i}-role", t(lang, "rb_who"), arg.get("role", "actor"),
                             [(r, ph["roles"][r]) for r in ARG_CHOICES["single_role"]],
                             lambda v: set_arg(v, "role"), width=200))
    out.append(_dropdown(f"rb-cond-{i}-op", t(lang, "rb_op"), arg["op"], [(o, ph["ops"][o]) for o in ARG_CHOICES["op"]],
                         lambda v: set_arg(v, "op"), width=130))
    values = ARG_CHOICES["deal" if kind == "deal_number" else "size"]
    out.append(_dropdown(f"rb-cond-{i}-n", t(lang, "rb_n"), arg["n"], [(n, str(n)) for n in values],
                         lambda v: set_arg(int(v), "n"), width=90))
    return out


def _effect_args(lang: str, ph: dict[str, Any], draft: RuleDraft, i: int, eff: dict[str, Any],
                 change: Callable[[Callable[[], None]], None], refresh_preview: Callable[[], None],
                 app: Host) -> list[ft.Control]:
    kind = eff["effect"]

    def set_arg(key: str, v: Any) -> None:
        change(lambda: draft.set_effect_arg(i, key, v))

    out: list[ft.Control] = []
    if kind in ("draw", "reveal", "skip"):
        roles = ARG_CHOICES["single_role" if kind == "skip" else "role"]
        out.append(_dropdown(f"rb-eff-{i}-role", t(lang, "rb_who"), eff.get("role"),
                             [(r, ph["roles"][r]) for r in roles], lambda v: set_arg("role", v), width=200))
    if kind == "draw":
        out.append(_dropdown(f"rb-eff-{i}-n", t(lang, "rb_n"), eff.get("n", 1),
                             [(n, str(n)) for n in ARG_CHOICES["draw_n"]], lambda v: set_arg("n", int(v)), width=90))
    if kind == "return_cleared":
        out.append(_dropdown(f"rb-eff-{i}-n", t(lang, "rb_n"), eff.get("n", 1),
                             [(n, str(n)) for n in ARG_CHOICES["return_n"]], lambda v: set_arg("n", int(v)), width=90))
    if kind == "give":
        givers = ARG_CHOICES["single_role"]
        out.append(_dropdown(f"rb-eff-{i}-from", t(lang, "rb_from"), eff.get("from"),
                             [(r, ph["roles"][r]) for r in givers if r != eff.get("to")],
                             lambda v: set_arg("from", v), width=200))
        out.append(_dropdown(f"rb-eff-{i}-to", t(lang, "rb_to"), eff.get("to"),
                             [(r, ph["roles"][r]) for r in givers if r != eff.get("from")],
                             lambda v: set_arg("to", v), width=200))
        out.append(_dropdown(f"rb-eff-{i}-which", t(lang, "rb_which"), eff.get("which"),
                             [(w, ph["which"][w]) for w in ARG_CHOICES["which"]], lambda v: set_arg("which", v),
                             width=130))
    if kind == "announce":
        def typed(e: ft.Event[ft.TextField]) -> None:
            draft.set_effect_arg(i, "text", str(e.control.value or "")[:80])
            refresh_preview()
        out.append(ft.Semantics(identifier=f"rb-eff-{i}-text", content=ft.TextField(
            label=t(lang, "rb_text"), value=eff.get("text", ""), max_length=80, dense=True, width=260,
            on_change=typed)))
    return out
