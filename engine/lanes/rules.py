"""Lanes rules (rules/lanes.md): dealing, legality, applying actions and ending the match.

``legal_actions`` and ``apply`` share one set of predicates (:func:`_number_problem`,
:func:`_face_problem`), so what is listed is exactly what is accepted, and a refused action comes
with the reason a player would be told at a real table.
"""

from __future__ import annotations

from engine.cards import ACE, JACK, JOKER, KING, QUEEN, Card, Rng, derive_seed, standard_deck
from engine.core import BadRequest, Event, IllegalAction, Result, Why, ev
from engine.lanes.actions import Abort, Away, Disband, Discard, LanesAction, Play, Resign, Timeout
from engine.lanes.options import LanesOptions
from engine.lanes.state import (
    DOWN,
    HAND_SIZE,
    LANES,
    UP,
    LanesState,
    Side,
    Stack,
    attach_limit,
    is_number,
    lane_direction,
    lane_suit,
    pair_sellers,
)

# --- dealing --------------------------------------------------------------------------------


def _own_deck(options: LanesOptions, rng: Rng) -> list[Card]:
    """L-2.1 54 cards; L-9.8 two decks; L-9.7 a random 30 of 54."""
    deck = standard_deck(jokers=2)
    if options.double_deck:
        deck = deck + standard_deck(jokers=2)
    rng.shuffle(deck)
    if options.short_deck:
        deck = deck[:30]
    return deck


def new_game(options: LanesOptions, seed: int, players: int | None = None) -> LanesState:
    """L-2: own shuffled decks, 8 cards each, a random first player — all from ``seed``."""
    if players not in (None, 2):
        raise BadRequest("Lanes is a two-player game")
    rng = Rng(derive_seed(seed, "lanes"))
    sides: list[Side] = []
    for _ in range(2):
        deck = _own_deck(options, rng)
        hand = deck[:HAND_SIZE]
        if options.fresh_hand:
            # L-9.11: a hand with fewer than three number cards is shown, returned, reshuffled and
            # dealt again. Bounded: P(fail) is tiny, so 100 tries never run out in practice.
            for _try in range(100):
                if sum(1 for c in hand if is_number(c)) >= 3:
                    break
                rng.shuffle(deck)
                hand = deck[:HAND_SIZE]
        sides.append(Side(hand=list(hand), deck=deck[HAND_SIZE:], discard=[], lanes=[[], [], []]))
    first = rng.below(2)
    return LanesState(options, sides, first, [True, True], [0, 0], [[None] * LANES for _ in range(2)],
                      rng.next_u64())


# --- legality -------------------------------------------------------------------------------


def _number_problem(state: LanesState, player: int, card: Card, lane_i: int) -> str | None:
    """Why ``card`` (a number card) may not go on the player's lane ``lane_i``; None if it may."""
    lane = state.sides[player].lanes[lane_i]
    if state.in_opening[player] and lane:
        return Why("opening_lane", "during the opening each number card starts one of your empty lanes (L-3.1)")
    if not lane:
        return None
    last = lane[-1].card
    if card.rank == last.rank:
        return Why("same_value", "the same value may never be played twice in a row on a lane (L-5.6): "
                   f"the lane ends in a {last.rank_text}", rank=last.rank_text)
    direction = lane_direction(lane, state.held[player][lane_i])
    if direction is None:
        return None
    suit = lane_suit(lane, state.options)
    if card.suit == suit:
        return None  # L-5.5 the current suit may go either way
    if direction == UP and card.rank < last.rank:
        return Why("ascending", f"this lane is ascending: play higher than {last.rank_text}, "
                   f"or a card of its suit ({suit}) (L-5.4, L-5.5)", rank=last.rank_text, suit=suit)
    if direction == DOWN and card.rank > last.rank:
        return Why("descending", f"this lane is descending: play lower than {last.rank_text}, "
                   f"or a card of its suit ({suit}) (L-5.4, L-5.5)", rank=last.rank_text, suit=suit)
    return None


def _face_problem(state: LanesState, card: Card, owner: int, lane_i: int, stack_i: int) -> str | None:
    """Why a face card may not attach to that number card; None if it may (L-6)."""
    lane = state.sides[owner].lanes[lane_i]
    stack = lane[stack_i]
    limit = attach_limit(state.options)
    if limit is not None and len(stack.attached) >= limit:
        return Why("attach_full", "that card already holds 3 face cards and accepts no other, not even a jack (L-6.0)")
    if card.rank == QUEEN and stack_i != len(lane) - 1 and not state.options.queen_anywhere:
        return Why("queen_last", "a queen goes only on the last number card of a lane (L-6.2)")
    return None


def why_illegal(state: LanesState, action: LanesAction) -> str | None:
    """The reason ``action`` is illegal now, or None. Raises BadRequest for indices that do not exist."""
    if state.over:
        return Why("match_over", "the match is over")
    if isinstance(action, (Resign, Timeout, Abort, Away)):
        return None
    if action.player is not None and action.player != state.to_move:
        return Why("not_your_turn", "it is not your turn")
    p = state.to_move
    side = state.sides[p]
    opening = state.in_opening[p]
    if isinstance(action, Disband):
        if opening:
            return Why("opening_no_disband", "no disbanding during the opening (L-3.2)")
        if not side.lanes[action.lane]:
            return Why("disband_empty", "that lane is empty: there is nothing to disband (L-4.3)")
        return None
    if action.card not in side.hand:
        return Why("not_held", f"you do not hold {action.card}", card=str(action.card))
    if isinstance(action, Discard):
        if opening and any(is_number(c) for c in side.hand):
            return Why("opening_no_discard",
                       "during the opening you must place a number card; you may discard only without one "
                       "(L-3.2, L-3.4)")
        return None
    return _play_problem(state, p, action)


def _play_problem(state: LanesState, p: int, action: Play) -> str | None:
    """Why a card from the hand may not go where ``action`` puts it (L-4.1, L-5, L-6)."""
    card = action.card
    if is_number(card):
        if action.stack is not None:
            raise BadRequest("a number card starts or extends a lane: give only 'lane'")
        if action.owner is not None and action.owner != p:
            return Why("own_lanes", "number cards go on your own lanes (L-4.1)")
        return _number_problem(state, p, card, action.lane)
    if state.in_opening[p]:
        return Why("opening_no_face", "no face cards during the opening (L-3.2)")
    if action.owner is None or action.stack is None:
        raise BadRequest("a face card needs 'owner', 'lane' and 'stack'")
    lane = state.sides[action.owner].lanes[action.lane]
    if action.stack >= len(lane):
        raise BadRequest(f"stack {action.stack} does not exist in that lane (it has {len(lane)})")
    return _face_problem(state, card, action.owner, action.lane, action.stack)


def legal_actions(state: LanesState, player: int | None = None) -> list[LanesAction]:
    """Every legal action for the player to move (resign is always possible and never listed)."""
    if state.over or (player is not None and player != state.to_move):
        return []
    p = state.to_move
    side = state.sides[p]
    distinct = list(dict.fromkeys(side.hand))
    out: list[LanesAction] = []
    numbers = [c for c in distinct if is_number(c)]
    for card in numbers:
        for li in range(LANES):
            if _number_problem(state, p, card, li) is None:
                out.append(Play(card, li))
    if state.in_opening[p]:
        if not numbers:
            out.extend(Discard(c) for c in distinct)
        return out
    faces = [c for c in distinct if not is_number(c)]
    for card in faces:
        for owner in (0, 1):
            for li, lane in enumerate(state.sides[owner].lanes):
                for si in range(len(lane)):
                    if _face_problem(state, card, owner, li, si) is None:
                        out.append(Play(card, li, owner, si))
    out.extend(Discard(c) for c in distinct)
    out.extend(Disband(li) for li in range(LANES) if side.lanes[li])
    return out


# --- applying -------------------------------------------------------------------------------


def _remove_stack(state: LanesState, owner: int, lane_i: int, stack: Stack, extra: list[Card],
                  events: list[Event]) -> None:
    """Take ``stack`` off the table to its owner's discard pile (L-6.6), in stack order."""
    lane = state.sides[owner].lanes[lane_i]
    for i, s in enumerate(lane):
        if s is stack:
            del lane[i]
            break
    cards = stack.cards() + extra
    state.sides[owner].discard.extend(cards)
    events.append(ev("remove", owner=owner, lane=lane_i, cards=[str(c) for c in cards]))


def _joker_targets(state: LanesState, owner: int, lane_i: int, target: Stack) -> list[tuple[int, int, Stack]]:
    """L-6.4 with L-9.9 and L-9.12, in table order (player 0's lanes 0–2, then player 1's)."""
    opts = state.options
    out = []
    for o in (0, 1):
        for li, lane in enumerate(state.sides[o].lanes):
            if opts.protective_joker and (o, li) == (owner, lane_i):
                continue
            for s in lane:
                if s is target:
                    continue
                if target.card.rank == ACE:
                    if s.card.suit != target.card.suit:
                        continue
                    if opts.queen_shield and s.queens():
                        continue
                elif s.card.rank != target.card.rank:
                    continue
                out.append((o, li, s))
    return out


def _draw(state: LanesState, p: int, events: list[Event]) -> None:
    """L-4.4 draw one; L-9.6 reshuffle the discard pile when the deck is empty (at most twice)."""
    side = state.sides[p]
    if not side.deck and state.options.reshuffle and state.reshuffles_used[p] < 2 and side.discard:
        rng = Rng(state.rng)
        side.deck = list(side.discard)
        side.discard = []
        rng.shuffle(side.deck)
        state.rng = rng.next_u64()
        state.reshuffles_used[p] += 1
        events.append(ev("reshuffle", player=p, count=len(side.deck)))
    if side.deck:
        card = side.deck.pop(0)
        side.hand.append(card)
        events.append(ev("draw", player=p, card=str(card)))


def _finish(state: LanesState, winner: int | None, reason: str, events: list[Event]) -> None:
    state.over = True
    state.winner = winner
    state.reason = reason
    events.append(ev("win", player=winner, reason=reason) if winner is not None else ev("aborted", reason=reason))


def evaluate(state: LanesState, events: list[Event], first: int | None = None,
             sellers: list[int | None] | None = None) -> None:
    """End-of-action checks (L-8.1 'checked after every action'): sales first, then out of cards."""
    if state.over:
        return
    if sellers is None:
        sellers = pair_sellers(state)
    if state.options.quick_sell:
        for p in (0, 1):
            if sellers.count(p) >= 2:
                _finish(state, p, "sold", events)
                return
    if all(s is not None for s in sellers):
        _finish(state, 0 if sellers.count(0) >= 2 else 1, "sold", events)
        return
    order = (first, 1 - first) if first is not None else (state.to_move, 1 - state.to_move)
    for p in order:
        side = state.sides[p]
        if not side.hand and not side.deck:
            _finish(state, 1 - p, "out_of_cards", events)
            return


def _update_held(state: LanesState, before: dict[tuple[int, int], str | None]) -> None:
    """L-9.10: after removals, a lane that now ends in two equal values keeps the direction it
    showed just before. Stored as the base direction, so queens on the (new) last card still
    reverse it like any direction."""
    for (o, li), d_before in before.items():
        lane = state.sides[o].lanes[li]
        if (state.options.fixed_direction and d_before is not None and len(lane) >= 2
                and lane[-1].card.rank == lane[-2].card.rank):
            flips = len(lane[-1].queens()) % 2
            state.held[o][li] = d_before if not flips else (DOWN if d_before == UP else UP)
        else:
            state.held[o][li] = None


def _snapshot_directions(state: LanesState) -> dict[tuple[int, int], str | None]:
    return {(o, li): lane_direction(lane, state.held[o][li])
            for o in (0, 1) for li, lane in enumerate(state.sides[o].lanes)}


def apply(state: LanesState, action: LanesAction) -> tuple[LanesState, list[Event]]:
    """Apply a legal action to a copy of ``state``; raise IllegalAction with the reason otherwise."""
    problem = why_illegal(state, action)
    if problem is not None:
        raise IllegalAction(problem, reason="illegal")
    s = state.clone()
    s.ply += 1
    events: list[Event] = []
    if _ended_outside(s, action, events):
        return s, events
    before = pair_sellers(s)
    p = s.to_move
    if isinstance(action, Disband):
        _disband(s, p, action.lane, events)
        draw = False  # L-4.4: disband uses no card
    elif isinstance(action, Discard):
        s.sides[p].hand.remove(action.card)
        s.sides[p].discard.append(action.card)
        events.append(ev("discard", player=p, card=str(action.card)))
        draw = True
    else:
        assert isinstance(action, Play)
        draw = _play(s, p, action, events)
    if draw and (not s.in_opening[p] or isinstance(action, Discard)):
        _draw(s, p, events)
    after = pair_sellers(s)
    for i, (b, a) in enumerate(zip(before, after, strict=True)):
        if a is not None and a != b:
            events.append(ev("sold", pair=i, player=a))
    evaluate(s, events, first=p, sellers=after)
    if not s.over:
        s.to_move = 1 - p
    return s, events


def _ended_outside(s: LanesState, action: LanesAction, events: list[Event]) -> bool:
    """A resignation (L-8.3a) or a result the lobby's clock reports (L-8.3, L-8.4): the match ends."""
    if isinstance(action, Resign):
        p = s.to_move if action.player is None else action.player
        events.append(ev("resign", player=p))
        _finish(s, 1 - p, "resigned", events)
    elif isinstance(action, Timeout):
        _finish(s, 1 - action.player, "timeout", events)
    elif isinstance(action, Abort):
        _finish(s, None, "aborted", events)
    elif isinstance(action, Away):
        _finish(s, 1 - action.player, "disconnected", events)
    else:
        return False
    return True


def _disband(s: LanesState, p: int, lane_i: int, events: list[Event]) -> None:
    """L-4.3: every card of the lane, attachments included, to the player's discard pile."""
    side = s.sides[p]
    cards = [c for st in side.lanes[lane_i] for c in st.cards()]
    side.discard.extend(cards)
    side.lanes[lane_i] = []
    s.held[p][lane_i] = None
    events.append(ev("disband", player=p, lane=lane_i, cards=[str(c) for c in cards]))


def _play(s: LanesState, p: int, action: Play, events: list[Event]) -> bool:
    """A card from the hand onto a lane; whether the player draws after it (not in the opening)."""
    side = s.sides[p]
    card = action.card
    side.hand.remove(card)
    if is_number(card):
        lane = side.lanes[action.lane]
        lane.append(Stack(card))
        s.held[p][action.lane] = None
        events.append(ev("play", player=p, card=str(card), owner=p, lane=action.lane, stack=len(lane) - 1))
        if not s.in_opening[p]:
            return True
        if all(side.lanes):
            s.in_opening[p] = False
        return False  # L-3.3
    assert action.owner is not None and action.stack is not None
    _face_card(s, p, card, action.owner, action.lane, action.stack, events)
    return True


def _face_card(s: LanesState, p: int, card: Card, owner: int, li: int, si: int, events: list[Event]) -> None:
    """L-6: a jack removes, a joker sweeps, a queen or king attaches (its effect is derived)."""
    target = s.sides[owner].lanes[li][si]
    events.append(ev("play", player=p, card=str(card), owner=owner, lane=li, stack=si))
    if card.rank == JACK:  # L-6.1
        dirs = _snapshot_directions(s)
        _remove_stack(s, owner, li, target, [card], events)
        _update_held(s, {(owner, li): dirs[(owner, li)]})
    elif card.rank == JOKER:  # L-6.4
        target.attached.append(card)
        victims = _joker_targets(s, owner, li, target)
        if victims:
            dirs = _snapshot_directions(s)
            touched = {}
            for o, vl, st in victims:
                _remove_stack(s, o, vl, st, [], events)
                touched[(o, vl)] = dirs[(o, vl)]
            _update_held(s, touched)
    else:  # L-6.2 queen, L-6.3 king: attach; direction, suit and value are derived
        target.attached.append(card)
    assert card.rank in (JACK, QUEEN, KING, JOKER)


def result(state: LanesState) -> Result | None:
    if not state.over:
        return None
    return Result(state.winner, state.reason or "")
