"""Plays a lesson in the browser by tapping, the way a learner would: a parallel LessonRun (the
lesson is deterministic) says which move comes next, and the walker turns it into taps on the real
table (semantics identifiers, button names in the app's language)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from engine.tutorial import Lesson, LessonRun
from views.ui.i18n import card_name, t


def tap_id(page: Any, ident: str, dy: float | None = None, wait: float = 10.0) -> bool:
    """Tap the element ``ident``, waiting up to ``wait`` seconds for it: after the previous tap the
    table is rebuilt, and on a loaded machine its new frame (with this element) can come late."""
    loc = page.locator(f'[flt-semantics-identifier="{ident}"]')
    deadline = time.monotonic() + wait
    box = None
    while True:
        if loc.count():
            box = loc.first.bounding_box()
        if box or time.monotonic() >= deadline:
            break
        time.sleep(0.2)
    if not box:
        return False
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + (dy if dy is not None else min(box["height"] / 2, 30)))
    time.sleep(0.45)
    return True


def tap_labelled(page: Any, prefix: str, card: str, lang: str) -> bool:
    """Tap the element with identifier ``prefix-N`` whose label is ``card``'s spoken name."""
    name = card_name(lang, card)
    for el in page.locator(f'[flt-semantics-identifier^="{prefix}-"]').all():
        if el.inner_text().strip().startswith(name):
            return tap_id(page, str(el.get_attribute("flt-semantics-identifier")))
    return False


def press(page: Any, name: str) -> None:
    exact = re.compile("^" + re.escape(name) + r"( \(\d+\))?$")  # "Play" or "Play (2)"
    page.get_by_role("button", name=exact).first.click(timeout=10_000)
    time.sleep(0.45)


def concrete(run: LessonRun, move: Any) -> dict[str, Any]:
    """Lopti's normalised actions ("play 9x2", "take", "flip") as the cards a learner would tap."""
    if not isinstance(move, str):
        return dict(move)
    if move.startswith("play "):
        rank, count = move[5:].split("x")
        hand = run.state.seats[run.lesson.learner].hand
        return {"play": [str(c) for c in hand if str(c)[:-1] == rank][: int(count)]}
    return {"take": True} if move == "take" else {"flip": 0} if move == "flip" else {move: True}


def play_move(page: Any, game: str, move: dict[str, Any], learner: int, lang: str) -> None:
    if game == "lanes":
        if "play" in move:
            assert tap_labelled(page, "hand", move["play"], lang), move
            owner = move.get("owner", learner)
            ident = f"lane-{owner}-{move['lane']}" + (f"-{move['stack']}" if "stack" in move else "")
            # a stack is covered by the next one 20 px below its top: tap its visible strip
            assert tap_id(page, ident, 10 if "stack" in move else 8), ident
        elif "discard" in move:
            assert tap_labelled(page, "hand", move["discard"], lang)
            press(page, t(lang, "discard"))
        else:
            assert tap_id(page, f"disband-{move['disband']}"), move
            assert tap_id(page, "disband-confirm"), move  # disbanding asks first
    elif game == "lopti":
        if "play" in move:
            for card in move["play"]:
                assert tap_labelled(page, "hand", card, lang), card
            press(page, t(lang, "play"))
        elif "take" in move:
            press(page, t(lang, "take"))
        elif "flip" in move:
            assert tap_id(page, f"down-{move['flip']}")
        elif "swap" in move:
            assert tap_labelled(page, "hand", move["swap"][0], lang) and tap_labelled(page, "up", move["swap"][1], lang)
            press(page, t(lang, "swap"))
        else:
            press(page, t(lang, "keep"))
    else:
        if "play" in move:
            assert tap_id(page, f"stock-0-{move['play']['stock']}") and tap_id(page, f"pile-{move['play']['pile']}")
        elif "fill" in move:
            assert tap_id(page, f"stock-0-{move['fill']['from']}") and tap_id(page, f"stock-0-{move['fill']['to']}")
        elif "spit" in move:
            press(page, t(lang, "spit_call"))
        else:
            assert tap_id(page, f"pile-{move['slap']}")


def walk(page: Any, lesson: Lesson, lang: str, shot: Callable[[str], None] | None = None) -> int:
    """Play ``lesson`` (already open on the page) to its end; returns the number of taps' moves."""
    run = LessonRun(lesson)
    moves = 0
    while not run.finished:
        step = run.current
        assert step is not None
        if shot is not None and moves < 40:
            shot(f"{lesson.id}-{run.step + 1}")
        if step.info:
            assert tap_id(page, "coach-continue")
            run.advance()
        else:
            move = concrete(run, run.suggestion())
            play_move(page, lesson.game, move, lesson.learner, lang)
            assert run.attempt(move).ok
        moves += 1
        time.sleep(0.3)
    if shot is not None:
        shot(f"{lesson.id}-done")
    return moves
