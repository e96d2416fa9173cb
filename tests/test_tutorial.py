"""The lesson runner (engine/tutorial.py) and every lesson file in assets/lessons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.tutorial import LANGS, Lesson, LessonError, LessonRun
from tests.conftest import ROOT

LESSONS = sorted((ROOT / "assets" / "lessons").glob("*.json"))


def load(path: Path) -> Lesson:
    return Lesson.from_json(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_lesson_is_valid_in_three_languages_and_plays_through(path: Path) -> None:
    lesson = load(path)  # from_json replays the lesson's own solution through the engine
    run = LessonRun(lesson)
    for step in lesson.steps:
        assert all(step.text[lang] and step.hint[lang] for lang in LANGS)
    while not run.finished:
        targets = run.targets()
        move = targets[0] if targets else run.rules.action_to_json(
            run.rules.legal_actions(run.state, lesson.learner)[0])
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
