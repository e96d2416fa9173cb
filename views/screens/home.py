"""Home: the games in progress (views/screens/in_progress.py), the three games (continue the newest
game in progress, quick starts, Learn, Rules), and in the top bar Learn, Online, History & stats and
Settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from storage import api
from views.screens.in_progress import ask_before_new, in_progress_section
from views.ui.i18n import t
from views.ui.prefs import LOPTI_BOTS
from views.ui.widgets import icon_button, text

if TYPE_CHECKING:
    from views.host import Host


def _continue(app: Host, game: str, in_progress: list[api.GameInfo]) -> ft.Control | None:
    """"Continue" for the newest game in progress (a Lopti session between deals counts)."""
    lang = app.lang
    for g in in_progress:
        if g.game == game:
            return ft.FilledButton(t(lang, "continue"), on_click=lambda e, gid=g.id: app.go(f"/play/{gid}"))
    if game == "lopti":
        between = next((s for s in api.sessions(app.storage) if s["status"] == "running"), None)
        if between is not None:
            return ft.FilledButton(t(lang, "continue"),
                                   on_click=lambda e, sid=int(between["id"]): app.go(f"/lopti/session/{sid}"))
    return None


def _starts(app: Host, game: str) -> list[ft.Control]:
    lang = app.lang
    if game == "lopti":
        from views.lopti.play import new_session

        out: list[ft.Control] = [ft.Button(t(lang, "players_n", n=n), on_click=lambda e, n=n: ask_before_new(
            app, "lopti", lambda: new_session(app, n))) for n in (2, 3, 4, 5)]
        out.append(ft.OutlinedButton(t(lang, "lopti_table_setup"), icon=ft.Icons.GROUPS,
                                     on_click=lambda e: app.go("/lopti/new")))
        return [_lopti_bots(app), *out]
    return [ft.Button(t(lang, "play_vs_bot"), on_click=lambda e: app.go(f"/{game}/new"))]


def _lopti_bots(app: Host) -> ft.Control:
    """The level of the bots at a quick Lopti table: one level for every seat, or the mixed table;
    remembered in the settings (seat by seat: "Set up a table")."""
    lang = app.lang

    def chosen(e: Any) -> None:
        value = e.control.value
        if value in LOPTI_BOTS:
            app.settings = api.update_profile(app.storage, lopti_bots=value)

    dd = ft.Dropdown(label=t(lang, "lp_bots"), value=app.prefs.lopti_bots, width=200, on_select=chosen,
                     options=[ft.DropdownOption(key=k, text=t(lang, "lp_bots_mixed" if k == "mixed" else k))
                              for k in LOPTI_BOTS])
    return ft.Semantics(identifier="lopti-bots", content=dd)


def _tile(app: Host, game: str, in_progress: list[api.GameInfo]) -> ft.Control:
    lang = app.lang
    buttons = _starts(app, game)
    resume = _continue(app, game, in_progress)
    if resume is not None:
        buttons.insert(0, resume)
    extra: list[ft.Control] = [
        ft.TextButton(t(lang, "learn"), icon=ft.Icons.SCHOOL, on_click=lambda e: app.go(f"/learn/{game}")),
        ft.TextButton(t(lang, "rules"), icon=ft.Icons.MENU_BOOK, on_click=lambda e: app.go(f"/rules/{game}"))]
    return ft.Card(content=ft.Container(padding=16, content=ft.Column([
        text(lang, t(lang, game), 22, True),
        text(lang, t(lang, f"{game}_blurb"), 14),
        ft.Row(buttons, wrap=True, spacing=8),
        ft.Row(extra, wrap=True, spacing=0),
    ], spacing=8)))


def home(app: Host) -> ft.Control:
    lang = app.lang
    online = ft.Column(spacing=6)  # filled with the running online matches, when there are any
    in_progress = api.local_games_in_progress(app.storage)  # read once for the tiles and the list
    body = ft.Column([
        ft.Row([ft.Container(text(lang, t(lang, "app_title"), 28, True), expand=True),
                icon_button(ft.Icons.SCHOOL, t(lang, "learn"), lambda e: app.go("/learn")),
                icon_button(ft.Icons.PUBLIC, t(lang, "online"), lambda e: app.go("/online")),
                icon_button(ft.Icons.BAR_CHART, t(lang, "stats"), lambda e: app.go("/stats")),
                icon_button(ft.Icons.SETTINGS, t(lang, "settings"), lambda e: app.go("/settings"))]),
        text(lang, t(lang, "tagline"), 14, color=ft.Colors.ON_SURFACE_VARIANT),
        online,
        *(_tile(app, g, in_progress) for g in ("lanes", "lopti", "spit")),
        # below the games: they stay where a player knows them
        *in_progress_section(app, lambda: app.go("/"), in_progress),
    ], scroll=ft.ScrollMode.AUTO, spacing=12)
    from views.online.address import account_here

    if account_here(app) is not None:
        app.page.run_task(_offer_online_matches, app, online)
    return ft.Container(body, padding=ft.Padding.all(16))


async def _offer_online_matches(app: Host, online: ft.Column) -> None:
    """Signed in: a match still running at the lobby is offered at once on opening the app (its
    clock runs, and the away rule with it). Quiet when the lobby cannot be reached."""
    import asyncio

    from storage.lobby_client import LobbyRefused, LobbyUnavailable
    from views.online.screens import client_for

    client = client_for(app)
    if client is None:
        return
    scope = app.scope  # the home screen's: leaving it before the answer drops the offer
    try:
        mine = await asyncio.to_thread(client.my_matches)
    except (LobbyUnavailable, LobbyRefused):
        return
    finally:
        client.close()
    if not mine or not scope.open:
        return
    lang = app.lang
    online.controls = [ft.Semantics(identifier=f"home-online-{m['match_id']}", button=True, content=ft.FilledButton(
        t(lang, "ol_continue_match", name=m["opponent"] or "?"), icon=ft.Icons.PUBLIC,
        on_click=lambda e, mid=str(m["match_id"]): _rejoin(app, mid))) for m in mine[:3]]
    app.page.update()


def _rejoin(app: Host, match_id: str) -> None:
    """The online table opens on the Online screen's route, so back from it lands there."""
    from views.online.screens import rejoin

    app.go("/online")
    app.page.run_task(rejoin, app, match_id)
