"""Spit rules as a pure state machine (S-1 … S-8).

Actions are applied in arrival order. An action that is not legal when it arrives is *not* an
error: two players racing to one pile is normal play (S-3.4), so ``apply`` answers it with a
``rejected`` event and leaves the state as it was. After every accepted action :func:`settle`
moves the machine on: round end, stalemate, the spit turn-over once every required player called.
"""

from __future__ import annotations

from engine.cards import Card, Rng, derive_seed, standard_deck
from engine.core import Event, Result, Why, ev
from engine.spit.actions import CallSpit, Fill, NextRound, PlayCard, Slap, SpitAction
from engine.spit.state import (
    OVER,
    PLAY,
    ROUND_OVER,
    SLAP,
    SLOTS,
    STALLED,
    SpitPlayer,
    SpitState,
    adjacent,
    piles_in_use,
    total,
)

POINTS_TARGET = 100


def layout(cards: list[Card]) -> SpitPlayer:
    """S-2.2 five stocks of 1–5 cards (as far as the cards go, S-6.1), the rest spit cards."""
    stocks: list[list[Card]] = []
    i = 0
    for size in range(1, SLOTS + 1):
        stocks.append(cards[i:i + size])
        i += len(stocks[-1])
    return SpitPlayer(stocks, cards[i:])


def new_game(scoring: str, seed: int, round_cap: int) -> SpitState:
    """S-2.1: shuffle one deck and deal 26 to each player; the round starts stalled (S-2.4)."""
    deck = standard_deck()
    rng = Rng(derive_seed(seed, "spit"))
    rng.shuffle(deck)
    players = [layout(deck[:26]), layout(deck[26:])]
    return SpitState(scoring, players, [[], []], STALLED, [False, False], round_cap=round_cap, rng=rng.next_u64())


# --- legality -------------------------------------------------------------------------------


def play_ok(s: SpitState, a: PlayCard) -> bool:
    stock = s.players[a.player].stocks[a.stock]
    pile = s.piles[a.pile]
    return s.phase == PLAY and bool(stock) and bool(pile) and adjacent(stock[-1], pile[-1])


def fill_ok(s: SpitState, a: Fill) -> bool:
    """S-3.3 [interp]: into an empty slot, from a stock of two or more cards."""
    stocks = s.players[a.player].stocks
    return s.phase == PLAY and not stocks[a.slot] and len(stocks[a.source]) >= 2


def must_spit(s: SpitState) -> list[int]:
    """Players who must call while stalled: those holding spit cards (S-4.2)."""
    return [p for p in (0, 1) if s.players[p].spit]


def legal_actions(s: SpitState, player: int | None = None) -> list[SpitAction]:
    players = (0, 1) if player is None else (player,)
    out: list[SpitAction] = []
    for p in players:
        if s.phase == PLAY:
            out += _moves(s, p)
        elif s.phase == STALLED:
            if s.players[p].spit and not s.ready[p]:
                out.append(CallSpit(p))
        elif s.phase == SLAP:
            out.extend(Slap(p, i) for i in piles_in_use(s))
    return out


def _moves(s: SpitState, p: int) -> list[SpitAction]:
    """S-3: a stock top onto a pile it is next to, or a stock's next card into an empty slot."""
    me = s.players[p]
    out: list[SpitAction] = [PlayCard(p, si, pi) for si, stock in enumerate(me.stocks) if stock
                             for pi in (0, 1) if s.piles[pi] and adjacent(stock[-1], s.piles[pi][-1])]
    empty = [i for i, st in enumerate(me.stocks) if not st]
    if empty:
        for src, st in enumerate(me.stocks):
            if len(st) >= 2:
                out.extend(Fill(p, src, slot) for slot in empty)
    return out


def _can_move(s: SpitState) -> bool:
    return any(isinstance(a, (PlayCard, Fill)) for a in legal_actions(s))


# --- the machine ------------------------------------------------------------------------------


def _end_round(s: SpitState, emptied: int | None, events: list[Event]) -> None:
    """S-5.1: the round is over. Two piles: slap (S-5.2); one pile: S-7.1 / S-5.5 assign it."""
    s.emptied = emptied
    events.append(ev("round_end", player=emptied, reason="emptied" if emptied is not None else "stalemate"))
    if s.scoring == "points":  # S-8.1: a point per card still held
        for p in (0, 1):
            s.scores[p] += s.players[p].stock_count() + len(s.players[p].spit)
        if max(s.scores) >= POINTS_TARGET:  # the game is decided: no slap needed
            _finish_round(s, events)
            return
    in_use = piles_in_use(s)
    if len(in_use) == 2:
        s.phase = SLAP
        return
    if len(in_use) == 1:
        k = in_use[0]
        if emptied is not None:
            s.taken = [None, None]
            s.taken[1 - emptied] = k
        else:
            s.taken = [None, None]
            s.taken[k] = k  # the player who had spit cards spat onto their own pile
    _finish_round(s, events)


def _finish_round(s: SpitState, events: list[Event]) -> None:
    events.append(ev("taken", taken=list(s.taken)))
    winner: int | None = None
    over = False
    if s.scoring == "points":
        if max(s.scores) >= POINTS_TARGET:
            over = True
            winner = None if s.scores[0] == s.scores[1] else (0 if s.scores[0] < s.scores[1] else 1)
    else:
        one_pile = len(piles_in_use(s)) == 1
        for p in (0, 1):
            if total(s, p) == 0:  # S-7.3
                over, winner = True, p
        if not over and one_pile and s.emptied is not None and not s.piles[s.emptied]:
            over, winner = True, s.emptied  # S-7.2 the player without spit cards emptied first
    if not over and s.round_no >= s.round_cap:
        over = True
        t0, t1 = total(s, 0), total(s, 1)
        winner = None if t0 == t1 else (0 if t0 < t1 else 1)
        events.append(ev("cap", rounds=s.round_no))
    if over:
        s.phase = OVER
        s.winner = winner
        events.append(ev("win", player=winner))
    else:
        s.phase = ROUND_OVER


def settle(s: SpitState, events: list[Event]) -> None:
    """Move the machine on until it waits for a player."""
    for _ in range(200):
        if s.phase not in (PLAY, STALLED):
            return
        emptied = next((p for p in (0, 1) if s.players[p].stock_count() == 0), None)
        if emptied is not None:  # S-5.1: a player's stocks are empty
            _end_round(s, emptied, events)
            return
        if s.phase == PLAY:
            if _can_move(s):
                return
            if not must_spit(s):
                _end_round(s, None, events)
                return
            s.phase, s.ready = STALLED, [False, False]
            events.append(ev("stalled"))
            continue
        if not _spit_when_ready(s, events):
            return


def _spit_when_ready(s: SpitState, events: list[Event]) -> bool:
    """Stalled (S-4): with nobody able to spit the round ends; once everyone who must has called,
    each turns a spit card onto their own pile and play goes on. True when the machine moved on."""
    required = must_spit(s)
    if not required:
        _end_round(s, None, events)
        return False
    if not all(s.ready[p] for p in required):
        return False
    for p in required:  # S-4.2 each onto their own pile
        card = s.players[p].spit.pop(0)
        s.piles[p].append(card)
        events.append(ev("turn_up", player=p, pile=p, card=str(card)))
    s.ready = [False, False]
    s.phase = PLAY
    return True


def _reveal(s: SpitState, p: int, slot: int, events: list[Event]) -> None:
    stock = s.players[p].stocks[slot]
    if stock:  # S-3.2 [interp] the next card turns up automatically
        events.append(ev("reveal", player=p, stock=slot, card=str(stock[-1])))


def next_round(s: SpitState, events: list[Event]) -> None:
    """S-5.4: each player gathers their pile, spit and stock cards, shuffles and deals anew."""
    rng = Rng(s.rng)
    hands = []
    for p in (0, 1):
        me = s.players[p]
        cards = [c for st in me.stocks for c in st] + me.spit
        t = s.taken[p]
        if t is not None:
            cards += s.piles[t]
        rng.shuffle(cards)
        hands.append(cards)
    s.rng = rng.next_u64()
    s.players = [layout(hands[0]), layout(hands[1])]
    s.piles, s.taken, s.ready, s.emptied = [[], []], [None, None], [False, False], None
    s.round_no += 1
    s.phase = STALLED
    events.append(ev("deal", round=s.round_no, cards=[len(hands[0]), len(hands[1])]))
    settle(s, events)


def apply(state: SpitState, action: SpitAction) -> tuple[SpitState, list[Event]]:
    """Apply in arrival order; an action illegal on arrival yields ``rejected`` (never an exception)."""
    events: list[Event] = []

    def rejected(player: int | None, why: str) -> tuple[SpitState, list[Event]]:
        return state, [ev("rejected", player=player, reason=why)]

    if isinstance(action, NextRound):
        if state.phase != ROUND_OVER:
            return rejected(None, Why("round_not_over", "the round is not over"))
        s = state.clone()
        s.ply += 1
        next_round(s, events)
        return s, events
    if state.over:
        return rejected(action.player, Why("game_over", "the game is over"))
    if isinstance(action, PlayCard):
        if not play_ok(state, action):
            return rejected(action.player, Why("no_fit", "that card does not go on that pile now (S-1.2, S-3.4)"))
        s = state.clone()
        stock = s.players[action.player].stocks[action.stock]
        card = stock.pop()
        s.piles[action.pile].append(card)
        events.append(ev("play", player=action.player, stock=action.stock, pile=action.pile, card=str(card)))
        _reveal(s, action.player, action.stock, events)
    elif isinstance(action, Fill):
        if not fill_ok(state, action):
            return rejected(action.player, Why("bad_fill",
                            "a fill moves a top card from a stock of two or more into an empty slot"))
        s = state.clone()
        stocks = s.players[action.player].stocks
        card = stocks[action.source].pop()
        stocks[action.slot].append(card)
        events.append(ev("fill", player=action.player, **{"from": action.source}, to=action.slot, card=str(card)))
        _reveal(s, action.player, action.source, events)
    elif isinstance(action, CallSpit):
        if state.phase != STALLED or state.ready[action.player] or not state.players[action.player].spit:
            return rejected(action.player, Why("no_spit",
                            "spit is called only when play is stuck, once, with spit cards left"))
        s = state.clone()
        s.ready[action.player] = True
        events.append(ev("spit", player=action.player))
    else:
        assert isinstance(action, Slap)
        if state.phase != SLAP or not state.piles[action.pile]:
            late = state.phase != SLAP
            return rejected(action.player, Why("too_late", "too late: the piles are already decided") if late
                            else Why("pile_unused", "that pile is not in use"))
        s = state.clone()
        s.taken = [None, None]
        s.taken[action.player] = action.pile  # S-5.2, S-5.3 the first slap decides both piles
        s.taken[1 - action.player] = 1 - action.pile
        events.append(ev("slap", player=action.player, pile=action.pile))
        _finish_round(s, events)
        s.ply += 1
        return s, events
    s.ply += 1
    settle(s, events)
    return s, events


def result(s: SpitState) -> Result | None:
    if not s.over:
        return None
    return Result(s.winner, "points" if s.scoring == "points" else "cards")
