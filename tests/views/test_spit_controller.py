"""The Spit table's controller: taps with timestamps, the bot through the driver, saving every
applied action in order so the game replays exactly."""

from __future__ import annotations

from pathlib import Path

from engine.spit import RULES
from storage import api
from storage.db import open_storage
from views.spit_controller import SpitGame


def test_a_person_and_a_bot_play_and_the_game_resumes(tmp_path: Path) -> None:
    st = open_storage(tmp_path / "ui.sqlite")
    g = SpitGame(st, "casual", seed=8, now=0.0)
    assert g.state.phase == "stalled" and g.can_spit()
    g.spit(0.5)
    now = 0.5
    for _ in range(400):  # the person plays whatever is legal every 0.4 s
        now += 0.4
        g.tick(now)
        if g.state.over:
            break
        if g.can_spit():
            g.spit(now)
            continue
        if g.state.phase == "slap":
            g.tap_pile(0, now)
            continue
        plays = [a for a in g.legal() if hasattr(a, "stock")]
        if plays:
            g.tap_stock(plays[0].stock, now)
            assert plays[0].pile in g.target_piles()
            g.tap_pile(plays[0].pile, now)
    info = api.load_game(st, g.game_id)
    assert len(info.actions) == g.seq > 10
    again = SpitGame.resume(st, g.game_id, now=0.0)
    assert RULES.position_to_json(again.state) == RULES.position_to_json(g.state)
    st.close()


def test_fill_by_tapping_an_empty_slot(tmp_path: Path) -> None:
    st = open_storage(tmp_path / "ui.sqlite")
    g = SpitGame(st, "beginner", seed=3, now=0.0)
    from engine.spit.actions import Fill
    state = g.state.clone()
    state.phase = "play"
    state.piles = [[state.players[1].spit[0]], [state.players[0].spit[0]]]
    state.players[1].spit, state.players[0].spit = state.players[1].spit[1:], state.players[0].spit[1:]
    moved = state.players[0].stocks[0].pop()
    state.players[0].stocks[4].append(moved)
    g.driver.state = state
    fills = [a for a in g.legal() if isinstance(a, Fill)]
    assert fills
    g.tap_stock(fills[0].source, 1.0)
    assert fills[0].slot in g.target_slots()
    g.tap_stock(fills[0].slot, 1.1)
    assert g.state.players[0].stocks[fills[0].slot]
    st.close()
