"""The player's profile and settings, saved presets, lesson progress, online accounts and the
sync outbox.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import col, select

from engine.games import rules_for
from storage.db import Storage, now
from storage.lobby_address import BadAddress, normalise
from storage.models import Account, Outbox, Preset, Profile, TutorialProgress

DEFAULT_SETTINGS: dict[str, Any] = {"language": "en", "theme": "system", "sound": True, "haptics": True,
                                    "bot_speed": "normal", "default_variants": [], "card_style": "classic",
                                    "hint_level": "casual", "reduce_motion": False,
                                    "lopti_bots": "mixed",  # the quick Lopti table's bots: a level, or mixed
                                    "quick_messages": True,  # online quick messages shown (False: muted)
                                    "spectators": True,  # others may watch my rated matches (the lobby's too)
                                    "lobby_url": ""}  # "": the built-in address (storage/lobby_address.py)


# --- profile and settings ---------------------------------------------------------------------------

def get_profile(st: Storage) -> tuple[str, dict[str, Any]]:
    with st.session() as s:
        row = s.get(Profile, 1)
        if row is None:
            return "Player", dict(DEFAULT_SETTINGS)
        settings = {**DEFAULT_SETTINGS, **json.loads(row.settings)}
        settings["card_style"] = row.card_style
        return row.display_name, settings


def update_profile(st: Storage, display_name: str | None = None, **settings: Any) -> dict[str, Any]:
    unknown = set(settings) - set(DEFAULT_SETTINGS)
    if unknown:
        raise ValueError(f"unknown setting(s): {', '.join(sorted(unknown))}")
    with st.session() as s:
        row = s.get(Profile, 1) or Profile(id=1)
        merged = {**DEFAULT_SETTINGS, **json.loads(row.settings), **settings}
        row.card_style = merged.pop("card_style")
        row.settings = json.dumps(merged, sort_keys=True)
        if display_name is not None:
            name = display_name.strip()
            if not 1 <= len(name) <= 40:
                raise ValueError("a display name has 1 to 40 characters")
            row.display_name = name
        s.add(row)
        return {**merged, "card_style": row.card_style}


# --- presets, tutorial progress, account, outbox ----------------------------------------------------

def check_preset(kind: str, name: Any, data: Any) -> None:
    """A preset the library can keep, or ValueError saying why: a Lanes variant set, or a Lopti
    rule — an engine rule the validator accepts, or a table rule's words (#36 item 6)."""
    if not isinstance(name, str) or not 1 <= len(name) <= 400:
        raise ValueError("a preset's name has 1 to 400 characters")
    if kind == "lanes_variants":
        rules_for("lanes").parse_options({"variants": data})
    elif kind == "lopti_rule":
        from engine.lopti.house_rules import RuleError, parse_rule
        from engine.lopti.table_rules import is_table_rule, table_rule
        try:
            table_rule(str(data.get("id") or "t"), data["table"]) if is_table_rule(data) else parse_rule(data)
        except RuleError as exc:
            raise ValueError("; ".join(exc.problems)) from None
    else:
        raise ValueError("a preset is a lanes_variants set or a lopti_rule")


def save_preset(st: Storage, kind: str, name: str, data: Any) -> int:
    """Keep a preset in the library; the same data saved again is kept once (its first id)."""
    check_preset(kind, name, data)
    stored = json.dumps(data, sort_keys=True)
    with st.session() as s:
        same = s.exec(select(Preset).where(Preset.kind == kind, Preset.data == stored)).first()
        if same is not None and same.id is not None:
            return same.id
        row = Preset(kind=kind, name=name, data=stored, created_at=now())
        s.add(row)
        s.flush()
        assert row.id is not None
        return row.id


def delete_preset(st: Storage, preset_id: int) -> None:
    with st.session() as s:
        row = s.get(Preset, preset_id)
        if row is not None:
            s.delete(row)


def presets(st: Storage, kind: str) -> list[tuple[int, str, Any]]:
    with st.session() as s:
        rows = s.exec(select(Preset).where(Preset.kind == kind).order_by(col(Preset.id))).all()
        return [(r.id or 0, r.name, json.loads(r.data)) for r in rows]


def set_lesson(st: Storage, lesson_id: str, step: int, completed: bool) -> None:
    with st.session() as s:
        row = s.get(TutorialProgress, lesson_id) or TutorialProgress(lesson_id=lesson_id)
        row.step, row.completed, row.updated_at = step, completed or row.completed, now()
        s.add(row)


def lesson_progress(st: Storage) -> dict[str, tuple[int, bool]]:
    with st.session() as s:
        return {r.lesson_id: (r.step, r.completed) for r in s.exec(select(TutorialProgress)).all()}


def _same_lobby(a: str, b: str) -> bool:
    try:
        return normalise(a) == normalise(b)
    except BadAddress:
        return a.rstrip("/") == b.rstrip("/")


def accounts(st: Storage) -> list[Account]:
    """Every online account kept here, one per lobby: a guest account belongs to its lobby, so
    changing the address keeps the old one for when the player switches back."""
    with st.session() as s:
        return list(s.exec(select(Account).order_by(col(Account.id))).all())


def get_account(st: Storage, lobby_url: str) -> Account | None:
    """The account at this lobby, if the player signed in there."""
    return next((a for a in accounts(st) if _same_lobby(a.lobby_url, lobby_url)), None)


def set_account(st: Storage, lobby_url: str, player_id: str, token: str, display_name: str) -> None:
    """Signed in at ``lobby_url``: its account is added, or replaces the one kept for that lobby."""
    old = get_account(st, lobby_url)
    with st.session() as s:
        row = (s.get(Account, old.id) if old is not None else None) or Account(
            lobby_url=lobby_url, player_id=player_id, token=token)
        row.lobby_url, row.player_id, row.token, row.display_name = lobby_url, player_id, token, display_name
        s.add(row)


def clear_account(st: Storage, lobby_url: str) -> None:
    """Sign out of one lobby: forget its account (the lobby keeps the player; the token is gone here)."""
    old = get_account(st, lobby_url)
    if old is None:
        return
    with st.session() as s:
        row = s.get(Account, old.id)
        if row is not None:
            s.delete(row)


def enqueue(st: Storage, kind: str, payload: Any) -> int:
    with st.session() as s:
        row = Outbox(kind=kind, payload=json.dumps(payload, sort_keys=True), created_at=now())
        s.add(row)
        s.flush()
        assert row.id is not None
        return row.id


def pending(st: Storage) -> list[tuple[int, str, Any]]:
    with st.session() as s:
        rows = s.exec(select(Outbox).order_by(col(Outbox.id))).all()
        return [(r.id or 0, r.kind, json.loads(r.payload)) for r in rows]


def done(st: Storage, outbox_id: int) -> None:
    with st.session() as s:
        row = s.get(Outbox, outbox_id)
        if row is not None:
            s.delete(row)
