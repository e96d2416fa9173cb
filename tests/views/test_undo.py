"""Undo against the learning bots (views/table/undo.py): what it takes back, and what it never does."""

from __future__ import annotations

from engine.lopti import RULES
from engine.lopti.actions import DeleteRule
from views.table.undo import undo_point


def test_an_undo_never_takes_back_a_rule_its_author_deleted() -> None:
    """#36 item 3, P-9.4, P-9.7: a rule its author deleted during the deal stays deleted, so undo
    takes back no move made before the deletion; a move made after it is mine to take back."""
    opts = RULES.parse_options({"house_rules": [{"version": 1, "id": "mine", "author": 0,
                                                 "when": {"event": "play", "timing": "after"},
                                                 "do": [{"effect": "draw", "role": "next", "n": 1}]}]})
    state = RULES.new_game(opts, 5, 2)
    actions = []
    for _ in range(2):  # each seat's setup: both keep
        action = RULES.legal_actions(state)[-1]
        actions.append(RULES.action_to_json(action))
        state, _ = RULES.apply(state, action)
    assert state.to_move == 0 and undo_point(RULES, RULES.new_game(opts, 5, 2), actions, 0, 2) == 0
    deletion = DeleteRule("mine", 0)
    assert deletion in RULES.legal_actions(state, 0)
    state, _ = RULES.apply(state, deletion)
    actions.append(RULES.action_to_json(deletion))
    assert undo_point(RULES, RULES.new_game(opts, 5, 2), actions, 0, 2) is None  # on my own turn, too
    mine = RULES.legal_actions(state)[0]
    actions.append(RULES.action_to_json(mine))
    assert undo_point(RULES, RULES.new_game(opts, 5, 2), actions, 0, 2) == 3
