"""Two bare Flet apps that take the benchmark's path to a playable table (tests/bench_ui.py), written
without any of the app's code: home ("Play against a bot") -> the opponent screen ("Beginner") ->
a Lanes-shaped table (8 printed card faces in the hand — the app's own card images —, 2 decks, 6
lanes, a status line), each screen a route on ``page.views``. A tap on a hand card selects it (a border, the status line
changes); a second tap deselects it. The same semantics identifiers and button names as the app,
so the benchmark drives all three the same way.

* ``imperative``: Flet's classic style (routes, ``page.views``, a control changed and updated);
  the baseline the app's figures are ratios to;
* ``declarative``: the same with ``@ft.component`` and ``use_state`` (``page.render_views``): the
  prototype of the other update style issue #44 asked to compare (docs/app.md, "One way to update
  the screen").
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import cast

import flet as ft

HAND = ["AS", "2H", "5D", "7C", "9S", "10H", "JD", "KC"]
ASSETS = Path(__file__).resolve().parent.parent / "assets"
LANES = ["Mine A", "Mine B", "Mine C", "Theirs A", "Theirs B", "Theirs C"]
OPENING, CHOSEN = "Opening: tap a card, then a lane", "Tap a highlighted lane"
FELT = "#1B5E20"


def face(card: str, selected: bool) -> ft.Control:
    """A printed card face (the same vector image the app draws), the selected one ringed."""
    return ft.Container(
        width=52, height=76, bgcolor="#FFFFFF", border_radius=6,
        border=ft.Border.all(3 if selected else 1, "#FFC107" if selected else "#9E9E9E"),
        content=ft.Image(src=f"cards/classic/{card}.svg", width=46, height=70, fit=ft.BoxFit.FILL))


def lane(name: str) -> ft.Control:
    return ft.Semantics(label=f"{name}: 0", container=True, content=ft.Container(
        width=104, height=150, border=ft.Border.all(1, "#A5D6A7"), border_radius=8,
        content=ft.Text(f"{name}\n0", color="#FFFFFF", text_align=ft.TextAlign.CENTER),
        alignment=ft.Alignment.CENTER))


def deck(name: str) -> ft.Control:
    return ft.Container(width=44, height=64, bgcolor="#0D47A1", border_radius=6,
                        content=ft.Text(f"{name}\n38", size=10, color="#FFFFFF"),
                        alignment=ft.Alignment.CENTER)


def table_body(selected: int | None, status: str, tap: Callable[[int], None]) -> ft.Control:
    hand = ft.Row([ft.Semantics(identifier=f"hand-{i}", button=True, label=label,
                                content=ft.GestureDetector(content=face(label, selected == i),
                                                           on_tap=lambda e, i=i: tap(i)))
                   for i, label in enumerate(HAND)], spacing=2, wrap=True)
    return ft.Column([
        ft.Row([deck("Theirs")], alignment=ft.MainAxisAlignment.END),
        ft.Row([lane(n) for n in LANES[3:]], spacing=4),
        ft.Text(status, color="#FFFFFF", size=16),
        ft.Row([lane(n) for n in LANES[:3]], spacing=4),
        ft.Row([deck("Mine")]),
        hand,
    ], spacing=8, scroll=ft.ScrollMode.AUTO)


def screen(route: str, go: Callable[[str], None], table: Callable[[], ft.Control]) -> ft.View:
    if route == "/":
        body: ft.Control = ft.Column([ft.Text("Card Table", size=28),
                                      ft.Semantics(identifier="play-lanes", content=ft.Button(
                                          "Play against a bot", on_click=lambda e: go("/opponent")))])
        return ft.View(route="/", controls=[ft.SafeArea(content=body)])
    if route == "/opponent":
        body = ft.Column([ft.Text("Who do you play against?", size=20),
                          ft.Semantics(identifier="level-beginner", content=ft.Button(
                              "Beginner", on_click=lambda e: go("/table")))])
        return ft.View(route="/opponent", controls=[ft.SafeArea(content=body)])
    return ft.View(route="/table", bgcolor=FELT, padding=8, controls=[ft.SafeArea(content=table())])


def imperative(page: ft.Page) -> None:
    """Routes and ``page.views``; a tap changes the two faces and the status line in place."""
    faces: list[ft.Container] = []
    status = ft.Text(OPENING, color="#FFFFFF", size=16)
    chosen: list[int | None] = [None]

    def tap(i: int) -> None:
        was, chosen[0] = chosen[0], (None if chosen[0] == i else i)
        changed: list[ft.Control] = [status]
        for k in {was, chosen[0]} - {None}:
            assert k is not None
            faces[k].content = face(HAND[k], chosen[0] == k)
            changed.append(faces[k])
        status.value = CHOSEN if chosen[0] is not None else OPENING
        page.update(*changed)

    def table() -> ft.Control:
        faces.clear()
        built = table_body(None, OPENING, tap)
        assert isinstance(built, ft.Column)
        built.controls[2] = status
        hand = built.controls[-1]
        assert isinstance(hand, ft.Row)
        for sem in hand.controls:  # each face in a holder that keeps its identity across taps
            assert isinstance(sem, ft.Semantics) and isinstance(sem.content, ft.GestureDetector)
            holder = ft.Container(content=sem.content.content)
            faces.append(holder)
            sem.content.content = holder
        return built

    def route_change(route: str) -> None:
        views = [screen("/", go, table)]
        if route in ("/opponent", "/table"):
            views.append(screen("/opponent", go, table))
        if route == "/table":
            views.append(screen("/table", go, table))
        page.views[:] = views
        page.update()

    def go(route: str) -> None:
        route_change(route)
        page.navigate(route)

    page.on_route_change = lambda e: route_change(e.route)
    route_change(page.route or "/")


@ft.component
def Declarative() -> list[ft.View]:
    """The same app as components: the route and the selection are state; a tap sets state and
    Flet re-renders the table and diffs it against what is shown."""
    route, set_route = ft.use_state("/")
    selected, set_selected = ft.use_state(cast("int | None", None))

    def go(to: str) -> None:
        set_route(to)
        asyncio.create_task(ft.context.page.push_route(to))

    def tap(i: int) -> None:
        set_selected(None if selected == i else i)

    status = CHOSEN if selected is not None else OPENING
    shown = {"/": ["/"], "/opponent": ["/", "/opponent"], "/table": ["/", "/opponent", "/table"]}[route]
    return [screen(r, go, lambda: table_body(selected, status, tap)) for r in shown]


def declarative(page: ft.Page) -> None:
    page.render_views(Declarative)


def serve(style: str, port: int) -> None:
    """``BENCH_RENDERER``: the browser's renderer, as the app's ``--renderer`` (default auto)."""
    ft.run(imperative if style == "imperative" else declarative, assets_dir=str(ASSETS),
           view=ft.AppView.WEB_BROWSER, host="127.0.0.1", port=port, no_cdn=True,
           web_renderer=ft.WebRenderer(os.environ.get("BENCH_RENDERER", "auto")))
