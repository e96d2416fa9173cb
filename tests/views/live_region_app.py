"""A one-screen Flet app for `tests/views/test_live_region.py`: a button opens a modal dialog, and
the dialog's button announces a message while the dialog is open. Run as
``python -m tests.views.live_region_app PORT`` (web mode, offline)."""

from __future__ import annotations

import sys

import flet as ft

#: what the dialog's button announces
SAID = "Said while the dialog is open"


def main(page: ft.Page) -> None:
    service = ft.SemanticsService()

    async def announce(e: ft.Event[ft.TextButton]) -> None:
        await service.announce_message(SAID)

    def open_dialog(e: ft.Event[ft.Button]) -> None:
        page.show_dialog(ft.AlertDialog(modal=True, title=ft.Text("Result"),
                                        actions=[ft.TextButton("Announce", on_click=announce)]))

    page.add(ft.FilledButton("Open", on_click=open_dialog))


if __name__ == "__main__":
    ft.run(main, view=ft.AppView.WEB_BROWSER, port=int(sys.argv[1]), no_cdn=True)
