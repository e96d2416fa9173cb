"""Matchmaking: seeks paired by rating window and terms, challenges by code, and the start of a
match (its seed from the clock, the seats by the seed)."""

from __future__ import annotations

import json
import secrets

from sqlmodel import Session, col, select

from engine.cards import Rng
from engine.core import EngineError
from engine.lanes import LanesOptions
from lobby.clock import Clock, TimeRules
from lobby.common import LobbyError, new_id
from lobby.matches import add_event
from lobby.models import Challenge, Match, Player, Seek
from lobby.timerules import TIME_CONTROLS

# --- seeks, matchmaking, challenges ----------------------------------------------------------

def _check_terms(rated: bool, time_control: str, variants: list[str]) -> str:
    if time_control not in TIME_CONTROLS:
        raise LobbyError(422, f"time control must be one of {', '.join(TIME_CONTROLS)}")
    try:
        options = LanesOptions.from_json({"variants": variants})
    except EngineError as exc:
        raise LobbyError(422, exc.message) from None
    if rated and not options.ranked:
        raise LobbyError(422, "variants are never rated (L-8.5): make it a casual game or remove the variants")
    return json.dumps(sorted(set(variants)))  # the same terms however often a variant is named


#: how long an open seek waits for a match before it expires, by default (docs/lobby.md,
#: "Matchmaking"; a server's own is its clock's ``rules.seek_lifetime_s``)
SEEK_LIFETIME_S = TimeRules.seek_lifetime_s
#: how long a challenge's code can be accepted, by default
CHALLENGE_LIFETIME_S = TimeRules.challenge_lifetime_s


def seek_expired(seek: Seek, clock: Clock) -> bool:
    return seek.status == "open" and clock.now() - seek.created_at > clock.rules.seek_lifetime_s


def challenge_expired(c: Challenge, clock: Clock) -> bool:
    return c.match_id is None and clock.now() - c.created_at > clock.rules.challenge_lifetime_s


def window(waited_s: float) -> float:
    """Rating gap accepted for a pairing; widens while waiting."""
    return 100.0 + 50.0 * (waited_s // 5)


def create_seek(db: Session, clock: Clock, player: Player, rated: bool, time_control: str,
                variants: list[str]) -> Seek:
    v = _check_terms(rated, time_control, variants)
    for old in db.exec(select(Seek).where(Seek.player_id == player.id, Seek.status == "open")).all():
        old.status = "cancelled"
        db.add(old)
    seek = Seek(id=new_id("s_"), player_id=player.id, rated=rated, time_control=time_control, variants=v,
                rating=player.rating, created_at=clock.now())
    db.add(seek)
    db.flush()
    pair_seeks(db, clock)
    return seek


def pair_seeks(db: Session, clock: Clock) -> int:
    """Pair open seeks (the sweeper's job, every second, and once as a seek is made): the same
    terms, the closest rating within a window that widens while either waits; the seek waiting
    longest chooses first. Seeks past their lifetime expire instead. Sorted by rating within their
    terms, a seek looks only at the neighbours inside the widest window: n log n, not n²."""
    now = clock.now()
    # SKIP LOCKED: two workers' sweepers pair disjoint sets of seeks, never one seek twice
    opened = list(db.exec(select(Seek).where(Seek.status == "open").order_by(col(Seek.created_at))
                          .with_for_update(skip_locked=True)).all())
    for s in opened:
        if seek_expired(s, clock):
            s.status = "expired"
            db.add(s)
    waiting = [s for s in opened if s.status == "open"]
    groups: dict[tuple[bool, str, str], list[Seek]] = {}
    for s in waiting:
        groups.setdefault((s.rated, s.time_control, s.variants), []).append(s)
    made = 0
    used: set[str] = set()
    for group in groups.values():
        made += _pair_group(db, clock, group, used, now)
    return made


def _pair_group(db: Session, clock: Clock, group: list[Seek], used: set[str], now: float) -> int:
    """Pair the seeks of one set of terms (``group``, oldest first)."""
    by_rating = sorted(range(len(group)), key=lambda i: (group[i].rating, i))
    place = {i: k for k, i in enumerate(by_rating)}
    widest = window(now - group[0].created_at) if group else 0.0  # the oldest has the widest window
    made = 0
    for i, s in enumerate(group):
        if s.id in used:
            continue
        best: tuple[float, int] | None = None
        for step in (-1, 1):
            k = place[i] + step
            while 0 <= k < len(by_rating):
                o = group[by_rating[k]]
                gap = abs(o.rating - s.rating)
                if gap > max(widest, window(now - s.created_at)):
                    break  # every seek further out is further away still
                if o.id not in used and o.player_id != s.player_id \
                        and gap <= max(window(now - s.created_at), window(now - o.created_at)):
                    best = min(best or (gap, by_rating[k]), (gap, by_rating[k]))
                k += step
        if best is not None:
            o = group[best[1]]
            m = start_match(db, clock, s.player_id, o.player_id, s.rated, s.time_control, json.loads(s.variants))
            for x in (s, o):
                x.status, x.match_id = "matched", m.id
                db.add(x)
                used.add(x.id)
            made += 1
    return made


def create_challenge(db: Session, clock: Clock, player: Player, rated: bool, time_control: str,
                     variants: list[str]) -> Challenge:
    v = _check_terms(rated, time_control, variants)
    code = "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    c = Challenge(code=code, player_id=player.id, rated=rated, time_control=time_control, variants=v,
                  created_at=clock.now())
    db.add(c)
    return c


def accept_challenge(db: Session, clock: Clock, player: Player, code: str) -> Match:
    c = db.get(Challenge, code.upper(), with_for_update=True)  # two accepts: one match
    if c is None:
        raise LobbyError(404, "no challenge with that code")
    if c.match_id:
        raise LobbyError(409, "that challenge was already accepted")
    if challenge_expired(c, clock):
        raise LobbyError(409, "that challenge has expired: ask your friend for a new code")
    if c.player_id == player.id:
        raise LobbyError(422, "you cannot accept your own challenge")
    m = start_match(db, clock, c.player_id, player.id, c.rated, c.time_control, json.loads(c.variants))
    c.match_id = m.id
    db.add(c)
    return m


def start_match(db: Session, clock: Clock, a: str, b: str, rated: bool, time_control: str,
                variants: list[str], seats_by_seed: bool = True) -> Match:
    """A new match between players ``a`` and ``b``: the seats drawn by its seed, or ``a`` in seat 0
    when ``seats_by_seed`` is False (a rematch swaps the seats of the match before)."""
    base, inc = TIME_CONTROLS[time_control]
    seed = clock.new_seed()
    seats = [a, b]
    if seats_by_seed and Rng(seed).below(2):
        seats.reverse()
    now = clock.now()
    m = Match(id=new_id("m_"), seed=seed, options=json.dumps(LanesOptions.from_json({"variants": variants}).to_json()),
              player0=seats[0], player1=seats[1], rated=rated, base_ms=base * 1000, inc_ms=inc * 1000,
              remaining0=base * 1000, remaining1=base * 1000, turn_started_at=now, last_seen0=now, last_seen1=now,
              created_at=now)
    db.add(m)
    add_event(db, m, {"type": "start", "time_control": time_control, "rated": rated})
    return m
