"""New game: the opponent (a bot level or a friend on this device) with the Lanes house rules
(L-9) and the rated-rules badge (L-8.5), or Spit's way of scoring (S-8). The Lopti table set-up
is views/lopti/setup.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from engine.lanes import VARIANTS
from storage import api
from storage.seats import PERSON
from views.screens.rules import rules_dialog
from views.ui import theme
from views.ui.i18n import counted, t
from views.ui.reconcile import send
from views.ui.widgets import icon_button, loaded_ahead, pad, tagged, text

if TYPE_CHECKING:
    from views.host import Host

LEVELS = ("beginner", "casual", "skilled", "expert")


def level_screen(app: Host, game: str, choices: ft.Control, people: str,
                 people_icon: ft.IconData | None = None, ahead: list[str] | None = None) -> None:
    """The opponent screen of ``game`` (its record's new-game screen): the game's own ``choices``
    first (Lanes' house rules, Spit's way of scoring), then the bot levels, then ``people`` on this
    device. ``ahead``: pictures the coming table draws first, loaded while the player chooses."""
    lang = app.lang
    buttons: list[ft.Control] = [
        choices,
        *(ft.Semantics(identifier=f"level-{lvl}", content=ft.Button(
            t(lang, lvl), width=260, on_click=lambda e, lv=lvl: app.start_game(game, lv))) for lvl in LEVELS),
        ft.OutlinedButton(people, width=260, icon=people_icon, on_click=lambda e: app.start_game(game, PERSON))]
    body = ft.Column([
        ft.Row([icon_button(ft.Icons.ARROW_BACK, t(lang, "back"), lambda e: app.back()),
                ft.Container(text(lang, t(lang, "choose_level"), theme.TYPE_TITLE, True), expand=True),
                icon_button(ft.Icons.MENU_BOOK, t(lang, "rules"), lambda e: rules_dialog(app, game))]),
        *buttons,
        *([loaded_ahead(ahead)] if ahead else []),
    ], spacing=theme.SPACE_LOOSE, horizontal_alignment=ft.CrossAxisAlignment.CENTER, scroll=ft.ScrollMode.AUTO)
    app.show(ft.Container(body, padding=pad(theme.PAD)))


def points_switch(app: Host) -> ft.Control:
    """S-8: the points game instead of the standard one (a point per card left after each round;
    at 100 the lowest score wins)."""
    def flip(e: ft.Event[ft.Switch]) -> None:
        app.drafts.spit_points = bool(e.control.value)

    # the long sentence wraps beside the switch (a switch's own label does not wrap on a phone)
    switch = ft.Switch(value=app.drafts.spit_points, on_change=flip)
    return ft.Semantics(identifier="spit-points", content=ft.Container(ft.Row([
        switch, ft.Container(text(app.lang, t(app.lang, "sp_points_game"), theme.TYPE_SMALL), expand=True)],
        vertical_alignment=ft.CrossAxisAlignment.CENTER), width=320))


def variant_picker(app: Host, redraw: Callable[[], None], opened: bool = False) -> ft.Control:
    """L-9 variants as toggles; with none on, a badge says these are the rated rules (L-8.5). The
    choice is remembered for the next game (the ``default_variants`` setting), and a set can be
    saved under a name and picked again (the storage's presets; ``redraw`` shows the screen again
    with the new set in the list, and the list open: ``opened``).

    The toggles and the saved sets are built when the list is first opened: closed, they are never
    drawn, yet the client took in their controls on every opponent screen, and that screen stands
    between the home and every new Lanes table (#44, docs/app.md "The opponent screen's
    folded house rules")."""
    lang = app.lang
    badge = text(lang, "", theme.TYPE_SMALL, True)
    boxes: dict[str, ft.Checkbox] = {}

    def update_badge() -> None:
        n = len(app.drafts.lanes_variants)
        badge.value = t(lang, "rated_rules") if n == 0 else t(lang, counted("friendly_rules", n), n=n)
        badge.color = theme.PAGE_GOOD if n == 0 else theme.PAGE_FRIENDLY

    def remember() -> None:
        api.update_profile(app.storage, default_variants=sorted(app.drafts.lanes_variants))
        update_badge()
        send(badge, *boxes.values())

    def toggle(e: ft.Event[ft.Checkbox], name: str) -> None:
        if e.control.value:
            app.drafts.lanes_variants.add(name)
        else:
            app.drafts.lanes_variants.discard(name)
        remember()

    def pick(variants: list[str]) -> None:
        app.drafts.lanes_variants = {v for v in variants if v in VARIANTS}
        for v, box in boxes.items():
            box.value = v in app.drafts.lanes_variants
        remember()

    def rules() -> list[ft.Control]:
        for v in VARIANTS:
            boxes[v] = ft.Checkbox(label=t(lang, f"variant_{v}"), value=v in app.drafts.lanes_variants,
                                   on_change=lambda e, v=v: toggle(e, v))
        return [*boxes.values(), preset_row(app, pick, redraw)]

    def opening(e: ft.Event[ft.ExpansionTile]) -> None:
        if e.control.expanded and not e.control.controls:  # the client set ``expanded`` before this
            e.control.controls = rules()
            send(e.control)

    update_badge()
    tile = ft.ExpansionTile(title=text(lang, t(lang, "variants"), theme.TYPE_BODY), expanded=opened,
                            controls=rules() if opened else [], on_change=opening)
    return ft.Container(ft.Column([badge, tile], spacing=theme.SPACE_TIGHT), width=340)


def preset_row(app: Host, pick: Callable[[list[str]], None], redraw: Callable[[], None]) -> ft.Control:
    """The saved sets of Lanes house rules: pick one, or save the current choice under a name."""
    lang = app.lang
    saved = api.presets(app.storage, "lanes_variants")
    dd = ft.Dropdown(label=t(lang, "presets"), dense=True, width=300,
                     options=[ft.DropdownOption(key=str(pid), text=name) for pid, name, _ in saved])

    def chosen(e: ft.Event[ft.Dropdown]) -> None:
        data = next((d for pid, _, d in saved if str(pid) == e.control.value), None)
        if data is not None:
            pick(list(data))
    dd.on_select = chosen

    def save(e: object) -> None:
        name = ft.TextField(label=t(lang, "preset_name"), max_length=40, autofocus=True)

        def done(ev: object) -> None:
            words = (name.value or "").strip()
            if not words:
                return
            api.save_preset(app.storage, "lanes_variants", words, sorted(app.drafts.lanes_variants))
            app.page.pop_dialog()
            redraw()  # the list shows the new set
            app.tell(t(lang, "preset_saved", name=words))

        name.on_submit = done
        ok = tagged("preset-save-ok", ft.FilledButton(t(lang, "save"), on_click=done))
        app.page.show_dialog(ft.AlertDialog(
            title=text(lang, t(lang, "preset_save"), theme.TYPE_STRONG, True), content=name,
            actions=[ft.TextButton(t(lang, "cancel"), on_click=lambda ev: app.page.pop_dialog()), ok]))

    return ft.Column([
        *([ft.Semantics(identifier="presets", content=dd)] if saved else []),
        tagged("preset-save", ft.TextButton(
            t(lang, "preset_save"), icon=ft.Icons.BOOKMARK_ADD, on_click=save))], spacing=theme.SPACE_TIGHT)
