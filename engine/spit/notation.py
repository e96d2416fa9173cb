"""Spit positions in the conformance JSON form, and the per-player observation."""

from __future__ import annotations

from collections import Counter
from typing import Any, TypedDict

from engine.cards import Card, Rng, parse_card, standard_deck
from engine.core import BadPosition, ensure_keys, position_cards, want_bool, want_dict, want_int, want_list
from engine.spit.state import OVER, PHASES, ROUND_OVER, SLOTS, SpitPlayer, SpitState, piles_in_use, total

TOP_KEYS = ("players", "piles", "phase", "ready", "scores", "taken", "winner", "round")
PLAYER_KEYS = ("stocks", "spit", "total")


def _cards(value: Any, what: str) -> list[Card]:
    return position_cards(value, what, "Spit uses no jokers (S-1.1)")


def position_from_json(scoring: str, round_cap: int, obj: Any, seed: int = 0) -> SpitState:
    pos = want_dict(obj, "position")
    ensure_keys(pos, TOP_KEYS, "position", BadPosition)
    players_raw = want_list(pos.get("players"), "players")
    if len(players_raw) != 2:
        raise BadPosition("Spit has exactly two players")
    players = []
    for i, raw in enumerate(players_raw):
        p = want_dict(raw, f"players[{i}]")
        ensure_keys(p, PLAYER_KEYS, f"players[{i}]", BadPosition)
        stocks_raw = want_list(p.get("stocks", [[]] * SLOTS), f"players[{i}].stocks")
        if len(stocks_raw) != SLOTS:
            raise BadPosition(f"players[{i}].stocks must have exactly five slots")
        stocks = [_cards(st, f"players[{i}].stocks[{k}]") for k, st in enumerate(stocks_raw)]
        players.append(SpitPlayer(stocks, _cards(p.get("spit", []), f"players[{i}].spit")))
    piles_raw = want_list(pos.get("piles", [[], []]), "piles")
    if len(piles_raw) != 2:
        raise BadPosition("there are exactly two spit piles")
    piles = [_cards(x, f"piles[{i}]") for i, x in enumerate(piles_raw)]
    everything = [c for pl in players for st in pl.stocks for c in st] + [c for pl in players for c in pl.spit]
    everything += piles[0] + piles[1]
    dup = [str(c) for c, n in Counter(everything).items() if n > 1]
    if dup:
        raise BadPosition(f"duplicate card(s): {', '.join(sorted(dup))}")
    phase = pos.get("phase", "play")
    if phase not in PHASES:
        raise BadPosition(f"phase must be one of {', '.join(PHASES)}")
    ready_raw = want_list(pos.get("ready", [False, False]), "ready")
    if len(ready_raw) != 2:
        raise BadPosition("ready lists two booleans")
    ready = [want_bool(x, "ready") for x in ready_raw]
    scores = _scores(pos)
    taken: list[int | None] = _taken(pos) if phase in (ROUND_OVER, OVER) else [None, None]
    round_no = want_int(pos.get("round", 1), "round", 1, 100_000, BadPosition)
    state = SpitState(scoring, players, piles, phase, ready, taken, scores, round_no=round_no,
                      round_cap=max(round_cap, round_no), rng=seed)
    if phase == OVER:
        w = pos.get("winner")
        state.winner = w if w in (0, 1) else None
    return state


def _scores(pos: dict[str, Any]) -> list[int]:
    if "scores" not in pos:
        return [0, 0]
    sr = want_list(pos["scores"], "scores")
    if len(sr) != 2:
        raise BadPosition("scores lists two numbers")
    return [want_int(x, "scores", 0, 10_000, BadPosition) for x in sr]


def _taken(pos: dict[str, Any]) -> list[int | None]:
    """Which pile each player took when the round ended (S-5.2)."""
    if pos.get("taken") is None:
        return [None, None]
    tr = want_list(pos["taken"], "taken")
    if len(tr) != 2 or any(x is not None and x not in (0, 1) for x in tr):
        raise BadPosition("taken lists a pile index or null per player")
    return list(tr)


def _cs(cards: list[Card]) -> list[str]:
    return [str(c) for c in cards]


def position_to_json(s: SpitState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "players": [{"stocks": [_cs(st) for st in p.stocks], "spit": _cs(p.spit), "total": total(s, i)}
                    for i, p in enumerate(s.players)],
        "piles": [_cs(p) for p in s.piles], "phase": s.phase, "ready": list(s.ready),
        "taken": list(s.taken) if s.phase in (ROUND_OVER, OVER) else [None, None],
        "winner": s.winner, "round": s.round_no,
    }
    if s.scoring == "points":
        out["scores"] = list(s.scores)
    return out


class SpitSideView(TypedDict):
    """One player's side as both see it: stock tops face up, the rest face down."""

    stock_tops: list[str | None]
    stock_sizes: list[int]
    spit_count: int
    total: int


class SpitObservation(TypedDict):
    """``observe(state, player)``: all a Spit player or bot sees (never a face-down card)."""

    game: str
    player: int
    players: list[SpitSideView]
    pile_tops: list[str | None]
    pile_sizes: list[int]
    piles_in_use: list[int]
    phase: str
    ready: list[bool]
    taken: list[int | None]
    scores: list[int]
    winner: int | None
    round: int
    ply: int
    scoring: str
    round_cap: int
    emptied: int | None


def observe(s: SpitState, player: int) -> SpitObservation:
    """Both players' stock tops and sizes, pile tops and sizes, spit-card counts — never a
    face-down card (cards beneath a stock top, spit cards)."""
    table: list[SpitSideView] = []
    for i, p in enumerate(s.players):
        table.append({
            "stock_tops": [str(st[-1]) if st else None for st in p.stocks],
            "stock_sizes": [len(st) for st in p.stocks], "spit_count": len(p.spit), "total": total(s, i),
        })
    return {
        "game": "spit", "player": player, "players": table,
        "pile_tops": [str(p[-1]) if p else None for p in s.piles], "pile_sizes": [len(p) for p in s.piles],
        "piles_in_use": piles_in_use(s), "phase": s.phase, "ready": list(s.ready),
        "taken": list(s.taken) if s.phase in (ROUND_OVER, OVER) else [None, None],
        "scores": list(s.scores), "winner": s.winner, "round": s.round_no, "ply": s.ply,
        "scoring": s.scoring, "round_cap": s.round_cap, "emptied": s.emptied,
    }


def determinise(obs: SpitObservation, rng: Rng) -> SpitState:
    """A full state that matches ``observe(state, p)``: the face-up tops where they are, every
    face-down card (under the stock tops, the spit cards, under the pile tops) sampled from the
    rest of the deck; the next deal's generator is new. ``observe`` of the result equals ``obs``."""
    tops = [parse_card(c) for p in obs["players"] for c in p["stock_tops"] if c]
    tops += [parse_card(c) for c in obs["pile_tops"] if c]
    left = Counter(standard_deck())
    left.subtract(Counter(tops))
    pool = [c for c, k in left.items() for _ in range(max(0, k))]
    rng.shuffle(pool)

    def take(k: int) -> list[Card]:
        nonlocal pool
        out, pool = pool[:k], pool[k:]
        return out

    players = []
    for p in obs["players"]:
        stocks = [take(size - 1) + [parse_card(top)] if top else [] for top, size in
                  zip(p["stock_tops"], p["stock_sizes"], strict=True)]
        players.append(SpitPlayer(stocks, take(p["spit_count"])))
    piles = [take(size - 1) + [parse_card(top)] if top else [] for top, size in
             zip(obs["pile_tops"], obs["pile_sizes"], strict=True)]
    return SpitState(obs["scoring"], players, piles, obs["phase"], list(obs["ready"]), list(obs["taken"]),
                     list(obs["scores"]), obs["winner"], obs["emptied"], obs["round"], obs["round_cap"],
                     rng.next_u64(), obs["ply"])
