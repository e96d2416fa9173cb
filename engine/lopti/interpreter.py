"""Runs active house rules inside the Lopti event flow (P-8, guarantees in docs/house_rules.md).

Rules observe base events; their effects run around the event and never cancel or replace it.
Effects produce *derived* events (``rule_draw``, ``rule_give``…) that trigger no rule, so rules
cannot feed each other; caps per turn and per deal bound the rest. Order is deterministic: rule
creation order, then seat order from the actor in the direction of play.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, ev
from engine.lopti.house_rules import HouseRule
from engine.lopti.state import LoptiState, active_seats, next_active, order

MAX_FIRES_PER_TURN = 12
MAX_FIRES_PER_DEAL = 300


def _ops(op: str, a: int, b: int) -> bool:
    return a >= b if op == ">=" else a <= b if op == "<=" else a == b


def _label_rank(label: str) -> int:
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(label) or int(label)


def role_seats(s: LoptiState, role: str, actor: int) -> list[int]:
    """Seats a role names, in seat order from the actor; never a player who is out."""
    active = active_seats(s)
    if not active:
        return []
    n = len(s.seats)
    from_actor = [(actor + s.direction * k) % n for k in range(n)]
    ordered = [i for i in from_actor if i in active]
    if role == "actor":
        return [actor] if actor in active else []
    if role == "next":
        j = next_active(s, actor)
        return [j] if j != actor else []
    if role == "previous":
        j = next_active(s, actor, -s.direction)
        return [j] if j != actor else []
    if role == "leader":
        return [s.leader] if s.leader in active else []
    if role in ("most_cards", "fewest_cards"):
        counts = [s.seats[i].card_count() for i in ordered]
        target = max(counts) if role == "most_cards" else min(counts)
        return [ordered[counts.index(target)]]
    if role == "others":
        return [i for i in ordered if i != actor]
    return ordered  # "all"


def holds(cond: Any, s: LoptiState, actor: int, ctx: dict[str, Any]) -> bool:
    """Evaluate a validated condition (pure: reads the state, never changes it)."""
    if cond is None:
        return True
    (key, arg), = cond.items()
    if key == "all":
        return all(holds(c, s, actor, ctx) for c in arg)
    if key == "any":
        return any(holds(c, s, actor, ctx) for c in arg)
    if key == "not":
        return not holds(arg, s, actor, ctx)
    test = _TESTS.get(key)
    return bool(test(arg, s, actor, ctx)) if test is not None else False


def _seat_size(key: str) -> Any:
    """``hand_size`` / ``cards_left`` of the seat a role names."""
    def test(arg: Any, s: LoptiState, actor: int, ctx: dict[str, Any]) -> bool:
        seats = role_seats(s, arg.get("role", "actor"), actor)
        if not seats:
            return False
        seat = s.seats[seats[0]]
        return _ops(arg["op"], len(seat.hand) if key == "hand_size" else seat.card_count(), arg["n"])
    return test


#: each condition of the vocabulary (``house_rules.CONDITION_NEEDS``): (argument, state, actor, event) → bool
_TESTS: dict[str, Any] = {
    "rank_in": lambda arg, s, actor, ctx: ctx.get("rank") in {_label_rank(x) for x in arg},
    "count_at_least": lambda arg, s, actor, ctx: int(ctx.get("count", 0)) >= arg,
    "count_at_most": lambda arg, s, actor, ctx: int(ctx.get("count", 0)) <= arg,
    "cause_in": lambda arg, s, actor, ctx: ctx.get("cause") in arg,
    "zone": lambda arg, s, actor, ctx: ctx.get("zone") == arg,
    "legal": lambda arg, s, actor, ctx: ctx.get("legal") == arg,
    "forced": lambda arg, s, actor, ctx: ctx.get("forced") == arg,
    "draw_empty": lambda arg, s, actor, ctx: (not s.draw) == arg,
    "pile_size": lambda arg, s, actor, ctx: _ops(arg["op"], sum(len(p) for p in s.pile), arg["n"]),
    "draw_size": lambda arg, s, actor, ctx: _ops(arg["op"], len(s.draw), arg["n"]),
    "deal_number": lambda arg, s, actor, ctx: _ops(arg["op"], s.deal_number, arg["n"]),
    "hand_size": _seat_size("hand_size"),
    "cards_left": _seat_size("cards_left"),
}


def _run_effect(s: LoptiState, rule: HouseRule, eff: dict[str, Any], actor: int, events: list[Event],
                shield: int | None = None) -> bool:
    """Apply one effect; True when it cleared the pile (the actor then gets an extra play).

    ``shield`` is a player whose action is emptying their cards: no effect hands them a card, so a
    rule never turns a winning play into a non-winning one (P-8.3, P-7.2).
    """
    effect = _EFFECTS.get(eff["effect"])  # a validated rule names only these
    return bool(effect(s, rule, eff, actor, events, shield)) if effect is not None else False


def _draw(s: LoptiState, rule: HouseRule, eff: dict[str, Any], actor: int, events: list[Event],
          shield: int | None) -> None:
    for t in role_seats(s, eff.get("role", "actor"), actor):
        k = min(eff.get("n", 1), len(s.draw))
        if t != shield and k:
            s.seats[t].hand.extend(s.draw[:k])
            del s.draw[:k]
            events.append(ev("rule_draw", rule=rule.id, player=t, count=k))


def _give(s: LoptiState, rule: HouseRule, eff: dict[str, Any], actor: int, events: list[Event],
          shield: int | None) -> None:
    givers = role_seats(s, eff.get("from", "actor"), actor)
    takers = role_seats(s, eff.get("to", "next"), actor)
    if givers and takers and givers[0] != takers[0] and takers[0] != shield:
        g = s.seats[givers[0]]
        if len(g.hand) >= 2:  # never a player's last card in hand: nobody is left stranded
            pick = (min if eff.get("which", "lowest") == "lowest" else max)(g.hand, key=lambda c: order(c.rank))
            g.hand.remove(pick)
            if pick in g.known:
                g.known.remove(pick)
            s.seats[takers[0]].hand.append(pick)
            events.append(ev("rule_give", rule=rule.id, player=givers[0], to=takers[0]))


def _reveal(s: LoptiState, rule: HouseRule, eff: dict[str, Any], actor: int, events: list[Event],
            shield: int | None) -> None:
    for t in role_seats(s, eff.get("role", "actor"), actor):
        seat = s.seats[t]
        unknown = list(seat.hand)
        for k in seat.known:
            if k in unknown:
                unknown.remove(k)
        if unknown:
            card = max(unknown, key=lambda c: order(c.rank))
            seat.known.append(card)
            events.append(ev("rule_reveal", rule=rule.id, player=t, card=str(card)))


def _skip(s: LoptiState, rule: HouseRule, eff: dict[str, Any], actor: int, events: list[Event],
          shield: int | None) -> None:
    for t in role_seats(s, eff.get("role", "next"), actor):
        if t != actor and not s.skips[t]:
            s.skips[t] = 1
            events.append(ev("rule_skip", rule=rule.id, player=t))


def _reverse(s: LoptiState, rule: HouseRule, eff: dict[str, Any], actor: int, events: list[Event],
             shield: int | None) -> None:
    s.direction = -s.direction
    events.append(ev("rule_reverse", rule=rule.id, direction=s.direction))


def _return_cleared(s: LoptiState, rule: HouseRule, eff: dict[str, Any], actor: int, events: list[Event],
                    shield: int | None) -> None:
    k = min(eff.get("n", 1), len(s.gone))
    if k:
        back = s.gone[-k:]
        del s.gone[-k:]
        s.draw.extend(back)  # to the bottom of the draw pile
        events.append(ev("rule_return", rule=rule.id, count=k))


def _clear(s: LoptiState, rule: HouseRule, eff: dict[str, Any], actor: int, events: list[Event],
           shield: int | None) -> bool:
    if not s.pile:
        return False
    s.gone.extend(c for play in s.pile for c in play)
    s.pile = []
    s.threes = 0
    s.obligation = False
    events.append(ev("clear", player=actor, cause="custom", rule=rule.id))
    return True


def _announce(s: LoptiState, rule: HouseRule, eff: dict[str, Any], actor: int, events: list[Event],
              shield: int | None) -> None:
    events.append(ev("announce", rule=rule.id, text=eff["text"]))


#: each effect of the vocabulary (``house_rules.EFFECTS``) and what it does
_EFFECTS: dict[str, Any] = {"draw": _draw, "give": _give, "reveal": _reveal, "skip": _skip, "reverse": _reverse,
                            "return_cleared": _return_cleared, "clear": _clear, "announce": _announce}


def fire(s: LoptiState, event: str, timing: str, actor: int, ctx: dict[str, Any], events: list[Event],
         shield: int | None = None) -> bool:
    """Run every active rule hooked on (event, timing). Returns True if a rule cleared the pile.

    ``shield``: a player whose current action plays their last card (see ``_run_effect``)."""
    rules = s.options.house_rules
    if not rules:
        return False
    cleared = False
    for rule in rules:
        if rule.event != event or rule.timing != timing:
            continue
        if s.fires_turn >= MAX_FIRES_PER_TURN or s.fires_deal >= MAX_FIRES_PER_DEAL:
            if s.fires_deal == MAX_FIRES_PER_DEAL or s.fires_turn == MAX_FIRES_PER_TURN:
                events.append(ev("rule_cap", rule=rule.id))
                s.fires_turn += 1
                s.fires_deal += 1
            return cleared
        if not holds(rule.condition, s, actor, ctx):
            continue
        s.fires_turn += 1
        s.fires_deal += 1
        events.append(ev("rule", rule=rule.id, player=actor, trigger=event, timing=timing))
        for eff in rule.effects:
            cleared = _run_effect(s, rule, eff, actor, events, shield) or cleared
    return cleared
