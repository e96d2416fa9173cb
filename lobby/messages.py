"""Quick messages (#45): a fixed set of phrases and emotes a player sends during a match — no free
text, so there is nothing to moderate; each app shows them in its player's language. Public: an
event of the match (``{"type": "say", "seat", "phrase"}``) that both players hear on their long
poll or stream; never part of the record (replaying the match ignores them).

Rate-limited per player and match: one every :data:`GAP_S` seconds and at most :data:`PER_MATCH`
in all; past either the lobby answers 429 and nothing is sent."""

from __future__ import annotations

from typing import Any

from lobby.accounts import Caller
from lobby.clock import Clock
from lobby.common import LobbyError
from lobby.matches import add_event, enforce, locked_match, touch
from lobby.models import Player
from lobby.rows import Db, insert_many, run

#: what a player may say: phrases, then emotes (the app names each in its player's language)
PHRASES = ("hello", "good_luck", "have_fun", "nice_move", "well_played", "thanks", "oops", "thinking",
           "good_game", "emote_smile", "emote_thumbs_up", "emote_wow", "emote_sad")
#: seconds between two messages of one player in one match
GAP_S = 3.0
#: messages one player may send in one match
PER_MATCH = 30


def say(db: Db, clock: Clock, player: Player | Caller, match_id: str, phrase: str) -> dict[str, Any]:
    """Send ``phrase`` to the match (both players hear it) while the match runs."""
    if phrase not in PHRASES:
        raise LobbyError(422, "a quick message is one of the fixed phrases", {"phrases": list(PHRASES)})
    m, seat = locked_match(db, match_id, player)
    touch(db, clock, m, seat)  # the sender is here
    enforce(db, clock, m)  # a flag that fell first ends the match before anything is said
    if m.status != "running":
        raise LobbyError(409, "the match is over")
    sent, last = run(db, "SELECT COUNT(*), MAX(at) FROM quickmessage WHERE match_id = :m AND seat = :s",
                     {"m": m.id, "s": seat}).fetchone()
    now = clock.now()
    if sent >= PER_MATCH:
        raise LobbyError(429, f"at most {PER_MATCH} quick messages in a match", {"retry_after_s": None})
    if last is not None and now - float(last) < GAP_S:
        wait = round(GAP_S - (now - float(last)), 1)
        raise LobbyError(429, "one quick message every few seconds", {"retry_after_s": wait})
    insert_many(db, "quickmessage", [{"match_id": m.id, "seat": seat, "phrase": phrase, "at": now}])
    n = add_event(db, m, {"type": "say", "seat": seat, "phrase": phrase})
    return {"ok": True, "n": n, "seat": seat, "phrase": phrase}
