"""Background sweeps: the time rules enforced without any request, seeks paired, presence
written, and the clocks shifted after a restart."""

from __future__ import annotations

from sqlmodel import Session, select

from lobby.clock import Clock
from lobby.matches import enforce
from lobby.matchmaking import pair_seeks
from lobby.models import Match, ServerState
from lobby.rows import Db, flush_presence, load
from lobby.timerules import due_ids


def sweep_match(db: Db, clock: Clock, match_id: str) -> bool:
    """Enforce the time rules on one match; True if it ended. A match locked by a move or by another
    worker's sweeper is skipped (``SKIP LOCKED``): whoever holds the lock enforces the clock itself."""
    m = load(db, match_id, lock="skip", running_only=True)
    if m is None:
        return False
    enforce(db, clock, m)
    return m.status != "running"


def mark_alive(db: Session, clock: Clock) -> None:
    st = db.get(ServerState, 1, with_for_update=True) or ServerState(id=1)
    st.last_alive = clock.now()
    db.add(st)


def sweep(db: Session, clock: Clock) -> int:
    """Enforce time rules on every running match, pair seeks, and note that the server is alive
    (the app's sweeper does the same with one short transaction per match)."""
    flush_presence(db)
    n = sum(sweep_match(db, clock, mid) for mid in due_ids(db, clock.now(), clock.rules))
    pair_seeks(db, clock)
    mark_alive(db, clock)
    return n


def resume_after_restart(db: Session, clock: Clock) -> float:
    """After downtime, shift every running match's timestamps by the downtime, so nobody is flagged,
    aborted or marked away for the time the server was gone. Returns the downtime in seconds.

    The downtime of a match starts at the last instant the database shows that match alive: the
    later of the server's heartbeat (``last_alive``, written by every sweep, about once a second)
    and the match's last move (``turn_started_at``). Measured from the heartbeat alone, a move made
    after the last heartbeat had its thinking time rewound to the heartbeat, so a restart could give
    the mover back more time than the move left them (docs/lobby.md, "Restarts"). So a restart
    gives nobody more than their clock showed at the match's last persisted instant; the time from
    then to the crash — at most one sweep period — is the only time it forgives."""
    # several workers start at once: the first to lock the server row shifts the clocks and moves
    # last_alive to now, so the others see no downtime and shift nothing
    st = db.get(ServerState, 1, with_for_update=True)
    if st is None or not st.last_alive:
        return 0.0
    now = clock.now()
    down = max(0.0, now - st.last_alive)
    if down < 1.0:
        return down
    for m in db.exec(select(Match).where(Match.status == "running").with_for_update()).all():
        m.turn_started_at += max(0.0, now - max(st.last_alive, m.turn_started_at))
        m.last_seen0 += down
        m.last_seen1 += down
        db.add(m)
    st.last_alive = now
    db.add(st)
    return down
