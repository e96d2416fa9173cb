"""The lesson runner (engine/tutorial.py) and every lesson file in assets/lessons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.core import EngineError
from engine.tutorial import LANGS, Lesson, LessonError, LessonRun
from tests.conftest import ROOT

ALL = sorted((ROOT / "assets" / "lessons").glob("*.json"))
#: lessons on a table (a position and moves); session lessons have tests of their own
LESSONS = [p for p in ALL if json.loads(p.read_text(encoding="utf-8")).get("kind") != "session"]


def load(path: Path) -> Lesson:
    return Lesson.from_json(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_lesson_is_valid_in_three_languages_and_plays_through(path: Path) -> None:
    lesson = load(path)  # from_json replays the lesson's own solution through the engine
    run = LessonRun(lesson)
    for step in lesson.steps:
        assert all(step.text[lang] and step.hint[lang] for lang in LANGS)
    while not run.finished:
        if run.current is not None and run.current.info:
            assert run.advance().ok
            continue
        targets = run.targets()
        move = targets[0] if targets else run.suggestion()
        assert run.attempt(move).ok
    assert run.text("ar") == lesson.done["ar"]


def test_wrong_moves_get_words_illegal_ones_the_engine_reason() -> None:
    run = LessonRun(load(ROOT / "assets" / "lessons" / "lanes-2-direction.json"))
    illegal = run.attempt({"play": "2S", "lane": 0})  # lower on an ascending lane, not a diamond
    assert not illegal.ok and "ascending" in illegal.message["en"]
    legal_but_not_asked = run.attempt({"play": "9H", "lane": 1})
    assert not legal_but_not_asked.ok and "lane 1" in legal_but_not_asked.message["en"].lower()
    malformed = run.attempt({"play": "ZZ", "lane": 0})
    assert not malformed.ok and run.mistakes == 3 and run.step == 0
    assert run.attempt({"play": "10D", "lane": 0}).ok and run.step == 1


def test_a_broken_lesson_is_refused_with_the_reason() -> None:
    obj = json.loads((ROOT / "assets" / "lessons" / "lanes-1-opening.json").read_text(encoding="utf-8"))
    obj["steps"][0]["expect"] = [{"play": "KC", "lane": 0}]  # a face card in the opening
    with pytest.raises(LessonError) as info:
        Lesson.from_json(obj)
    assert "step 1" in str(info.value)
    obj2 = json.loads((ROOT / "assets" / "lessons" / "lanes-1-opening.json").read_text(encoding="utf-8"))
    del obj2["title"]["vi"]
    with pytest.raises(LessonError):
        Lesson.from_json(obj2)


def _wrong_candidates(run: LessonRun) -> list[Any]:
    """Moves a learner could tap at this step, in the action format (most of them wrong)."""
    obs = run.rules.observe(run.state, run.lesson.learner)
    game = run.lesson.game
    if game == "lanes":
        out: list[object] = []
        for card in obs["hand"]:
            out += [{"play": card, "lane": lane} for lane in range(3)]
            out += [{"play": card, "owner": o, "lane": ln, "stack": 0} for o in range(2) for ln in range(3)]
            out.append({"discard": card})
        return out + [{"disband": ln} for ln in range(3)]
    if game == "lopti":
        me = obs["players"][run.lesson.learner]
        hand = obs.get("hand", [])
        flips = [{"flip": i} for i in range(len(me.get("down", [])) or 1)]
        return [{"play": [c]} for c in hand] + [{"take": True}, {"keep": True}] + flips
    p = run.lesson.learner
    return [{"player": p, "play": {"stock": s, "pile": q}} for s in range(5) for q in range(2)] + \
        [{"player": p, "fill": {"from": s, "to": d}} for s in range(5) for d in range(5) if s != d] + \
        [{"player": p, "spit": True}, {"player": p, "slap": 0}, {"player": p, "slap": 1}]


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_wrong_moves_on_every_lesson_get_words_and_change_nothing(path: Path) -> None:
    """Every step that asks for a move: a legal move the lesson does not ask for gets the step's words,
    an illegal one the engine's reason with a translation key; neither changes the position or step."""
    from views.ui.i18n import t, why_text

    lesson = load(path)
    run = LessonRun(lesson)
    engine_reasons = 0
    while not run.finished:
        step = run.current
        assert step is not None
        before, at = run.state, run.step
        if step.info:
            assert not run.attempt({"take": True}).ok and run.step == at  # nothing to play while reading
            assert run.advance().ok
            continue
        for move in _wrong_candidates(run):
            if not _parses(run, move):
                continue
            if step.expect is not None and any(run._matches(move, e) for e in step.expect):
                continue
            if step.expect is None and run._works(move):
                continue  # an "any" step: every legal move is right
            fb = run.attempt(move)
            assert not fb.ok and run.state is before and run.step == at, move
            if fb.why is None:
                assert fb.message == (step.wrong or step.hint)
            elif fb.why.key != "bad_request":
                engine_reasons += 1
                assert t("en", f"why_{fb.why.key}") != f"why_{fb.why.key}", fb.why.key
                assert all(why_text(lang, fb.why) for lang in LANGS)
                assert why_text("ar", fb.why) != why_text("en", fb.why)
        assert run.attempt(run.suggestion()).ok
    assert engine_reasons > 0 or lesson.id.endswith("winners-rule")


def _parses(run: LessonRun, move: object) -> bool:
    try:
        run.rules.parse_action(move, run.state)
    except EngineError:
        return False
    return True


def test_engine_reasons_are_translated() -> None:
    """Every reason key the engine can give has words in all three languages."""
    import re

    from views.ui.i18n import table

    keys = set()
    for path in (ROOT / "engine").rglob("*.py"):
        keys |= set(re.findall(r'Why\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert len(keys) > 30
    for lang in LANGS:
        missing = [k for k in keys if f"why_{k}" not in table(lang)]
        assert not missing, (lang, missing)


def test_the_house_rules_lesson_wins_by_its_two_variants_only() -> None:
    """lanes-14: under king_adds (L-9.2) the second king makes 7 + 7 + 7 = 21, a selling lane,
    where the standard king would double to 28 (L-6.3); then quick_sell (L-9.5) ends the match at
    the second selling lane, where the standard rules wait for the third pair (L-8.1)."""
    from engine.lanes import RULES as LANES
    from engine.lanes.state import values

    obj = json.loads((ROOT / "assets" / "lessons" / "lanes-14-house-rules.json").read_text(encoding="utf-8"))
    for variants, first_lane, over in ((["king_adds", "quick_sell"], 21, True), (["king_adds"], 21, False),
                                       ([], 28, False)):
        run = LessonRun(Lesson.from_json({**obj, "options": {"variants": variants}}))
        assert run.attempt(run.targets()[0]).ok
        assert values(run.state, 0)[0] == first_lane
        assert run.attempt(run.targets()[0]).ok
        assert run.over is over and (LANES.result(run.state) is not None) is over
