"""The real-time driver: timestamps in, actions out, reproducible; bots give up stale moves."""

from __future__ import annotations

from engine.spit import RULES, PlayCard, SpitOptions
from engine.spit.driver import ScriptedBot, SpitDriver


def run_bots(seed: int) -> SpitDriver:
    d = SpitDriver(RULES.new_game(SpitOptions(), seed), {0: ScriptedBot(0.3), 1: ScriptedBot(0.45)}, seed=seed)
    for _ in range(100_000):
        due = d.next_due()
        if due is None or d.state.over:
            break
        d.advance(due)
    return d


def test_two_scripted_bots_finish_a_game_reproducibly() -> None:
    a, b = run_bots(3), run_bots(3)
    assert a.state.over and a.log == b.log
    assert RULES.position_to_json(a.state) == RULES.position_to_json(b.state)


def test_stalled_countdown_then_auto_spit_for_people() -> None:
    d = SpitDriver(RULES.new_game(SpitOptions(), 1), {1: ScriptedBot()}, seed=1, spit_countdown=1.0)
    assert d.state.phase == "stalled" and d.countdown_ends() == 1.0
    d.advance(0.99)
    assert d.state.phase == "stalled"
    d.advance(1.5)
    assert d.state.phase in ("play", "stalled") and d.state.piles[0] and d.state.piles[1]


def test_person_beats_bot_to_the_pile_and_bot_gives_up_silently() -> None:
    from tests.spit.test_rules import player, pos
    position = pos(player(["4D"], ["JH"], ["3S"], ["3C"], ["QS"], spit=["2S"]),
                   player(["6D"], ["9S"], ["QC"], ["KH"], ["KC"], spit=["2H"]), [["5C"], ["10H"]])
    state = RULES.position_from_json(RULES.parse_options({}), position)
    d = SpitDriver(state, {1: ScriptedBot(delay=0.5)}, seed=0)
    events = d.submit(PlayCard(0, 0, 0), 0.2)  # the person plays 4D on 5C before the bot's 6D lands
    assert [e.type for e in events][:1] == ["play"]
    later = d.advance(0.8)
    assert not any(e.type == "rejected" for e in later)
    after = RULES.position_to_json(d.state)
    assert after["piles"][0] == ["5C", "4D"]  # the bot's 6D never landed on the person's 4D
    assert after["players"][1]["stocks"][0] == ["6D"]  # ... and is still in its stock
    assert all(a["player"] != 1 or a["play"]["pile"] != 0 for _, a in d.log)  # never even sent there
