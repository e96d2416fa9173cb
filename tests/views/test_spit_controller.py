"""The Spit table's controller: taps with timestamps, the bot through the driver, saving every
applied action in order so the game replays exactly."""

from __future__ import annotations

from pathlib import Path

from engine.spit import RULES
from engine.spit.actions import PlayCard
from storage import api
from storage.db import open_storage
from tests.views.modes import live, state_of
from views.spit.controller import SpitGame


def test_a_person_and_a_bot_play_and_the_game_resumes(tmp_path: Path) -> None:
    st = open_storage(tmp_path / "ui.sqlite")
    g = SpitGame.new(st, "casual", seed=8, now=0.0)
    assert state_of(g).phase == "stalled" and g.can_spit()
    g.spit(0.5)
    now = 0.5
    for _ in range(400):  # the person plays whatever is legal every 0.4 s
        now += 0.4
        g.tick(now)
        if state_of(g).over:
            break
        if g.can_spit():
            g.spit(now)
            continue
        if state_of(g).phase == "slap":
            g.tap_pile(0, now)
            continue
        plays = [a for a in g.legal() if isinstance(a, PlayCard)]
        if plays:
            g.tap_stock(plays[0].stock, now)
            assert plays[0].pile in g.target_piles()
            g.tap_pile(plays[0].pile, now)
    info = api.load_game(st, live(g).game_id)
    assert len(info.actions) == live(g).seq > 10
    again = SpitGame.resume(st, live(g).game_id, now=0.0)
    assert RULES.position_to_json(state_of(again)) == RULES.position_to_json(state_of(g))
    st.close()


def test_fill_by_tapping_an_empty_slot(tmp_path: Path) -> None:
    st = open_storage(tmp_path / "ui.sqlite")
    g = SpitGame.new(st, "beginner", seed=3, now=0.0)
    from engine.spit.actions import Fill
    state = state_of(g).clone()
    state.phase = "play"
    state.piles = [[state.players[1].spit[0]], [state.players[0].spit[0]]]
    state.players[1].spit, state.players[0].spit = state.players[1].spit[1:], state.players[0].spit[1:]
    moved = state.players[0].stocks[0].pop()
    state.players[0].stocks[4].append(moved)
    live(g).driver.state = state
    fills = [a for a in g.legal() if isinstance(a, Fill)]
    assert fills
    g.tap_stock(fills[0].source, 1.0)
    assert fills[0].slot in g.target_slots()
    g.tap_stock(fills[0].slot, 1.1)
    assert state_of(g).players[0].stocks[fills[0].slot]
    st.close()


def test_split_screen_two_people_share_the_piles(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """#7 split screen: both rows answer taps; a pile tap moves the card of whoever holds one (the
    one whose card fits, or who picked up last); each person calls Spit and slaps for themselves."""
    from engine.spit.actions import Fill, PlayCard
    from storage import api
    from storage.db import open_storage
    from views.spit.controller import SpitGame

    st = open_storage(tmp_path / "s.sqlite")
    g = SpitGame.new(st, "person", 4, 0.0)
    assert g.split and api.load_game(st, live(g).game_id).mode == "pass_and_play"
    now = 0.0
    assert g.can_spit(0) and g.can_spit(1)
    g.spit(now, 0)
    g.spit(now, 1)
    now += 3.0
    g.tick(now)
    moved = 0
    for _ in range(200):
        if state_of(g).phase == "stalled":
            for player in (0, 1):
                if g.can_spit(player):
                    g.spit(now, player)
            now += 3.0
            g.tick(now)
            continue
        if state_of(g).phase != "play":
            break
        for player in (0, 1):
            move = next((a for a in g.legal(player) if isinstance(a, PlayCard)), None)
            fill = next((a for a in g.legal(player) if isinstance(a, Fill)), None)
            if move is None and fill is not None:
                g.tap_stock(fill.source, now, player)
                g.tap_stock(fill.slot, now, player)  # into the empty slot
                continue
            if move is None:
                continue
            g.tap_stock(move.stock, now, player)
            assert g.pile_player(move.pile) == player
            g.tap_pile(move.pile, now)
            moved += 1
            now += 0.3
        now += 0.1
        g.tick(now)
    assert moved > 5
    info = api.load_game(st, live(g).game_id)
    players = {a.get("player") for a in info.actions if isinstance(a, dict)}
    assert players == {0, 1}  # both people's moves are in the record
    st.close()
