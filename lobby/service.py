"""The lobby's logic over the database, one module per job; this module is their one front door
(``from lobby import service as svc``), so the app, the hot path and the tests name one place.

| module | its job |
| --- | --- |
| ``lobby.common`` | the lobby's error (``LobbyError``: a status, a sentence, details), JSON, ids |
| ``lobby.accounts`` | guest players, bearer tokens, names, the token and player caches, leaderboard |
| ``lobby.matchmaking`` | seeks paired by rating window, challenges by code, a match's start |
| ``lobby.matches`` | moves, resignations, every ending as an engine action, views, events |
| ``lobby.timerules`` | time controls, remaining time, which matches a time rule may have ended |
| ``lobby.ratings`` | Glicko-2 after a rated match |
| ``lobby.states`` | the engine-state cache in front of each match's stored record |
| ``lobby.sweeps`` | the sweeper's passes, and the clock shift after a restart |
| ``lobby.rows`` | how a match row is reached (ORM object, plain row, raw transaction) and when |

Every response about a match is built by :func:`view_for` from the engine's
``observe(state, seat)``: a player never receives the opponent's hand, any deck order or the seed
(until the match is over). Clocks are never ticked: remaining time is computed from the stored
remaining time and the moment the side to move started thinking.

Rules enforced (L-8.3 … L-8.5, ../shared/notes/lobby.md), with the durations of the server's
:class:`lobby.clock.TimeRules`:
* first-move rule: each player has 1 minute for their first move, else the match is aborted (no
  result, no rating change); the clocks start only after both first moves;
* timed matches: the flag is checked *before* a move is applied; a small lag allowance per move;
  the increment is added after the move;
* untimed matches: 5 minutes on one move loses;
* a player away (no request, no open event stream) for 1 minute loses, and the opponent sees the
  countdown;
* resign at any time; only standard-rules matches in which both players moved are rated.
"""

from __future__ import annotations

from lobby.accounts import (
    Caller,
    _players,
    _tokens,
    authenticate,
    authenticate_id,
    create_player,
    display_name,
    forget_player,
    forget_tokens_of,
    known_player,
    leaderboard,
    player_json,
    players_json,
    profile,
)
from lobby.common import AnyMatch, LobbyError, dumps, to_json
from lobby.matches import (
    NOTIFY_CHANNEL,
    SERVER_ONLY,
    MoveResult,
    abort,
    can_abort,
    enforce,
    events_after,
    events_for,
    locked_match,
    make_move,
    quiet_view,
    replay_record,
    resign,
    running_matches,
    seat_of,
    touch,
    view_for,
)
from lobby.matchmaking import (
    accept_challenge,
    challenge_expired,
    create_challenge,
    create_seek,
    pair_seeks,
    seek_expired,
    start_match,
    window,
)
from lobby.messages import PHRASES, say
from lobby.ratings import RATING_PERIOD_S
from lobby.rematch import REMATCH_LIFETIME_S
from lobby.rematch import decline as decline_rematch
from lobby.rematch import offer as offer_rematch
from lobby.rematch import status as rematch_status
from lobby.rows import flush_presence
from lobby.spectate import (
    LIVE_LIMIT,
    allows_spectators,
    live_matches,
    set_spectators,
    spectator_view,
    watch,
    watch_view,
)
from lobby.states import STATES, StateCache, state_of
from lobby.sweeps import mark_alive, resume_after_restart, sweep, sweep_match
from lobby.timerules import (
    AWAY_S,
    AWAY_WARN_S,
    FIRST_MOVE_S,
    LAG_ALLOWANCE_S,
    TIME_CONTROLS,
    UNTIMED_MOVE_S,
    clock_running,
    due_ids,
    remaining_ms,
)

__all__ = [
    "AWAY_S", "AWAY_WARN_S", "FIRST_MOVE_S", "LAG_ALLOWANCE_S", "NOTIFY_CHANNEL", "RATING_PERIOD_S", "SERVER_ONLY",
    "LIVE_LIMIT", "PHRASES", "REMATCH_LIFETIME_S", "STATES", "TIME_CONTROLS", "UNTIMED_MOVE_S", "AnyMatch",
    "Caller", "LobbyError", "MoveResult", "StateCache",
    "locked_match", "_players", "_tokens", "abort", "accept_challenge", "authenticate", "authenticate_id",
    "clock_running",
    "can_abort", "decline_rematch", "offer_rematch", "rematch_status",
    "create_challenge", "create_player", "create_seek", "display_name", "due_ids", "dumps", "enforce",
    "events_after", "events_for", "flush_presence", "forget_player", "forget_tokens_of", "known_player",
    "leaderboard", "make_move", "mark_alive", "pair_seeks", "seek_expired", "challenge_expired", "player_json",
    "players_json", "profile", "quiet_view",
    "remaining_ms", "replay_record", "resign", "say", "allows_spectators", "live_matches", "set_spectators",
    "spectator_view", "watch", "watch_view", "resume_after_restart", "running_matches", "seat_of",
    "start_match", "state_of",
    "sweep", "sweep_match", "to_json", "touch", "view_for", "window",
]
