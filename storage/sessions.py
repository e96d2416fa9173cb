"""Stored Lopti sessions (the steps between deals; their deals are stored games).
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import col, select

from storage.damage import DamagedRecord
from storage.db import Storage, now
from storage.models import LoptiSessionRow


def save_session(st: Storage, data: dict[str, Any], seats: list[dict[str, Any]], name: str = "Session",
                 session_id: int | None = None, status: str = "running", current_game_id: int | None = None) -> int:
    if status not in ("running", "paused", "ended"):
        raise ValueError("status is running, paused or ended")
    with st.session() as s:
        row = (s.get(LoptiSessionRow, session_id) if session_id is not None else None) or LoptiSessionRow()
        row.name, row.seats, row.data = name, json.dumps(seats), json.dumps(data, sort_keys=True)
        row.status, row.current_game_id, row.updated_at = status, current_game_id, now()
        s.add(row)
        s.flush()
        assert row.id is not None
        return row.id


def load_session(st: Storage, session_id: int) -> dict[str, Any]:
    with st.session() as s:
        row = s.get(LoptiSessionRow, session_id)
        if row is None:
            raise KeyError(f"no session {session_id}")
        return _session(row)


def _session(row: LoptiSessionRow) -> dict[str, Any]:
    try:
        seats, data = json.loads(row.seats), json.loads(row.data)
    except json.JSONDecodeError as exc:
        raise DamagedRecord(f"session {row.id} is not readable: {exc}") from None
    return {"id": row.id, "name": row.name, "seats": seats, "data": data, "status": row.status,
            "current_game_id": row.current_game_id, "updated_at": row.updated_at}


def sessions(st: Storage) -> list[dict[str, Any]]:
    """Every Lopti session, the latest first (one query)."""
    with st.session() as s:
        rows = s.exec(select(LoptiSessionRow).order_by(col(LoptiSessionRow.updated_at).desc())).all()
    return [_session(r) for r in rows]
