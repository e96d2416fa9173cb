"""The leaderboard and the player's profile (rating history, recent matches).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft
import flet.canvas as cv

from views.online.address import account_here
from views.ui import theme
from views.ui.i18n import listed, t
from views.ui.widgets import text

if TYPE_CHECKING:
    from views.host import Host
from views.online.common import FAILED, Home, any_client, client_for, fetch, me_said, page


async def leaderboard(app: Host, home: Home) -> None:
    lang = app.lang
    client = any_client(app)
    if client is None:
        home("")
        return
    rows = await fetch(app, home, t(lang, "ol_leaderboard"), client.leaderboard)
    client.close()
    if rows is FAILED:
        return
    items: list[ft.Control] = [
        text(lang, f"{i + 1}. {r['name']} — {r['rating']}" + (" ?" if r.get("provisional") else ""), theme.TYPE_LEAD)
        for i, r in enumerate(rows)]
    page(app, t(lang, "ol_leaderboard"), items or [text(lang, t(lang, "ol_nobody"), theme.TYPE_BODY)],
            back=lambda e: home(""))


async def profile(app: Host, home: Home) -> None:
    lang = app.lang
    acc = account_here(app)
    client = client_for(app)
    if acc is None or client is None:
        home("")
        return
    p = await fetch(app, home, t(lang, "ol_profile"), client.profile, acc.player_id)
    client.close()
    if p is FAILED:
        return
    lines: list[ft.Control] = [text(lang, me_said(lang, p), theme.TYPE_STRONG, True)]
    hist = p.get("history", [])
    if hist:
        ratings = [int(h["rating"]) for h in hist[-40:]]
        lines.append(text(lang, t(lang, "ol_history") + ": " + " → ".join(map(str, ratings[-12:])), theme.TYPE_SMALL))
        lines.append(rating_plot(lang, ratings, t(lang, "ol_history")))
    for m in p.get("recent", [])[:15]:
        res = "result_none" if m.get("winner") is None else (
            "result_won" if m.get("winner") == m.get("seat") else "result_lost")
        lines.append(text(lang, f"{t(lang, res)} · {t(lang, 'reason_' + str(m.get('reason')))} · "
                                f"{t(lang, 'ol_rated' if m.get('rated') else 'ol_casual')}", theme.TYPE_SMALL))
    page(app, t(lang, "ol_profile"), lines, back=lambda e: home(""))


def rating_plot(lang: str, ratings: list[int], label: str, width: float = 320, height: float = 110) -> ft.Control:
    """The rating after each rated match as a small line plot (drawn on a canvas: no chart package),
    with the lowest and highest rating written beside it; a screen reader hears the whole series."""
    lo, hi = min(ratings), max(ratings)
    span = max(hi - lo, 1)
    step = width / max(len(ratings) - 1, 1)
    points = [(i * step, height - 8 - (r - lo) / span * (height - 16)) for i, r in enumerate(ratings)]
    path = [cv.Path.MoveTo(*points[0]), *(cv.Path.LineTo(x, y) for x, y in points[1:])]
    paint = ft.Paint(color=theme.PAGE_GOOD, stroke_width=2.5, style=ft.PaintingStyle.STROKE)  # light and dark
    dots = [cv.Circle(x, y, 3, ft.Paint(color=theme.PAGE_GOOD)) for x, y in points]
    return ft.Semantics(identifier="rating-plot", label=f"{label}: {listed(lang, ratings)}", content=ft.Row([
        cv.Canvas([cv.Path(path, paint), *dots], width=width, height=height),
        ft.Column([ft.Text(str(hi), size=theme.TYPE_TINY), ft.Text(str(lo), size=theme.TYPE_TINY)],
                  alignment=ft.MainAxisAlignment.SPACE_BETWEEN, height=height)], spacing=theme.SPACE_SNUG))
