"""The Lopti table controller: one-rank multi-selection, setup swap, legal buttons, a whole deal
against bots saved action by action and resumed identically."""

from __future__ import annotations

from engine.lopti import RULES
from storage import api
from tests.views.modes import local, state_of
from views.lopti.controller import LoptiMatch
from views.ui.i18n import LANGS


def person_move(m: LoptiMatch) -> None:
    obs = m.observation
    if obs["phase"] == "setup":
        m.keep()
        return
    if m.can_flip():
        m.flip(0)
        return
    ranks = m.playable_ranks()
    for c in m.sorted_hand():
        if m.can_play():
            break
        from engine.cards import parse_card
        if parse_card(c).rank in ranks:
            m.selected = []
            m.tap_hand(c)
    if m.can_play():
        m.play()
    else:
        m.take()


def test_selection_is_one_rank_and_play_needs_a_legal_count(st) -> None:  # type: ignore[no-untyped-def]
    m = LoptiMatch.new(st, ["casual"], seed=4)
    while state_of(m).phase == "setup" or not m.my_turn:
        if m.my_turn:
            m.keep()
        else:
            m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    hand = m.sorted_hand()
    assert hand[0][:-1] != hand[-1][:-1]  # the sorted hand spans ranks
    m.tap_hand(hand[0])
    m.tap_hand(hand[-1])  # another rank replaces the selection (P-3.3: one rank per play)
    assert [str(c) for c in m.selected] == [hand[-1]]
    m.selected = []
    assert not m.can_play()


def test_setup_swap(st) -> None:  # type: ignore[no-untyped-def]
    m = LoptiMatch.new(st, ["casual", "casual"], seed=9)
    assert state_of(m).phase == "setup" and m.my_turn
    h, u = m.sorted_hand()[0], m.observation["players"][0]["up"][0]
    m.tap_hand(h)
    assert not m.can_swap()
    m.tap_up(u)
    assert m.can_swap()
    m.swap()
    assert u in m.sorted_hand() and h in m.observation["players"][0]["up"]


def test_a_whole_deal_against_three_bots_is_saved_and_resumes(st) -> None:  # type: ignore[no-untyped-def]
    m = LoptiMatch.new(st, ["beginner", "casual", "skilled"], seed=12)
    steps = 0
    while not state_of(m).over and steps < 3000:
        if m.my_turn:
            person_move(m)
        else:
            a = m.bot_choice()
            assert a is not None
            m.apply_bot(a)
        steps += 1
        if steps == 40:
            again = LoptiMatch.resume(st, local(m).game_id)
            assert RULES.position_to_json(state_of(again)) == RULES.position_to_json(state_of(m))
            for lang in LANGS:
                assert "{" not in m.explain(m.last_events, lang)
    assert state_of(m).over
    info = api.load_game(st, local(m).game_id)
    assert info.finished_at is not None and len(info.actions) == local(m).seq


def test_house_rule_firings_are_told_in_the_move_log_in_three_languages(st) -> None:  # type: ignore[no-untyped-def]
    """#18, P-8: each rule that fired, named by its title, with what its effects did (a draw, a
    reverse and its direction, an announcement), in the player's language."""
    from views.table.modes import Local

    rule = {"version": 1, "id": "aces", "title": "Aces make the others draw",
            "when": {"event": "play", "timing": "after"}, "if": {"rank_in": ["A"]},
            "do": [{"effect": "draw", "role": "others", "n": 1}, {"effect": "reverse"},
                   {"effect": "announce", "text": "Ouch!"}]}
    options = RULES.parse_options({"house_rules": [rule]})
    position = {"players": [{"hand": ["AH", "4C", "9D"], "up": [], "down": [], "out": False},
                            {"hand": ["KD", "5S"], "up": [], "down": [], "out": False},
                            {"hand": ["6C", "JC"], "up": [], "down": [], "out": False}],
                "draw": ["2S", "3D", "7H"], "pile": [["8C"]], "threes": 0, "obligation": False, "to_move": 0,
                "extra_play": False, "phase": "play"}
    state = RULES.position_from_json(options, position)
    gid = api.new_game(st, "lopti", options.to_json(), 1, 3, [{"kind": "person"}] + [{"kind": "bot",
                               "level": "beginner"}] * 2, mode="bots")
    m = LoptiMatch(Local(RULES, "lopti", st, gid, state, ["person", "beginner", "beginner"]))
    m.tap_hand("AH")
    events = m.play()
    words = m.explain(events, "en")
    assert "Aces make the others draw: Seat 2 (Beginner) draws 1" in words and "anticlockwise" in words
    assert "“Ouch!”" in words
    for lang in LANGS:
        assert "{" not in m.explain(events, lang) and "lp_" not in m.explain(events, lang)


def test_a_hint_or_a_review_shows_its_move_as_selected_cards_and_in_words(st) -> None:  # type: ignore[no-untyped-def]
    """An abstract play ("7 × 2", P-1.1) selects that many cards of the rank from my hand; the
    chosen level's move is legal; every language can say it."""
    from engine.lopti.actions import Play, Take

    m = LoptiMatch.new(st, ["casual"], seed=5)
    while m.phase == "setup" or not m.my_turn:
        person_move(m) if m.my_turn else m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    for level in ("casual", "expert"):
        a = m.suggest(level)
        assert a is not None and (a in m.legal() or isinstance(a, Play) and m.cards_of(a))
    rank = min(m.playable_ranks())  # this deal's seed leaves me a play
    m.point_at(Play(rank=rank, count=1))
    assert len(m.selected) == 1 and m.selected[0].rank == rank and m.can_play()
    m.point_at(Take())
    assert m.selected == [] and m.selected_up is None
    for lang in LANGS:
        assert m.suggest_words(Play(rank=rank, count=1), lang) and m.suggest_words(Take(), lang)
