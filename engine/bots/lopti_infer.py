"""What the opponents' past choices say about their hands: the Lopti expert's inference.

Sampling every unseen card uniformly (``determinise``) forgets what the table saw. The plain
player — the casual bot, and the way the expert expects its opponents to play — is predictable:

* at the setup swap (P-2.2) it swaps the pair that gains it most, so after a *keep* no hand card is
  stronger than its weakest face-up card, and after a *swap* no other hand card gains more;
* in play it makes the first play in its order (``dryrun.preference``) that the pile allows, so
  every play it prefers to the one it made, and the pile allowed, was one it could not make; a
  *take* means it had no legal play at all (P-3.2).

From the deal's public moves (``observe(...)["moves"]``, what a player at the table remembers) this
gives, per opponent, the most unseen cards of each rank its hand can hold. The unseen cards it
plays leave the hand, lowering their rank's limit; a card drawn unseen relaxes every limit by one.
A seat whose later moves break its limits is not playing that way, so its limits are dropped for
the rest of the deal: against a person the sampling falls back to the uniform one rather than
trusting a wrong model. ``sampler`` then draws worlds within the limits. Measured in docs/bots.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from engine.cards import Card, Rng, parse_card
from engine.lopti.dryrun import preference, swap_strength
from engine.lopti.notation import LoptiObservation, dealer
from engine.lopti.options import LoptiOptions
from engine.lopti.record import LoptiMove
from engine.lopti.rules import play_refusal
from engine.lopti.state import PLAY, LoptiState

#: seat → rank → the most unseen cards of that rank its hand can hold (a rank not listed: no limit)
Limits = dict[int, dict[int, int]]
NO_LIMIT = 9


def limits(obs: LoptiObservation) -> Limits:
    """The limits the opponents' recorded moves put on their unseen hand cards."""
    return read_moves(obs)[0]


def read_moves(obs: LoptiObservation) -> tuple[Limits, set[int]]:
    """(the limits, the seats not read: the observer and any whose moves broke their limits)."""
    options = LoptiOptions.from_json(obs["options"])
    low = options.params.low_rank
    plays = sorted(((r, n) for r in range(1, 14) for n in range(1, 5)), key=preference(low))
    out: Limits = {}
    dropped = {obs["player"]}
    for move in obs["moves"]:
        q = move["seat"]
        if q not in dropped:
            mine = out.setdefault(q, {})
            if _breaks(move, mine):
                dropped.add(q)
                del out[q]
            else:
                found = _setup_limits(move, low) if move["setup"] else _play_limits(move, options, plays)
                for rank, most in found.items():
                    mine[rank] = min(mine.get(rank, NO_LIMIT), most)
                _spend(move, mine)
        for i, grew in enumerate(move["drew"]):
            if grew > 0 and i in out:  # unseen cards joined the hand: each could be of any rank
                out[i] = {r: m + grew for r, m in out[i].items() if m + grew < NO_LIMIT}
    return {i: lim for i, lim in out.items() if lim}, dropped


def _unseen_played(move: LoptiMove) -> int:
    """The fewest unseen cards a play can have used: at most the mover's known cards of the rank
    are among the cards played (0 for a take, a flip or a setup move)."""
    if not move["count"]:
        return 0
    return move["count"] - sum(1 for c in move["known"] if parse_card(c).rank == move["rank"])


def _breaks(move: LoptiMove, mine: dict[int, int]) -> bool:
    """Whether a play needs more unseen cards of its rank than the limits allow."""
    return _unseen_played(move) > mine.get(move["rank"], NO_LIMIT)


def _spend(move: LoptiMove, mine: dict[int, int]) -> None:
    """The unseen cards played left the hand, so the rank's limit drops by as many."""
    if move["rank"] in mine:
        mine[move["rank"]] = max(0, mine[move["rank"]] - _unseen_played(move))


def _setup_limits(move: LoptiMove, low: int) -> dict[int, int]:
    """P-2.2: the plain player swaps the pair that gains most, or keeps when none gains."""
    up = [swap_strength(parse_card(c).rank, low) for c in move["up"]]
    if not up or move["action"] not in ("keep", "swap"):
        return {}
    bound = min(up)
    if move["action"] == "swap":
        hand_card, up_card = (parse_card(c).rank for c in move["swap"])
        bound += swap_strength(hand_card, low) - swap_strength(up_card, low)
    return {r: 0 for r in range(1, 14) if swap_strength(r, low) > bound}


def _play_limits(move: LoptiMove, options: LoptiOptions, plays: list[tuple[int, int]]) -> dict[int, int]:
    """P-3, P-4: every play the plain player prefers to the one it made, and the pile allowed, was
    one it could not make (all of them, for a take)."""
    if move["action"] != "take" and not move["count"]:
        return {}  # a flip: the face-down card was chosen blind
    pile = [[parse_card(c) for c in play] for play in move["pile"]]
    table = LoptiState(options, [], [], pile, 0, move["obligation"], 0, False, PLAY, [], [])
    seen = Counter(parse_card(c).rank for c in move["known"])
    most: dict[int, int] = {}
    for rank, n in plays:
        if (rank, n) == (move["rank"], move["count"]):
            break
        if play_refusal(table, rank, n) is None:
            most[rank] = min(most.get(rank, NO_LIMIT), max(0, n - 1 - seen[rank]))
    return most


def sampler(obs: LoptiObservation) -> Callable[[Rng], LoptiState]:
    """``notation.dealer``, with each opponent's unseen hand cards drawn within its limits."""
    found = limits(obs)
    deal = dealer(obs)
    if not found:
        return deal
    me = obs["player"]
    return lambda rng: _within(deal(rng), me, found, rng)


def _within(w: LoptiState, me: int, found: Limits, rng: Rng) -> LoptiState:
    """Re-deal the unseen cards of ``w`` (a world from ``dealer``): each limited hand first takes
    what its limits allow from a shuffled pool; if they cannot be met (the model was wrong) the
    hand takes any cards."""
    pool: list[Card] = []
    for i, seat in enumerate(w.seats):
        if i != me:
            pool += seat.hand[len(seat.known):]  # a dealt hand is its known cards, then the unseen
        pool += seat.down
    pool += w.draw
    rng.shuffle(pool)
    order = sorted((i for i in range(len(w.seats)) if i != me), key=lambda i: i not in found)
    for i in order:
        seat = w.seats[i]
        k, most = len(seat.hand) - len(seat.known), found.get(i, {})
        got: list[Card] = []
        rest: list[Card] = []
        held: Counter[int] = Counter()
        for c in pool:
            if len(got) < k and held[c.rank] < most.get(c.rank, NO_LIMIT):
                got.append(c)
                held[c.rank] += 1
            else:
                rest.append(c)
        if len(got) < k:
            got, rest = got + rest[: k - len(got)], rest[k - len(got):]
        seat.hand, pool = list(seat.known) + got, rest
    for seat in w.seats:
        seat.down, pool = pool[: len(seat.down)], pool[len(seat.down):]
    w.draw = pool
    return w
