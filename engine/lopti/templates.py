"""Ready-made house rules: starting points for people and the rules bot winners pick (P-8).

Every template is valid, describes itself in three languages and survives a dry run (tested).
Together they use every effect kind and every trigger."""

from __future__ import annotations

from typing import Any


def _r(rid: str, title: str, event: str, timing: str, do: list[dict[str, Any]],
       cond: dict[str, Any] | None = None) -> dict[str, Any]:
    rule: dict[str, Any] = {"version": 1, "id": rid, "title": title, "author": None, "created_deal": 0,
                            "when": {"event": event, "timing": timing}, "do": do}
    if cond is not None:
        rule["if"] = cond
    return rule


TEMPLATES: list[dict[str, Any]] = [
    _r("eights-punish", "Pairs of eights make the next player draw", "play", "after",
       [{"effect": "draw", "role": "next", "n": 1}], {"all": [{"rank_in": ["8"]}, {"count_at_least": 2}]}),
    _r("kings-skip", "A king skips the next player", "play", "after", [{"effect": "skip", "role": "next"}],
       {"rank_in": ["K"]}),
    _r("queens-reverse", "Queens reverse the direction", "play", "after", [{"effect": "reverse"}],
       {"rank_in": ["Q"]}),
    _r("three-eights-clear", "Three eights in a row clear", "play", "after", [{"effect": "clear"}],
       {"all": [{"rank_in": ["8"]}, {"pile_size": {"op": ">=", "n": 3}}]}),
    _r("jacks-give", "A jack passes your lowest card on", "play", "after",
       [{"effect": "give", "from": "actor", "to": "next", "which": "lowest"}], {"rank_in": ["J"]}),
    _r("big-take-reveal", "Taking a big pile shows your best card", "take", "after",
       [{"effect": "reveal", "role": "actor"}], {"count_at_least": 6}),
    _r("ten-recycle", "A 10 sends two cleared cards back to the draw pile", "clear", "after",
       [{"effect": "return_cleared", "n": 2}], {"cause_in": ["ten"]}),
    _r("leader-greeting", "The leader announces the deal", "deal_start", "before",
       [{"effect": "announce", "text": "Good luck, everyone!"}]),
    _r("rich-give", "The player with most cards gets help", "turn_start", "after",
       [{"effect": "give", "from": "fewest_cards", "to": "most_cards", "which": "highest"}],
       {"all": [{"cards_left": {"role": "most_cards", "op": ">=", "n": 15}}, {"deal_number": {"op": ">=", "n": 1}}]}),
    _r("seven-tax", "Playing low costs the next player a card", "low", "after",
       [{"effect": "draw", "role": "next", "n": 1}]),
    _r("obligation-reveal", "A passed 3 shows the receiver's best card", "obligation", "after",
       [{"effect": "reveal", "role": "next"}]),
    _r("bad-flip", "A failed face-down flip draws one more", "flip", "after",
       [{"effect": "draw", "role": "actor", "n": 1}], {"legal": False}),
    _r("lucky-flip", "A lucky flip makes the next player draw", "flip", "after",
       [{"effect": "draw", "role": "next", "n": 1}], {"legal": True}),
    _r("aces-everyone", "Aces make everyone else draw", "play", "after",
       [{"effect": "draw", "role": "others", "n": 1}], {"rank_in": ["A"]}),
    _r("forced-take-skip", "A forced take also costs a turn", "take", "after",
       [{"effect": "skip", "role": "actor"}, {"effect": "announce", "text": "Ouch!"}], {"forced": True}),
    _r("double-twos-reverse", "Two or more 2s reverse play", "play", "after", [{"effect": "reverse"}],
       {"all": [{"rank_in": ["2"]}, {"count_at_least": 2}]}),
    _r("four-clear-bonus", "Four of a kind: the previous player draws", "clear", "after",
       [{"effect": "draw", "role": "previous", "n": 1}], {"cause_in": ["four"]}),
    _r("nines-on-empty-draw", "Nines while the draw pile lasts draw the next player", "play", "after",
       [{"effect": "draw", "role": "next", "n": 1}], {"all": [{"rank_in": ["9"]}, {"draw_empty": False}]}),
    _r("face-up-give", "Playing from face-up cards passes the highest", "play", "after",
       [{"effect": "give", "from": "actor", "to": "previous", "which": "highest"}], {"zone": "up"}),
    _r("big-hand-reveal", "A big hand must show its best card", "turn_start", "before",
       [{"effect": "reveal", "role": "actor"}], {"hand_size": {"role": "actor", "op": ">=", "n": 10}}),
    _r("threes-recycle", "Four 3s bring three cleared cards back", "clear", "after",
       [{"effect": "return_cleared", "n": 3}], {"cause_in": ["threes"]}),
    _r("fives-clear-big", "Fives clear a pile of eight or more", "play", "after", [{"effect": "clear"}],
       {"all": [{"rank_in": ["5"]}, {"pile_size": {"op": ">=", "n": 8}}]}),
    _r("leader-bonus", "The leader starts with a gift from the most loaded", "deal_start", "after",
       [{"effect": "give", "from": "most_cards", "to": "leader", "which": "lowest"}]),
    _r("six-reverse-skip", "Three or more 6s reverse and skip", "play", "after",
       [{"effect": "reverse"}, {"effect": "skip", "role": "next"}],
       {"all": [{"rank_in": ["6"]}, {"count_at_least": 3}]}),
    _r("late-deal-tax", "From the third deal, taking costs a card to the fewest", "take", "after",
       [{"effect": "give", "from": "actor", "to": "fewest_cards", "which": "lowest"}],
       {"deal_number": {"op": ">=", "n": 2}}),
    _r("draw-announce", "Drawing the last card is announced", "draw", "after",
       [{"effect": "announce", "text": "The draw pile is empty!"}], {"draw_empty": True}),
    _r("queen-low-reveal", "Queens reveal the leader's best card", "play", "before",
       [{"effect": "reveal", "role": "leader"}], {"rank_in": ["Q"]}),
    _r("low-draw-return", "While the draw pile is low, a clear returns one card", "clear", "after",
       [{"effect": "return_cleared", "n": 1}], {"draw_size": {"op": "<=", "n": 5}}),
]
