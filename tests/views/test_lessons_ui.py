"""Lessons on the real tables' controllers (views/table/lessons.py), the rules pages, and refused taps in
ordinary games — all without Flet."""

from __future__ import annotations

import pytest

from engine.cards import parse_card
from engine.lanes import RULES as LANES_RULES
from engine.lopti import RULES as LOPTI_RULES
from storage import api
from tests.views.modes import coach_of, lesson, local, state_of
from views.lanes.controller import LanesMatch
from views.lopti.controller import LoptiMatch
from views.spit.controller import SpitGame
from views.spit.modes import SpitLessonMode
from views.table.lessons import find, lessons, next_lesson
from views.table.modes import LessonMode
from views.ui.i18n import LANGS, why_text
from views.ui.rules_pages import RulesPageError, page, parse


def test_lesson_catalogue_has_the_required_lessons_per_game() -> None:
    """#8: Lanes 7, Lopti 8, Spit 3 — and they chain to each other in order."""
    counts = {g: len(group) for g, group in lessons().items()}
    assert counts["lanes"] >= 7 and counts["lopti"] >= 8 and counts["spit"] >= 3
    first = lessons()["lanes"][0]
    assert next_lesson(first) is lessons()["lanes"][1]
    assert next_lesson(lessons()["spit"][-1]) is None
    assert find("no-such-lesson") is None


def test_lanes_lesson_through_the_table_controller_saves_progress(st) -> None:  # type: ignore[no-untyped-def]
    m = LanesMatch(LessonMode(LANES_RULES, lesson("lanes-3-suit"), st))
    assert m.my_turn and coach_of(m).panel("en", why_text).step == 1 and not coach_of(m).panel("en", why_text).done
    m.select("2D")
    assert m.play_at(0, 0) == [] and m.selected is not None  # refused: the card stays selected
    coach = coach_of(m).panel("vi", why_text)
    assert coach.feedback and coach.feedback == why_text("vi", coach_of(m).feedback.why)  # type: ignore[union-attr]
    assert m.coach_cards() == {"5S"}  # the coach highlights the card the step is about
    m.hint()  # the lesson's own move: its card gets selected and highlighted
    assert str(m.selected) == "5S" and m.coach_cards() == {"5S"} and coach_of(m).panel("en", why_text).hint
    assert m.play_at(0, 0)  # 5♠ on lane 1
    assert api.lesson_progress(st)["lanes-3-suit"] == (1, False)
    for card, lane in (("2D", 2), ("9S", 0)):
        m.select(card)
        assert m.play_at(0, lane)
    assert coach_of(m).panel("ar", why_text).done and api.lesson_progress(st)["lanes-3-suit"] == (3, True)
    m.resign()  # "retry" on a lesson starts it over instead of losing a game
    assert coach_of(m).panel("en", why_text).step == 1 and state_of(m).sides[0].hand[0] == parse_card("5S")


def test_text_only_steps_continue_and_guided_match_ends(st) -> None:  # type: ignore[no-untyped-def]
    m = LanesMatch(LessonMode(LANES_RULES, lesson("lanes-6-selling"), st))
    assert coach_of(m).panel("en", why_text).info
    coach_of(m).advance()
    assert not coach_of(m).panel("en", why_text).info and coach_of(m).panel("en", why_text).step == 2
    guided = LanesMatch(LessonMode(LANES_RULES, lesson("lanes-7-guided-match"), st))
    moves = 0
    while not coach_of(guided).panel("en", why_text).done:
        action = guided.hint()
        assert action is not None
        before = coach_of(guided).run.step
        if guided.selected is not None:
            tg = guided.targets()
            if tg.lanes:
                guided.play_at(0, min(tg.lanes))
            elif tg.stacks:
                guided.play_at(*min(tg.stacks))
            else:
                guided.discard()
        else:
            guided.disband(action.lane)  # type: ignore[union-attr]
        moves += 1
        assert moves < 200 and (coach_of(guided).run.step >= before)
    assert state_of(guided).over


def test_lopti_and_spit_lessons_through_their_controllers(st) -> None:  # type: ignore[no-untyped-def]
    m = LoptiMatch(LessonMode(LOPTI_RULES, lesson("lopti-6-seven-low"), st))
    m.tap_hand("KH")
    assert m.play() == [] and m.refusal is None
    feedback = coach_of(m).feedback
    assert feedback is not None and not feedback.ok
    m.tap_hand("7C")
    assert m.play()
    m.tap_hand("10S")  # a 10 right after a 7: the engine's reason, in Arabic too
    m.play()
    fb = coach_of(m).feedback
    assert fb is not None and fb.why is not None and fb.why.key == "ten_after_low"
    assert why_text("ar", fb.why) != why_text("en", fb.why)
    s = SpitGame(SpitLessonMode(lesson("spit-3-slap"), st))
    s.tap_stock(0, 0.0)
    s.tap_pile(1, 0.0)  # the 8♣ does not fit on the Q♥
    fb = coach_of(s).feedback
    assert fb is not None and fb.why is not None and fb.why.key == "no_fit"
    s.tap_stock(0, 0.0)
    assert s.tap_pile(0, 0.0) and state_of(s).phase == "slap"
    assert s.tap_pile(1, 0.0) and coach_of(s).panel("en", why_text).done


def test_refused_taps_in_a_real_game_are_explained_and_change_nothing(st) -> None:  # type: ignore[no-untyped-def]
    m = LanesMatch.new(st, "beginner", 7)
    if not m.my_turn:
        m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    face = next((c for c in state_of(m).sides[m.human].hand if c.rank > 10), None)
    number = next(c for c in state_of(m).sides[m.human].hand if c.rank <= 10)
    before = state_of(m)
    m.select(str(number))
    assert m.play_at(1 - m.human, 0) == [] and m.refusal is not None  # not on the opponent's lane
    assert m.refusal.key in ("own_lanes", "opening_lane") and state_of(m) is before
    assert face is not None  # seed 7 deals a face card: it has no number card to go on yet (L-3.2)
    m.select(str(face))
    assert m.play_at(m.human, 0) == [] and m.refusal is not None \
        and m.refusal.key in ("opening_no_face", "face_needs_card")
    for lang in LANGS:
        assert why_text(lang, m.refusal)
    lp = LoptiMatch.new(st, ["beginner"], 3)
    while not lp.my_turn:
        lp.apply_bot(lp.bot_choice())  # type: ignore[arg-type]
    if state_of(lp).phase == "setup":
        lp.keep()
    while not lp.my_turn:
        lp.apply_bot(lp.bot_choice())
    cards = lp.sorted_hand()
    lp.tap_hand(cards[0])
    lp.tap_hand(cards[-1])
    assert parse_card(cards[0]).rank != parse_card(cards[-1]).rank  # the sorted hand spans ranks
    lp.selected = [parse_card(cards[0]), parse_card(cards[-1])]  # two ranks at once (P-3.3)
    assert lp.play() == [] and lp.refusal is not None and lp.refusal.key == "mixed_ranks"


def test_rules_pages_load_in_three_languages_with_card_illustrations() -> None:
    for game, prefix in (("lanes", "L-"), ("lopti", "P-"), ("spit", "S-")):
        rules = page(game)
        items = [it for sec in rules.sections for it in sec.items]
        assert len(rules.sections) >= 5 and len(items) >= 18
        assert all(it.rule.startswith(prefix) for it in items)
        assert any(it.cards for it in items)
        for lang in LANGS:
            assert rules.title[lang] and rules.intro[lang] and all(it.text[lang] for it in items)
    lanes = page("lanes")
    assert {f"L-9.{i}" for i in range(1, 13)} <= {it.rule for it in lanes.sections[-2].items}
    assert all(it.tag == "friendly" for sec in lanes.sections if sec.id == "variants" for it in sec.items)
    assert page("lopti").find("P-4.4") is not None  # the low marker's explanation
    with pytest.raises(RulesPageError):
        parse({"title": {"en": "x"}, "intro": {}, "sections": []})
    with pytest.raises(ValueError):
        parse({"title": {lang: "x" for lang in LANGS}, "intro": {lang: "x" for lang in LANGS},
               "sections": [{"id": "a", "title": {lang: "x" for lang in LANGS},
                             "items": [{"rule": "L-1", "text": {lang: "x" for lang in LANGS}, "cards": ["ZZ"]}]}]})


def test_undo_against_learning_bots_takes_back_my_move_and_the_reply(st) -> None:  # type: ignore[no-untyped-def]
    """Undo (Beginner/Casual bots only): storage and state go back to just before my last move, and
    the bot, seeded by the move number, answers the same way again."""
    m = LanesMatch.new(st, "casual", 11)
    if not m.my_turn:
        m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    assert not m.can_undo()  # nothing of mine to take back yet (the bot may have opened)
    before_seq, before = local(m).seq, state_of(m)
    card = sorted(m.playable_cards(), key=str)[0]
    m.select(str(card))
    m.play_at(m.human, min(m.targets().lanes))
    reply = m.bot_choice()
    m.apply_bot(reply)  # type: ignore[arg-type]
    assert m.can_undo() and m.undo()
    assert local(m).seq == before_seq and state_of(m).sides[m.human].hand == before.sides[m.human].hand
    assert len(api.load_game(st, local(m).game_id).actions) == before_seq
    m.select(str(card))
    m.play_at(m.human, min(m.targets().lanes))
    assert m.bot_choice() == reply
    strong = LanesMatch.new(st, "expert", 11)
    assert not strong.can_undo() and not strong.undo()
    lp = LoptiMatch.new(st, ["casual", "beginner"], 5)
    while not lp.my_turn:
        lp.apply_bot(lp.bot_choice())  # type: ignore[arg-type]
    assert state_of(lp).phase == "setup"
    lp.keep()
    while not lp.my_turn:
        lp.apply_bot(lp.bot_choice())
    seq = local(lp).seq
    assert lp.undo() and local(lp).seq < seq and state_of(lp).phase == "setup" and lp.my_turn
    with pytest.raises(ValueError):
        api.truncate_actions(st, local(lp).game_id, 999)


def test_lopti_pass_and_play_shows_only_the_person_to_move_and_asks_for_handovers(st) -> None:  # type: ignore[no-untyped-def]
    """Two people and a bot on one device: each person sees only their own hand, a handover is
    needed whenever the device goes to the other person, and the game resumes behind a handover."""
    m = LoptiMatch.new(st, ["person", "casual"], 21)
    assert m.people == [0, 1] and m.pass_and_play and not m.can_undo()
    seen_people = set()
    for _ in range(60):
        if state_of(m).over:
            break
        if not m.my_turn:
            m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
            continue
        if m.needs_handover():
            m.hand_over()
        assert m.human == state_of(m).to_move and m.observation["player"] == m.human
        assert m.observation["hand"] == [str(c) for c in state_of(m).seats[m.human].hand]
        seen_people.add(m.human)
        if state_of(m).phase == "setup":
            m.keep()
        else:
            from engine.lopti.dryrun import simple_policy

            m._apply(simple_policy(state_of(m)))
        if m.my_turn and state_of(m).to_move != m.viewer:
            assert m.needs_handover()
    assert seen_people == {0, 1}
    again = LoptiMatch.resume(st, local(m).game_id)
    assert again.levels == ["person", "person", "casual"]
    assert again.my_turn and again.needs_handover()  # nobody's hand is shown until they say who holds the device
