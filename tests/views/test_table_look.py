"""How the tables look and answer a finger: the bundled faces, the hand's fan, spoken card names,
touch targets, contrast, motion from the events and the reduce-motion setting (issue: a table that
looks and feels like a real card game)."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from engine.cards import RANKS, SUITS
from engine.core import ev
from engine.lanes import RULES as LANES
from engine.lopti import RULES as LOPTI
from storage import api
from storage.db import open_storage
from tests.views.modes import live, state_of
from tests.views.screen import Screen, walk
from views.app import App, start
from views.table import motion
from views.ui import sizing, theme
from views.ui.fan import MAX_ROWS, Fan, hand_room, lay_out
from views.ui.i18n import card_name, t
from views.ui.prefs import CARD_STYLES

XLINK = "http://www.w3.org/1999/xlink"
CARDS = Path(__file__).resolve().parents[2] / "assets" / "cards"
EVERY_CARD = [r + s for r in RANKS for s in SUITS] + ["JK"]


# --- the faces --------------------------------------------------------------------------------------

@pytest.mark.parametrize("style", CARD_STYLES)
def test_every_card_has_a_face_flutter_can_draw(style: str) -> None:
    """A face per card in each card style that Flutter's renderer draws: no <symbol> (drawn as a
    block of colour), and a <use> only of a plain group in the same file, given no size of its own
    (assets/cards/flatten.py)."""
    for card in EVERY_CARD:
        root = ET.parse(CARDS / style / f"{card}.svg").getroot()
        tags = {el.tag.split("}")[-1] for el in root.iter()}
        assert tags and "symbol" not in tags, (style, card, tags)
        groups = {el.get("id"): el for el in root.iter() if el.get("id")}
        for use in (el for el in root.iter() if el.tag.endswith("}use")):
            target = groups.get((use.get(f"{{{XLINK}}}href") or "").lstrip("#"))
            assert target is not None and target.tag.endswith("}g"), (style, card, use.attrib)
            assert not {"width", "height", "x", "y"} & set(use.attrib), (style, card, use.attrib)
        assert root.get("viewBox") == "-120 -168 240 336"
    assert (CARDS / "back.svg").exists() and (CARDS / "LICENSE.md").exists()


def test_each_court_cards_lower_half_is_its_upper_half_turned() -> None:
    """The courts draw their upper half once and the lower half as a ``<use>`` of it turned half a
    circle: half the bytes a phone fetches for a hand with a court (#44)."""
    for style in CARD_STYLES:
        for card in (r + s for r in "JQK" for s in SUITS):
            face = (CARDS / style / f"{card}.svg").read_text()
            assert face.count("<use ") >= 5 and 'transform="rotate(180)"' in face, (style, card)
            assert len(face) < 66_000, (style, card, len(face))


def test_the_two_card_styles_differ_only_where_four_colours_recolour() -> None:
    """Spades and hearts look the same in both styles; diamonds and clubs change colour."""
    for card in ("QS", "7H"):
        assert (CARDS / "classic" / f"{card}.svg").read_text() == (CARDS / "four_colour" / f"{card}.svg").read_text()
    for card in ("7D", "7C"):
        assert (CARDS / "classic" / f"{card}.svg").read_text() != (CARDS / "four_colour" / f"{card}.svg").read_text()


# --- the hand's fan -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("page_width", "page_height"), [(320, 568), (360, 640), (390, 844), (412, 915),
                                                          (768, 1024), (1280, 800)])
def test_every_card_of_any_hand_shows_a_finger_width(page_width: int, page_height: int) -> None:
    """Whatever the hand's length, each card shows at least MIN_TARGET × MIN_TARGET of itself, no
    card leaves the hand's box, and the hand scrolls sideways only past MAX_ROWS rows (the hand
    cards of the Lanes and Lopti tables at that page size: views/ui/sizing.py)."""
    room = hand_room(page_width)
    finger = theme.MIN_TARGET
    for n, card in [(n, c) for n in range(1, 41) for c in (sizing.lanes(page_width, page_height).hand,
                                                           sizing.lopti(page_width, page_height).hand)]:
        fan = lay_out(n, room, *card)
        assert len(fan.spots) == n and fan.card_width >= finger and fan.card_height >= finger
        rows = sorted({top for _, top in fan.spots})
        assert len(rows) <= MAX_ROWS
        assert all(b - a >= finger for a, b in itertools.pairwise(rows))
        for top in rows:
            starts = [x for x, y in fan.spots if y == top]
            assert all(b - a >= finger - 1e-9 for a, b in itertools.pairwise(starts)), (n, starts)
            assert min(starts) >= -1e-9 and max(starts) + fan.card_width <= fan.width + 1e-9
        assert (fan.width > room) == (len(rows) == MAX_ROWS and n > len(rows) * ((room - fan.card_width) // finger + 1))


def boxes(fan: Fan) -> list[tuple[float, float, float, float]]:
    """Each card's (left, top, right, bottom) in the hand's box as drawn, right-to-left mirrored."""
    def left(x: float) -> float:
        return fan.width - x - fan.card_width if fan.rtl else x
    return [(left(x), top, left(x) + fan.card_width, top + fan.card_height) for x, top in fan.spots]


def painted_after(fan: Fan, i: int, j: int) -> bool:
    """Whether card ``j`` is painted over card ``i`` (views/ui/fan.py: rows in order, and within a
    row each card over its left-hand neighbour)."""
    (_, ti), (_, tj) = fan.spots[i], fan.spots[j]
    return tj > ti or (tj == ti and (j < i if fan.rtl else j > i))


@pytest.mark.parametrize("rtl", [False, True])
@pytest.mark.parametrize(("page_width", "page_height"), [(320, 568), (360, 640), (390, 844), (1280, 800)])
def test_each_hand_card_is_taken_for_its_uncovered_part(page_width: int, page_height: int, rtl: bool) -> None:
    """#47 item 2: a hand card is tapped, focused and read as the part no later card covers
    (``Fan.shows``, from the card's top left corner, where its index is printed): the parts never
    overlap, each is at least a finger's size, and none lies under a card painted after it. Flutter
    orders Tab and the page by the geometry of these boxes, so overlapping boxes put a hand in
    overlapping rows in the order of its columns, and a right-to-left hand out of order."""
    finger = theme.MIN_TARGET - 1e-9
    for n, card in [(n, c) for n in range(1, 41) for c in (sizing.lanes(page_width, page_height).hand,
                                                           sizing.lopti(page_width, page_height).hand)]:
        fan = lay_out(n, hand_room(page_width), *card, rtl=rtl)
        cards = boxes(fan)
        shown = [(x0, y0, x0 + w, y0 + h) for (x0, y0, _, _), (w, h) in zip(cards, fan.shows, strict=True)]
        for i, (w, h) in enumerate(fan.shows):
            assert finger <= w <= fan.card_width and finger <= h <= fan.card_height, (n, i, fan.shows[i])
            assert not [j for j in range(n) if painted_after(fan, i, j) and overlap(shown[i], cards[j])], (n, i, rtl)
        assert not [(i, j) for i, j in itertools.combinations(range(n), 2) if overlap(shown[i], shown[j])], (n, rtl)


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1e-6 and min(a[3], b[3]) - max(a[1], b[1]) > 1e-6


def test_a_lanes_opening_hand_fits_one_row_on_a_360_phone() -> None:
    fan = lay_out(8, hand_room(360))
    assert len({top for _, top in fan.spots}) == 1 and fan.width <= hand_room(360)


# --- on screen: names, sizes, the setting -------------------------------------------------------------

def open_app(tmp_path: Path, lang: str = "en", size: tuple[int, int] = (390, 844), **settings: Any) -> Screen:
    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, language=lang, **settings)
    st.close()
    return Screen(tmp_path / "app.sqlite", start, size=size)


@pytest.fixture
def phone(tmp_path: Path) -> Iterator[Screen]:
    s = open_app(tmp_path, size=(360, 640))
    yield s
    s.close()


def lanes_table(s: Screen, lang: str = "en") -> Any:
    s.fire(s.find(t(lang, "play_vs_bot"))[0])
    s.tap(t(lang, "beginner"))
    s.wait_for(lambda: s.find(ident="hand-0"), what="the Lanes table")
    return s.app.screen


@pytest.mark.parametrize(("lang", "seed"), [("en", 1), ("ar", 1), ("vi", 1), ("en", 113), ("vi", 113)])
def test_each_hand_card_says_its_name_in_the_players_language(tmp_path: Path, lang: str, seed: int,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 113 deals me both jokers."""
    monkeypatch.setattr(App, "new_seed", staticmethod(lambda: seed))
    s = open_app(tmp_path, lang)
    try:
        table = lanes_table(s, lang)
        hand = list(table.match.observation["hand"])
        labels = [s.one(ident=f"hand-{i}").label for i in range(len(hand))]
        # each name, then a card that cannot be played now says so (a face card in the opening)
        dim = t(lang, "said_dim", what="")
        # a card dealt twice (two jokers) says which copy it is, in hand order
        named = [card_name(lang, c) if hand.count(c) == 1 else
                 t(lang, "said_copy", what=card_name(lang, c), k=hand[:i].count(c) + 1) for i, c in enumerate(hand)]
        assert [label.removesuffix(dim) for label in labels] == named
        assert all(label != card for label, card in zip(labels, hand, strict=True))  # a name, not a code
        backs = [c.label for c in s.find(kind=ft.Semantics) if c.label and c.label.startswith(
            t(lang, "card_down_n", n="").rstrip())]
        assert backs, "the opponent's hand is a face-down card that says how many it holds"
    finally:
        s.close()


def test_card_names_in_three_languages() -> None:
    assert card_name("en", "QH") == "Queen of hearts" and card_name("en", "10D") == "10 of diamonds"
    assert card_name("ar", "KS") == "شايب بستوني" and card_name("vi", "AC") == "Át Chuồn"
    assert card_name("en", "JK") == "Joker" and card_name("en", "ZZ") == "ZZ"  # not a card: said as it is


def sized(control: Any) -> list[tuple[float, float]]:
    return [(c.width, c.height) for c in walk(control) if isinstance(c, ft.Container) and c.width and c.height]


def test_hand_cards_and_table_controls_are_finger_sized_on_a_360_phone(phone: Screen) -> None:
    lanes_table(phone)
    phone.wait_text(t("en", "opening"))
    for i in range(len(phone.app.screen.match.observation["hand"])):
        w, h = sized(phone.one(ident=f"hand-{i}"))[0]
        assert w >= theme.MIN_TARGET and h >= theme.MIN_TARGET, (i, w, h)
    for b in phone.find(kind=ft.IconButton):  # Material's icon buttons are 48 × 48 unless shrunk
        assert b.width is None or b.width >= theme.MIN_TARGET


def test_lopti_and_spit_hands_are_finger_sized_on_a_360_phone(phone: Screen) -> None:
    phone.tap(t("en", "players_n", n=3))
    phone.wait_for(lambda: phone.find(ident="hand-0"), what="the Lopti table")
    hand = phone.app.screen.match.sorted_hand()
    for i in range(len(hand)):
        w, h = sized(phone.one(ident=f"hand-{i}"))[0]
        assert min(w, h) >= theme.MIN_TARGET
    phone.tap(t("en", "back"))
    phone.fire(phone.find(t("en", "play_vs_bot"))[-1])
    phone.tap(t("en", "beginner"))
    phone.wait_for(lambda: phone.find(ident="stock-0-0"), what="the Spit table")
    for slot in range(5):
        assert all(min(w, h) >= theme.MIN_TARGET for w, h in sized(phone.one(ident=f"stock-0-{slot}"))[:1])


def test_reduce_motion_is_a_setting_that_stills_the_tables(tmp_path: Path) -> None:
    s = open_app(tmp_path)
    try:
        assert s.call(lambda: theme.look().reduce_motion) is False
        arrivals = motion.Arrivals()
        card = ft.Container()
        arrivals.fresh([ev("play")])
        assert s.call(lambda: arrivals.wrap(card)) is not card  # moving by default
        s.fire(next(c for c in s.find(kind=ft.Semantics) if c.label == t("en", "settings")))
        s.wait_for(lambda: s.find(ident="setting-reduce_motion"), what="the settings")
        switch = next(c for c in walk(s.one(ident="setting-reduce_motion")) if isinstance(c, ft.Switch))
        s.enter(switch, True)  # read when Save is pressed
        s.tap(t("en", "save"))
        s.wait_for(lambda: s.find(t("en", "play_vs_bot")), what="home")
        assert api.get_profile(s.app.storage)[1]["reduce_motion"] is True
        assert s.call(lambda: theme.look().reduce_motion) is True
        assert s.call(lambda: arrivals.wrap(card)) is card  # where it lands, at once
        assert isinstance(s.call(lambda: arrivals.ghost(card, motion.SWEPT)), ft.Container)
        assert s.call(lambda: arrivals.glow()) is None
    finally:
        s.close()


# --- motion read from the engine's events -------------------------------------------------------------

def cards_in_lane(obs: Any, owner: int, lane: int) -> list[str]:
    return [c for stack in obs["players"][owner]["lanes"][lane] for c in stack]


@pytest.mark.parametrize("seed", range(6))
def test_what_flies_off_a_lane_is_what_left_it(seed: int) -> None:
    """Over whole seeded games: every lane the motion flies cards off lost exactly those cards
    (with the jack that took them; L-6 jacks and jokers, L-7.5 disbanding), and no lane that lost
    cards is left out."""
    import random

    rng = random.Random(seed)
    state = LANES.new_game(LANES.parse_options({}), seed, 2)
    seen_removal = False
    while not LANES.is_over(state):
        before = LANES.observe(state, 0)
        state, events = LANES.apply(state, rng.choice(LANES.legal_actions(state)))
        after = LANES.observe(state, 0)
        gone = motion.lanes_removed(events)
        for owner, lane in itertools.product(range(2), range(3)):
            # a multiset: the two decks may hold the same card
            lost = list((Counter(cards_in_lane(before, owner, lane))
                         - Counter(cards_in_lane(after, owner, lane))).elements())
            flown = gone.get((owner, lane), (None, []))[1]
            played = {e["card"] for e in events if e.get("type") == "play" and (e["owner"], e["lane"]) == (owner, lane)}
            # what flies off is what left the lane, plus the jack or joker that took it
            assert sorted(c for c in flown if c not in played) == sorted(lost), (owner, lane, events)
            seen_removal = seen_removal or bool(lost)
        assert motion.lanes_landed(events) <= {(o, ln, s) for o in range(2) for ln in range(3)
                                               for s in range(len(after["players"][o]["lanes"][ln]))}
    assert seen_removal  # every seeded game here has a jack, a joker or a disband


@pytest.mark.parametrize("seed", range(4))
def test_a_lopti_pile_departs_exactly_when_it_leaves_the_table(seed: int) -> None:
    """P-5 clears and P-6 takes: the departure is drawn when, and only when, the pile went away;
    a take slides toward the taker, whose hand grew."""
    import random

    rng = random.Random(seed)
    state = LOPTI.new_game(LOPTI.parse_options({}), seed, 3)
    departures = 0
    while not LOPTI.is_over(state):
        before = LOPTI.observe(state, 0)
        state, events = LOPTI.apply(state, rng.choice(LOPTI.legal_actions(state)))
        after = LOPTI.observe(state, 0)
        departed = motion.lopti_departed(events)
        if departed is None:  # the pile stayed: everything on it before is still on it, in order
            assert after["pile"][:len(before["pile"])] == before["pile"], events
            continue
        departures += 1
        kind, who = departed
        assert not after["pile"] or any(e.get("type") == "play" for e in events[events.index(
            next(e for e in events if e.get("type") == kind)):])
        if kind == "take":
            assert after["players"][who]["hand_size"] > before["players"][who]["hand_size"]
    assert departures > 0


def test_the_spit_slap_names_the_pile_and_who_took_it() -> None:
    assert motion.spit_taken([ev("taken", taken=[1, 0])]) == {1: 0, 0: 1}
    assert motion.spit_taken([ev("taken", taken=[None, 1])]) == {1: 1}
    assert motion.spit_taken([ev("play", pile=0)]) == {}


# --- contrast ----------------------------------------------------------------------------------------

def luminance(colour: str) -> float:
    """WCAG 2.x relative luminance of an ``#RRGGBB`` colour."""
    channels = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


#: every fixed text colour on the surface it is drawn on (the cloth at its lightest, under the lamp,
#: and at its darkest; chips; cards; the coach). Text on a screen's own background uses Material's
#: roles (theme.PAGE_*), which hold AA in light and dark by design.
TEXT_ON = [(fg, bg) for fg in (theme.ON_FELT, theme.ON_FELT_MUTED, theme.LAST_MOVE, theme.RESIGN)
           for bg in (theme.FELT_LIGHT, theme.FELT, theme.FELT_DARK)] + [
    (theme.SELLING, theme.FELT_DARK), (theme.INK, theme.SELLING), (theme.INK, theme.THREES),
    (theme.INK, theme.LOW), (theme.INK, theme.OBLIGATION), (theme.ON_FELT, theme.CARD_BACK),
    (theme.RED, theme.CARD_FACE), (theme.INK, theme.CARD_FACE), (theme.JOKER, theme.CARD_FACE),
    (theme.DIAMONDS_4C, theme.CARD_FACE), (theme.CLUBS_4C, theme.CARD_FACE),
    (theme.INK, theme.COACH_BG), (theme.DANGER, theme.COACH_BG), (theme.HINT, theme.COACH_BG),
    (theme.FELT, theme.COACH_BG)]


@pytest.mark.parametrize(("fg", "bg"), TEXT_ON)
def test_text_on_the_table_meets_wcag_aa(fg: str, bg: str) -> None:
    assert contrast(fg, bg) >= 4.5, (fg, bg, round(contrast(fg, bg), 2))


# --- the end of a game ---------------------------------------------------------------------------------

def test_a_resigned_lanes_game_ends_in_its_result_and_rematch_starts_a_new_one(tmp_path: Path) -> None:
    """L-8: resigning ends the game; the result says who won, why and the lanes sold, and offers
    Rematch (a new game against the same level), Review, Replay and Home."""
    s = open_app(tmp_path)
    try:
        table = lanes_table(s)
        first = table.match.mode.game_id
        s.tap(t("en", "resign"))
        s.wait_for(lambda: len(s.find(t("en", "resign"))) > 1, what="the confirmation")
        s.fire(s.find(t("en", "resign"))[-1])
        s.wait_for(lambda: s.find(ident="result-rematch"), what="the result")
        assert s.shows(t("en", "lost")) and s.shows("You resigned.")
        assert s.shows(t("en", "lanes_sold_score", me=0, them=t("en", "beginner"), other=0))
        for action in ("review", "replay", "home"):
            assert s.find(t("en", action)), action
        s.tap(ident="result-rematch")
        s.wait_for(lambda: s.app.screen is not table and s.find(ident="hand-0"), what="the rematch")
        assert s.app.screen.match.mode.game_id != first and not s.app.screen.match.status.over
    finally:
        s.close()


def test_a_won_spit_game_ends_in_its_result_and_rematch_starts_a_new_one(tmp_path: Path) -> None:
    """S-7.2: the player with no spit cards empties their stocks first and wins the game; the result
    says so, why, and the cards left, and Rematch deals a new game against the same level."""
    from engine.spit import RULES as SPIT
    from engine.spit import SpitOptions

    s = open_app(tmp_path)
    try:
        s.fire(s.find(t("en", "play_vs_bot"))[-1])  # the Spit tile's (home lists Lanes, Lopti, Spit)
        s.tap(t("en", "beginner"))
        s.wait_for(lambda: s.find(ident="stock-0-4"), what="the Spit table")
        table = s.app.screen
        first = live(table.game).game_id
        last_card = {"players": [{"stocks": [[], [], [], [], ["8S"]], "spit": []},
                                 {"stocks": [["2C"], ["3C"], ["4C"], ["5C"], ["JC"]], "spit": ["KC"]}],
                     "piles": [[], ["7D"]], "phase": "play"}  # nothing of the bot's fits the 7
        s.call(lambda: setattr(live(table.game).driver, "state",
                               SPIT.position_from_json(SpitOptions(), last_card)))
        s.tap(ident="stock-0-4")
        s.tap(ident="pile-1")
        s.wait_for(lambda: s.find(ident="result-rematch"), what="the result")
        assert s.shows(t("en", "won")) and s.shows(t("en", "sp_reason_cards"))
        # S-7.1: the bot takes the pile (7♦ and my 8♠) with its five stock cards and its spit card
        assert s.shows(t("en", "sp_result_cards", me=0, them=t("en", "beginner"), other=8))
        s.tap(ident="result-rematch")
        s.wait_for(lambda: s.app.screen is not table and s.find(ident="stock-0-0"), what="the rematch")
        assert live(s.app.screen.game).game_id != first and not state_of(s.app.screen.game).over
    finally:
        s.close()


def said(s: Screen, ident: str) -> str:
    """The words a screen reader says for the lane ``ident`` (its header's label)."""
    return str(next(c.label for c in walk(s.one(ident=ident)) if isinstance(c, ft.Semantics) and c.label))


def test_each_lane_says_its_value_direction_and_sale(tmp_path: Path) -> None:
    """L-5: a lane is read out as its value, direction and suit, "selling" when it sells (L-7.2)."""
    s = open_app(tmp_path)
    try:
        from engine.lanes.actions import Play

        table = lanes_table(s)
        s.wait_text(t("en", "opening"))
        me = table.match.human
        move = next(a for a in table.match.legal() if isinstance(a, Play) and a.owner is None)
        s.tap(ident=f"hand-{table.match.observation['hand'].index(str(move.card))}")
        s.tap(ident=f"lane-{me}-{move.lane}")
        s.wait_for(lambda: table.match.observation["players"][me]["value"][move.lane], what="the card on its lane")
        s.wait_for(lambda: str(table.match.observation["players"][me]["value"][move.lane])
                   in said(s, f"lane-{me}-{move.lane}"), what="the lane's new label")
        obs = table.match.observation
        for lane in range(3):
            label = said(s, f"lane-{me}-{lane}")
            value = obs["players"][me]["value"][lane]
            assert label.startswith(t("en", "lane_said", n=lane + 1, value="")), label
            assert (str(value) in label) if value else label.endswith(t("en", "lane_empty"))
            theirs = said(s, f"lane-{1 - me}-{lane}")
            assert theirs.startswith(t("en", "lane_said_of", who=t("en", "beginner"), n=lane + 1, value=""))
    finally:
        s.close()


def test_a_refresh_that_changes_no_lane_describes_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#44: the lanes are kept parts (``LaneDrawn``): picking a card up changes only the lanes it
    lights (every bed, card and lane button answers taps throughout my turn), so only those are
    described; a refused move that follows changes none (L-3.2: a number card goes on my own
    lanes), so none is, and the refusal is on screen."""
    from engine.lanes.actions import Play
    from views.lanes import table as lanes_module
    from views.ui.reconcile import Parts

    monkeypatch.setattr(App, "new_seed", staticmethod(lambda: 1))  # a deal where I move first
    monkeypatch.setattr(Parts, "check", False)  # (on, every kept part is built as well, to compare)
    built: list[tuple[int, int]] = []
    draw = lanes_module.lane_column

    def counted(d: Any, *rest: Any) -> ft.Control:
        built.append((d.owner, d.lane))
        return draw(d, *rest)

    monkeypatch.setattr(lanes_module, "lane_column", counted)
    s = open_app(tmp_path)
    try:
        table = lanes_table(s)
        s.wait_text(t("en", "opening"))
        opp = 1 - table.match.human
        move = next(a for a in table.match.legal() if isinstance(a, Play) and a.owner is None)
        built.clear()
        s.tap(ident=f"hand-{table.match.observation['hand'].index(str(move.card))}")
        lit = sorted(table.match.targets().lanes)
        assert lit and sorted(built) == [(table.match.human, lane) for lane in lit]
        built.clear()
        s.tap(ident=f"lane-{opp}-0")
        assert table.match.refusal is not None and table.match.selected is not None
        assert built == []
        s.wait_text(t("en", "not_possible", why="").split(":")[0])
    finally:
        s.close()


def test_every_lane_answers_taps_on_my_turn_and_one_tapped_before_a_card_says_to_pick_one(tmp_path: Path) -> None:
    """#44: a lane's bed and cards, and my lanes' buttons (a keyboard's way onto an empty lane),
    answer taps throughout my turn, so picking a card up never adds or takes away a tap (Flutter's
    web semantics drops the identifier of a node whose tap comes or goes in place). A lane tapped
    with no card picked up says to pick one first and plays nothing."""
    from engine.lanes.actions import Play

    def beds(ident: str) -> int:  # the bed is the lane's control that fills its column and answers taps
        node = s.one(ident=ident)
        return s.call(lambda: sum(getattr(c, "on_click", None) is not None and bool(getattr(c, "expand", False))
                                  for c in walk(node)))

    def buttons() -> list[bool]:
        nodes = [s.one(ident=f"my-lane-{lane}") for lane in range(3)]
        return s.call(lambda: [any(getattr(c, "on_click", None) is not None for c in walk(n)) for n in nodes])

    s = open_app(tmp_path)
    try:
        table = lanes_table(s)
        s.wait_text(t("en", "opening"))
        me, opp = table.match.human, 1 - table.match.human
        lanes = [f"lane-{o}-{lane}" for o in (me, opp) for lane in range(3)]
        assert [beds(ident) for ident in lanes] == [1] * 6 and buttons() == [True] * 3
        seen = s.call(lambda: repr(table.match.observation))
        s.tap(ident=f"lane-{opp}-1")
        assert table.match.refusal is not None and table.match.refusal.key == "no_card"
        s.wait_text(t("en", "why_no_card"))
        assert table.match.selected is None and s.call(lambda: repr(table.match.observation)) == seen
        move = next(a for a in table.match.legal() if isinstance(a, Play) and a.owner is None)
        s.tap(ident=f"hand-{table.match.observation['hand'].index(str(move.card))}")
        s.wait_text(t("en", "pick_target"))
        assert [beds(ident) for ident in lanes] == [1] * 6 and buttons() == [True] * 3
    finally:
        s.close()


def test_a_new_deal_arrives_from_the_deck_until_the_first_move() -> None:
    """A deal nobody has moved in comes in card after card, each growing in at its own place; once
    a move's events arrive the hand is drawn plainly again (and a move's own motions take over). A
    drawn card slides down into its place. Only pictures move (``card_face(moving=…)``)."""
    arrivals = motion.Arrivals()
    arrivals.deal()
    first = [arrivals.hand_card(i, 8, drawn=False) for i in range(8)]
    assert all(m is not None and m.opacity == 0.0 and m.scale == motion.DEALT_SCALE and m.rise == 0.0
               for m in first)
    durations = [m.grow.duration for m in first if m is not None and isinstance(m.grow.duration, int)]
    assert len(durations) == 8  # milliseconds, as motion.py gives them
    assert durations == sorted(durations) and max(durations) <= motion.DURATION_MS + 60
    arrivals.arriving = False  # what settle() does after the first frame went out
    assert all((m := arrivals.hand_card(i, 8, drawn=False)) is not None and m.opacity == 1.0 and m.scale == 1.0
               for i in range(8))
    arrivals.fresh([ev("play")])
    assert arrivals.hand_card(0, 8, drawn=False) == motion.RESTING
    slid = arrivals.hand_card(7, 8, drawn=True)
    assert slid is not None and slid.rise < 0 and slid.opacity < 1  # above its place, faded in as it comes
    arrivals.arriving = False
    assert arrivals.hand_card(7, 8, drawn=True) == replace(motion.RESTING, grow=slid.grow, fade=slid.fade,
                                                             slide=slid.slide)  # at its place, at the slide's pace


def test_a_closed_sessions_look_is_let_go() -> None:
    """The looks are held per session, weakly: a browser tab that closed leaves nothing behind in
    a server that runs for weeks (#43: keyed by the session's id, every session stayed)."""
    import gc

    class Session:
        pass

    class Page:
        def __init__(self) -> None:
            self.session = Session()

    marked = theme.Look(lang="closed-session")  # no other session has this look
    page = Page()
    theme.set_look(page, marked)  # type: ignore[arg-type]
    assert theme._LOOKS.get(page.session) == marked  # type: ignore[call-overload]
    del page
    gc.collect()
    assert marked not in list(theme._LOOKS.values())


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_a_card_the_coach_lights_in_my_hand_is_said_as_suggested(tmp_path: Path, lang: str) -> None:
    """#47: the coach lights the card a lesson's step is about (lanes-3-suit: the 5♠), drawn like a
    target; a screen reader heard "the selected card can go here" on a card in my own hand. It
    says "suggested" now, and no hand card says it is a place to put a card."""
    s = open_app(tmp_path, lang)
    try:
        s.go("/lesson/lanes-3-suit")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the lesson's table")
        hand = s.call(lambda: list(s.app.screen.match.observation["hand"]))
        labels = [s.one(ident=f"hand-{i}").label for i in range(len(hand))]
        assert labels[hand.index("5S")] == t(lang, "said_suggested", what=card_name(lang, "5S"))
        place = t(lang, "said_target", what="")
        assert not any(label.endswith(place) for label in labels), labels
    finally:
        s.close()
