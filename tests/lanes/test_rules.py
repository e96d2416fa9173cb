"""Scenario tests for every numbered Lanes rule and [interp] (rules/lanes.md), from hand-built
positions through the conformance interface. Test names cite the rule id."""

from __future__ import annotations

from typing import Any

from engine.lanes import RULES, LanesOptions
from engine.lanes.rules import legal_actions
from tests.helpers import ok, run


def lane(*stacks: str) -> list[list[str]]:
    """lane("3S", "8S+KH") -> [["3S"], ["8S", "KH"]]"""
    return [s.split("+") for s in stacks]


def pos(hand0: list[str] | None = None, lanes0: list[Any] | None = None, hand1: list[str] | None = None,
        lanes1: list[Any] | None = None, deck0: list[str] | None = None, deck1: list[str] | None = None,
        to_move: int = 0, **extra: Any) -> dict[str, Any]:
    return {
        "to_move": to_move,
        "players": [
            {"hand": hand0 if hand0 is not None else ["4H"], "deck": deck0 if deck0 is not None else ["2H"],
             "discard": [], "lanes": lanes0 or [[], [], []]},
            {"hand": hand1 if hand1 is not None else ["4C"], "deck": deck1 if deck1 is not None else ["2D"],
             "discard": [], "lanes": lanes1 or [[], [], []]},
        ],
        **extra,
    }


def state(resp: dict[str, Any]) -> dict[str, Any]:
    return ok(resp)["state"]


def legal(p: dict[str, Any], options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return ok(run("lanes", p, options=options, want=["legal"]))["legal"]


def err(resp: dict[str, Any]) -> dict[str, Any]:
    assert not resp["ok"], "expected an error"
    return resp["error"]


# --- L-1 overview -----------------------------------------------------------------------------

def test_L_1_1_three_lanes_each_and_pairs_face_each_other() -> None:
    s = state(run("lanes", pos(lanes0=[lane("10S+KS"), [], []], lanes1=[lane("9H"), [], []])))
    assert len(s["players"][0]["lanes"]) == 3 and len(s["players"][1]["lanes"]) == 3
    assert len(s["selling"]) == 3


def test_L_1_2_value_is_sum_of_number_cards() -> None:
    s = state(run("lanes", pos(lanes0=[lane("AS", "4S", "9S"), [], []])))
    assert s["players"][0]["value"] == [14, 0, 0]


def test_L_1_3_selling_two_of_three_pairs_wins() -> None:
    p = pos(hand0=["AD"], lanes0=[lane("10S", "AH+KS+KH"), lane("10C", "9C", "2C"), lane("5D")],
            lanes1=[lane("3H"), lane("4H"), lane("10H", "10D+KD")])
    s = state(run("lanes", p, [{"play": "AD", "lane": 2}]))
    assert not s["over"]  # pair 2: 6 vs 30 -> nobody sells yet
    p2 = pos(hand0=["AD"], lanes0=[lane("10S+KS"), lane("10C", "9C", "2C"), lane("5D")],
             lanes1=[lane("3H"), lane("4H"), lane("9H", "6H", "8H")])
    s2 = state(run("lanes", p2, [{"play": "AD", "lane": 0}]))
    assert s2["selling"] == [0, 0, 1] and s2["over"] and s2["winner"] == 0


# --- L-2 setup --------------------------------------------------------------------------------

def test_L_2_1_own_deck_of_54_and_L_2_2_eight_cards() -> None:
    st = RULES.new_game(LanesOptions(), 7)
    for side in st.sides:
        cards = side.hand + side.deck
        assert len(cards) == 54 and len(side.hand) == 8
        assert sum(1 for c in cards if c.is_joker) == 2 and len(set(map(str, cards))) == 53


def test_L_2_2_hands_hidden_from_opponent() -> None:
    st = RULES.new_game(LanesOptions(), 7)
    obs = RULES.observe(st, 0)
    text = str(obs)
    assert obs["hand"] == [str(c) for c in st.sides[0].hand]
    assert obs["players"][1]["hand_size"] == 8 and "deck" not in obs["players"][1]
    assert "deck" not in obs["players"][0] and obs["players"][0]["deck_size"] == 46
    assert "hand\': [" + repr(str(st.sides[1].hand[0])) not in text


def test_L_2_3_random_first_player_both_possible() -> None:
    firsts = {RULES.new_game(LanesOptions(), seed).to_move for seed in range(40)}
    assert firsts == {0, 1}


# --- L-3 opening ------------------------------------------------------------------------------

def test_L_3_1_opening_places_number_cards_on_empty_lanes_only() -> None:
    p = pos(hand0=["7D", "KC", "2S"], lanes0=[lane("5H"), [], []], in_opening=[True, True])
    acts = legal(p)
    assert {"play": "7D", "lane": 1} in acts and {"play": "7D", "lane": 0} not in acts
    assert all(a.get("play") in ("7D", "2S") for a in acts)


def test_L_3_2_no_face_cards_discard_or_disband_in_opening() -> None:
    p = pos(hand0=["7D", "KC", "JK"], lanes0=[lane("5H"), [], []], lanes1=[lane("5C"), [], []],
            in_opening=[True, False])
    for action in ({"discard": "KC"}, {"disband": 0}, {"play": "KC", "owner": 1, "lane": 0, "stack": 0}):
        e = err(run("lanes", p, [action]))
        assert e["code"] == "illegal_action" and "opening" in e["message"]


def test_L_3_3_no_draw_during_opening_and_opening_ends_with_three_lanes() -> None:
    p = pos(hand0=["7D", "3C"], lanes0=[lane("5H"), lane("9S"), []], deck0=["QS"], in_opening=[True, True])
    r = ok(run("lanes", p, [{"play": "3C", "lane": 2}]))
    assert r["state"]["players"][0]["hand"] == ["7D"] and r["state"]["players"][0]["deck"] == ["QS"]
    assert r["state"]["in_opening"] == [False, True]
    assert not any(e["type"] == "draw" for e in r["events"])


def test_L_3_4_no_number_card_discards_and_draws_and_opening_continues() -> None:
    p = pos(hand0=["KC", "QD", "JK"], lanes0=[lane("5H"), [], []], deck0=["4S"], in_opening=[True, True])
    acts = legal(p)
    assert sorted(a["discard"] for a in acts) == ["JK", "KC", "QD"]
    r = ok(run("lanes", p, [{"discard": "QD"}]))
    s = r["state"]
    assert s["players"][0]["hand"] == ["KC", "JK", "4S"] and s["players"][0]["discard"] == ["QD"]
    assert s["in_opening"] == [True, True] and s["to_move"] == 1


def test_L_3_4_discard_not_allowed_when_holding_a_number_card() -> None:
    p = pos(hand0=["KC", "5D"], in_opening=[True, True])
    assert err(run("lanes", p, [{"discard": "KC"}]))["code"] == "illegal_action"


# --- L-4 a turn -------------------------------------------------------------------------------

def test_L_4_1_number_card_only_on_own_lanes() -> None:
    p = pos(hand0=["8S"], lanes0=[lane("3S"), lane("2C"), lane("9D")], lanes1=[lane("2H"), [], []])
    e = err(run("lanes", p, [{"play": "8S", "owner": 1, "lane": 0}]))
    assert e["code"] == "illegal_action" and "own lanes" in e["message"]


def test_L_4_1_face_card_on_either_players_number_card() -> None:
    p = pos(hand0=["KC"], lanes0=[lane("5D"), [], []], lanes1=[lane("3H"), [], []])
    acts = legal(p)
    assert {"play": "KC", "lane": 0, "owner": 1, "stack": 0} in acts
    assert {"play": "KC", "lane": 0, "owner": 0, "stack": 0} in acts


def test_L_4_2_discard_then_draw() -> None:
    p = pos(hand0=["KC", "5D"], lanes0=[lane("5H"), lane("6H"), lane("7H")], deck0=["9S", "2S"])
    s = state(run("lanes", p, [{"discard": "KC"}]))
    assert s["players"][0]["discard"] == ["KC"] and s["players"][0]["hand"] == ["5D", "9S"]


def test_L_4_3_disband_needs_a_non_empty_lane_and_does_not_draw() -> None:
    p = pos(hand0=["KC"], lanes0=[lane("5H", "9H+KS"), [], lane("7H")], deck0=["9S"])
    r = ok(run("lanes", p, [{"disband": 0}]))
    assert r["state"]["players"][0]["discard"] == ["5H", "9H", "KS"]
    assert r["state"]["players"][0]["hand"] == ["KC"] and not any(e["type"] == "draw" for e in r["events"])
    assert err(run("lanes", p, [{"disband": 1}]))["code"] == "illegal_action"


def test_L_4_4_draw_stops_when_deck_is_empty() -> None:
    p = pos(hand0=["KC", "2S"], lanes0=[lane("5H"), lane("6H"), lane("7H")], deck0=[])
    s = state(run("lanes", p, [{"discard": "KC"}]))
    assert s["players"][0]["hand"] == ["2S"] and not s["over"]


# --- L-5 number cards and direction -------------------------------------------------------------

def test_L_5_1_ace_counts_one_faces_count_nothing() -> None:
    s = state(run("lanes", pos(lanes0=[lane("AS", "10S+QS"), [], []])))
    assert s["players"][0]["value"][0] == 11


def test_L_5_2_any_number_card_starts_an_empty_lane() -> None:
    acts = legal(pos(hand0=["AS", "10D"], lanes0=[[], lane("5C", "9C"), lane("3C")]))
    assert {"play": "AS", "lane": 0} in acts and {"play": "10D", "lane": 0} in acts


def test_L_5_3_second_card_sets_direction_and_jumps_allowed() -> None:
    s = state(run("lanes", pos(hand0=["3D"], lanes0=[lane("9S"), lane("2C"), lane("4C")]),
                  [{"play": "3D", "lane": 0}]))
    assert s["players"][0]["direction"][0] == "down"


def test_L_5_4_continue_the_direction() -> None:
    p = pos(hand0=["2S", "10D"], lanes0=[lane("4D", "9D"), lane("2C"), lane("4C")])
    acts = legal(p)
    assert {"play": "10D", "lane": 0} in acts and {"play": "2S", "lane": 0} not in acts


def test_L_5_5_current_suit_goes_either_way_and_reverses() -> None:
    p = pos(hand0=["2D"], lanes0=[lane("4D", "9D"), lane("2C"), lane("4C")])
    s = state(run("lanes", p, [{"play": "2D", "lane": 0}]))
    assert s["players"][0]["direction"][0] == "down"


def test_L_5_6_same_value_never_twice_in_a_row_even_in_suit() -> None:
    p = pos(hand0=["9D", "9S"], lanes0=[lane("4D", "9H"), lane("9C"), lane("4C")])
    acts = legal(p)
    assert {"play": "9D", "lane": 0} not in acts and {"play": "9S", "lane": 1} not in acts
    e = err(run("lanes", p, [{"play": "9H" if False else "9D", "lane": 1}]))
    assert "same value" in e["message"]


def test_L_5_7_current_suit_is_last_number_cards_suit_unless_queen() -> None:
    s = state(run("lanes", pos(lanes0=[lane("4D", "9H"), lane("4C", "9C+QS"), []])))
    assert s["players"][0]["suit"][:2] == ["H", "S"]


def test_L_5_8_equal_values_at_end_after_removal_count_as_descending() -> None:
    p = pos(hand0=["JC"], lanes0=[lane("5H", "8C", "5S"), lane("2C"), lane("4C")])
    s = state(run("lanes", p, [{"play": "JC", "owner": 0, "lane": 0, "stack": 1}]))
    assert s["players"][0]["lanes"][0] == [["5H"], ["5S"]]
    assert s["players"][0]["direction"][0] == "down"


def test_L_5_9_direction_is_derived_from_last_two_then_queens() -> None:
    s = state(run("lanes", pos(lanes0=[lane("3C"), lane("3S", "8S+QH+QD"), lane("3D", "8D+QH")])))
    assert s["players"][0]["direction"] == [None, "up", "down"]


def test_L_5_9_single_card_lane_may_go_either_way_but_not_equal() -> None:
    acts = legal(pos(hand0=["2S", "9S", "5C"], lanes0=[lane("5H"), lane("AC", "2C"), lane("AD", "2D")]))
    assert {"play": "2S", "lane": 0} in acts and {"play": "9S", "lane": 0} in acts
    assert {"play": "5C", "lane": 0} not in acts


def test_L_5_10_state_shows_value_direction_suit_per_lane() -> None:
    s = state(run("lanes", pos(lanes0=[lane("3S", "8S"), [], []])))
    p0 = s["players"][0]
    assert (p0["value"][0], p0["direction"][0], p0["suit"][0]) == (11, "up", "S")


# --- L-6 face cards ---------------------------------------------------------------------------

def test_L_6_0_three_attachments_at_most_not_even_a_jack() -> None:
    p = pos(hand0=["JD", "KD"], lanes0=[lane("5H+KS+KH+QS"), lane("2C"), lane("4C")])
    acts = legal(p)
    assert not any(a.get("lane") == 0 and a.get("owner") == 0 and a.get("stack") == 0 for a in acts)
    e = err(run("lanes", p, [{"play": "JD", "owner": 0, "lane": 0, "stack": 0}]))
    assert "3 face cards" in e["message"]


def test_L_6_0_jokers_count_toward_the_limit() -> None:
    p = pos(hand0=["KD"], lanes0=[lane("5H+JK+KH+KS"), lane("2C"), lane("4C")])
    assert {"play": "KD", "lane": 0, "owner": 0, "stack": 0} not in legal(p)


def test_L_6_0_a_position_with_an_attached_jack_is_bad() -> None:
    e = err(run("lanes", pos(lanes0=[lane("5H+JD"), [], []])))
    assert e["code"] == "bad_position"


def test_L_6_1_jack_removes_card_with_attachments_to_owners_discard() -> None:
    p = pos(hand0=["JH"], lanes1=[lane("2C", "9C+KD+QS"), [], []])
    r = ok(run("lanes", p, [{"play": "JH", "owner": 1, "lane": 0, "stack": 1}]))
    assert r["state"]["players"][1]["discard"] == ["9C", "KD", "QS", "JH"]
    assert r["state"]["players"][0]["discard"] == []
    assert {"type": "remove", "owner": 1, "lane": 0, "cards": ["9C", "KD", "QS", "JH"]} in r["events"]


def test_L_6_1_jack_can_remove_a_middle_card() -> None:
    p = pos(hand0=["JH"], lanes1=[lane("2C", "9C", "10C"), [], []])
    s = state(run("lanes", p, [{"play": "JH", "owner": 1, "lane": 0, "stack": 1}]))
    assert s["players"][1]["lanes"][0] == [["2C"], ["10C"]]


def test_L_6_2_queen_only_on_last_card_reverses_and_sets_suit() -> None:
    p = pos(hand0=["QH"], lanes0=[lane("2S", "5S"), [], []])
    assert {"play": "QH", "lane": 0, "owner": 0, "stack": 0} not in legal(p)
    s = state(run("lanes", p, [{"play": "QH", "lane": 0, "owner": 0, "stack": 1}]))
    assert s["players"][0]["direction"][0] == "down" and s["players"][0]["suit"][0] == "H"


def test_L_6_2_queens_stack_each_reverses() -> None:
    p = pos(hand0=["QH"], lanes0=[lane("2S", "5S+QD"), [], []])
    s = state(run("lanes", p, [{"play": "QH", "lane": 0, "owner": 0, "stack": 1}]))
    assert s["players"][0]["direction"][0] == "up" and s["players"][0]["suit"][0] == "H"


def test_L_6_2_interp_queen_on_single_card_lane_changes_suit_only() -> None:
    p = pos(hand0=["QH", "9C"], lanes0=[lane("5S"), lane("2C"), lane("4C")])
    s = state(run("lanes", p, [{"play": "QH", "lane": 0, "owner": 0, "stack": 0}]))
    assert s["players"][0]["direction"][0] is None and s["players"][0]["suit"][0] == "H"


def test_L_6_3_king_doubles_each_time() -> None:
    s = state(run("lanes", pos(lanes0=[lane("5S+KH+KD"), lane("3S+KC"), []])))
    assert s["players"][0]["value"][:2] == [20, 6]


def test_L_6_4_joker_on_ace_removes_other_cards_of_that_suit_table_wide() -> None:
    p = pos(hand0=["JK"], lanes0=[lane("AS", "5S+KH"), lane("7H"), lane("2C")],
            lanes1=[lane("AS"), lane("9S"), lane("9H")])
    r = ok(run("lanes", p, [{"play": "JK", "owner": 0, "lane": 0, "stack": 0}]))
    s = r["state"]
    assert s["players"][0]["lanes"] == [[["AS", "JK"]], [["7H"]], [["2C"]]]
    assert s["players"][1]["lanes"] == [[], [], [["9H"]]]
    assert s["players"][0]["discard"] == ["5S", "KH"] and s["players"][1]["discard"] == ["AS", "9S"]
    removes = [e for e in r["events"] if e["type"] == "remove"]
    assert [(e["owner"], e["lane"]) for e in removes] == [(0, 0), (1, 0), (1, 1)]


def test_L_6_4_joker_on_2_to_10_removes_that_value_any_suit_not_kinged_value() -> None:
    p = pos(hand0=["JK"], lanes0=[lane("5S+KH"), lane("10H"), lane("5D")], lanes1=[lane("5C"), lane("10S"), []])
    s = state(run("lanes", p, [{"play": "JK", "owner": 0, "lane": 0, "stack": 0}]))
    assert s["players"][0]["lanes"] == [[["5S", "KH", "JK"]], [["10H"]], []]
    assert s["players"][1]["lanes"] == [[], [["10S"]], []]


def test_L_6_4_joker_on_ace_uses_the_printed_suit_even_under_a_queen() -> None:
    p = pos(hand0=["JK"], lanes0=[lane("AD+QS"), lane("5S"), lane("5D")])
    s = state(run("lanes", p, [{"play": "JK", "owner": 0, "lane": 0, "stack": 0}]))
    assert s["players"][0]["lanes"] == [[["AD", "QS", "JK"]], [["5S"]], []]


def test_L_6_5_joker_is_never_a_card_of_any_suit() -> None:
    s = state(run("lanes", pos(lanes0=[lane("4D", "9H+JK"), [], []])))
    assert s["players"][0]["suit"][0] == "H" and s["players"][0]["value"][0] == 13


def test_L_6_6_removed_cards_go_to_the_lane_owners_discard() -> None:
    p = pos(hand0=["JK"], lanes0=[lane("7S"), [], []], lanes1=[lane("7H+KC"), [], []])
    s = state(run("lanes", p, [{"play": "JK", "owner": 0, "lane": 0, "stack": 0}]))
    assert s["players"][1]["discard"] == ["7H", "KC"] and s["players"][0]["discard"] == []


# --- L-7 selling --------------------------------------------------------------------------------

def test_L_7_1_only_21_to_26_sells() -> None:
    s = state(run("lanes", pos(lanes0=[lane("10S", "10H"), lane("10D", "9D", "2D"), lane("10C+KS", "7C")])))
    assert s["selling"] == [None, 0, None]  # 20 too light, 21 sells, 27 overloaded


def test_L_7_2_both_in_range_higher_sells() -> None:
    s = state(run("lanes", pos(lanes0=[lane("10S", "AS", "10H"), [], []], lanes1=[lane("10C", "2C", "10D"), [], []])))
    assert s["selling"][0] == 1


def test_L_7_3_only_one_in_range_sells() -> None:
    s = state(run("lanes", pos(lanes0=[lane("10S", "10H", "AS"), [], []], lanes1=[lane("10C+KD", "9C"), [], []])))
    assert s["selling"][0] == 0


def test_L_7_4_equal_in_range_nobody_sells() -> None:
    s = state(run("lanes", pos(lanes0=[lane("10S", "10H", "2S"), [], []], lanes1=[lane("10C", "2C", "10D"), [], []])))
    assert s["selling"][0] is None


def test_L_7_5_sale_not_final_until_match_ends() -> None:
    p = pos(hand0=["KC"], hand1=["4C"], lanes0=[lane("3S"), [], []],
            lanes1=[lane("10C", "9C", "3C"), [], []], to_move=0)
    s = state(run("lanes", p, [{"play": "KC", "owner": 1, "lane": 0, "stack": 2}]))
    assert s["players"][1]["value"][0] == 25 and s["selling"][0] == 1
    p2 = pos(hand0=["KC"], lanes0=[lane("3S"), [], []], lanes1=[lane("10C", "9C", "5C"), [], []])
    s2 = state(run("lanes", p2, [{"play": "KC", "owner": 1, "lane": 0, "stack": 2}]))
    assert s2["selling"][0] is None and s2["players"][1]["value"][0] == 29


# --- L-8 end of the match -----------------------------------------------------------------------

WIN_POS = pos(hand0=["4D"], deck0=["2S"], lanes0=[lane("10S", "8S", "4S"), lane("10C", "9C"), lane("5D")],
              lanes1=[lane("10D"), lane("5H"), lane("9H", "6H", "8H")])


def test_L_8_1_match_ends_when_every_pair_sells_checked_after_every_action() -> None:
    r = ok(run("lanes", WIN_POS, [{"play": "4D", "lane": 1}]))
    assert r["state"]["over"] and r["state"]["winner"] == 0 and r["legal"] == []
    e = err(run("lanes", WIN_POS, [{"play": "4D", "lane": 1}, {"discard": "4C"}]))
    assert e["code"] == "illegal_action" and e["index"] == 1


def test_L_8_1_sale_completed_by_opponents_move_also_ends_the_match() -> None:
    # Player 0 pushes their own lane 2 out of range? No: player 0 jacks the opponent's blocking card.
    p = pos(hand0=["JS"], lanes0=[lane("10S", "8S", "4S"), lane("10C", "9C", "2C"), lane("5D")],
            lanes1=[lane("10D"), lane("5H"), lane("9H", "6H", "8H", "7H")])
    s = state(run("lanes", p, [{"play": "JS", "owner": 1, "lane": 2, "stack": 3}]))
    assert s["over"] and s["winner"] == 0 and s["selling"] == [0, 0, 1]


def test_L_8_2_out_of_cards_loses_at_once() -> None:
    p = pos(hand0=["KC"], deck0=[], lanes0=[lane("5H"), lane("6H"), lane("7H")])
    r = ok(run("lanes", p, [{"discard": "KC"}]))
    assert r["state"]["over"] and r["state"]["winner"] == 1 and r["state"]["reason"] == "out_of_cards"


def test_L_8_2_interp_sale_beats_empty_hand() -> None:
    p = pos(hand0=["4D"], deck0=[], lanes0=[lane("10S", "8S", "4S"), lane("10C", "9C"), lane("5D")],
            lanes1=[lane("10D"), lane("5H"), lane("9H", "6H", "8H")])
    s = state(run("lanes", p, [{"play": "4D", "lane": 1}]))
    assert s["winner"] == 0 and s["reason"] == "sold"


def test_L_8_3_timeout_is_an_external_result_through_the_engine() -> None:
    st = RULES.new_game(LanesOptions(), 3)
    st2, events = RULES.apply(st, RULES.parse_action({"timeout": True, "player": st.to_move}))
    assert st2.over and st2.winner == 1 - st.to_move and st2.reason == "timeout"
    assert events[-1].to_json() == {"type": "win", "player": 1 - st.to_move, "reason": "timeout"}


def test_L_8_3a_either_player_may_resign_at_any_time() -> None:
    r = ok(run("lanes", pos(to_move=0), [{"resign": True, "player": 1}]))
    assert r["state"]["winner"] == 0 and r["state"]["reason"] == "resigned"
    assert {"resign": True} not in legal(pos())


def test_L_8_4_abort_has_no_winner() -> None:
    st = RULES.new_game(LanesOptions(), 3)
    st2, _ = RULES.apply(st, RULES.parse_action({"abort": True}))
    assert st2.over and st2.winner is None and st2.reason == "aborted"


def test_L_8_5_only_standard_rules_are_ranked() -> None:
    assert LanesOptions().ranked
    assert not LanesOptions(king_adds=True).ranked


# --- L-9 variants -------------------------------------------------------------------------------

def test_L_9_1_queen_anywhere_but_only_effective_on_last_card() -> None:
    p = pos(hand0=["QH"], lanes0=[lane("2S", "5S"), [], []])
    acts = legal(p, {"variants": ["queen_anywhere"]})
    assert {"play": "QH", "lane": 0, "owner": 0, "stack": 0} in acts
    s = state(run("lanes", p, [{"play": "QH", "lane": 0, "owner": 0, "stack": 0}],
                  options={"variants": ["queen_anywhere"]}))
    assert s["players"][0]["direction"][0] == "up" and s["players"][0]["suit"][0] == "S"


def test_L_9_2_king_adds() -> None:
    s = state(run("lanes", pos(lanes0=[lane("5S+KH+KD"), [], []]), options={"variants": ["king_adds"]}))
    assert s["players"][0]["value"][0] == 15


def test_L_9_3_founding_suit_and_queens_still_change_it() -> None:
    s = state(run("lanes", pos(lanes0=[lane("3S", "8H"), lane("3C", "8C+QD"), []]),
                  options={"variants": ["founding_suit"]}))
    assert s["players"][0]["suit"][:2] == ["S", "D"]
    acts = legal(pos(hand0=["2S"], lanes0=[lane("3S", "8H"), lane("4C"), lane("4D")]), {"variants": ["founding_suit"]})
    assert {"play": "2S", "lane": 0} in acts


def test_L_9_4_no_attach_limit() -> None:
    p = pos(hand0=["KD"], lanes0=[lane("AH+KS+KH+QH"), lane("2C"), lane("4C")])
    assert {"play": "KD", "lane": 0, "owner": 0, "stack": 0} in legal(p, {"variants": ["no_attach_limit"]})


def test_L_9_5_quick_sell_wins_on_two_selling_lanes() -> None:
    p = pos(hand0=["4D"], lanes0=[lane("10S", "8S", "4S"), lane("10C", "9C"), lane("5D")],
            lanes1=[lane("10D"), lane("5H"), lane("3H")])
    s = state(run("lanes", p, [{"play": "4D", "lane": 1}], options={"variants": ["quick_sell"]}))
    assert s["over"] and s["winner"] == 0 and s["selling"] == [0, 0, None]
    s2 = state(run("lanes", p, [{"play": "4D", "lane": 1}]))
    assert not s2["over"]


def test_L_9_6_reshuffle_discard_into_deck_at_most_twice() -> None:
    p = pos(hand0=["KC", "2S"], deck0=[], lanes0=[lane("5H"), lane("6H"), lane("7H")])
    p["players"][0]["discard"] = ["9D", "8D"]
    r = ok(run("lanes", p, [{"discard": "KC"}], options={"variants": ["reshuffle"]}))
    s = r["state"]
    assert s["reshuffles_used"] == [1, 0] and len(s["players"][0]["hand"]) == 2
    assert sorted(s["players"][0]["hand"] + s["players"][0]["deck"]) == sorted(["2S", "9D", "8D", "KC"])
    assert s["players"][0]["discard"] == []
    p["reshuffles_used"] = [2, 0]
    s2 = state(run("lanes", p, [{"discard": "KC"}], options={"variants": ["reshuffle"]}))
    assert s2["players"][0]["hand"] == ["2S"] and s2["reshuffles_used"] == [2, 0]


def test_L_9_6_empty_deck_and_discard_draws_nothing_and_uses_no_reshuffle() -> None:
    p = pos(hand0=["KC", "2S"], deck0=[], lanes0=[lane("5H"), lane("6H"), lane("7H")])
    s = state(run("lanes", p, [{"disband": 0}], options={"variants": ["reshuffle"]}))
    assert s["reshuffles_used"] == [0, 0]


def test_L_9_7_short_deck_is_30_cards() -> None:
    st = RULES.new_game(LanesOptions(short_deck=True), 11)
    assert all(len(s.hand) + len(s.deck) == 30 for s in st.sides)


def test_L_9_8_double_deck_is_108_cards_and_duplicates_allowed() -> None:
    st = RULES.new_game(LanesOptions(double_deck=True), 11)
    assert all(len(s.hand) + len(s.deck) == 108 for s in st.sides)
    p = pos(hand0=["5H"], lanes0=[lane("5H"), [], []])  # L-2.1: one 5H per deck
    assert run("lanes", p)["ok"] is False
    assert run("lanes", p, options={"variants": ["double_deck"]})["ok"] is True
    acts = legal(pos(hand0=["9H", "9H"], lanes0=[lane("5H"), lane("2C"), lane("3C")]), {"variants": ["double_deck"]})
    assert len(acts) == len({str(a) for a in acts})


def test_L_9_9_queen_shield() -> None:
    p = pos(hand0=["JK"], lanes0=[lane("AS"), lane("5S+QH"), lane("7S")])
    s = state(run("lanes", p, [{"play": "JK", "owner": 0, "lane": 0, "stack": 0}],
                  options={"variants": ["queen_shield"]}))
    assert s["players"][0]["lanes"] == [[["AS", "JK"]], [["5S", "QH"]], []]


def test_L_9_10_fixed_direction_keeps_the_direction_from_before() -> None:
    p = pos(hand0=["JC", "3S"], lanes0=[lane("5H", "8C", "5S"), lane("2C"), lane("4C")])
    opts = {"variants": ["fixed_direction"]}
    s = state(run("lanes", p, [{"play": "JC", "owner": 0, "lane": 0, "stack": 1}], options=opts))
    assert s["players"][0]["direction"][0] == "down" and s["held_direction"][0][0] == "down"
    p2 = pos(hand0=["JC"], lanes0=[lane("9H", "4D", "9S"), lane("2C"), lane("4C")])
    s2 = state(run("lanes", p2, [{"play": "JC", "owner": 0, "lane": 0, "stack": 1}], options=opts))
    assert s2["players"][0]["direction"][0] == "up" and s2["held_direction"][0][0] == "up"
    # without the variant L-5.8 applies: descending
    s3 = state(run("lanes", p2, [{"play": "JC", "owner": 0, "lane": 0, "stack": 1}]))
    assert s3["players"][0]["direction"][0] == "down"


def test_L_9_10_held_direction_clears_on_next_number_card_and_queens_reverse_it() -> None:
    opts = {"variants": ["fixed_direction"]}
    p = pos(hand0=["QD", "10S"], lanes0=[lane("9H", "9S"), lane("2C"), lane("4C")],
            held_direction=[["up", None, None], [None, None, None]])
    s = state(run("lanes", p, [{"play": "QD", "owner": 0, "lane": 0, "stack": 1}], options=opts))
    assert s["players"][0]["direction"][0] == "down"
    s2 = state(run("lanes", p, [{"play": "10S", "lane": 0}], options=opts))
    assert s2["held_direction"][0][0] is None and s2["players"][0]["direction"][0] == "up"


def test_L_9_11_fresh_hand_has_three_number_cards() -> None:
    for seed in range(60):
        st = RULES.new_game(LanesOptions(fresh_hand=True, short_deck=True), seed)
        assert all(sum(1 for c in s.hand if 1 <= c.rank <= 10) >= 3 for s in st.sides)


def test_L_9_12_protective_joker_spares_its_own_lane() -> None:
    p = pos(hand0=["JK"], lanes0=[lane("5S", "9S", "5D"), lane("5C"), lane("2C")])
    s = state(run("lanes", p, [{"play": "JK", "owner": 0, "lane": 0, "stack": 2}],
                  options={"variants": ["protective_joker"]}))
    assert s["players"][0]["lanes"][0] == [["5S"], ["9S"], ["5D", "JK"]] and s["players"][0]["lanes"][1] == []


def test_legal_actions_for_other_player_is_empty() -> None:
    st = RULES.new_game(LanesOptions(), 5)
    assert legal_actions(st, 1 - st.to_move) == []
