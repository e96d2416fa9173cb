"""Lopti at the table: every table is a session of deals (P-2.3) at ``/lopti/session/<id>``; a
deal in progress opens on its table, a session between deals on its session screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage import api
from storage.damage import DAMAGE
from storage.seats import PERSON
from views.lopti.controller import LoptiMatch
from views.lopti.session import SessionFlow
from views.lopti.session_page import seat_label
from views.lopti.session_screen import session_screen
from views.lopti.table import LoptiTable
from views.screens.in_progress import ask_before_new
from views.table.screen import NewGame
from views.ui import theme
from views.ui.i18n import t
from views.ui.widgets import felt

if TYPE_CHECKING:
    from views.host import Host

def new_session(app: Host, players: int, levels: list[str] | None = None) -> None:
    """A new session (P-2.3) at once on its first deal: deal after deal, each winner adding a
    house rule (the quick table from home: its bots are the level chosen there, remembered)."""
    flow = SessionFlow(app.storage, levels or app.prefs.lopti_levels(players), app.new_seed())
    match = flow.start_deal()
    open_deal(app, match, flow, route=f"/lopti/session/{flow.session_id}")


#: a quick table from elsewhere (a rematch, "play for real" after a lesson): three seats
QUICK_PLAYERS = 3


def new_game(app: Host) -> NewGame:
    """A quick table from a table ("play for real" after the last lesson), its bots as chosen on
    home; asked first when another Lopti deal is in progress."""
    return lambda level: ask_before_new(app, "lopti", lambda: new_session(app, QUICK_PLAYERS))


def open_deal(app: Host, match: LoptiMatch, flow: SessionFlow | None = None, route: str | None = None) -> None:
    """A deal on its table (``route``: open it there; else on the current route); a session's
    deal, when it is over, goes on to the screen between deals."""
    table = LoptiTable(app, match, new_game(app), flow, lambda done: deal_done(app, done))
    content = felt(table.build(), app.page.width)
    if route is not None:
        app.open(route, content, table)
    else:
        app.show(content, bg=theme.FELT, screen=table)
    if not match.status.over and not match.my_turn:
        app.page.run_task(table.bot_turn)


def session(app: Host, session_id: int) -> bool:
    """A stored session: its deal in progress, else the screen between deals (False: none such)."""
    if not any(s["id"] == session_id for s in api.sessions(app.storage)):
        return False
    try:
        flow = SessionFlow.resume(app.storage, session_id)
    except DAMAGE as exc:  # a damaged stored session: say so, keep the app
        app.turn_back(t(app.lang, "sess_broken", why=str(exc)))
        return True
    match = flow.current_match()
    if match is not None:
        open_deal(app, match, flow)
    else:
        session_screen(app, flow, deal=open_deal)
    return True


def resume_deal(app: Host, game_id: int) -> None:
    """A stored Lopti deal: with its session when it belongs to one."""
    sid = next((s["id"] for s in api.sessions(app.storage) if s["current_game_id"] == game_id), None)
    if sid is not None:
        app.go(f"/lopti/session/{sid}")
    else:
        open_deal(app, LoptiMatch.resume(app.storage, game_id))


def deal_done(app: Host, table: LoptiTable) -> None:
    """A session's deal is over: record it (a bot winner writes its rule), then between deals."""
    flow = table.session
    if flow is None:
        return
    flow.deal_over(table.match)
    notice = ""
    w = flow.winner
    if w is not None and flow.levels[w] != PERSON and flow.session.rules:
        _, words, _, _ = flow.rules_in_force(app.lang)[-1]
        notice = t(app.lang, "sess_bot_rule", who=seat_label(flow, w, app.lang), rule=words)
    session_screen(app, flow, notice, open_deal)
