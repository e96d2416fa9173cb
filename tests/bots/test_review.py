"""The expert's game review (engine/bots/review.py): planted blunders are marked, best moves are
not, it sees only what the player saw, and it is deterministic, cancellable and stored."""

from __future__ import annotations

from typing import Any

import pytest

from engine.bots import decide
from engine.bots.review import MARK, GameReview, review_game, review_move
from engine.core import GameRecord
from engine.lanes import RULES as LANES
from engine.lanes.notation import position_from_json as lanes_position
from engine.lopti import RULES as LOPTI
from engine.lopti.notation import position_from_json as lopti_position

# Player 0 sells two pairs (24 against 10, 23 against 12); lane 3 stands at 17, descending from the
# 10 of spades. The 4 of diamonds on it makes 21: every pair sells and player 0 wins (L-7.3, L-8.1).
LANES_WIN_NOW: dict[str, Any] = {"to_move": 0, "in_opening": [False, False], "players": [
    {"hand": ["4D", "10C", "2S", "AH", "3H"], "deck": ["5C", "6C", "7S", "8D"], "discard": [],
     "lanes": [[["10H"], ["9C"], ["5S"]], [["10D"], ["8C"], ["5H"]], [["10S"], ["7C"]]]},
    {"hand": ["9H", "8H", "KD", "JS", "2C"], "deck": ["3C", "4S", "6S", "7D"], "discard": [],
     "lanes": [[["6H"], ["4C"]], [["7H"], ["5D"]], [["9D"], ["6D"]]]}]}

# Player 0 holds the last two cards, a pair of 7s, on a 5: playing both goes out and wins the deal
# (P-3.3, P-7.4); taking the pile (P-3.2) throws that away.
LOPTI_OUT_NOW: dict[str, Any] = {
    "players": [{"hand": ["7H", "7D"], "up": [], "down": [], "out": False},
                {"hand": ["JC", "4S", "9D"], "up": [], "down": [], "out": False}],
    "draw": [], "pile": [["5S"]], "threes": 0, "obligation": False, "to_move": 0, "extra_play": False,
    "phase": "play"}


def lanes_state(pos: dict[str, Any] = LANES_WIN_NOW) -> Any:
    return lanes_position(LANES.parse_options({}), pos)


def lopti_state() -> Any:
    return lopti_position(LOPTI.parse_options({}), LOPTI_OUT_NOW)


@pytest.mark.parametrize("blunder", [{"discard": "4D"}, {"play": "10C", "lane": 2}])
def test_L_8_1_a_planted_lanes_blunder_is_marked_and_the_winning_move_suggested(blunder: dict[str, Any]) -> None:
    s = lanes_state()
    r = review_move("lanes", s, 0, LANES.parse_action(blunder, s), seed=7)
    assert r.best == {"play": "4D", "lane": 2}
    assert r.after_best == 1.0 and r.loss >= MARK and r.marked


def test_L_8_1_the_obviously_best_lanes_move_is_not_marked() -> None:
    s = lanes_state()
    r = review_move("lanes", s, 0, LANES.parse_action({"play": "4D", "lane": 2}, s), seed=7)
    assert r.played == r.best and r.after_played == 1.0 and r.loss == 0 and not r.marked


def test_P_7_4_a_planted_lopti_blunder_is_marked() -> None:
    s = lopti_state()
    r = review_move("lopti", s, 0, LOPTI.parse_action({"take": True}, s), seed=3)
    assert r.best == "play 7x2"  # both 7s (suits carry no meaning, P-1.1)
    assert r.after_best == 1.0 and r.marked


def test_P_7_4_going_out_is_not_marked() -> None:
    s = lopti_state()
    r = review_move("lopti", s, 0, LOPTI.parse_action({"play": ["7H", "7D"]}, s), seed=3)
    assert r.after_played == 1.0 and not r.marked


def test_a_rule_its_author_deleted_is_not_a_move_to_judge() -> None:
    """#36 item 3: deleting my house rule on my own turn (P-9.4) is a table decision, not a play:
    the review judges the moves around it and never the deletion."""
    rule = {"version": 1, "id": "mine", "author": 0, "when": {"event": "play", "timing": "after"},
            "do": [{"effect": "draw", "role": "next", "n": 1}]}
    options = {"house_rules": [rule]}
    s = LOPTI.new_game(LOPTI.parse_options(options), 9, 2)
    actions: list[Any] = []
    deleted = False
    while not s.over and len(actions) < 12:
        if s.to_move == 0 and s.phase == "play" and not deleted:
            a: Any = LOPTI.parse_action({"delete_rule": "mine", "by": 0}, s)
            deleted = True
        else:
            a = LOPTI.legal_actions(s)[0]
        actions.append(LOPTI.action_to_json(a))
        s, _ = LOPTI.apply(s, a)
    assert deleted and {"delete_rule": "mine", "by": 0} in actions
    review = review_game(GameRecord("lopti", options, 9, 2, tuple(actions)), 0, budget_ms=20)
    assert review is not None and review.moves
    judged = {m.ply for m in review.moves}
    assert actions.index({"delete_rule": "mine", "by": 0}) not in judged


def test_the_review_sees_only_what_the_player_saw() -> None:
    """Two positions that differ only in cards player 0 cannot see (the opponent's hand and deck
    order) get the very same review."""
    other = {**LANES_WIN_NOW, "players": [LANES_WIN_NOW["players"][0], {
        **LANES_WIN_NOW["players"][1], "hand": ["3C", "4S", "6S", "7D", "2C"], "deck": ["KD", "9H", "JS", "8H"]}]}
    a, b = lanes_state(), lanes_state(other)
    assert LANES.observe(a, 0) == LANES.observe(b, 0)
    move = {"play": "AH", "lane": 2}
    assert review_move("lanes", a, 0, LANES.parse_action(move, a), 5) == \
        review_move("lanes", b, 0, LANES.parse_action(move, b), 5)


def short_lanes_game() -> GameRecord[Any]:
    s = LANES.new_game(LANES.parse_options({}), 11)
    actions: list[Any] = []
    while not s.over:
        p = s.to_move
        a = decide("lanes", LANES.observe(s, p), "beginner" if p == 0 else "casual", len(actions))
        actions.append(LANES.action_to_json(a))
        s, _ = LANES.apply(s, a)
    return GameRecord("lanes", {}, 11, 2, tuple(actions))


def test_a_whole_game_review_covers_each_real_decision_once_and_is_deterministic() -> None:
    record = short_lanes_game()
    seen: list[tuple[int, int]] = []
    review = review_game(record, 0, budget_ms=40, progress=lambda done, of: seen.append((done, of)))
    assert review is not None
    # every decision of seat 0 with a choice, in order; none of the opponent's
    s = LANES.new_game(LANES.parse_options({}), 11)
    expected = []
    for ply, raw in enumerate(record.actions):
        a = LANES.parse_action(raw, s)
        if s.to_move == 0 and len(LANES.legal_actions(s)) > 1:
            expected.append(ply)
        s, _ = LANES.apply(s, a)
    assert [m.ply for m in review.moves] == expected and expected
    assert seen == [(k + 1, len(expected)) for k in range(len(expected))]
    assert all(0.0 <= x <= 1.0 for m in review.moves for x in (m.before, m.after_played, m.after_best))
    assert review_game(record, 0, budget_ms=40) == review
    assert GameReview.from_json(review.to_json()) == review


def test_a_review_can_be_cancelled() -> None:
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 2
    assert review_game(short_lanes_game(), 0, budget_ms=20, should_stop=stop) is None


def test_only_lanes_and_lopti_are_reviewed() -> None:
    with pytest.raises(ValueError):
        review_game(GameRecord("spit", {}, 1, 2, ()), 0)


def test_a_review_from_another_version_is_refused() -> None:
    with pytest.raises(ValueError):
        GameReview.from_json({"version": 99, "game": "lanes", "seat": 0, "moves": []})


def test_a_resignation_is_not_a_move_to_judge() -> None:
    """L-8.3a: resigning ends the game; the review judges the moves before it, not the resignation."""
    base = short_lanes_game()
    s = LANES.new_game(LANES.parse_options({}), 11)
    for raw in base.actions[:6]:
        s, _ = LANES.apply(s, LANES.parse_action(raw, s))
    resign = {"resign": True, "player": s.to_move}
    record: GameRecord[Any] = GameRecord("lanes", {}, 11, 2, (*base.actions[:6], resign))
    review = review_game(record, s.to_move, budget_ms=20)
    assert review is not None and all(m.ply < 6 for m in review.moves) and review.moves
