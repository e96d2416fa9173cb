"""Ratings: Glicko-2 after a rated match (lichess's rating period), both players locked in id order."""

from __future__ import annotations

from typing import Any

from lobby.accounts import forget_player
from lobby.clock import Clock
from lobby.common import AnyMatch, dumps
from lobby.glicko2 import Rating, after_game
from lobby.rows import Db, for_update, insert_many, run

RATING_PERIOD_S = 86400.0 * 0.21436  # lichess's rating period, in seconds


def rate_match(db: Db, clock: Clock, m: AnyMatch) -> dict[str, Any]:
    # lock both players in a fixed order (two of a player's matches may end at the same moment)
    players = {}
    for pid in sorted((m.player0, m.player1)):
        players[pid] = run(db, "SELECT rating, rd, vol, last_rated_at FROM player WHERE id = :id" + for_update(db),
                           {"id": pid}).fetchone()
    now = clock.now()
    score0 = 0.5 if m.winner is None else (1.0 if m.winner == 0 else 0.0)

    def periods(last_rated_at: float | None) -> float:
        return 0.0 if last_rated_at is None else min(1.0, (now - last_rated_at) / RATING_PERIOD_S)
    (a0, d0, v0, t0), (a1, d1, v1, t1) = players[m.player0], players[m.player1]
    r0, r1 = after_game(Rating(a0, d0, v0), Rating(a1, d1, v1), score0, periods_a=periods(t0), periods_b=periods(t1))
    change = {}
    for seat, pid, before, r in ((0, m.player0, a0, r0), (1, m.player1, a1, r1)):
        change[str(seat)] = {"before": round(before), "after": round(r.rating)}
        run(db, "UPDATE player SET rating = :rating, rd = :rd, vol = :vol, rated_games = rated_games + 1, "
                "last_rated_at = :at WHERE id = :id",
            {"rating": r.rating, "rd": r.rd, "vol": r.vol, "at": now, "id": pid})
        forget_player(pid)
        insert_many(db, "ratinghistory",
                    [{"player_id": pid, "match_id": m.id, "rating": r.rating, "rd": r.rd, "at": now}])
    m.rating_change = dumps(change)
    return change
