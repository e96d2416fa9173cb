"""The Lanes table controller: highlights come from legal_actions, every action is saved, the
match resumes identically, the bot only plays legal moves, words for the last move."""

from __future__ import annotations

from pathlib import Path

from engine.lanes import RULES
from engine.lanes.actions import Discard, Play
from storage import api
from storage.db import open_storage
from tests.views.modes import local, state_of
from views.lanes.controller import LanesMatch
from views.ui.i18n import LANGS, t, table


def human_move(m: LanesMatch) -> None:
    """Play like a person through the controller: select a card, then take a lit target."""
    for card in sorted({str(c) for c in m.playable_cards()}):
        m.select(card)
        tg = m.targets()
        if tg.lanes:
            m.play_at(m.human, min(tg.lanes))
            return
        if tg.stacks:
            m.play_at(*min(tg.stacks))
            return
        if tg.discard:
            m.discard()
            return
        m.select(card)  # deselect
    m.disband(min(m.disbandable()))


def stored_mid_game(db: Path) -> tuple[int, set[int]]:
    """A stored game against the Beginner past the opening, on my move with lanes I may disband
    (L-4.3): its id and those lanes."""
    st = open_storage(db)
    m = LanesMatch.new(st, "beginner", seed=3)
    while not (m.my_turn and m.disbandable()):
        if m.my_turn:
            human_move(m)
        else:
            m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    game_id, lanes = m.mode.game_id, m.disbandable()
    st.close()
    assert game_id is not None
    return game_id, lanes


def test_targets_are_exactly_the_legal_actions(st) -> None:  # type: ignore[no-untyped-def]
    m = LanesMatch.new(st, "beginner", seed=3)
    while not m.my_turn:
        m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    legal = m.legal()
    for card in {str(c) for c in m.playable_cards()}:
        m.select(card)
        tg = m.targets()
        expect_lanes = {a.lane for a in legal if isinstance(a, Play) and str(a.card) == card and a.owner is None}
        expect_stacks = {(a.owner, a.lane, a.stack or 0) for a in legal
                         if isinstance(a, Play) and str(a.card) == card and a.owner is not None}
        assert tg.lanes == expect_lanes and tg.stacks == expect_stacks
        assert tg.discard == any(isinstance(a, Discard) and str(a.card) == card for a in legal)
        m.select(card)
        assert m.selected is None


def test_a_whole_match_is_saved_after_every_action_and_resumes(st) -> None:  # type: ignore[no-untyped-def]
    m = LanesMatch.new(st, "casual", seed=11)
    steps = 0
    while not state_of(m).over and steps < 400:
        if m.my_turn:
            human_move(m)
        else:
            a = m.bot_choice()
            assert a in RULES.legal_actions(state_of(m))
            m.apply_bot(a)
        steps += 1
        if steps == 7:
            again = LanesMatch.resume(st, local(m).game_id)
            assert RULES.position_to_json(state_of(again)) == RULES.position_to_json(state_of(m))
    assert state_of(m).over
    info = api.load_game(st, local(m).game_id)
    assert len(info.actions) == local(m).seq and info.winner == state_of(m).winner and info.finished_at is not None
    assert api.games_in_progress(st) == []


def test_resign_ends_and_records(st) -> None:  # type: ignore[no-untyped-def]
    m = LanesMatch.new(st, "beginner", seed=2)
    m.resign()
    assert state_of(m).over and state_of(m).winner == 1 and api.history(st)[0].reason == "resigned"


def test_last_move_in_words_in_three_languages(st) -> None:  # type: ignore[no-untyped-def]
    m = LanesMatch.new(st, "beginner", seed=3)
    while m.my_turn:
        human_move(m)
    m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    for lang in LANGS:
        words = m.explain(m.last_events, lang)
        assert words and "{" not in words


def test_every_language_has_every_key() -> None:
    assert set(table("ar")) == set(table("en")) == set(table("vi"))
    assert t("xx", "lanes") == "Lanes" and t("en", "no_such_key") == "no_such_key"


def test_pass_and_play_shows_each_player_only_their_own_hand(st) -> None:  # type: ignore[no-untyped-def]
    m = LanesMatch.new(st, "person", seed=6)
    assert m.pass_and_play and m.my_turn and m.bot_choice() is None
    first = m.human
    assert m.observation["hand"] == [str(c) for c in state_of(m).sides[first].hand]
    human_move(m)
    assert m.human == 1 - first and m.my_turn
    assert m.observation["hand"] == [str(c) for c in state_of(m).sides[1 - first].hand]
    again = LanesMatch.resume(st, local(m).game_id)
    assert again.pass_and_play and again.human == m.human
    assert api.load_game(st, local(m).game_id).mode == "pass_and_play"


def test_hint_is_a_legal_move_and_selects_its_card(st) -> None:  # type: ignore[no-untyped-def]
    m = LanesMatch.new(st, "casual", seed=14)
    while not m.my_turn:
        m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    a = m.hint()
    assert a in m.legal()
    if isinstance(a, (Play, Discard)):
        assert m.selected == a.card
    for lang in LANGS:
        assert m.describe_action(a, lang)
        for b in m.legal():  # a suggestion of any kind can be said, in the present ("10♣ on lane 1")
            assert m.suggest_words(b, lang) and "{" not in m.suggest_words(b, lang)


def _at(st, position):  # type: ignore[no-untyped-def]
    """A stored match against the beginner, moved to a hand-built position (player 0 to move)."""
    m = LanesMatch.new(st, "beginner", seed=3)
    local(m).state = RULES.position_from_json(local(m).state.options, position)
    return m


def test_a_tapped_spot_plays_the_legal_action_there_and_a_refusal_comes_from_the_engine(st) -> None:  # type: ignore[no-untyped-def]
    """L-6.1: a king tapped on a lane goes on its last number card; L-5.1: a number card tapped on
    the opponent's lane is refused in the engine's words, and nothing changes."""
    e = {"deck": ["2H"], "discard": []}
    m = _at(st, {"to_move": 0, "players": [
        {**e, "hand": ["KS", "5C"], "lanes": [[["7H"], ["9H"]], [["2C"]], [["4D"]]]},
        {**e, "hand": ["4C"], "lanes": [[["10S"], ["8S"]], [], []]}]})
    m.select("5C")
    assert m.play_at(1, 0) == [] and m.refusal is not None and m.refusal.key
    assert m.observation["hand"] == ["KS", "5C"]
    m.select("KS")
    m.play_at(0, 0)
    assert m.observation["players"][0]["lanes"][0] == [["7H"], ["9H", "KS"]]


def test_a_king_tapped_on_the_opponents_lane_goes_on_its_last_card(st) -> None:  # type: ignore[no-untyped-def]
    e = {"deck": ["2H"], "discard": []}
    m = _at(st, {"to_move": 0, "players": [
        {**e, "hand": ["KS", "5C"], "lanes": [[["7H"]], [["2C"]], [["4D"]]]},
        {**e, "hand": ["4C"], "lanes": [[["10S"], ["8S"]], [], []]}]})
    m.select("KS")
    m.play_at(1, 0)
    assert m.observation["players"][1]["lanes"][0] == [["10S"], ["8S", "KS"]]
