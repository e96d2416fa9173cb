"""The fast screen tests' net for a change left unsent (tests/views/screen.py): the app turns Flet's
auto-update off (views/app.py), so a handler that changes the screen and sends nothing would leave a
browser stale; the screen tests must fail on it, and must not fail on a handler that sends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft
import pytest

from tests.views.screen import Screen


def page_of_two_buttons(page: ft.Page, _db: str) -> Any:
    """A page whose first button changes a word and sends it, and whose second changes it silently."""
    word = ft.Text("before")

    def sends(_: ft.Event[ft.Button]) -> None:
        word.value = "sent"
        word.update()

    def forgets(_: ft.Event[ft.Button]) -> None:
        word.value = "forgotten"

    page.add(word, ft.Button("Send", on_click=sends), ft.Button("Forget", on_click=forgets))
    return word


def test_a_handler_that_sends_its_change_passes(tmp_path: Path) -> None:
    screen = Screen(tmp_path / "unused.sqlite", page_of_two_buttons)
    screen.tap("Send")
    screen.wait_text("sent")
    assert not screen.unsent
    screen.close()


def test_a_change_left_unsent_fails_the_test(tmp_path: Path) -> None:
    screen = Screen(tmp_path / "unused.sqlite", page_of_two_buttons)
    screen.tap("Forget")
    screen.wait_for(lambda: screen.unsent, what="the change left unsent")
    assert "forgotten" in screen.unsent[0]
    with pytest.raises(AssertionError, match="changes left unsent"):
        screen.close()


def test_what_a_person_enters_is_not_a_change_left_unsent(tmp_path: Path) -> None:
    """``Screen.enter`` takes a value in as the client reports it (no patch back), then an event
    whose handler sends nothing finds nothing to send."""
    def field_page(page: ft.Page, _db: str) -> Any:
        field = ft.TextField(on_change=lambda _: None)
        page.add(field)
        return field

    screen = Screen(tmp_path / "unused.sqlite", field_page)
    field = screen.one(kind=ft.TextField)
    screen.enter(field, "typed")
    screen.fire(field, "change", "typed")
    assert field.value == "typed"
    assert not screen.unsent
    screen.close()


def test_the_net_looks_on_the_real_app(tmp_path: Path) -> None:
    """The check looks only while no other work of the app is under way; on the app's own home,
    idle, an event its handler answers with nothing (the echo of the route shown) is looked at, so
    the net is not one that never closes."""
    import asyncio

    from views.app import start

    screen = Screen(tmp_path / "app.sqlite", start)
    screen.wait_text("Lanes")
    screen.wait_for(lambda: not screen.call(screen.busy), what="the app idle")
    before = screen.looked
    echo = screen.session.dispatch_event(screen.page._i, "route_change", {"route": screen.page.route})
    asyncio.run_coroutine_threadsafe(echo, screen.loop).result(timeout=10)
    assert screen.looked == before + 1 and not screen.unsent
    screen.close()
