"""On a phone build the system's insets (the notch, the status bar, the home bar, a cutout in
landscape) are kept clear by Flutter's SafeArea, which pads by what the OS reports: every view the
app shows is one SafeArea around its screen, on every route and on the table (docs/app.md, "Build
for phones"). The web's notch is the browser's, checked in tests/views/test_browser_install.py."""

from __future__ import annotations

from pathlib import Path

import flet as ft
import pytest

from tests.views.test_screens import open_at

ROUTES = ["/", "/settings", "/online", "/stats", "/learn", "/learn/lanes", "/lanes/new", "/rules/lopti",
          "/lopti/new"]


@pytest.mark.parametrize("route", ROUTES)
def test_every_view_keeps_clear_of_the_systems_insets(tmp_path: Path, route: str) -> None:
    s = open_at(tmp_path, route)
    try:
        s.wait_for(lambda: s.page.views and s.page.views[-1].route == route, what=route)
        views = s.call(lambda: list(s.page.views))
        assert views[0].route == "/"  # Android's back button pops to home (test_screens: view_pop)
        for view in views:
            assert len(view.controls) == 1 and isinstance(view.controls[0], ft.SafeArea), view.route
            area = view.controls[0]
            assert area.left is not False and area.top is not False and area.right is not False \
                and area.bottom is not False, view.route
    finally:
        s.close()


def test_the_table_keeps_clear_of_the_systems_insets_too(tmp_path: Path) -> None:
    s = open_at(tmp_path, "/lanes/new")
    try:
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the Lanes table")
        view = s.call(lambda: s.page.views[-1])
        assert isinstance(view.controls[0], ft.SafeArea) and view.route.startswith("/play/")
    finally:
        s.close()
