"""Clocks and time rules (L-8.3, L-8.4): the time controls, remaining time computed from stored
timestamps (clocks never tick), and which running matches a time rule may have ended by now.
How long each rule runs is the clock's :class:`lobby.clock.TimeRules`."""

from __future__ import annotations

from sqlalchemy import and_, case, not_, or_
from sqlmodel import Session, col, select

from lobby.clock import TimeRules
from lobby.common import AnyMatch
from lobby.models import Match
from lobby.states import state_of

#: the rules' durations (the defaults of :class:`lobby.clock.TimeRules`; a server enforces its clock's)
FIRST_MOVE_S = TimeRules.first_move_s
AWAY_S = TimeRules.away_s
AWAY_WARN_S = TimeRules.away_warn_s
UNTIMED_MOVE_S = TimeRules.untimed_move_s
LAG_ALLOWANCE_S = TimeRules.lag_allowance_s
TIME_CONTROLS: dict[str, tuple[int, int]] = {"1+0": (60, 0), "3+2": (180, 2), "5+3": (300, 3), "10+5": (600, 5),
                                             "untimed": (0, 0)}


def time_control_of(m: AnyMatch) -> str:
    """The name of the match's time control ("custom" for terms no seek or challenge offers)."""
    return next((k for k, v in TIME_CONTROLS.items() if v == (m.base_ms // 1000, m.inc_ms // 1000)), "custom")


def clock_running(m: AnyMatch) -> bool:
    return m.status == "running" and m.moved0 and m.moved1


def remaining_ms(m: AnyMatch, now: float) -> list[int]:
    rem = [m.remaining0, m.remaining1]
    if m.base_ms and clock_running(m):
        p = state_of(m).to_move
        rem[p] = int(rem[p] - (now - m.turn_started_at) * 1000)
    return rem


def due_ids(db: Session, now: float, rules: TimeRules | None = None) -> list[str]:
    """The running matches on which some time rule *may* have fired by ``now``: one indexed query
    instead of a transaction per running match every second (with 1,000 matches the sweeper alone
    filled the server). It is a superset — the side to move is not known to SQL, so the smaller of
    the two clocks stands for it — and :func:`enforce` decides exactly."""
    r = rules or TimeRules()
    both_moved = and_(col(Match.moved0), col(Match.moved1))
    smaller = case((col(Match.remaining0) < col(Match.remaining1), col(Match.remaining0)),
                   else_=col(Match.remaining1))
    due = or_(
        col(Match.last_seen0) + r.away_s <= now,
        col(Match.last_seen1) + r.away_s <= now,
        and_(not_(both_moved), col(Match.turn_started_at) + r.first_move_s <= now),
        and_(both_moved, col(Match.base_ms) > 0,
             col(Match.turn_started_at) + smaller / 1000.0 + r.lag_allowance_s <= now),
        and_(both_moved, col(Match.base_ms) == 0, col(Match.turn_started_at) + r.untimed_move_s <= now),
    )
    return list(db.exec(select(Match.id).where(Match.status == "running", due)).all())
