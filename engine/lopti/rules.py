"""Lopti base rules (P-1 … P-7): dealing, the optional swap, legality, plays and their effects,
taking, face-up pick-up, face-down flips, going out and the end of a deal.

:func:`play_refusal` is the single statement of play legality; ``legal_actions`` lists what it
allows and ``apply`` refuses what it forbids, with its reason (:func:`play_problem`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from engine.cards import Card, Rng, derive_seed, standard_deck
from engine.core import BadRequest, Event, IllegalAction, Result, Why, ev
from engine.lopti.actions import DeleteRule, Flip, Keep, LoptiAction, Play, Swap, Take
from engine.lopti.interpreter import fire
from engine.lopti.options import LoptiOptions
from engine.lopti.record import public_move
from engine.lopti.state import (
    FOUR,
    OVER,
    PLAY,
    SETUP,
    LoptiState,
    Seat,
    active_seats,
    next_active,
    order,
    rank_label,
    top_run,
)

# --- dealing --------------------------------------------------------------------------------


def deal(options: LoptiOptions, seed: int, players: int, leader: int = 0) -> LoptiState:
    """P-2.1: 3 face-down, 3 face-up on them, 3 in hand (or the session's counts, P-9.1); the rest
    is the draw pile. The deal starts in the setup phase (P-2.2) with ``leader`` deciding first."""
    if not 2 <= players <= 5:
        raise BadRequest("Lopti is for 2 to 5 players")
    if not 0 <= leader < players:
        raise BadRequest("the leader must be one of the players")
    params = options.params
    problems = params.problems(players)
    if problems:
        raise BadRequest("; ".join(problems))
    deck = standard_deck()
    Rng(derive_seed(seed, "lopti-deal")).shuffle(deck)
    seats = []
    down, up, n = params.face_down, params.face_up, params.per_seat
    for i in range(players):
        chunk = deck[i * n:(i + 1) * n]
        seats.append(Seat(hand=chunk[down + up:], up=chunk[down:down + up], down=chunk[:down]))
    rest = deck[players * n:]
    return LoptiState(options, seats, rest, [], 0, False, leader, False, SETUP, [], [False] * players,
                      leader=leader, skips=[0] * players)


# --- legality -------------------------------------------------------------------------------


#: what each refusal of a play says (P-3.3, P-3.4, P-4), filled from its params
REFUSALS = {
    "obligation": "a {pass} was passed to you: play a {pass} or take the pile (P-4.6)",
    "ten_after_low": "a {clear} can never be played right after a {low} (P-4.4)",
    "more_twos": "on {n} {reset}(s) play more {reset}s, or complete {run} (P-4.1)",
    "tie_more": "on a tie, play more: {n} {rank}(s) are on top, so play at least {need} (P-3.3)",
    "lower": "{rank} is lower than the {top} on top: play higher, a special card, or take (P-3.3)",
    "more_low": "on {n} {rank}(s) play more {rank}s, or complete {run} (P-4.4)",
    "low_only": "after a {low} the next play must be {low} or lower, not {rank} (P-4.4)",
}


def play_problem(state: LoptiState, rank: int, count: int) -> str | None:
    """Why a play of ``count`` cards of ``rank`` is illegal now (P-3.3, P-3.4, P-4), or None."""
    refusal = play_refusal(state, rank, count)
    if refusal is None:
        return None
    key, params = refusal
    return Why(key, REFUSALS[key].format(**params), **params)


def play_refusal(state: LoptiState, rank: int, count: int) -> tuple[str, dict[str, Any]] | None:
    """The single statement of play legality: which rule refuses ``count`` cards of ``rank`` now
    (a key of :data:`REFUSALS` and its params), or None. Kept apart from the words so that
    listing the legal plays — which bots do millions of times — formats no message.

    The low card (7) and the run that clears (4) are the session's base parameters (P-9.1)."""
    params = state.options.params
    low, run_len = params.low_rank, params.clear_run
    if state.obligation and rank != params.pass_rank:
        return "obligation", {"pass": rank_label(params.pass_rank)}
    if rank == params.pass_rank or not state.pile:
        return None  # P-4.2 a 3 goes on anything; P-3.1 lead anything on an empty table
    top = state.pile[-1]
    trank, tcount = top[0].rank, len(top)
    run_rank, run = top_run(state)
    completes = rank == run_rank and run + count == run_len  # P-3.4
    if rank == params.clear_rank:
        return ("ten_after_low", {"low": rank_label(low), "clear": rank_label(rank)}) if trank == low else None
    if rank == params.reset_rank:
        if trank == rank and not (count > tcount or completes):
            return "more_twos", {"n": tcount, "run": run_len, "reset": rank_label(rank)}
        return None
    if trank == low:
        return _after_low(rank, count, tcount, completes, low, run_len)
    if rank == low or trank == params.reset_rank:
        return None  # P-4.4 the low card goes on anything; P-4.1 anything goes on a 2
    if rank == trank:
        if count > tcount or completes:
            return None
        return "tie_more", {"n": tcount, "rank": rank_label(rank), "need": tcount + 1}
    if order(rank) > order(trank):
        return None
    return "lower", {"rank": rank_label(rank), "top": rank_label(trank)}


def _after_low(rank: int, count: int, tcount: int, completes: bool, low: int,
               run_len: int) -> tuple[str, dict[str, Any]] | None:
    """P-4.4: on the low card, the next play is the low card again (more of them, or completing the
    run) or any rank below it, whatever the count."""
    if rank == low:
        if count > tcount or completes:
            return None
        return "more_low", {"n": tcount, "rank": rank_label(rank), "run": run_len}
    if order(rank) <= order(low):
        return None  # P-4.4 [interp]: the ranks below the low card, whatever the count
    return "low_only", {"low": rank_label(low), "rank": rank_label(rank)}


def on_face_down(seat: Seat) -> bool:
    return not seat.hand and not seat.up and bool(seat.down)


def legal_actions(state: LoptiState, player: int | None = None) -> list[LoptiAction]:
    """Normalised actions for the seat to move (see actions.py for their text form). Asked for a
    ``player`` by name, also what that player may do on anyone's turn: delete a house rule they
    wrote (P-9.4) — the turn's list (``player`` None: the conformance interface, the bots) never
    holds it."""
    if state.over:
        return []
    deletions: list[LoptiAction] = [] if player is None else list(deletable(state.options, player))
    if player is not None and player != state.to_move:
        return deletions
    seat = state.seats[state.to_move]
    if state.phase == SETUP:
        swaps: list[LoptiAction] = [Swap(h, u) for h in dict.fromkeys(seat.hand) for u in dict.fromkeys(seat.up)]
        return swaps + [Keep()] + deletions
    out: list[LoptiAction] = []
    if on_face_down(seat):
        out.append(Flip(0))
    else:
        counts = Counter(c.rank for c in seat.hand)
        for rank in sorted(counts, key=order):
            for n in range(1, counts[rank] + 1):
                if play_refusal(state, rank, n) is None:
                    out.append(Play(rank=rank, count=n))
    if state.pile:
        out.append(Take())
    return out + deletions


def deletable(options: LoptiOptions, player: int) -> list[DeleteRule]:
    """P-9.4: the house rules of a deal played under ``options`` that ``player`` wrote, each theirs
    to delete now (read from the options, so a screen holding only the observation asks the same)."""
    return [DeleteRule(r.id, player) for r in options.house_rules if r.author == player]


def can_play(state: LoptiState) -> bool:
    """Whether the seat to move has a play or a flip, i.e. a take would be voluntary (P-3.2)."""
    seat = state.seats[state.to_move]
    if on_face_down(seat):
        return True
    counts = Counter(c.rank for c in seat.hand)
    return any(play_refusal(state, rank, n) is None for rank in counts for n in range(1, counts[rank] + 1))


# --- applying -------------------------------------------------------------------------------


def _pick(hand: list[Card], rank: int | None, count: int | None) -> list[Card]:
    """Concrete cards for an abstract play ``rank × count`` (suits have no meaning, P-1.1)."""
    if rank is None or not count:
        raise BadRequest("a play needs its cards")
    chosen = [c for c in hand if c.rank == rank][:count]
    if len(chosen) < count:
        raise IllegalAction(Why("not_held_count", f"you do not hold {count} card(s) of rank {rank_label(rank)}",
                                n=count, rank=rank_label(rank)), reason="not_in_hand")
    return chosen


def _remove(cards: list[Card], which: list[Card]) -> None:
    for c in which:
        cards.remove(c)


def _forget(seat: Seat, cards: list[Card]) -> None:
    for c in cards:
        if c in seat.known:
            seat.known.remove(c)
        if c in seat.from_up:
            seat.from_up.remove(c)


def _clear(s: LoptiState, p: int, cause: str, extra_cards: list[Card], events: list[Event],
           shield: int | None = None) -> None:
    """P-5.1: the pile leaves the round, pending 3/7 effects end, the clearer gets an extra play."""
    fire(s, "clear", "before", p, {"cause": cause}, events, shield)
    s.gone.extend(c for play in s.pile for c in play)
    s.gone.extend(extra_cards)
    s.pile = []
    s.threes = 0
    s.obligation = False
    events.append(ev("clear", player=p, cause=cause))
    fire(s, "clear", "after", p, {"cause": cause}, events, shield)


def _pickup(s: LoptiState, p: int, events: list[Event]) -> None:
    """P-6.1: an empty hand, once the drawing chance has passed, takes the face-up cards."""
    seat = s.seats[p]
    if not seat.hand and seat.up:
        cards = seat.up
        seat.hand, seat.up = list(cards), []
        seat.known.extend(cards)
        seat.from_up = list(cards)
        events.append(ev("pickup_up", player=p, cards=[str(c) for c in cards]))


def _finish_deal(s: LoptiState, events: list[Event]) -> None:
    for i in active_seats(s):
        s.places.append(i)
    s.phase = OVER
    events.append(ev("deal_over", places=list(s.places)))


def _cap_deal(s: LoptiState, events: list[Event]) -> None:
    """Safety cap (P-8.3): rank everyone still in by fewest cards, then seat order from the leader."""
    s.capped = True
    events.append(ev("cap", turns=s.turns))
    _rank_the_rest(s, events)


def _rank_the_rest(s: LoptiState, events: list[Event]) -> None:
    """End the deal with everyone still in placed by fewest cards left, then seat order from the
    leader (the turn cap, and a deal that stops at its first player out)."""
    remaining = sorted(active_seats(s), key=lambda i: (s.seats[i].card_count(), (i - s.leader) % len(s.seats)))
    for i in remaining:
        if not s.places:
            events.append(ev("win", player=i))
        s.places.append(i)
        s.seats[i].out = True
    s.phase = OVER
    events.append(ev("deal_over", places=list(s.places)))


def _pass_turn(s: LoptiState, p: int, events: list[Event]) -> None:
    s.turns += 1
    s.extra_play = False
    s.fires_turn = 0
    nxt = next_active(s, p)
    for _ in range(len(s.seats)):  # house-rule skips: each pending skip is used once
        if s.skips and s.skips[nxt] and nxt != p:
            s.skips[nxt] = 0
            events.append(ev("skipped", player=nxt))
            nxt = next_active(s, nxt)
        else:
            break
    s.to_move = nxt
    if s.turns >= s.options.turn_cap and not s.over:
        _cap_deal(s, events)
        return
    _pickup(s, s.to_move, events)
    fire(s, "turn_start", "before", s.to_move, {}, events)
    fire(s, "turn_start", "after", s.to_move, {}, events)
    _pickup(s, s.to_move, events)


def _go_out(s: LoptiState, p: int, events: list[Event]) -> None:
    s.seats[p].out = True
    s.places.append(p)
    events.append(ev("out", player=p, place=len(s.places)))
    if len(s.places) == 1:
        events.append(ev("win", player=p))  # P-7.4 only the first out wins the deal
        if s.options.first_out_ends and len(active_seats(s)) > 1:
            _rank_the_rest(s, events)  # the table stops here instead of playing on for the places
            return
    if len(active_seats(s)) <= 1:
        _finish_deal(s, events)


def _resolve_play(s: LoptiState, p: int, cards: list[Card], events: list[Event], zone: str) -> None:
    """Effects of a legal play already removed from the player's cards (P-3 … P-7).

    A play of the player's last card keeps its effect (P-7.1: a final 3 still passes the
    obligation) and its ``after`` rules still reach the others, but the player is out first and no
    rule hands them a card during it (``shield``), so no rule stops a win (P-8.3).
    """
    seat = s.seats[p]
    rank = cards[0].rank
    first_play = not s.extra_play
    shield = p if seat.card_count() == 0 else None
    ctx = {"rank": rank, "count": len(cards), "zone": zone}
    fire(s, "play", "before", p, ctx, events, shield)
    events.append(ev("play", player=p, cards=[str(c) for c in cards]))
    cleared, pass_obligation = _pile_effect(s, p, cards, events, shield)
    if shield is not None:  # P-7.2, P-5.5, P-7.3: out at once, no draw, no extra play
        s.obligation = pass_obligation
        _go_out(s, p, events)
        if not s.over:
            _after_play(s, p, ctx, cleared, pass_obligation, events, shield)
            _pass_turn(s, p, events)
        return
    if first_play and s.draw and len(seat.hand) < s.options.params.draw_threshold:  # P-3.5, P-3.7
        card = s.draw.pop(0)
        seat.hand.append(card)
        events.append(ev("draw", player=p, card=str(card)))
        fire(s, "draw", "after", p, {"rank": card.rank}, events)
    cleared = _after_play(s, p, ctx, cleared, pass_obligation, events, None)
    _pickup(s, p, events)
    if cleared:
        s.extra_play = True  # P-5.1, P-5.3
        s.obligation = False
        return
    s.obligation = pass_obligation
    _pass_turn(s, p, events)


def _pile_effect(s: LoptiState, p: int, cards: list[Card], events: list[Event],
                 shield: int | None) -> tuple[bool, bool]:
    """What the played cards do to the pile (P-3.4, P-4): (cleared, passes the obligation)."""
    rank, params = cards[0].rank, s.options.params
    if rank == params.pass_rank:  # P-4.2, P-4.3
        s.gone.extend(cards)
        s.threes += len(cards)
        if s.threes >= FOUR:
            _clear(s, p, "threes", [], events, shield)
            return True, False
        return False, bool(s.pile)
    if rank == params.clear_rank:  # P-4.5
        _clear(s, p, "ten", cards, events, shield)
        return True, False
    s.threes = 0
    s.obligation = False
    s.pile.append(list(cards))
    if top_run(s)[1] >= params.clear_run:  # P-3.4, P-4.4 four 7s
        _clear(s, p, "four", [], events, shield)
        return True, False
    return False, False


def _after_play(s: LoptiState, p: int, ctx: dict[str, Any], cleared: bool, pass_obligation: bool,
                events: list[Event], shield: int | None) -> bool:
    """The ``after`` rules of a play, in their fixed order; True if the pile is cleared."""
    if pass_obligation:
        fire(s, "obligation", "after", p, {}, events, shield)
    if ctx["rank"] == s.options.params.low_rank and not cleared:
        fire(s, "low", "after", p, {"count": ctx["count"]}, events, shield)
    return fire(s, "play", "after", p, ctx, events, shield) or cleared


def _take(s: LoptiState, p: int, events: list[Event], forced: bool) -> None:
    """P-3.2, P-3.6: the whole pile into the hand; the turn ends. Everyone saw these cards."""
    ctx = {"count": sum(len(play) for play in s.pile), "forced": forced}
    fire(s, "take", "before", p, ctx, events)
    seat = s.seats[p]
    cards = [c for play in s.pile for c in play]
    seat.hand.extend(cards)
    seat.known.extend(cards)
    s.pile = []
    s.threes = 0
    s.obligation = False
    events.append(ev("take", player=p, count=len(cards)))
    fire(s, "take", "after", p, ctx, events)
    _pass_turn(s, p, events)


def apply(state: LoptiState, action: LoptiAction) -> tuple[LoptiState, list[Event]]:
    after, events = _apply(state, action)
    if state.record and not isinstance(action, DeleteRule):  # the record holds the turns' moves
        after.moves = (*state.moves, public_move(state, action, after))
    return after, events


def _apply(state: LoptiState, action: LoptiAction) -> tuple[LoptiState, list[Event]]:
    if state.over:
        raise IllegalAction(Why("deal_over", "the deal is over"), reason="over")
    if isinstance(action, DeleteRule):
        return _apply_delete(state, action)
    if state.phase == SETUP:
        return _apply_setup(state, action)
    if isinstance(action, (Swap, Keep)):
        raise IllegalAction(Why("not_setup", "swaps are made only before play starts (P-2.2)"), reason="not_setup")
    if isinstance(action, Take):
        return _apply_take(state)
    if isinstance(action, Flip):
        return _apply_flip(state, action)
    assert isinstance(action, Play)
    return _apply_play(state, action)


def _apply_delete(state: LoptiState, action: DeleteRule) -> tuple[LoptiState, list[Event]]:
    """P-9.4: the author deletes their rule; it no longer fires from the next action on. What it
    already did stays done, and what it left pending (a skip still to come) still happens: the
    rule is deleted after its resolution, never in the middle of it (P-9.6)."""
    rule = next((r for r in state.options.house_rules if r.id == action.rule_id), None)
    if rule is None:
        raise IllegalAction(Why("no_such_rule", f"no house rule {action.rule_id!r} is in force in this deal",
                                rule=action.rule_id), reason="no_such_rule")
    if rule.author != action.by:
        raise IllegalAction(Why("not_the_author", "only a rule's author may delete it without a vote (P-9.4)",
                                rule=action.rule_id), reason="not_the_author")
    s = state.clone()
    s.options = replace(state.options, house_rules=tuple(r for r in state.options.house_rules if r is not rule))
    return s, [ev("rule_deleted", player=action.by, rule=action.rule_id)]


def _apply_take(state: LoptiState) -> tuple[LoptiState, list[Event]]:
    if not state.pile:
        raise IllegalAction(Why("empty_pile", "an empty pile cannot be taken (P-3.2)"), reason="empty_pile")
    s = state.clone()
    s.ply += 1
    events: list[Event] = []
    forced = not can_play(state)
    _take(s, state.to_move, events, forced)
    return s, events


def _apply_flip(state: LoptiState, action: Flip) -> tuple[LoptiState, list[Event]]:
    """P-6.2: a face-down card turned over is played if it fits, else joins the pile, which is taken."""
    p = state.to_move
    seat = state.seats[p]
    if not on_face_down(seat):
        raise IllegalAction(Why("not_face_down", "you turn over face-down cards only when your hand and face-up "
                                "cards are gone (P-6.2)"), reason="not_face_down")
    if action.index is None or action.index >= len(seat.down):
        raise BadRequest(f"flip index out of range: you have {len(seat.down)} face-down card(s)")
    s = state.clone()
    s.ply += 1
    events: list[Event] = []
    sp = s.seats[p]
    card = sp.down.pop(action.index)
    legal = play_problem(s, card.rank, 1) is None
    events.append(ev("flip", player=p, card=str(card), legal=legal))
    last = legal and sp.card_count() == 0  # P-7.2: this flip wins; no rule may stop it
    fire(s, "flip", "after", p, {"rank": card.rank, "legal": legal}, events, p if last else None)
    if legal:
        _resolve_play(s, p, [card], events, "down")
    else:  # P-6.2, P-6.3: it joins the pile, the pile is taken, the turn ends
        s.pile.append([card])
        _take(s, p, events, True)
    return s, events


def _apply_play(state: LoptiState, action: Play) -> tuple[LoptiState, list[Event]]:
    p = state.to_move
    seat = state.seats[p]
    cards = list(action.cards) or _pick(seat.hand, action.rank, action.count)
    if not cards:
        raise BadRequest("a play needs at least one card")
    if on_face_down(seat):
        raise IllegalAction(Why("must_flip", "your hand and face-up cards are gone: turn over a face-down card "
                                "(flip) (P-6.2)"), reason="must_flip")
    missing = [c for c in cards if c not in seat.hand] if action.cards else []  # picked cards are held
    if missing:
        raise IllegalAction(Why("not_held", f"you do not hold {', '.join(map(str, missing))}",
                                card=" ".join(map(str, missing))), reason="not_in_hand")
    if len({c.rank for c in cards}) != 1:
        raise IllegalAction(Why("mixed_ranks", "a play is one or more cards of a single rank (P-3.3)"),
                            reason="mixed_ranks")
    problem = play_problem(state, cards[0].rank, len(cards))
    if problem:
        raise IllegalAction(problem, reason="illegal_play")
    s = state.clone()
    s.ply += 1
    events: list[Event] = []
    sp = s.seats[p]
    zone = "up" if sp.from_up and all(c in sp.from_up for c in cards) else "hand"
    _remove(sp.hand, cards)
    _forget(sp, cards)
    _resolve_play(s, p, cards, events, zone)
    return s, events


def _apply_setup(state: LoptiState, action: LoptiAction) -> tuple[LoptiState, list[Event]]:
    """P-2.2: one optional swap per player, in seat order from the leader."""
    p = state.to_move
    seat = state.seats[p]
    events: list[Event] = []
    if isinstance(action, Swap):
        if action.hand_card is None or action.up_card is None:
            raise BadRequest("swap needs [hand card, face-up card]")
        if action.hand_card not in seat.hand:
            raise IllegalAction(Why("not_held", f"{action.hand_card} is not in your hand", card=str(action.hand_card)),
                                reason="not_in_hand")
        if action.up_card not in seat.up:
            raise IllegalAction(Why("not_face_up", f"{action.up_card} is not one of your face-up cards",
                                    card=str(action.up_card)), reason="not_face_up")
        s = state.clone()
        sp = s.seats[p]
        hi, ui = sp.hand.index(action.hand_card), sp.up.index(action.up_card)
        sp.hand[hi], sp.up[ui] = action.up_card, action.hand_card
        sp.known.append(action.up_card)
        events.append(ev("swap", player=p, cards=[str(action.hand_card), str(action.up_card)]))
    elif isinstance(action, Keep):
        s = state.clone()
        events.append(ev("keep", player=p))
    else:
        raise IllegalAction(Why("setup", "before play starts each player either swaps one hand card with one "
                                "face-up card or keeps (P-2.2)"), reason="setup")
    s.ply += 1
    s.decided[p] = True
    n = len(s.seats)
    for k in range(1, n + 1):
        j = (p + k) % n
        if not s.decided[j]:
            s.to_move = j
            break
    else:
        start_play(s, events)
    return s, events


def start_play(s: LoptiState, events: list[Event]) -> None:
    """The swaps are done: the leader plays first (P-2.3); ``deal_start`` rules run now."""
    s.phase = PLAY
    s.to_move = s.leader
    fire(s, "deal_start", "before", s.leader, {}, events)
    fire(s, "deal_start", "after", s.leader, {}, events)
    _pickup(s, s.to_move, events)


def normalise(state: LoptiState) -> tuple[LoptiState, list[Event]]:
    """At load: the player to move with an empty hand takes their face-up cards first; a position
    with at most one player left is over."""
    s = state.clone()
    events: list[Event] = []
    if s.phase == PLAY and len(active_seats(s)) <= 1:
        for i in active_seats(s):
            s.places.append(i)
        s.phase = OVER
    if s.phase == PLAY:
        _pickup(s, s.to_move, events)
    return s, events


def result(state: LoptiState) -> Result | None:
    if not state.over:
        return None
    return Result(state.winner, "capped" if state.capped else "out", tuple(state.places))
