"""A one-screen Flet app for `tests/views/test_live_region.py`: a button opens a modal dialog, whose
buttons announce a message while it is open, or two messages — sent at once, or in turn through the
app's `views.table.speech.Speech` — and close it; a button on the page announces one more after.
Run as ``python -m tests.views.live_region_app PORT`` (web mode, offline)."""

from __future__ import annotations

import asyncio
import sys

import flet as ft

from views.table.speech import Speech

#: what the dialog's Announce button says
SAID = "Said while the dialog is open"
#: what the dialog's two-message buttons say
TWICE = ("First of two", "Second of two")
#: what the page's button says once the dialog is closed
AFTER = "Said after the dialog"


def main(page: ft.Page) -> None:
    service = ft.SemanticsService()
    speech = Speech(page.run_task, lambda message, rtl: service.announce_message(message, rtl=rtl))

    async def announce(e: ft.Event[ft.TextButton]) -> None:
        await service.announce_message(SAID)

    async def at_once(e: ft.Event[ft.TextButton]) -> None:  # neither waits for the device
        await asyncio.gather(*(service.announce_message(m) for m in TWICE))

    async def in_turn(e: ft.Event[ft.TextButton]) -> None:  # the second as soon as the device took the first
        before = speech.said_at
        speech.say(TWICE[0])
        while speech.said_at == before:
            await asyncio.sleep(0.01)
        speech.say(TWICE[1])

    def open_dialog(e: ft.Event[ft.Button]) -> None:
        page.show_dialog(ft.AlertDialog(modal=True, title=ft.Text("Result"), actions=[
            ft.TextButton("Announce", on_click=announce), ft.TextButton("At once", on_click=at_once),
            ft.TextButton("In turn", on_click=in_turn), ft.TextButton("Close", on_click=lambda e: page.pop_dialog())]))

    page.add(ft.FilledButton("Open", on_click=open_dialog),
             ft.FilledButton("After", on_click=lambda e: speech.say(AFTER)))


if __name__ == "__main__":
    ft.run(main, view=ft.AppView.WEB_BROWSER, port=int(sys.argv[1]), no_cdn=True)
