"""Scenario tests for every Spit rule S-1 … S-9 and [interp] (rules/spit.md)."""

from __future__ import annotations

from typing import Any

from engine.cards import parse_card
from engine.spit import RULES, NextRound, SpitOptions
from engine.spit.state import adjacent
from tests.helpers import ok, run


def player(*stocks: list[str], spit: list[str] | None = None) -> dict[str, Any]:
    slots = list(stocks) + [[] for _ in range(5 - len(stocks))]
    return {"stocks": slots, "spit": spit or []}


def pos(p0: dict[str, Any], p1: dict[str, Any], piles: list[list[str]], phase: str = "play",
        **kw: Any) -> dict[str, Any]:
    return {"players": [p0, p1], "piles": piles, "phase": phase, **kw}


def P(p: int, stock: int, pile: int) -> dict[str, Any]:
    return {"player": p, "play": {"stock": stock, "pile": pile}}


def go(position: dict[str, Any], *actions: Any, options: dict[str, Any] | None = None) -> dict[str, Any]:
    return ok(run("spit", position, list(actions), options=options))


def rejected(r: dict[str, Any]) -> list[int]:
    return [e["index"] for e in r["events"] if e["type"] == "rejected"]


# A busy layout where nobody is stuck (so tests don't stall by accident).
A = player(["4H", "6D"], ["9S"], ["QC"], ["KH"], ["KC"], spit=["2H"])
B = player(["JD"], ["7S"], ["3S"], ["3C"], ["QS"], spit=["2S"])


def test_S_1_1_one_deck_no_jokers_two_players() -> None:
    st = RULES.new_game(SpitOptions(), 4)
    cards = [c for p in st.players for s in p.stocks for c in s] + [c for p in st.players for c in p.spit]
    assert len(cards) == 52 and len(set(cards)) == 52
    assert not run("spit", pos(player(["JK"]), B, [["5C"], ["8H"]]))["ok"]


def test_S_1_2_circular_adjacency() -> None:
    c = parse_card
    assert adjacent(c("AS"), c("KD")) and adjacent(c("AS"), c("2D")) and adjacent(c("KS"), c("QD"))
    assert not adjacent(c("AS"), c("AD")) and not adjacent(c("9S"), c("7D")) and not adjacent(c("KS"), c("2H"))
    r = go(pos(player(["KH"], ["2C"], ["QH"]), player(["9D"]), [["AS"], ["5C"]]), P(0, 0, 0), P(0, 1, 0))
    assert r["state"]["piles"][0] == ["AS", "KH"] and rejected(r) == [1]


def test_S_1_3_no_turns_either_player_acts_any_time() -> None:
    r = go(pos(A, B, [["5C"], ["8H"]]), P(0, 0, 0), P(0, 1, 1), P(1, 1, 1))
    assert rejected(r) == [2]  # 7S was legal on 8H but 9S landed first: 7S on 9S? no (two apart)
    assert r["state"]["piles"][1] == ["8H", "9S"]


def test_S_2_1_2_2_2_3_first_deal_layout() -> None:
    st = RULES.new_game(SpitOptions(), 9)
    for p in st.players:
        assert [len(s) for s in p.stocks] == [1, 2, 3, 4, 5] and len(p.spit) == 11
    obs = RULES.observe(st, 0)
    assert obs["players"][1]["spit_count"] == 11 and len(obs["players"][1]["stock_tops"]) == 5


def test_S_2_4_round_starts_stalled_and_both_call() -> None:
    st = RULES.new_game(SpitOptions(), 9)
    assert st.phase == "stalled" and st.piles == [[], []]
    legal = RULES.legal_json(st)
    assert legal == {"0": [{"player": 0, "spit": True}], "1": [{"player": 1, "spit": True}]}
    s1, ev1 = RULES.apply(st, RULES.parse_action({"player": 0, "spit": True}))
    assert s1.phase == "stalled" and s1.ready == [True, False]
    s2, ev2 = RULES.apply(s1, RULES.parse_action({"player": 1, "spit": True}))
    assert s2.piles[0] and s2.piles[1] and s2.phase in ("play", "stalled")


def test_S_3_1_play_one_rank_above_or_below_on_either_pile() -> None:
    r = go(pos(A, B, [["5C"], ["8H"]]), P(0, 0, 0))
    assert r["state"]["piles"] == [["5C", "6D"], ["8H"]]
    assert {"player": 1, "play": {"stock": 1, "pile": 1}} in r["legal"]["1"]


def test_S_3_2_next_stock_card_turns_up_automatically() -> None:
    p = pos(player(["7H", "6D"], ["9S"], ["QC"], ["KH"], ["KC"], spit=["2H"]), B, [["5C"], ["8H"]])
    r = go(p, P(0, 0, 0))
    assert {"type": "reveal", "player": 0, "stock": 0, "card": "7H"} in r["events"]
    assert {"player": 0, "play": {"stock": 0, "pile": 0}} in r["legal"]["0"]  # 7H on 6D
    assert {"player": 0, "play": {"stock": 0, "pile": 1}} in r["legal"]["0"]  # 7H on 8H


def test_S_3_3_fill_only_into_empty_slot_from_two_or_more() -> None:
    p = pos(player(["3C", "8C"], ["4S"], [], ["9H"], ["JD"], spit=["2H"]),
            player(["5S"], ["6S"], ["QC"], ["QH"], ["KC"], spit=["2S"]), [["9D"], ["4H"]])
    r = go(p, {"player": 0, "fill": {"from": 0, "to": 2}})
    assert r["state"]["players"][0]["stocks"][:3] == [["3C"], ["4S"], ["8C"]]
    r2 = go(p, {"player": 0, "fill": {"from": 1, "to": 2}}, {"player": 0, "fill": {"from": 0, "to": 1}})
    assert rejected(r2) == [0, 1]


def test_S_3_3_fill_reveals_a_playable_card() -> None:
    p = pos(player(["3C", "8C"], ["4S"], [], ["9H"], ["JD"], spit=["2H"]),
            player(["5S"], ["6S"], ["QC"], ["QH"], ["KC"], spit=["2S"]), [["9D"], ["4H"]])
    r = go(p, {"player": 0, "fill": {"from": 0, "to": 2}})
    assert {"player": 0, "play": {"stock": 0, "pile": 1}} in r["legal"]["0"]  # 3C on 4H


def test_S_3_4_race_to_one_pile_first_arrival_wins_second_rejected() -> None:
    p = pos(player(["6D"], ["9S"], ["QC"], ["KH"], ["KC"], spit=["2H"]),
            player(["4D"], ["JH"], ["3S"], ["3C"], ["QS"], spit=["2S"]), [["5C"], ["10H"]])
    r = go(p, P(1, 0, 0), P(0, 0, 0))
    assert r["state"]["piles"][0] == ["5C", "4D"] and rejected(r) == [1]
    assert r["state"]["players"][0]["stocks"][0] == ["6D"]  # the rejected card stays on its stock


def test_S_3_5_illegal_on_arrival_is_an_event_not_an_error() -> None:
    r = run("spit", pos(A, B, [["5C"], ["8H"]]), [P(0, 2, 0)])
    assert r["ok"] and rejected(r) == [0]
    bad = run("spit", pos(A, B, [["5C"], ["8H"]]), [{"player": 0, "play": {"stock": 7, "pile": 0}}])
    assert not bad["ok"] and bad["error"]["code"] == "bad_request"


def test_S_4_1_stalemate_includes_fills_and_blocks_plays_until_spit() -> None:
    p = pos(player(["9S", "3H"], ["9C"], ["9H"], ["JC"], ["JS"], spit=["5S", "8D"]),
            player(["6C"], ["6D"], ["6H"], ["10D"], ["10C"], spit=["10S", "AC"]), [["2D"], ["KH"]])
    r = go(p, P(0, 0, 0))
    assert r["state"]["phase"] == "stalled" and r["legal"] == {"0": [{"player": 0, "spit": True}],
                                                                "1": [{"player": 1, "spit": True}]}
    p2 = pos(player(["9S", "5H"], ["9C"], [], ["JC"], ["JS"], spit=["5S"]),
             player(["6C"], ["6D"], ["6H"], ["10D"], ["10C"], spit=["10S"]), [["2D"], ["KH"]])
    assert go(p2)["state"]["phase"] == "play"  # a fill is still possible: not stalled


def test_S_4_2_each_spits_onto_own_pile_no_spit_cards_no_spit() -> None:
    p = pos(player(["9C"], ["9H"], ["JC"], ["JS"], ["9D"], spit=[]),
            player(["6C"], ["6D"], ["6H"], ["10D"], ["10C"], spit=["3S", "AC"]), [["2D"], ["KH"]], phase="stalled")
    r = go(p, {"player": 0, "spit": True}, {"player": 1, "spit": True})
    assert rejected(r) == [0] and r["state"]["piles"][1] == ["KH", "3S"]


def test_S_5_1_round_ends_when_a_player_empties_stocks_and_S_5_2_slap() -> None:
    p = pos(player(["2C"], ["3C"], ["4C"], ["5C"], ["6C"], spit=["KC"]), player([], [], [], [], ["8S"]),
            [["7D"], ["AH"]])
    r = go(p, P(1, 4, 0))
    assert r["state"]["phase"] == "slap"
    assert r["legal"]["0"] == [{"player": 0, "slap": 0}, {"player": 0, "slap": 1}]
    r2 = go(p, P(1, 4, 0), {"player": 1, "slap": 1}, {"player": 0, "slap": 1})
    assert r2["state"]["taken"] == [0, 1] and rejected(r2) == [2]


def test_S_5_1_round_ends_on_stalemate_without_spit_cards() -> None:
    p = pos(player(["9C"], ["9H"], ["JC"], ["JS"], ["9D"]), player(["6C"], ["6D"], ["6H"], ["10D"], ["10C"]),
            [["2D"], ["KH"]])
    r = go(p)
    assert r["state"]["phase"] == "slap" and {"type": "round_end", "player": None, "reason": "stalemate"} in r["events"]


def test_S_5_3_first_slap_decides_both_piles() -> None:
    p = pos(player(["9C"], ["9H"], ["JC"], ["JS"], ["9D"]), player(["6C"], ["6D"], ["6H"], ["10D"], ["10C"]),
            [["2D", "3D"], ["KH"]], phase="slap")
    r = go(p, {"player": 0, "slap": 1}, {"player": 1, "slap": 1})
    assert r["state"]["taken"] == [1, 0] and r["state"]["phase"] == "round_over"
    assert [p["total"] for p in r["state"]["players"]] == [6, 7]


def test_S_5_4_next_round_gathers_shuffles_and_deals_unequal_spit_piles() -> None:
    st = RULES.position_from_json(SpitOptions(), pos(
        player(["9C"], ["9H"], ["JC"], ["JS"], ["9D"]), player(["6C"], ["6D"], ["6H"], ["10D"], ["10C"]),
        [["2D", "3D", "4D", "5D", "6S", "7S", "8S", "AS", "2S", "3S", "4S"], ["KH"]], phase="slap"))
    st, _ = RULES.apply(st, RULES.parse_action({"player": 1, "slap": 0}))
    st2, events = RULES.apply(st, NextRound())
    assert st2.round_no == 2 and st2.phase == "stalled"
    assert [sum(len(s) for s in p.stocks) + len(p.spit) for p in st2.players] == [6, 16]
    assert [len(p.spit) for p in st2.players] == [0, 1]
    again, _ = RULES.apply(st, NextRound())
    assert RULES.position_to_json(again) == RULES.position_to_json(st2)  # seeded, deterministic


def test_S_5_5_one_pile_stalemate_the_spitter_takes_the_pile() -> None:
    p = pos(player(["9C"], ["9H"], ["JC"], ["JS"], ["9D"]), player(["6C"], ["6D"], ["6H"], ["10D"], ["10C"]),
            [[], ["KH", "2D"]])
    r = go(p)
    assert r["state"]["phase"] == "round_over" and r["state"]["taken"] == [None, 1]


def test_S_6_1_fewer_than_15_cards_fill_stocks_in_order_no_spit_cards() -> None:
    from engine.spit.rules import layout
    lay = layout([parse_card(c) for c in ["AS", "2S", "3S", "4S", "5S", "6S", "7S"]])
    assert [len(s) for s in lay.stocks] == [1, 2, 3, 1, 0] and lay.spit == []


def test_S_7_1_and_S_7_2_player_without_spit_cards_empties_first_and_wins() -> None:
    p = pos(player([], [], [], [], ["8S"]), player(["2C"], ["3C"], ["4C"], ["5C"], ["6C"], spit=["KC"]),
            [[], ["7D"]])
    r = go(p, P(0, 4, 1))
    assert r["state"]["phase"] == "over" and r["state"]["winner"] == 0 and r["state"]["taken"] == [None, 1]


def test_S_7_2_opponent_empties_first_the_game_goes_on() -> None:
    p = pos(player(["QC"], ["QD"], [], [], []), player([], [], [], [], ["8S"], spit=["KC"]), [[], ["7D"]])
    r = go(p, P(1, 4, 1))
    s = r["state"]
    assert s["phase"] == "round_over" and s["taken"] == [1, None] and s["winner"] is None
    assert [p["total"] for p in s["players"]] == [4, 1]


def test_S_7_3_no_cards_at_all_wins_overriding_S_7_2() -> None:
    p = pos(player([], [], [], [], ["8S"]), player(["QC"], ["QD"], ["2C"], ["3C"], ["4C"], spit=["KC"]),
            [[], ["7D"]])
    r = go(p, P(0, 4, 1))
    assert r["state"]["winner"] == 0 and r["state"]["players"][0]["total"] == 0


def test_S_8_1_points_variant_scores_cards_held_and_ends_at_100() -> None:
    p = pos(player(["2C"], ["3C"], ["4C"], ["5C"], ["6C"], spit=["KC"]), player([], [], [], [], ["8S"]),
            [["7D"], ["AH"]], scores=[95, 10])
    r = go(p, P(1, 4, 0), options={"scoring": "points"})
    s = r["state"]
    assert s["scores"] == [101, 10] and s["phase"] == "over" and s["winner"] == 1
    p["scores"] = [10, 10]
    r2 = go(p, P(1, 4, 0), {"player": 0, "slap": 1}, options={"scoring": "points"})
    assert r2["state"]["scores"] == [16, 10] and r2["state"]["phase"] == "round_over"


def test_S_8_1_points_variant_ignores_S_7_3() -> None:
    p = pos(player([], [], [], [], ["8S"]), player(["QC"], ["QD"], ["2C"], ["3C"], ["4C"], spit=["KC"]),
            [[], ["7D"]], scores=[0, 0])
    r = go(p, P(0, 4, 1), options={"scoring": "points"})
    assert r["state"]["phase"] == "round_over" and r["state"]["scores"] == [0, 6]


def test_S_9_2_same_seed_same_actions_same_game() -> None:
    def play(seed: int) -> str:
        from engine.cards import Rng
        s = RULES.new_game(SpitOptions(), seed)
        rng = Rng(seed)
        for _ in range(300):
            if s.over:
                break
            if s.phase == "round_over":
                s, _ = RULES.apply(s, NextRound())
                continue
            legal = RULES.legal_actions(s)
            s, _ = RULES.apply(s, legal[rng.below(len(legal))])
        return str(RULES.position_to_json(s))
    assert play(5) == play(5) and play(5) != play(6)


def test_after_game_over_actions_are_rejected_events() -> None:
    p = pos(player([], [], [], [], ["8S"]), player(["2C"], ["3C"], ["4C"], ["5C"], ["6C"], spit=["KC"]),
            [[], ["7D"]])
    r = go(p, P(0, 4, 1), P(1, 0, 1))
    assert rejected(r) == [1] and r["legal"] == {"0": [], "1": []}


def test_stalled_position_with_all_called_resolves_at_load() -> None:
    p = pos(player(["9C"], ["9H"], ["JC"], ["JS"], ["9D"], spit=["QD"]),
            player(["6C"], ["6D"], ["6H"], ["10D"], ["10C"], spit=["5S"]), [["2D"], ["KH"]], phase="stalled",
            ready=[True, True])
    r = go(p)
    assert r["state"]["piles"] == [["2D", "QD"], ["KH", "5S"]] and r["state"]["phase"] == "play"


def test_round_cap_ends_the_game_with_fewer_cards_winning() -> None:
    p = pos(player(["9C"], ["9H"], ["JC"], ["JS"], ["9D"]), player(["6C"], ["6D"], ["6H"], ["10D"], ["10C"]),
            [["2D", "3D"], ["KH"]], phase="slap")
    r = go(p, {"player": 0, "slap": 1}, options={"round_cap": 1})
    s = r["state"]
    assert s["phase"] == "over" and s["winner"] == 0 and {"type": "cap", "rounds": 1} in r["events"]
