"""Scenario tests for Lopti P-1 … P-7 and the FAQ P-12 (rules/lopti.md), from hand-built positions."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import BadRequest
from engine.lopti import RULES, LoptiOptions, LoptiSession
from engine.lopti.rules import deal
from tests.helpers import ok, run


def seat(hand: list[str] | None = None, up: list[str] | None = None, down: list[str] | None = None,
         out: bool = False) -> dict[str, Any]:
    return {"hand": hand or [], "up": up or [], "down": down or [], "out": out}


def pos(*seats: dict[str, Any], pile: list[list[str]] | None = None, draw: list[str] | None = None,
        to_move: int = 0, **extra: Any) -> dict[str, Any]:
    return {"players": list(seats), "draw": draw or [], "pile": pile or [], "threes": extra.pop("threes", 0),
            "obligation": extra.pop("obligation", False), "to_move": to_move,
            "extra_play": extra.pop("extra_play", False), "phase": extra.pop("phase", "play"), **extra}


def legal(p: dict[str, Any]) -> list[str]:
    return ok(run("lopti", p, want=["legal"]))["legal"]


def go(p: dict[str, Any], *actions: Any) -> dict[str, Any]:
    return ok(run("lopti", p, list(actions)))


def error(p: dict[str, Any], *actions: Any) -> dict[str, Any]:
    r = run("lopti", p, list(actions))
    assert not r["ok"]
    return r["error"]


OPP = seat(["10D"])


# --- P-1 -----------------------------------------------------------------------------------------

def test_P_1_1_two_to_five_players_52_cards_no_jokers() -> None:
    for n in (2, 3, 4, 5):
        st = RULES.new_game(LoptiOptions(), 1, n)
        cards = st.draw + [c for s in st.seats for c in s.hand + s.up + s.down]
        assert len(cards) == 52 and len(set(cards)) == 52 and not any(c.is_joker for c in cards)
    with pytest.raises(BadRequest):
        RULES.new_game(LoptiOptions(), 1, 6)
    assert error(pos(seat(["JK"]), OPP))["code"] == "bad_position"


def test_P_1_2_ace_is_highest() -> None:
    assert "play Ax1" in legal(pos(seat(["AH", "4S"]), OPP, pile=[["KC"]]))
    assert "play 4x1" not in legal(pos(seat(["AH", "4S"]), OPP, pile=[["KC"]]))


def test_P_1_3_play_goes_clockwise_skipping_players_out() -> None:
    p = pos(seat(["9D", "4H"]), seat(out=True), seat(["JC"]), pile=[["6C"]], places=[1])
    assert go(p, {"play": ["9D"]})["state"]["to_move"] == 2


# --- P-2 -----------------------------------------------------------------------------------------

def test_P_2_1_deal_three_down_three_up_three_hand() -> None:
    st = deal(LoptiOptions(), 5, 4)
    assert all(len(s.hand) == len(s.up) == len(s.down) == 3 for s in st.seats)
    assert len(st.draw) == 52 - 36 and st.phase == "setup"


def test_P_2_2_one_optional_swap_each_in_seat_order_from_leader() -> None:
    p = pos(seat(["6H", "QD", "8D"], ["2C", "JH", "AS"], ["4S"]), seat(["4D", "9C", "KH"], ["5H"], ["6C"]),
            seat(["7D"], ["8H"], ["9S"]), to_move=1, phase="setup")
    r = go(p, {"keep": True}, {"swap": ["7D", "8H"]}, {"swap": ["8D", "AS"]})
    assert r["state"]["phase"] == "play" and r["state"]["to_move"] == 1
    assert r["state"]["players"][2]["hand"] == ["8H"] and r["state"]["players"][2]["up"] == ["7D"]
    assert [e["type"] for e in r["events"]] == ["keep", "swap", "swap"]
    assert set(legal(p)) == {"swap", "keep"}
    assert error(p, {"swap": ["6H", "2C"]})["code"] == "illegal_action"  # not player 1's cards


def test_P_2_2_decided_players_are_skipped() -> None:
    p = pos(seat(["6H"], ["2C"], ["4S"]), seat(["4D"], ["5H"], ["6C"]), seat(["7D"], ["8H"], ["9S"]),
            to_move=2, phase="setup", decided=[False, True, False])
    r = go(p, {"keep": True}, {"keep": True})
    assert r["state"]["phase"] == "play" and r["state"]["to_move"] == 1


def test_P_2_3_dealer_rotates_first_dealer_leads_then_previous_winner() -> None:
    s = LoptiSession(players=3, seed=9, first_dealer=1)
    d1 = s.start_deal()
    assert (s.dealer, s.leader, d1.to_move) == (1, 1, 1)
    finished = d1.clone()
    finished.places, finished.phase = [2, 0, 1], "over"
    s2 = s.record(finished)
    assert s2.dealer == 2 and s2.leader == 2 and s2.start_deal().to_move == 2
    finished.places = [0, 2, 1]
    s3 = s2.record(finished)
    assert s3.dealer == 0 and s3.leader == 0


# --- P-3 -----------------------------------------------------------------------------------------

def test_P_3_1_lead_any_single_rank() -> None:
    assert legal(pos(seat(["5H", "5D", "QS"]), OPP)) == ["play 5x1", "play 5x2", "play Qx1"]


def test_P_3_2_take_needs_a_non_empty_pile_and_ends_the_turn() -> None:
    p = pos(seat(["4H"]), OPP, pile=[["6C"], ["9D"]])
    r = go(p, {"take": True})
    assert r["state"]["players"][0]["hand"] == ["4H", "6C", "9D"] and r["state"]["to_move"] == 1
    assert error(pos(seat(["4H"]), OPP), {"take": True})["code"] == "illegal_action"
    assert "take" in legal(pos(seat(["AH"]), OPP, pile=[["6C"]]))  # voluntary take with a legal play


def test_P_3_3_higher_or_same_rank_with_more_cards() -> None:
    p = pos(seat(["9D", "9H", "9S", "8C"]), OPP, pile=[["9C"]])
    assert legal(p) == ["play 9x2", "play 9x3", "take"]
    e = error(p, {"play": ["9D"]})
    assert e["code"] == "illegal_action" and "more" in e["message"]


def test_P_3_4_completing_four_is_legal_and_clears() -> None:
    p = pos(seat(["4H", "KS"]), OPP, pile=[["4S"], ["4C", "4D"]])
    assert "play 4x1" in legal(p)
    r = go(p, {"play": ["4H"]})
    assert {"type": "clear", "player": 0, "cause": "four"} in r["events"]
    assert r["state"]["pile"] == [] and r["state"]["extra_play"] and r["state"]["to_move"] == 0


def test_P_3_5_draw_once_after_first_play_only_below_three() -> None:
    p = pos(seat(["6H", "6D", "9H"], ["5C"], ["4C"]), OPP, pile=[["4D"]], draw=["AS", "2S"])
    r = go(p, {"play": ["6H", "6D"]})
    assert r["state"]["players"][0]["hand"] == ["9H", "AS"] and r["state"]["draw"] == ["2S"]
    p2 = pos(seat(["6H", "9H", "9D", "9S"], ["5C"], ["4C"]), OPP, pile=[["4D"]], draw=["AS"])
    r2 = go(p2, {"play": ["6H"]})
    assert r2["state"]["draw"] == ["AS"] and not any(e["type"] == "draw" for e in r2["events"])


def test_P_3_5_extra_plays_never_draw() -> None:
    p = pos(seat(["10H", "6S", "7S"], ["5C"], ["4C"]), OPP, pile=[["8D"]], draw=["AS", "2S", "3S"])
    r = go(p, {"play": ["10H"]}, {"play": ["6S"]})
    draws = [e for e in r["events"] if e["type"] == "draw"]
    assert len(draws) == 1 and r["state"]["draw"] == ["2S", "3S"]


def test_P_3_6_the_play_after_an_extra_play_ends_the_turn() -> None:
    p = pos(seat(["10H", "6S", "9S"]), OPP, pile=[["8D"]])
    r = go(p, {"play": ["10H"]}, {"play": ["6S"]})
    assert r["state"]["to_move"] == 1


def test_P_3_7_draw_rule_after_face_up_pickup_and_face_down_play() -> None:
    p = pos(seat(["6H"], ["5C", "8C", "JC"], ["4C"]), OPP, pile=[["4D"]], draw=["AS"])
    r = go(p, {"play": ["6H"]})
    # hand empty (0 < 3) -> draws AS; the hand is not empty so the face-up cards stay
    assert r["state"]["players"][0]["hand"] == ["AS"] and r["state"]["players"][0]["up"] == ["5C", "8C", "JC"]
    p2 = pos(seat([], [], ["QS", "5C"]), OPP, pile=[["8D"]], draw=["AS"])
    r2 = go(p2, {"flip": 0})
    assert r2["state"]["players"][0]["hand"] == ["AS"]


# --- P-4 -----------------------------------------------------------------------------------------

def test_P_4_1_two_resets_and_two_on_two_needs_more() -> None:
    p = pos(seat(["2H", "4S"]), OPP, pile=[["AC"]])
    assert "play 2x1" in legal(p)
    r = go(p, {"play": ["2H"]})
    assert r["state"]["pile"] == [["AC"], ["2H"]]
    assert "play 4x1" in legal(pos(seat(["4S"]), OPP, pile=[["AC"], ["2H"]]))
    assert legal(pos(seat(["2S", "2D"]), OPP, pile=[["2H"]])) == ["play 2x2", "take"]
    assert legal(pos(seat(["2S", "9D"]), OPP, pile=[["2H"]], threes=1, obligation=True)) == ["take"]


def test_P_4_2_three_leaves_the_round_and_obliges_the_next_player() -> None:
    p = pos(seat(["3C", "9H"]), seat(["3S", "QH"]), seat(["5D"]), pile=[["8D"]])
    r = go(p, {"play": ["3C"]})
    s = r["state"]
    assert s["pile"] == [["8D"]] and s["obligation"] and s["threes"] == 1 and s["to_move"] == 1
    assert legal({**p, **{k: s[k] for k in ("pile", "threes", "obligation", "to_move")},
                  "players": s["players"]}) == ["play 3x1", "take"]


def test_P_4_2_three_on_empty_pile_no_obligation() -> None:
    p = pos(seat(["3C", "9H"]), seat(["5S", "QH"]))
    r = go(p, {"play": ["3C"]})
    assert not r["state"]["obligation"] and r["state"]["threes"] == 1 and r["state"]["to_move"] == 1
    r2 = go(p, {"play": ["3C"]}, {"play": ["5S"]})
    assert r2["state"]["threes"] == 0  # a non-3 ends the visible chain


def test_P_4_2_interp_four_threes_on_empty_table_clear_with_extra_play() -> None:
    p = pos(seat(["3C", "9H"]), seat(["3S", "QH"]), threes=2)
    r = go(p, {"play": ["3C"]}, {"play": ["3S"]})
    assert {"type": "clear", "player": 1, "cause": "threes"} in r["events"]
    assert r["state"]["to_move"] == 1 and r["state"]["extra_play"]


def test_P_4_2_chain_of_four_threes_clears_the_pile_beneath() -> None:
    p = pos(seat(["3C", "3D", "9H"]), seat(["3S", "3H", "QH"]), pile=[["KD"]])
    r = go(p, {"play": ["3C", "3D"]}, {"play": ["3S", "3H"]})
    assert r["state"]["pile"] == [] and r["state"]["to_move"] == 1 and r["state"]["extra_play"]


def test_P_4_3_several_threes_pass_a_single_obligation() -> None:
    p = pos(seat(["3C", "3D", "9H"]), seat(["QH"]), seat(["JH"]), pile=[["8D"]])
    r = go(p, {"play": ["3C", "3D"]}, {"take": True})
    s = r["state"]
    assert s["to_move"] == 2 and not s["obligation"] and s["threes"] == 0


def test_P_4_4_seven_low_and_interp_counts() -> None:
    p = pos(seat(["4H", "4D", "5S", "6S", "7S", "7D", "8C", "2C", "10C"]), OPP, pile=[["9S"], ["7C", "7H"]])
    got = set(legal(p))
    assert {"play 4x1", "play 4x2", "play 5x1", "play 6x1", "play 2x1", "take"} <= got
    assert "play 8x1" not in got and "play 10x1" not in got and "play 7x1" not in got
    assert "play 7x2" in got  # completes four 7s (2 + 2)


def test_P_4_4_four_sevens_clear() -> None:
    r = go(pos(seat(["7S", "7D", "KC"]), OPP, pile=[["7C", "7H"]]), {"play": ["7S", "7D"]})
    assert {"type": "clear", "player": 0, "cause": "four"} in r["events"] and r["state"]["extra_play"]


def test_P_4_5_ten_clears_not_on_seven_and_may_be_led() -> None:
    r = go(pos(seat(["10H", "6S"]), OPP, pile=[["8D"]]), {"play": ["10H"]})
    assert r["state"]["extra_play"] and r["legal"] == ["play 6x1"]
    r2 = go(pos(seat(["10H", "6S"]), OPP), {"play": ["10H"]})
    assert {"type": "clear", "player": 0, "cause": "ten"} in r2["events"] and r2["state"]["extra_play"]
    assert "play 10x1" not in legal(pos(seat(["10H"]), OPP, pile=[["7D"]]))


def test_P_4_6_obligation_only_threes_or_take() -> None:
    p = pos(seat(["2H", "7H", "10H", "AH"]), OPP, pile=[["8D"]], threes=1, obligation=True)
    assert legal(p) == ["take"]
    assert "3 was passed" in error(p, {"play": ["10H"]})["message"]


# --- P-5 -----------------------------------------------------------------------------------------

def test_P_5_1_clear_cancels_pending_low_and_gives_extra_play() -> None:
    r = go(pos(seat(["7S", "7D", "KC"]), OPP, pile=[["7C", "7H"]]), {"play": ["7S", "7D"]})
    assert not r["state"]["low"] and r["legal"] == ["play Kx1"]


def test_P_5_3_consecutive_clears_give_consecutive_extra_plays() -> None:
    r = go(pos(seat(["10H", "10S", "KC"]), OPP, pile=[["8D"]]), {"play": ["10H"]}, {"play": ["10S"]})
    assert r["state"]["to_move"] == 0 and r["state"]["extra_play"]


def test_P_5_4_cleared_cards_stay_out() -> None:
    st = RULES.position_from_json(LoptiOptions(), pos(seat(["10H", "6S"]), OPP, pile=[["8D"]]))
    s2, _ = RULES.apply(st, RULES.parse_action({"play": ["10H"]}))
    assert sorted(map(str, s2.gone)) == ["10H", "8D"]


def test_P_5_5_interp_out_after_clearing_skips_extra_play() -> None:
    p = pos(seat(["10H"]), seat(["5S"]), seat(["6S"]), pile=[["8D"]])
    r = go(p, {"play": ["10H"]})
    s = r["state"]
    assert s["places"] == [0] and s["to_move"] == 1 and not s["extra_play"] and s["pile"] == []


# --- P-6 -----------------------------------------------------------------------------------------

def test_P_6_1_empty_hand_takes_face_up_cards_even_during_extra_play() -> None:
    p = pos(seat(["10H"], ["5C", "8C", "JC"], ["4C"]), OPP, pile=[["8D"]])
    r = go(p, {"play": ["10H"]})
    assert {"type": "pickup_up", "player": 0, "cards": ["5C", "8C", "JC"]} in r["events"]
    assert r["state"]["players"][0]["hand"] == ["5C", "8C", "JC"] and r["state"]["extra_play"]


def test_P_6_1_load_normalises_the_player_to_move() -> None:
    r = go(pos(seat([], ["5C", "8C"], ["4C"]), OPP, pile=[["4D"]]))
    assert r["events"][0]["type"] == "pickup_up" and r["state"]["players"][0]["hand"] == ["5C", "8C"]


def test_P_6_2_face_down_flip_legal_plays_illegal_takes() -> None:
    r = go(pos(seat([], [], ["QS", "5C"]), OPP, pile=[["8D"]]), {"flip": 0})
    assert {"type": "flip", "player": 0, "card": "QS", "legal": True} in r["events"]
    r2 = go(pos(seat([], [], ["QS", "5C"]), OPP, pile=[["8D"]]), {"flip": 1})
    assert {"type": "flip", "player": 0, "card": "5C", "legal": False} in r2["events"]
    assert {"type": "take", "player": 0, "count": 2} in r2["events"]
    assert sorted(r2["state"]["players"][0]["hand"]) == ["5C", "8D"] and r2["state"]["to_move"] == 1
    assert error(pos(seat(["4H"], [], ["QS"]), OPP), {"flip": 0})["code"] == "illegal_action"
    assert error(pos(seat([], [], ["QS"]), OPP, pile=[["8D"]]), {"flip": 2})["code"] == "bad_request"


def test_P_6_3_under_obligation_only_a_face_down_three_is_legal() -> None:
    p = pos(seat([], [], ["QS", "3D"]), OPP, pile=[["8D"]], threes=1, obligation=True)
    r = go(p, {"flip": 0})
    assert {"type": "flip", "player": 0, "card": "QS", "legal": False} in r["events"]
    r2 = go(p, {"flip": 1})
    assert {"type": "flip", "player": 0, "card": "3D", "legal": True} in r2["events"]
    assert r2["state"]["obligation"] and r2["state"]["to_move"] == 1


def test_P_6_4_interp_face_down_player_may_take_instead() -> None:
    assert legal(pos(seat([], [], ["QS"]), OPP, pile=[["8D"]])) == ["flip", "take"]


def test_P_6_5_interp_taken_hand_is_played_before_face_down() -> None:
    p = pos(seat([], [], ["QS"]), OPP, pile=[["8D"]])
    r = go(p, {"take": True})
    assert r["state"]["players"][0]["hand"] == ["8D"] and r["state"]["players"][0]["down"] == ["QS"]
    assert legal({**p, "players": [seat(["8D"], [], ["QS"]), OPP], "pile": []}) == ["play 8x1"]


# --- P-7 -----------------------------------------------------------------------------------------

def test_P_7_1_hand_then_face_up_then_face_down() -> None:
    p = pos(seat(["9D"], ["JC"], ["QS"]), OPP, pile=[["6C"]])
    r = go(p, {"play": ["9D"]})
    assert r["state"]["players"][0]["hand"] == ["JC"] and r["state"]["players"][0]["down"] == ["QS"]


def test_P_7_2_last_card_goes_out_without_drawing_and_effects_still_happen() -> None:
    p = pos(seat(["3D"]), seat(["KS", "4C"]), seat(["5D"]), pile=[["8D"]], draw=["AS"])
    r = go(p, {"play": ["3D"]})
    s = r["state"]
    assert s["places"] == [0] and s["obligation"] and s["to_move"] == 1 and s["draw"] == ["AS"]
    p7 = pos(seat(["7D"]), seat(["KS", "4C"]), seat(["5D"]), pile=[["6D"]])
    r7 = go(p7, {"play": ["7D"]})
    assert r7["state"]["low"] and r7["legal"] == ["play 4x1", "take"]


def test_P_7_3_last_card_clearing_is_out_and_next_leads() -> None:
    p = pos(seat(["4H"]), seat(["KS"]), seat(["5D"]), pile=[["4S", "4C", "4D"]])
    r = go(p, {"play": ["4H"]})
    assert r["state"]["places"] == [0] and r["state"]["to_move"] == 1 and r["legal"] == ["play Kx1"]


def test_P_7_4_first_out_wins_play_continues_to_rank_places() -> None:
    p = pos(seat(["KD"]), seat(["4S", "5S"]), seat(["6D", "6S"]), seat(["9H", "9D"]), pile=[["8D"]])
    r = go(p, {"play": ["KD"]}, {"take": True}, {"play": ["6D", "6S"]})
    s = r["state"]
    assert s["winner"] == 0 and not s["over"] and s["places"] == [0, 2]
    assert s["to_move"] == 3 and [e for e in r["events"] if e["type"] == "win"] == [{"type": "win", "player": 0}]


def test_P_7_4_interp_deal_ends_when_one_player_is_left() -> None:
    p = pos(seat(["KD"]), seat(["4S", "5S"]), seat(["AD"]), pile=[["8D"]])
    r = go(p, {"play": ["KD"]}, {"take": True}, {"play": ["AD"]})
    s = r["state"]
    assert s["over"] and s["places"] == [0, 2, 1] and r["legal"] == []


def test_P_7_4_a_table_may_stop_the_deal_when_its_first_player_goes_out() -> None:
    """P-7.4 "play *may* continue to rank the other places" (#36 item 5): with ``first_out_ends``
    the deal ends at the first player out; the others are placed by fewest cards left, then seat
    order from the leader (the turn cap's order). Only the winner counts (P-8), as before."""
    p = pos(seat(["KD"]), seat(["4S", "5S", "7H"]), seat(["6D", "6S"]), seat(["9H", "9D"]), pile=[["8D"]])
    r = ok(run("lopti", p, [{"play": ["KD"]}], options={"first_out_ends": True}))
    s = r["state"]
    assert s["over"] and s["winner"] == 0 and s["places"] == [0, 2, 3, 1] and r["legal"] == []
    assert [e["type"] for e in r["events"]][-3:] == ["out", "win", "deal_over"]
    assert not ok(run("lopti", p, [{"play": ["KD"]}]))["state"]["over"]  # the default plays on
    state = RULES.new_game(LoptiOptions(first_out_ends=True), 3, 4)
    assert RULES.options_to_json(state.options) == {"first_out_ends": True}
    assert RULES.parse_options({"first_out_ends": True}) == LoptiOptions(first_out_ends=True)
    assert run("lopti", p, [], options={"first_out_ends": "yes"})["error"]["code"] == "bad_request"


# --- P-12 FAQ ------------------------------------------------------------------------------------

def test_P_12_faq_three_on_empty_pile_nobody_loses_a_turn() -> None:
    r = go(pos(seat(["3C", "9H"]), seat(["5S"])), {"play": ["3C"]})
    assert r["legal"] == ["play 5x1"]


def test_P_12_faq_one_card_on_three_matching_clears() -> None:
    r = go(pos(seat(["JH", "5S"]), OPP, pile=[["JS", "JC", "JD"]]), {"play": ["JH"]})
    assert r["state"]["pile"] == [] and r["state"]["extra_play"]


def test_P_12_faq_four_high_cards_on_a_seven_no_four_sixes_yes() -> None:
    p = pos(seat(["8H", "8S", "8D", "8C", "6H", "6S", "6D", "6C"]), OPP, pile=[["7D"]])
    got = legal(p)
    assert "play 8x4" not in got and "play 6x4" in got
    r = go(p, {"play": ["6H", "6S", "6D", "6C"]})
    assert {"type": "clear", "player": 0, "cause": "four"} in r["events"]


def test_P_12_faq_several_threes_one_obligation() -> None:
    r = go(pos(seat(["3C", "3D", "9H"]), seat(["QH"]), seat(["JH"]), pile=[["8D"]]), {"play": ["3C", "3D"]})
    assert r["state"]["to_move"] == 1 and r["state"]["obligation"] and r["state"]["threes"] == 2


# --- positions and errors ----------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [
    pos(seat(["4H"]), OPP, pile=[["3C"]]),
    pos(seat(["4H"]), OPP, pile=[["10C"]]),
    pos(seat(["4H"]), OPP, obligation=True, threes=1),
    pos(seat(["4H"]), OPP, pile=[["8C"]], extra_play=True),
    pos(seat([], out=True), OPP, seat(["5D"])),
    pos(seat(["4H"]), seat(["4H"])),
    pos(seat(["4H"]), OPP, bogus=1),
    pos(seat(["4H"])),
])
def test_bad_positions(bad: dict[str, Any]) -> None:
    assert error(bad)["code"] == "bad_position"


def test_turn_cap_ends_a_looping_deal_deterministically() -> None:
    def play_capped() -> tuple[Any, list[Any]]:
        st = RULES.new_game(LoptiOptions(turn_cap=10), 3, 4)
        events = []
        while not st.over:
            acts = RULES.legal_actions(st)
            take = [a for a in acts if RULES.action_to_json(a) == {"take": True}]
            st, evs = RULES.apply(st, (take or acts)[0])
            events += [e.to_json() for e in evs]
        return st, events

    st, events = play_capped()
    assert st.capped and st.turns == 10 and sorted(st.places) == [0, 1, 2, 3]
    assert {"type": "cap", "turns": 10} in events
    assert play_capped()[1] == events
