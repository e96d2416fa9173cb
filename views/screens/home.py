"""Home: the games in progress (views/screens/in_progress.py), the three games (continue the newest
game in progress, quick starts, Learn, Rules), and in the top bar Learn, Online, History & stats and
Settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from storage import api
from storage.seats import PERSON
from views.games import games
from views.screens.in_progress import in_progress_section
from views.ui import theme
from views.ui.i18n import t
from views.ui.reconcile import send
from views.ui.widgets import icon_button, loaded_ahead, pad, tagged, text

if TYPE_CHECKING:
    from views.game_views import GameViews
    from views.host import Host


def _continue(app: Host, game: GameViews, in_progress: list[api.GameInfo]) -> ft.Control | None:
    """"Continue" for the newest game in progress (or the game's own place between games: a Lopti
    session between deals)."""
    route = next((f"/play/{g.id}" for g in in_progress if g.game == game.name), None) or game.between(app)
    if route is None:
        return None
    return ft.FilledButton(t(app.lang, "continue"), on_click=lambda e: app.go(route))


def _starts(app: Host, game: GameViews) -> list[ft.Control]:
    if game.home_starts is not None:
        return game.home_starts(app)
    out: list[ft.Control] = [ft.Semantics(identifier=f"play-{game.name}", content=ft.Button(
        t(app.lang, "play_vs_bot"), on_click=lambda e: app.go(f"/{game.name}/new")))]
    again = api.last_opponent(app.storage, game.name)
    if again is not None:  # a returning player reaches a table in one tap: the last opponent again
        who = t(app.lang, "pass_and_play" if again == PERSON else again)
        out.insert(0, tagged(f"again-{game.name}", ft.FilledTonalButton(
            t(app.lang, "play_again_vs", who=who), icon=ft.Icons.REPLAY,
            on_click=lambda e: app.start_game(game.name, again))))
    return out


def _tile(app: Host, views: GameViews, in_progress: list[api.GameInfo]) -> ft.Control:
    lang, game = app.lang, views.name
    buttons = _starts(app, views)
    resume = _continue(app, views, in_progress)
    if resume is not None:
        buttons.insert(0, resume)
    extra: list[ft.Control] = [
        ft.TextButton(t(lang, "learn"), icon=ft.Icons.SCHOOL, on_click=lambda e: app.go(f"/learn/{game}")),
        ft.TextButton(t(lang, "rules"), icon=ft.Icons.MENU_BOOK, on_click=lambda e: app.go(f"/rules/{game}"))]
    return ft.Card(col=theme.TILE_COLUMNS, content=ft.Container(padding=theme.SPACE_WIDE, content=ft.Column([
        text(lang, t(lang, game), theme.TYPE_TILE, True),
        text(lang, t(lang, f"{game}_blurb"), theme.TYPE_BODY),
        ft.Row(buttons, wrap=True, spacing=theme.SPACE),
        ft.Row(extra, wrap=True, spacing=theme.SPACE_NONE),
    ], spacing=theme.SPACE)))


def home(app: Host) -> ft.Control:
    lang = app.lang
    online = ft.Column(spacing=theme.SPACE_SNUG)  # filled with the running online matches, when there are any
    in_progress = api.local_games_in_progress(app.storage)  # read once for the tiles and the list
    body = ft.Column([
        ft.Row([ft.Container(text(lang, t(lang, "app_title"), theme.TYPE_DISPLAY, True), expand=True),
                icon_button(ft.Icons.SCHOOL, t(lang, "learn"), lambda e: app.go("/learn")),
                icon_button(ft.Icons.PUBLIC, t(lang, "online"), lambda e: app.go("/online")),
                icon_button(ft.Icons.BAR_CHART, t(lang, "stats"), lambda e: app.go("/stats")),
                icon_button(ft.Icons.SETTINGS, t(lang, "settings"), lambda e: app.go("/settings"))]),
        text(lang, t(lang, "tagline"), theme.TYPE_BODY, color=theme.PAGE_MUTED),
        online,
        ft.ResponsiveRow([_tile(app, g, in_progress) for g in games().values()], spacing=theme.SPACE_LOOSE,
                         run_spacing=theme.SPACE_LOOSE),
        # below the games: they stay where a player knows them
        *in_progress_section(app, lambda: app.go("/"), in_progress),
        # the coming deal's first pictures, loaded while the player looks: its table draws at once
        loaded_ahead([src for g in games().values() for src in g.first_pictures(app, app.coming_seed())]),
    ], scroll=ft.ScrollMode.AUTO, spacing=theme.SPACE_LOOSE)
    from views.online.address import account_here

    if account_here(app) is not None:
        app.page.run_task(_offer_online_matches, app, online)
    return ft.Container(body, padding=pad(theme.SPACE_WIDE))


async def _offer_online_matches(app: Host, online: ft.Column) -> None:
    """Signed in: a match still running at the lobby is offered at once on opening the app (its
    clock runs, and the away rule with it). Quiet when the lobby cannot be reached."""
    import asyncio

    from storage.lobby_client import LobbyRefused, LobbyUnavailable
    from views.online.common import client_for

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
    online.controls = [tagged(f"home-online-{m['match_id']}", ft.FilledButton(
        t(lang, "ol_continue_match", name=m["opponent"] or "?"), icon=ft.Icons.PUBLIC,
        on_click=lambda e, mid=str(m["match_id"]): _rejoin(app, mid))) for m in mine[:3]]
    send(online)


def _rejoin(app: Host, match_id: str) -> None:
    """The online table opens on the Online screen's route, so back from it lands there."""
    from views.online.find import rejoin

    app.go("/online")
    app.page.run_task(rejoin, app, match_id)
