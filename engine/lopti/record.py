"""The deal's public record: each move as every player saw it (``LoptiState.moves``).

A player at the table remembers more than the table shows now: who took the pile, what was played
on what, who kept their deal. ``observe`` hands that memory out as ``moves``, so an honest bot can
read its opponents' past choices (``engine/bots/lopti_infer.py``) without seeing anything a person
at the table could not. Each entry holds only public facts, taken *before* the move unless it says
otherwise.
"""

from __future__ import annotations

from engine.lopti.actions import LoptiAction, Play, Swap, normalised
from engine.lopti.state import SETUP, LoptiMove, LoptiState, Seat, top_run


def public_move(before: LoptiState, action: LoptiAction, after: LoptiState) -> LoptiMove:
    """The entry ``apply`` records for ``action`` (made in ``before``, giving ``after``)."""
    seat = before.seats[before.to_move]
    rank, count = action.key if isinstance(action, Play) else (0, 0)
    run_rank, run = top_run(before)
    pile: list[list[str]] = []
    for play in reversed(before.pile):
        if run_rank is None or play[0].rank != run_rank:
            break
        pile.insert(0, [str(c) for c in play])
    return {
        "seat": before.to_move, "action": normalised(action), "rank": rank, "count": count,
        "swap": [str(action.hand_card), str(action.up_card)] if isinstance(action, Swap) else [],
        "setup": before.phase == SETUP,
        "pile": pile, "obligation": before.obligation, "up": [str(c) for c in seat.up],
        "known": [str(c) for c in seat.known], "hand_size": len(seat.hand),
        "drew": [_drawn(b, a) for b, a in zip(before.seats, after.seats, strict=True)],
    }


def _drawn(before: Seat, after: Seat) -> int:
    """How many cards joined the hand without anyone seeing them: a number everyone sees."""
    had = set(before.hand)
    return sum(1 for c in after.hand if c not in had) - sum(1 for c in after.known if c not in had)
