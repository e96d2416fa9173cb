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
from math import comb

from engine.cards import Card, Rng, parse_card
from engine.lopti.dryrun import preference, swap_strength
from engine.lopti.house_rules import BaseParams
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
    params = options.params
    plays = sorted(((r, n) for r in range(1, 14) for n in range(1, 5)), key=preference(params))
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
                found = _setup_limits(move, params) if move["setup"] else _play_limits(move, options, plays)
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


def _setup_limits(move: LoptiMove, params: BaseParams) -> dict[int, int]:
    """P-2.2: the plain player swaps the pair that gains most, or keeps when none gains."""
    up = [swap_strength(parse_card(c).rank, params) for c in move["up"]]
    if not up or move["action"] not in ("keep", "swap"):
        return {}
    bound = min(up)
    if move["action"] == "swap":
        hand_card, up_card = (parse_card(c).rank for c in move["swap"])
        bound += swap_strength(hand_card, params) - swap_strength(up_card, params)
    return {r: 0 for r in range(1, 14) if swap_strength(r, params) > bound}


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


#: tries at a world dealt exactly uniformly before the sequential one (how often: docs/bots.md)
TRIES = 32


class Sampler:
    """``notation.dealer``, with each opponent's unseen hand cards drawn within its limits, and a
    count of how each world was dealt (``approximate``, ``dropped``: see `_within`)."""

    def __init__(self, obs: LoptiObservation) -> None:
        self.found = limits(obs)
        self.deal = dealer(obs)
        self.me = obs["player"]
        self.worlds = self.approximate = self.dropped = 0
        #: every world of one observation has the same unseen cards: its plan is made once
        self.plan: Plan | None = None

    def __call__(self, rng: Rng) -> LoptiState:
        w = self.deal(rng)
        self.worlds += 1
        if self.found:
            how, self.plan = _within(w, self.me, self.found, rng, plan=self.plan)
            self.approximate += how != "uniform"
            self.dropped += how == "dropped"
        return w


def sampler(obs: LoptiObservation) -> Sampler:
    """The expert's worlds for ``obs``: see `Sampler`."""
    return Sampler(obs)


#: the limited hands (seat, how many unseen cards) in the order they are dealt, and the first one's
#: allowed hands (`_pick`)
Plan = tuple[list[tuple[int, int]], tuple[int, int, Callable[[Rng], list[Card]]]]


def _within(w: LoptiState, me: int, found: Limits, rng: Rng, tries: int = TRIES,
            plan: Plan | None = None) -> tuple[str, Plan | None]:
    """Re-deal the unseen cards of ``w`` (a world from ``dealer``: the opponents' unseen hand cards,
    every face-down card, the draw pile) so that each limited hand keeps within its limits, every
    such deal equally likely. Returns how it was dealt, and the plan for the next world of the
    same observation:

    * "uniform": exactly uniformly among the deals that meet the limits. The most limited hand is
      dealt first, uniformly among the hands its limits allow (`_pick`); each other limited hand
      then takes cards uniformly from what is left and the try starts again if they break its
      limits, which makes every allowed deal equally likely. A single limited hand never starts
      again.
    * "approximate": no try went through in ``tries`` (limits that few deals meet together); the
      hands are dealt one after another, each uniformly among its allowed hands from what is left,
      so a deal in which the first hands leave the later ones fewer choices comes a little too
      often.
    * "dropped": no allowed hand was left for some hand (the model was wrong): it takes any cards.
    The other hands, the face-down cards and the draw pile share the rest uniformly."""
    pool: list[Card] = []
    sizes: list[tuple[int, int]] = []  # (seat, how many unseen hand cards), in seat order
    for i, seat in enumerate(w.seats):
        if i != me:
            unseen = seat.hand[len(seat.known):]  # a dealt hand is its known cards, then the unseen
            pool += unseen
            sizes.append((i, len(unseen)))
    for seat in w.seats:
        pool += seat.down
    pool += w.draw
    if plan is None:
        limited = [(i, k) for i, k in sizes if found.get(i) and k]
        picks = {i: _pick(pool, found[i], k) for i, k in limited}
        limited.sort(key=lambda x: picks[x[0]][0])  # the fewest allowed hands first
        plan = (limited, picks[limited[0][0]]) if limited else ([], (1, 1, lambda rng: []))
    for _ in range(tries):
        dealt = _hands(pool, plan, found, rng)
        if dealt is not None:
            _lay(w, dealt[0], dealt[1], sizes, rng)
            return "uniform", plan
    hands, rest = _one_by_one(pool, plan[0], found, rng)
    how = "dropped" if any(i not in hands for i, _ in plan[0]) else "approximate"
    _lay(w, hands, rest, sizes, rng)
    return how, plan


def _hands(pool: list[Card], plan: Plan, found: Limits, rng: Rng) -> tuple[dict[int, list[Card]], list[Card]] | None:
    """One exact try (see `_within`): the limited hands and the cards left, or None."""
    limited, (allowed, _, pick) = plan
    if not limited:
        return {}, list(pool)
    if not allowed:
        return None
    hands = {limited[0][0]: pick(rng)}
    rest = _without(pool, hands[limited[0][0]])
    for i, k in limited[1:]:
        hand = _some(rest, k, rng)
        most = found[i]
        held = Counter(c.rank for c in hand)
        if any(n > most.get(rank, NO_LIMIT) for rank, n in held.items()):
            return None
        hands[i], rest = hand, _without(rest, hand)
    return hands, rest


def _one_by_one(pool: list[Card], limited: list[tuple[int, int]], found: Limits,
                rng: Rng) -> tuple[dict[int, list[Card]], list[Card]]:
    """The approximate deal (see `_within`): each limited hand uniformly among the hands its limits
    allow from what is left; a hand with none allowed is not dealt (the caller deals it any)."""
    rest = list(pool)
    hands: dict[int, list[Card]] = {}
    for i, k in limited:
        allowed, _, pick = _pick(rest, found[i], k)
        if allowed:
            hands[i] = pick(rng)
            rest = _without(rest, hands[i])
    return hands, rest


def _without(cards: list[Card], taken: list[Card]) -> list[Card]:
    gone = set(taken)  # one deck: no card is there twice
    return [c for c in cards if c not in gone]


def _pick(cards: list[Card], most: dict[int, int], k: int) -> tuple[int, int, Callable[[Rng], list[Card]]]:
    """(how many hands of ``k`` of ``cards`` keep within ``most``, how many hands of ``k`` there are,
    and a draw of one allowed hand, each equally likely). A rank whose limit is at least its count
    here is free, a rank limited to none is left out, and only the ranks between are counted."""
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
    free: list[Card] = []
    tight: list[tuple[int, list[Card]]] = []
    for rank, group in by_rank.items():
        cap = most.get(rank, NO_LIMIT)
        if cap >= len(group):
            free += group
        elif cap > 0:
            tight.append((cap, group))
    # ways[j][t]: hands of t cards from the tight ranks j, j + 1, … and the free cards
    ways = [[comb(len(free), t) for t in range(k + 1)]]
    for cap, group in reversed(tight):
        after = ways[0]
        ways.insert(0, [sum(comb(len(group), c) * after[t - c] for c in range(min(cap, t) + 1))
                        for t in range(k + 1)])

    def draw(rng: Rng) -> list[Card]:
        hand: list[Card] = []
        t = k
        for j, (cap, group) in enumerate(tight):
            x = rng.below(ways[j][t])
            for c in range(min(cap, t) + 1):
                x -= comb(len(group), c) * ways[j + 1][t - c]
                if x < 0:
                    break
            hand += _some(group, c, rng)
            t -= c
        return hand + _some(free, t, rng)

    return ways[0][k], comb(len(cards), k), draw


def _some(cards: list[Card], n: int, rng: Rng) -> list[Card]:
    """``n`` of ``cards``, each set equally likely."""
    left = list(cards)
    for i in range(n):
        j = i + rng.below(len(left) - i)
        left[i], left[j] = left[j], left[i]
    return left[:n]


def _lay(w: LoptiState, hands: dict[int, list[Card]], rest: list[Card], sizes: list[tuple[int, int]],
         rng: Rng) -> None:
    """Deal the limited ``hands`` as chosen, and ``rest`` shuffled to the other hands' unseen cards,
    then the face-down cards, then the draw pile."""
    rng.shuffle(rest)
    at = 0
    for i, k in sizes:
        if i not in hands:
            hands[i], at = rest[at:at + k], at + k
        w.seats[i].hand = list(w.seats[i].known) + hands[i]
    for seat in w.seats:
        seat.down, at = rest[at:at + len(seat.down)], at + len(seat.down)
    w.draw = rest[at:]
