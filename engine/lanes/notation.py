"""Lanes positions in the conformance JSON form (load with validation, dump with derived keys),
and the per-player observation."""

from __future__ import annotations

from collections import Counter
from typing import Any, TypedDict

from engine.cards import Card, Rng, parse_card, standard_deck
from engine.core import BadPosition, ensure_keys, position_cards, want_bool, want_dict, want_int, want_list
from engine.lanes.options import LanesOptions
from engine.lanes.state import (
    LANES,
    UP,
    LanesState,
    Side,
    Stack,
    attach_limit,
    directions,
    is_number,
    pair_sellers,
    suits,
    values,
)

PLAYER_KEYS = ("hand", "deck", "discard", "lanes", "value", "direction", "suit")
TOP_KEYS = ("to_move", "in_opening", "reshuffles_used", "held_direction", "players",
            "selling", "over", "winner", "reason")


def _cards(value: Any, what: str) -> list[Card]:
    return position_cards(value, what)


def _stack(value: Any, what: str, options: LanesOptions) -> Stack:
    cards = _cards(value, what)
    if not cards:
        raise BadPosition(f"{what} is empty: a stack is a number card with its attachments")
    head, rest = cards[0], cards[1:]
    if not is_number(head):
        raise BadPosition(f"{what} must start with a number card (A, 2–10), not {head}")
    for c in rest:
        if is_number(c):
            raise BadPosition(f"{what}: {c} is a number card; only face cards attach")
        if c.rank == 11:
            raise BadPosition(f"{what}: a jack never stays attached (L-6.0)")
    limit = attach_limit(options)
    if limit is not None and len(rest) > limit:
        raise BadPosition(f"{what} holds {len(rest)} face cards; at most {limit} (L-6.0)")
    return Stack(head, rest)


def _check_decks(sides: list[Side], options: LanesOptions, reshuffled: list[bool]) -> None:
    """Each player's cards must fit in their own deck (L-2.1), the two decks independent.

    Number cards only ever sit in their owner's zones (they are played on own lanes, and removed
    ones go to the lane owner's discard), so they are counted per player. A face card on a lane
    or in a discard pile may be either player's (face cards are played on both sides, removed
    ones go to the lane owner's discard), so only a player's hand and deck pin its owner — unless
    that player's discard pile has been shuffled into their deck (L-9.6). Each player's pinned
    copies fit one deck, and all copies fit both decks.
    """
    decks = 2 if options.double_deck else 1
    pinned: list[Counter[Card]] = []
    floating: Counter[Card] = Counter()
    for i, side in enumerate(sides):
        table = [c for lane in side.lanes for s in lane for c in s.cards()]
        own: Counter[Card] = Counter()
        for c in side.discard + table:
            (own if is_number(c) else floating)[c] += 1
        for c in side.hand + side.deck:
            (floating if reshuffled[i] and not is_number(c) else own)[c] += 1
        for card, n in own.items():
            limit = decks * (2 if card.rank == 0 else 1)
            if n > limit:
                raise BadPosition(f"players[{i}] holds {card} {n} times; their own deck has "
                                  f"only {limit} (L-2.1)")
        pinned.append(own)
    for card in set(floating) | set(pinned[0]) | set(pinned[1]):
        limit = decks * (2 if card.rank == 0 else 1)
        n = floating[card] + pinned[0][card] + pinned[1][card]
        if n > 2 * limit:
            raise BadPosition(f"{card} appears {n} times; the two decks hold only {2 * limit} (L-2.1)")


def position_from_json(options: LanesOptions, obj: Any, seed: int = 0) -> LanesState:
    pos = want_dict(obj, "position")
    ensure_keys(pos, TOP_KEYS, "position", BadPosition)
    if "players" not in pos:
        raise BadPosition("position needs 'players'")
    players = want_list(pos["players"], "players")
    if len(players) != 2:
        raise BadPosition("Lanes has exactly two players")
    sides = []
    for i, raw in enumerate(players):
        p = want_dict(raw, f"players[{i}]")
        ensure_keys(p, PLAYER_KEYS, f"players[{i}]", BadPosition)
        lanes_raw = want_list(p.get("lanes", [[], [], []]), f"players[{i}].lanes")
        if len(lanes_raw) != LANES:
            raise BadPosition(f"players[{i}].lanes must hold exactly three lanes")
        lanes = [[_stack(st, f"players[{i}].lanes[{li}][{si}]", options)
                  for si, st in enumerate(want_list(lane, f"players[{i}].lanes[{li}]"))]
                 for li, lane in enumerate(lanes_raw)]
        sides.append(Side(_cards(p.get("hand", []), f"players[{i}].hand"),
                          _cards(p.get("deck", []), f"players[{i}].deck"),
                          _cards(p.get("discard", []), f"players[{i}].discard"), lanes))
    to_move = want_int(pos.get("to_move", 0), "to_move", 0, 1, BadPosition)
    opening = want_list(pos.get("in_opening", [False, False]), "in_opening")
    if len(opening) != 2:
        raise BadPosition("in_opening must list two booleans")
    in_opening = [want_bool(x, "in_opening") and not all(sides[i].lanes) for i, x in enumerate(opening)]
    used_raw = want_list(pos.get("reshuffles_used", [0, 0]), "reshuffles_used")
    if len(used_raw) != 2:
        raise BadPosition("reshuffles_used must list two numbers")
    used = [want_int(x, "reshuffles_used", 0, 2, BadPosition) for x in used_raw]
    _check_decks(sides, options, [options.reshuffle and n > 0 for n in used])
    held: list[list[str | None]] = [[None] * LANES for _ in range(2)]
    if options.fixed_direction and "held_direction" in pos:
        hd = want_list(pos["held_direction"], "held_direction")
        if len(hd) != 2:
            raise BadPosition("held_direction must list two players")
        for i, row in enumerate(hd):
            row = want_list(row, "held_direction[i]")
            if len(row) != LANES or any(x not in (None, "up", "down") for x in row):
                raise BadPosition("held_direction rows hold three of null, \"up\", \"down\"")
            held[i] = list(row)
    return LanesState(options, sides, to_move, in_opening, used, held, seed)


def _stacks_json(side: Side) -> list[list[list[str]]]:
    return [[[str(c) for c in s.cards()] for s in lane] for lane in side.lanes]


def position_to_json(state: LanesState) -> dict[str, Any]:
    players = []
    for i, side in enumerate(state.sides):
        players.append({
            "hand": [str(c) for c in side.hand], "deck": [str(c) for c in side.deck],
            "discard": [str(c) for c in side.discard], "lanes": _stacks_json(side),
            "value": values(state, i), "direction": directions(state, i), "suit": suits(state, i),
        })
    out: dict[str, Any] = {
        "to_move": state.to_move, "in_opening": list(state.in_opening), "players": players,
        "selling": pair_sellers(state), "over": state.over, "winner": state.winner, "reason": state.reason,
    }
    if state.options.reshuffle:
        out["reshuffles_used"] = list(state.reshuffles_used)
    if state.options.fixed_direction:
        out["held_direction"] = [list(h) for h in state.held]
    return out


class LanesSideView(TypedDict):
    """One player's side as everyone sees it."""

    lanes: list[list[list[str]]]  # lane → stacks (number card first, then attachments)
    discard: list[str]
    deck_size: int
    hand_size: int
    value: list[int]
    direction: list[str | None]
    suit: list[str | None]


class LanesObservation(TypedDict):
    """``observe(state, player)``: all a Lanes player, bot or network peer sees (L-2.2)."""

    game: str
    player: int
    options: dict[str, Any]
    ranked: bool
    hand: list[str]
    players: list[LanesSideView]
    to_move: int
    in_opening: list[bool]
    reshuffles_used: list[int]
    held_direction: list[list[str | None]]
    selling: list[int | None]
    over: bool
    winner: int | None
    reason: str | None
    ply: int


def observe(state: LanesState, player: int) -> LanesObservation:
    """What ``player`` may know (L-2.2): own hand, the whole table, both discard piles, deck sizes
    and the opponent's hand size — never the opponent's hand or any deck order."""
    table: list[LanesSideView] = []
    for i, side in enumerate(state.sides):
        table.append({
            "lanes": _stacks_json(side), "discard": [str(c) for c in side.discard],
            "deck_size": len(side.deck), "hand_size": len(side.hand),
            "value": values(state, i), "direction": directions(state, i), "suit": suits(state, i),
        })
    return {
        "game": "lanes", "player": player, "options": state.options.to_json(), "ranked": state.options.ranked,
        "hand": [str(c) for c in state.sides[player].hand], "players": table,
        "to_move": state.to_move, "in_opening": list(state.in_opening),
        "reshuffles_used": list(state.reshuffles_used), "held_direction": [list(h) for h in state.held],
        "selling": pair_sellers(state), "over": state.over, "winner": state.winner, "reason": state.reason,
        "ply": state.ply,
    }



def spectate(state: LanesState) -> LanesObservation:
    """What anyone watching the match may know: the table as both players see it (both sides'
    lanes, discards, deck and hand sizes) and no hand at all, drawn from seat 0's side of the table
    (``player`` 0, ``hand`` empty). Never a card in a hand or a deck's order."""
    return {**observe(state, 0), "hand": []}


def _lanes(raw: list[list[list[str]]]) -> list[list[Stack]]:
    return [[Stack(parse_card(st[0]), [parse_card(c) for c in st[1:]]) for st in lane] for lane in raw]


def _pool(options: LanesOptions, seen: list[Card]) -> list[Card]:
    full = standard_deck(jokers=2) * (2 if options.double_deck else 1)
    left = Counter(full)
    left.subtract(Counter(seen))
    return [c for c, n in left.items() for _ in range(max(0, n))]


def _fill(pool: list[Card], n: int, rng: Rng) -> list[Card]:
    rng.shuffle(pool)
    out = pool[:n]
    while len(out) < n:  # the observation cannot tell whose deck a card came from: pad if needed
        extra = standard_deck(jokers=2)
        rng.shuffle(extra)
        out += extra[: n - len(out)]
    del pool[:n]
    return out


def determinise(obs: LanesObservation, rng: Rng) -> LanesState:
    """A full state that matches ``observe(state, p)`` for the observing player p: known cards where
    they are, unseen cards (the opponent's hand, both decks' order) sampled from what each deck can
    still hold. What an honest bot searches over; ``observe`` of the result equals ``obs``."""
    options = LanesOptions.from_json(obs["options"])
    me = obs["player"]
    sides: list[Side] = []
    for p in obs["players"]:
        lanes = _lanes(p["lanes"])
        discard = [parse_card(c) for c in p["discard"]]
        sides.append(Side([], [], discard, lanes))
    hand = [parse_card(c) for c in obs["hand"]]
    for i, side in enumerate(sides):
        numbers = [s.card for lane in side.lanes for s in lane]
        seen = numbers + side.discard + (hand if i == me else [])
        pool = _pool(options, seen)
        p = obs["players"][i]
        if i == me:
            side.hand = list(hand)
        else:
            side.hand = _fill(pool, p["hand_size"], rng)
        side.deck = _fill(pool, p["deck_size"], rng)
    held = [list(h) for h in obs["held_direction"]]
    return LanesState(options, sides, obs["to_move"], list(obs["in_opening"]), list(obs["reshuffles_used"]), held,
                      rng.next_u64(), obs["winner"], obs["reason"], obs["over"], obs["ply"])


__all__ = ["UP", "LanesObservation", "LanesSideView", "determinise", "observe", "position_from_json",
           "position_to_json"]
