"""Which lobby the online screens talk to, and changing it (Settings → Online, and the sign-in
screen): validated first, a bad address changes nothing; stored in the profile and used at once.

A guest account belongs to its lobby: accounts are kept one per address (storage/api.py), so a
player who changes the address is told that their account stays behind, and finds it again when
they switch back."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from storage import api
from storage.lobby_address import BadAddress, built_in, current, normalise
from storage.models import Account
from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import text

if TYPE_CHECKING:
    from views.host import Host


def lobby_url(app: Host) -> str:
    """The address in use: the player's choice, else the built-in one; ``""`` when there is none."""
    return current(app.settings.get("lobby_url"))


def account_here(app: Host) -> Account | None:
    url = lobby_url(app)
    return api.get_account(app.storage, url) if url else None


def refusal(lang: str, exc: BadAddress) -> str:
    return t(lang, f"addr_{exc.reason}")


def account_note(app: Host) -> str:
    """What changing the address means for the player's account, said before they change it."""
    acc = account_here(app)
    if acc is None:
        return t(app.lang, "addr_note")
    return t(app.lang, "addr_note_signed_in", name=acc.display_name, url=acc.lobby_url)


def checked(typed: str) -> str:
    """The address as it will be stored, or :class:`BadAddress`. Left empty, the built-in one (and
    ``empty`` when there is none)."""
    return normalise(typed) if typed.strip() or not built_in() else built_in()


def use_lobby(app: Host, address: str) -> str:
    """Store a checked address and use it from now on; the words that tell the player what became
    of their accounts (empty when nothing changed)."""
    before, was = lobby_url(app), account_here(app)
    if address == before:
        return ""
    app.settings = api.update_profile(app.storage, lobby_url="" if address == built_in() else address)
    lang, now = app.lang, account_here(app)
    said = [t(lang, "addr_changed", url=address)]
    if was is not None:
        said.append(t(lang, "addr_left_account", name=was.display_name, url=before))
    if now is not None:
        said.append(t(lang, "addr_account_there", name=now.display_name))
    return " ".join(said)


def settings_section(app: Host) -> tuple[list[ft.Control], Callable[[], str | None]]:
    """Settings → Online: the address field and what changing it means for the account; and the
    check to run before anything is saved, which gives the address to store (None: refused, the
    field and a dialog say why)."""
    lang = app.lang
    field = ft.TextField(label=t(lang, "ol_url"), value=lobby_url(app), hint_text="https://…",
                         keyboard_type=ft.KeyboardType.URL, expand=True)  # as wide as the settings' menus

    def check() -> str | None:
        typed = (field.value or "").strip()
        try:
            return checked(typed) if typed else built_in()
        except BadAddress as exc:
            field.error = refusal(lang, exc)
            app.tell(field.error)
            return None

    controls: list[ft.Control] = [
        text(lang, t(lang, "online"), theme.TYPE_STRONG, True),
        ft.Semantics(identifier="setting-lobby", content=ft.Row([field])),
        text(lang, account_note(app), theme.TYPE_NOTE, color=theme.PAGE_MUTED)]
    return controls, check
