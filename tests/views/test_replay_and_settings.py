"""#7: replays of finished games (read-only, exact), table sounds chosen from engine events, and
settings read defensively from a stored profile."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import EngineError, Event, GameRecord
from engine.games import rules_for
from engine.spit.actions import Fill, PlayCard
from storage import api
from tests.views.modes import live, local, state_of
from tests.views.test_lanes_controller import human_move
from tests.views.test_lopti_controller import person_move
from views.lanes.controller import LanesMatch
from views.lopti.controller import LoptiMatch
from views.spit.controller import SpitGame
from views.table.feedback import sound_for
from views.table.replay import open_replay
from views.table.timeline import Timeline
from views.ui.i18n import LANGS
from views.ui.prefs import Prefs


def finished_lanes(st: Any) -> LanesMatch:
    m = LanesMatch.new(st, "beginner", seed=5)
    for _ in range(600):
        if state_of(m).over:
            break
        human_move(m) if m.my_turn else m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    assert state_of(m).over
    return m


def same(game: str, a: Any, b: Any) -> bool:
    rules = rules_for(game)
    return bool(rules.position_to_json(a) == rules.position_to_json(b))


def test_a_lanes_replay_steps_through_exactly_the_states_played_and_writes_nothing(st) -> None:  # type: ignore[no-untyped-def]
    m = finished_lanes(st)
    stored = len(api.load_game(st, local(m).game_id).actions)
    r, mode = open_replay(st, local(m).game_id)
    assert isinstance(r, LanesMatch) and mode.step == 0 and mode.timeline.last == stored
    rules = rules_for("lanes")
    assert same("lanes", state_of(r), rules.new_game(local(m).state.options, api.load_game(st, local(m).game_id).seed))
    mode.seek(mode.timeline.last)
    assert same("lanes", state_of(r), state_of(m)) and state_of(r).over
    mode.seek(10_000)  # past the end: the end
    assert mode.step == mode.timeline.last
    mode.seek(-3)
    assert mode.step == 0 and r.last_events == []
    mode.seek(1)
    assert r.last_events and r.last_events == mode.timeline.events[1]
    # what the table shows is the player's own observation: the bot's hand is only a count
    obs = r.observation
    assert "hand" in obs and "hand" not in obs["players"][1]
    # read-only: nothing a tap can reach changes the state or the stored game
    before = rules.position_to_json(state_of(r))
    assert not r.my_turn and not r.can_undo() and r.hint() is None and r.bot_choice() is None
    for call in (lambda: r.resign(), lambda: r.play_at(0, 0), lambda: r.disband(0), lambda: r.discard(),
                 lambda: r.apply_bot(None)):  # type: ignore[arg-type]  # a replay takes nothing, not even nonsense
        assert call() == []
    r.select("5H")
    assert r.selected is None and rules.position_to_json(state_of(r)) == before
    assert len(api.load_game(st, local(m).game_id).actions) == stored
    for lang in LANGS:
        caption = mode.caption(lang)
        assert caption is not None and str(mode.timeline.last) in caption and "{" not in caption


def test_lopti_and_spit_replays_end_where_the_games_ended(st, tmp_path) -> None:  # type: ignore[no-untyped-def]
    m = LoptiMatch.new(st, ["beginner", "casual"], seed=21)
    for _ in range(3000):
        if state_of(m).over:
            break
        person_move(m) if m.my_turn else m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    assert state_of(m).over
    r, mode = open_replay(st, local(m).game_id)
    assert isinstance(r, LoptiMatch) and not r.needs_handover() and r.take() == [] and r.play() == []
    mode.seek(mode.timeline.last)
    assert same("lopti", state_of(r), state_of(m))
    assert r.human == 0

    g = SpitGame.new(st, "casual", seed=8, now=0.0)
    g.spit(0.5)
    now = 0.5
    while not state_of(g).over and now < 400:
        now += 0.4
        g.tick(now)
        if g.can_spit():
            g.spit(now)
        elif state_of(g).phase == "slap":
            g.tap_pile(0, now)
        else:
            plays = [a for a in g.legal() if isinstance(a, PlayCard)]
            fills = [a for a in g.legal() if isinstance(a, Fill)]
            if plays:
                g.tap_stock(plays[0].stock, now)
                g.tap_pile(plays[0].pile, now)
            elif fills:
                g.tap_stock(fills[0].source, now)
                g.tap_stock(fills[0].slot, now)
    assert live(g).seq > 30
    s, mode = open_replay(st, live(g).game_id)
    assert isinstance(s, SpitGame) and not s.can_spit() and s.countdown_ends() is None
    assert s.tick(1e9) == [] and s.tap_stock(0, 0.0) == []
    mode.seek(mode.timeline.last)
    assert same("spit", state_of(s), state_of(g))
    mode.seek(0)
    assert state_of(s).phase == "stalled" and not same("spit", state_of(s), state_of(g))


def test_a_damaged_record_cannot_be_replayed_and_says_why() -> None:
    record: GameRecord[Any] = GameRecord("lanes", {}, 1, 2, ({"discard": "ZZ"},))
    with pytest.raises(EngineError):
        Timeline(record)


def ev(kind: str, **data: Any) -> Event:
    return Event(kind, data)


@pytest.mark.parametrize(("events", "me", "sound"), [
    ([], 0, None),
    ([ev("play", player=0, card="5H")], 0, "play"),
    ([ev("play", player=1, card="5H"), ev("sold", player=1, pair=0)], 0, "special"),
    ([ev("take", player=2, count=5)], 0, "special"),
    ([ev("rejected", player=0, index=3)], 0, "refuse"),
    ([ev("rejected", player=1, index=3)], 0, None),  # a Spit bot's refused card is not heard
    ([ev("play", player=0, card="5H"), ev("win", player=0, reason="sold")], 0, "win"),
    ([ev("play", player=1, card="5H"), ev("win", player=1, reason="sold")], 0, "lose"),
    ([ev("out", player=2, place=1), ev("win", player=2), ev("deal_over", places=[2, 0, 1])], 0, "lose"),
    ([ev("deal_over", places=[0, 1])], 0, "win"),
    ([ev("round_end", player=None, reason="stalemate"), ev("slap", player=0, pile=1)], 0, "special"),
])
def test_the_sound_for_a_batch_of_events(events: list[Event], me: int, sound: str | None) -> None:
    assert sound_for(events, me) == sound


def test_settings_read_from_a_damaged_profile_fall_back_to_defaults() -> None:
    assert Prefs.from_settings({}) == Prefs()
    junk = {"theme": "purple", "card_style": 3, "sound": "yes", "haptics": None, "bot_speed": ["fast"]}
    assert Prefs.from_settings(junk) == Prefs()
    p = Prefs.from_settings({"theme": "dark", "card_style": "four_colour", "sound": False, "bot_speed": "fast"})
    assert (p.theme, p.card_style, p.sound, p.haptics, p.bot_speed) == ("dark", "four_colour", False, True, "fast")
    assert p.bot_delay(0.4) < Prefs().bot_delay(0.4) < Prefs(bot_speed="slow").bot_delay(0.4)
    assert Prefs.from_settings({"hint_level": "expert"}).hint_level == "expert"
    assert Prefs.from_settings({"hint_level": "random"}).hint_level == "casual"  # hints come from a real level


def test_settings_are_stored_and_a_card_style_colours_the_suits(st) -> None:  # type: ignore[no-untyped-def]
    from views.ui.widgets import FOUR_COLOUR, suit_color

    api.update_profile(st, theme="dark", card_style="four_colour", sound=False, haptics=False, bot_speed="slow")
    _, settings = api.get_profile(st)
    assert Prefs.from_settings(settings) == Prefs("dark", "four_colour", False, False, "slow")
    assert suit_color("D") == "#C62828"  # outside a page: classic
    assert FOUR_COLOUR["D"] != FOUR_COLOUR["H"] and FOUR_COLOUR["C"] != FOUR_COLOUR["S"]


def test_what_landed_is_read_from_the_events_alone() -> None:
    """Animations follow the engine: the cards that grow into place are the ones the events name."""
    from views.table.motion import lanes_landed, lopti_landed, spit_landed

    assert lanes_landed([ev("play", player=0, card="5H", owner=0, lane=2, stack=0),
                         ev("play", player=1, card="KS", owner=0, lane=1, stack=3), ev("discard", player=1)]) == {
        (0, 2, 0), (0, 1, 3)}
    assert lanes_landed([ev("disband", player=0, lane=1)]) == set()
    assert lopti_landed([ev("play", player=0, cards=["5H", "5S"])])
    assert not lopti_landed([ev("play", player=0, cards=["10H"]), ev("clear", player=0)])  # the pile is gone
    assert not lopti_landed([ev("take", player=1, count=4)])
    assert spit_landed([ev("play", player=1, stock=2, pile=0, card="7C"), ev("reveal", player=1)]) == {0}


def test_a_batch_of_events_moves_once() -> None:
    """A new batch's cards arrive small and faded; the redraw at rest (and every later build of the
    same batch) draws them at rest, so a refresh for a selection does not replay the motion."""
    import asyncio

    import flet as ft

    from views.table.motion import Arrivals

    redraws: list[bool] = []
    page = type("P", (), {"run_task": staticmethod(lambda fn: asyncio.run(fn()))})()
    a = Arrivals()
    batch = [ev("play", player=0, card="5H", owner=0, lane=0, stack=0)]
    assert a.fresh(batch)
    arriving = a.wrap(ft.Text("5H"))
    assert isinstance(arriving, ft.Container) and arriving.scale == 0.55
    a.settle(page, lambda: redraws.append(a.arriving))
    assert redraws == [False]  # the redraw draws the same cards at rest
    assert a.fresh(batch)
    resting = a.wrap(ft.Text("5H"))
    assert isinstance(resting, ft.Container) and resting.scale == 1.0
    a.settle(page, lambda: redraws.append(True))
    assert redraws == [False]  # nothing more to animate
    assert not a.fresh([])
    assert a.fresh(list(batch)) and a.wrap(ft.Text("5H")).opacity == 0.25  # a new batch arrives again
