"""Lopti positions in the conformance JSON form, and the per-player observation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, TypedDict

from engine.cards import Card, Rng, parse_card, standard_deck
from engine.core import BadPosition, ensure_keys, position_cards, want_bool, want_dict, want_int, want_list
from engine.lopti.house_rules import BaseParams
from engine.lopti.options import LoptiOptions
from engine.lopti.record import LoptiMove
from engine.lopti.state import OVER, PLAY, SETUP, LoptiState, Seat, is_low, rank_label

TOP_KEYS = ("players", "draw", "pile", "threes", "obligation", "to_move", "extra_play", "phase", "places",
            "decided", "low", "over", "winner")
SEAT_KEYS = ("hand", "up", "down", "out")


def _cards(value: Any, what: str) -> list[Card]:
    return position_cards(value, what, "Lopti uses no jokers (P-1.1)")


def position_from_json(options: LoptiOptions, obj: Any, seed: int = 0) -> LoptiState:
    pos = want_dict(obj, "position")
    ensure_keys(pos, TOP_KEYS, "position", BadPosition)
    seats = _seats(pos)
    draw = _cards(pos.get("draw", []), "draw")
    pile = _pile(pos, options.params)
    all_cards = draw + [c for play in pile for c in play]
    for s in seats:
        all_cards += s.hand + s.up + s.down
    dup = [str(c) for c, n in Counter(all_cards).items() if n > 1]
    if dup:
        raise BadPosition(f"duplicate card(s): {', '.join(sorted(dup))}")
    n = len(seats)
    threes = want_int(pos.get("threes", 0), "threes", 0, 3, BadPosition)
    obligation = want_bool(pos.get("obligation", False), "obligation")
    if obligation and not pile:
        raise BadPosition("a 3-obligation cannot stand on an empty pile (P-4.2)")
    if obligation and threes == 0:
        raise BadPosition("a 3-obligation needs at least one 3 in the visible chain")
    extra = want_bool(pos.get("extra_play", False), "extra_play")
    if extra and pile:
        raise BadPosition("an extra play starts on an empty table (P-5.1)")
    phase = pos.get("phase", PLAY)
    if phase not in (PLAY, SETUP):
        raise BadPosition("phase must be \"play\" or \"setup\"")
    to_move = want_int(pos.get("to_move", 0), "to_move", 0, n - 1, BadPosition)
    places = _places(pos, seats)
    decided = _decided(pos, n)
    if len([s for s in seats if not s.out]) >= 2:
        if seats[to_move].out:
            raise BadPosition("the player to move is out")
        if seats[to_move].card_count() == 0:
            raise BadPosition("the player to move has no cards")
    leader = _setup_leader(to_move, decided, bool(pile or places)) if phase == SETUP else to_move
    return LoptiState(options, seats, draw, pile, threes, obligation, to_move, extra, phase, places, decided,
                      leader=leader, skips=[0] * n)


def _seats(pos: dict[str, Any]) -> list[Seat]:
    players = want_list(pos.get("players"), "players")
    if not 2 <= len(players) <= 5:
        raise BadPosition("Lopti is for 2 to 5 players")
    seats = []
    for i, raw in enumerate(players):
        p = want_dict(raw, f"players[{i}]")
        ensure_keys(p, SEAT_KEYS, f"players[{i}]", BadPosition)
        seat = Seat(_cards(p.get("hand", []), f"players[{i}].hand"), _cards(p.get("up", []), f"players[{i}].up"),
                    _cards(p.get("down", []), f"players[{i}].down"), want_bool(p.get("out", False), "out"))
        if seat.out and seat.card_count():
            raise BadPosition(f"player {i} is out but still holds cards")
        seats.append(seat)
    return seats


def _pile(pos: dict[str, Any], params: BaseParams) -> list[list[Card]]:
    pile = []
    for k, play in enumerate(want_list(pos.get("pile", []), "pile")):
        cards = _cards(play, f"pile[{k}]")
        if not cards:
            raise BadPosition(f"pile[{k}] is an empty play")
        if len({c.rank for c in cards}) != 1:
            raise BadPosition(f"pile[{k}] mixes ranks; a play is one rank")
        if cards[0].rank in (params.pass_rank, params.clear_rank):
            raise BadPosition(f"{rank_label(params.pass_rank)}s and {rank_label(params.clear_rank)}s never stay "
                              "in the pile (P-4.2, P-4.5)")
        pile.append(cards)
    return pile


def _places(pos: dict[str, Any], seats: list[Seat]) -> list[int]:
    """The players already out, first out first (marks them out)."""
    n = len(seats)
    places_raw = pos.get("places")
    if places_raw is None:
        return [i for i, s in enumerate(seats) if s.out]
    places = [want_int(x, "places", 0, n - 1, BadPosition) for x in want_list(places_raw, "places")]
    if len(set(places)) != len(places):
        raise BadPosition("a player appears twice in places")
    if sorted(places) != [i for i, s in enumerate(seats) if s.out] and len(places) != n:
        raise BadPosition("places must list exactly the players who are out")
    for i in places:
        seats[i].out = True
    return places


def _decided(pos: dict[str, Any], n: int) -> list[bool]:
    decided_raw = pos.get("decided")
    if decided_raw is None:
        return [False] * n
    dl = want_list(decided_raw, "decided")
    if len(dl) != n:
        raise BadPosition("decided needs one boolean per player")
    return [want_bool(x, "decided") for x in dl]


def _setup_leader(to_move: int, decided: list[bool], played: bool) -> int:
    """P-2.2: in the setup phase the leader is the first to decide, counting back from the mover."""
    n = len(decided)
    if decided[to_move]:
        raise BadPosition("the player to move has already swapped or kept")
    if played:
        raise BadPosition("the setup phase comes before any play")
    leader = to_move
    k = (to_move - 1) % n
    while decided[k] and k != to_move:
        leader = k
        k = (k - 1) % n
    return leader


def _cs(cards: list[Card]) -> list[str]:
    return [str(c) for c in cards]


def position_to_json(state: LoptiState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "players": [{"hand": _cs(s.hand), "up": _cs(s.up), "down": _cs(s.down), "out": s.out} for s in state.seats],
        "draw": _cs(state.draw), "pile": [_cs(p) for p in state.pile], "threes": state.threes,
        "obligation": state.obligation, "to_move": state.to_move, "extra_play": state.extra_play,
        "phase": PLAY if state.phase == OVER else state.phase, "places": list(state.places),
        "low": is_low(state), "over": state.over, "winner": state.winner,
    }
    if state.phase == SETUP:
        out["decided"] = list(state.decided)
    return out


class LoptiSeatView(TypedDict):
    """One seat as everyone sees it."""

    hand_size: int
    up: list[str]
    down_count: int
    out: bool
    known_in_hand: list[str]  # cards of this hand everyone saw enter it
    from_up: list[str]  # cards of this hand that were its face-up cards (a house rule's zone)


class LoptiObservation(TypedDict):
    """``observe(state, player)``: all a Lopti player, bot or network peer sees."""

    game: str
    player: int
    hand: list[str]
    players: list[LoptiSeatView]
    draw_size: int
    pile: list[list[str]]
    threes: int
    obligation: bool
    low: bool
    to_move: int
    extra_play: bool
    phase: str
    places: list[int]
    gone: list[str]
    turns: int
    ply: int
    leader: int
    direction: int
    options: dict[str, Any]
    deal_number: int
    decided: list[bool]
    skips: list[int]
    fires_turn: int  # house-rule firings this turn and this deal (the loop caps, P-9)
    fires_deal: int
    capped: bool  # the deal reached its turn cap
    moves: list[LoptiMove]  # the deal's moves as everyone saw them, oldest first (record.py)


def observe(state: LoptiState, player: int) -> LoptiObservation:
    """What ``player`` may know: own hand; everyone's face-up cards; face-down counts (unknown even
    to their owner); the pile and the 3-chain; draw-pile size; hand sizes; and the cards of other
    hands that everyone saw enter them (picked-up face-up cards, taken piles); and the deal's moves
    as everyone saw them, which a player at the table remembers."""
    seats: list[LoptiSeatView] = []
    for s in state.seats:
        seats.append({"hand_size": len(s.hand), "up": _cs(s.up), "down_count": len(s.down), "out": s.out,
                      "known_in_hand": _cs(s.known), "from_up": _cs(s.from_up)})
    return {
        "game": "lopti", "player": player, "hand": _cs(state.seats[player].hand), "players": seats,
        "draw_size": len(state.draw), "pile": [_cs(p) for p in state.pile], "threes": state.threes,
        "obligation": state.obligation, "low": is_low(state), "to_move": state.to_move,
        "extra_play": state.extra_play, "phase": state.phase, "places": list(state.places),
        "gone": _cs(state.gone), "turns": state.turns, "ply": state.ply, "leader": state.leader,
        "direction": state.direction, "options": state.options.to_json(), "deal_number": state.deal_number,
        "decided": list(state.decided), "skips": list(state.skips), "fires_turn": state.fires_turn,
        "fires_deal": state.fires_deal, "capped": state.capped, "moves": list(state.moves),
    }


def determinise(obs: LoptiObservation, rng: Rng) -> LoptiState:
    """A full state that matches ``observe(state, p)`` for the observing player p; every unseen card
    is sampled from the cards nobody has seen (the draw pile, face-down cards, the unseen part of
    other hands). What an honest bot searches over; ``observe`` of the result equals ``obs``. The
    world keeps the record of moves but adds nothing to it (``LoptiState.record``): its rollouts
    never read it."""
    return dealer(obs)(rng)


def dealer(obs: LoptiObservation) -> Callable[[Rng], LoptiState]:
    """``determinise`` with the observation read once: a search deals hundreds of worlds from one
    observation, and reading its cards and options is most of the cost of a deal. Each call of the
    result deals one world (the same world ``determinise`` gives for that ``rng``)."""
    me = obs["player"]
    hand = [parse_card(c) for c in obs["hand"]]
    pile = [[parse_card(c) for c in play] for play in obs["pile"]]
    gone = [parse_card(c) for c in obs["gone"]]
    views = [([parse_card(c) for c in p["up"]], [parse_card(c) for c in p["known_in_hand"]], p["hand_size"],
              p["down_count"], p["out"], [parse_card(c) for c in p["from_up"]]) for p in obs["players"]]
    seen: list[Card] = hand + [c for p in pile for c in p] + gone
    for i, (up, known, _, _, _, _) in enumerate(views):
        seen += up if i == me else up + known
    left = Counter(standard_deck())
    left.subtract(Counter(seen))
    unseen = [c for c, n in left.items() for _ in range(max(0, n))]
    options = LoptiOptions.from_json(obs["options"])
    moves = tuple(obs["moves"])

    def deal(rng: Rng) -> LoptiState:
        pool = list(unseen)
        rng.shuffle(pool)
        seats = []
        for i, (up, known, hand_size, down_count, out, from_up) in enumerate(views):
            if i == me:
                h = list(hand)
            else:
                k = hand_size - len(known)
                h, pool = known + pool[:k], pool[k:]
            d, pool = pool[:down_count], pool[down_count:]
            seats.append(Seat(h, list(up), d, out, list(known), list(from_up)))
        draw = pool[: obs["draw_size"]]
        return LoptiState(options, seats, draw, [list(p) for p in pile], obs["threes"], obs["obligation"],
                          obs["to_move"], obs["extra_play"], obs["phase"], list(obs["places"]), list(obs["decided"]),
                          list(gone), obs["turns"], obs["capped"], obs["ply"], obs["leader"], obs["direction"],
                          list(obs["skips"]), obs["fires_turn"], obs["fires_deal"], obs["deal_number"], moves, False)
    return deal
