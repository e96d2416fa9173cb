"""What a newcomer trips on in the first minutes (#42), each checked on the real app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft
import pytest

from tests.views.screen import walk
from tests.views.test_lanes_controller import stored_mid_game
from tests.views.test_screens import open_at
from views.app import App
from views.table import motion
from views.table.lessons import lessons
from views.ui import sizing
from views.ui.i18n import card_name, t
from views.ui.widgets import BACK_SRC


@pytest.mark.parametrize("game", ["lanes", "lopti"])
def test_a_lesson_shows_one_hint_button_the_coachs(tmp_path: Path, game: str) -> None:
    lesson = lessons()[game][0]
    s = open_at(tmp_path, f"/lesson/{lesson.id}")
    try:
        s.wait_for(lambda: s.find(ident="coach-text"), what="the coach panel")
        assert len(s.find(t("en", "hint"))) == 1
    finally:
        s.close()


def test_a_game_against_a_bot_keeps_its_hint_button(tmp_path: Path) -> None:
    s = open_at(tmp_path, "/lanes/new")
    try:
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the table")
        assert len(s.find(t("en", "hint"))) == 1
    finally:
        s.close()


@pytest.mark.parametrize("route", ["/lanes/new", "/"])
def test_the_dealt_hand_lies_where_it_will_rest_from_its_first_frame(tmp_path: Path, route: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """#42 item 9: cards that flew in from the deck took the taps meant for the cards they passed
    over. Now each dealt card appears at its own place: in the deal's first frame no card of the
    hand is moved off it (no offset), so a tap during the deal selects the card under the finger.
    #47: only the pictures arrive (faded, small); each card's box — what is tapped, focused and
    read — is at rest under nothing that moves, fades or scales, so a screen reader meets every
    card in its place from the first frame. Lanes, and Lopti from home."""
    monkeypatch.setattr(App, "new_seed", staticmethod(lambda: 1))  # a deal where I move first
    first_frames: list[list[Any]] = []
    settle = motion.Arrivals.settle

    def spy(self: motion.Arrivals, page: Any, redraw: Any) -> None:  # the frame that just went out
        if self.dealing and self.arriving:
            first_frames.append(list(walk(redraw.__self__.root)))
        settle(self, page, redraw)

    monkeypatch.setattr(motion.Arrivals, "settle", spy)
    s = open_at(tmp_path, route)
    try:
        s.tap("Beginner" if route == "/lanes/new" else t("en", "players_n", n=2))
        s.wait_for(lambda: first_frames, what="the deal's first frame")
        frame = first_frames[0]
        hand = [c for c in frame if str(getattr(c, "identifier", "")).startswith("hand-")]
        assert len(hand) >= 3
        moved = [c for c in frame if getattr(c, "offset", None) not in (None, ft.Offset(0, 0))
                 and any(h in hand for h in walk(c))]
        over_boxes = [c for c in frame if not at_rest(c) and any(h in hand for h in walk(c))]
        faded = [h for h in hand if any(getattr(c, "opacity", None) == 0.0 for c in walk(h))]
        assert len(faded) == len(hand), "the deal should still be drawn arriving"
        assert not moved, f"{len(moved)} dealt cards start away from their place"
        assert not over_boxes, "a dealt card's box moves with its picture"
        table = s.app.screen
        assert s.call(lambda: table.match.my_turn and table.match.observation["ply"] == 0)
        tapped = s.one(ident="hand-2").label  # the card drawn at that place, by its spoken name
        s.tap(ident="hand-2")
        chosen = s.call(lambda: table.match.selected)
        # the label is the name, then what the card shows ("…, cannot be played now")
        assert tapped.startswith(card_name("en", str(chosen[0] if isinstance(chosen, list) else chosen)))
    finally:
        s.close()


def at_rest(control: Any) -> bool:
    """Not moved, faded or scaled (what lies under it is drawn where it stands)."""
    return (getattr(control, "offset", None) in (None, ft.Offset(0, 0)) and getattr(control, "opacity", 1.0) == 1.0
            and getattr(control, "scale", None) in (None, 1.0))


def test_a_drawn_card_slides_in_while_its_box_waits_at_its_place(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """#47: the card I draw slides down into my hand; its picture moves, its box does not — a
    screen reader or Tab meets it in its place while it slides (the page orders cards by where
    their boxes are drawn)."""
    game_id, _ = stored_mid_game(tmp_path / "app.sqlite")
    frames: list[list[Any]] = []
    settle = motion.Arrivals.settle

    def spy(self: motion.Arrivals, page: Any, redraw: Any) -> None:
        if self.arriving and not self.dealing:
            frames.append(list(walk(redraw.__self__.root)))
        settle(self, page, redraw)

    monkeypatch.setattr(motion.Arrivals, "settle", spy)
    s = open_at(tmp_path, f"/play/{game_id}")
    try:
        s.wait_for(lambda: s.find(ident="hand-0"), what="my hand")
        table = s.app.screen
        card = s.call(lambda: min(str(c) for c in table.match.playable_cards()))
        hand = s.call(lambda: list(table.match.observation["hand"]))
        s.tap(ident=f"hand-{hand.index(card)}")
        s.tap(t("en", "discard"))

        def sliding() -> list[Any]:  # hand cards whose picture is above its place, in a first frame
            return [(h, f) for f in frames for h in f if str(getattr(h, "identifier", "")).startswith("hand-")
                    and any(getattr(c, "offset", None) not in (None, ft.Offset(0, 0)) for c in walk(h))]

        s.wait_for(sliding, what="the drawn card's first frame")
        node, frame = sliding()[0]
        assert all(at_rest(c) for c in frame if node in walk(c) and c is not node), "its box moved with it"
    finally:
        s.close()


def test_disbanding_a_lane_asks_first(tmp_path: Path) -> None:
    """#42 item 7, L-4.3: "Disband" under a lane throws the whole lane away, so a tap on it asks
    first; Cancel keeps the lane, the dialog's Disband empties it."""
    game_id, lanes = stored_mid_game(tmp_path / "app.sqlite")
    lane = min(lanes)
    s = open_at(tmp_path, f"/play/{game_id}")
    try:
        s.wait_for(lambda: s.find(ident=f"disband-{lane}"), what="the Disband button")
        table = s.app.screen
        cards = s.call(lambda: list(table.match.observation["players"][0]["lanes"][lane]))
        assert cards
        s.tap(ident=f"disband-{lane}")
        assert s.dialog_shown(), "one tap disbanded without asking"
        assert s.shows(t("en", "disband_confirm", n=lane + 1))
        s.tap(t("en", "cancel"))
        assert not s.dialog_shown()
        assert s.call(lambda: list(table.match.observation["players"][0]["lanes"][lane])) == cards
        s.tap(ident=f"disband-{lane}")
        s.tap(ident="disband-confirm")
        s.wait_for(lambda: not table.match.observation["players"][0]["lanes"][lane], what="the lane disbanded")
    finally:
        s.close()


def test_my_lopti_seat_is_named_you(tmp_path: Path) -> None:
    """#42 item 10: the other seats carry their names; mine says "You" and is lit on my turn."""
    s = open_at(tmp_path, "/")
    try:
        s.tap(t("en", "players_n", n=3))
        s.wait_for(lambda: s.find(ident="seat-me"), what="my seat")
        mine = s.one(ident="seat-me")
        said = [w for c in walk(mine) if (w := getattr(c, "value", None)) and isinstance(w, str)]
        assert t("en", "you") in said
    finally:
        s.close()


def test_a_card_with_nowhere_to_go_says_why_when_picked_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#42 item 6, L-3.2: during the opening a face card lights nothing and cannot be discarded;
    picking it up says the engine's reason at once, not the usual "tap a highlighted lane"."""
    monkeypatch.setattr(App, "new_seed", staticmethod(lambda: 1))  # I open, holding a face card
    s = open_at(tmp_path, "/lanes/new")
    try:
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the table")
        table = s.app.screen
        hand = s.call(lambda: list(table.match.observation["hand"]))
        face = next(i for i, c in enumerate(hand) if c[:-1] in ("J", "Q", "K") or c == "JK")
        number = next(i for i, c in enumerate(hand) if c[:-1] not in ("J", "Q", "K") and c != "JK")
        s.tap(ident=f"hand-{face}")
        reason = t("en", "not_possible", why=t("en", "why_opening_no_face"))
        assert s.shows(reason), s.texts()
        assert not s.shows(t("en", "pick_target"))
        s.tap(ident=f"hand-{number}")  # a card that can go somewhere: the usual prompt
        assert s.shows(t("en", "pick_target")) and not s.shows(reason)
    finally:
        s.close()


def test_the_quick_lopti_tables_bots_are_the_level_chosen_and_remembered(tmp_path: Path) -> None:
    """#42 item 8: home's "3 players" started at once against a fixed mix of bots; the level is now
    chosen on the Lopti tile (every seat, or the mixed table) and remembered for the next visit."""
    s = open_at(tmp_path, "/")
    try:
        dd = s.one(ident="lopti-bots").content
        assert s.call(lambda: dd.value) == "mixed"
        s.enter(dd, "expert")
        s.fire(dd, "select", "expert")
        s.tap(t("en", "players_n", n=3))
        s.wait_for(lambda: s.find(ident="seat-me"), what="the Lopti table")
        assert s.call(lambda: list(s.app.screen.match.levels)) == ["person", "expert", "expert"]
    finally:
        s.close()
    s = open_at(tmp_path, "/")  # the app opened again: the choice stayed
    try:
        again = s.one(ident="lopti-bots").content
        assert s.call(lambda: again.value) == "expert"
    finally:
        s.close()


def test_a_mixed_table_keeps_its_spread_of_levels() -> None:
    from views.ui.prefs import Prefs

    assert Prefs.from_settings({}).lopti_levels(4) == ["expert", "casual", "skilled"]
    assert Prefs.from_settings({"lopti_bots": "beginner"}).lopti_levels(3) == ["beginner", "beginner"]
    assert Prefs.from_settings({"lopti_bots": "cheater"}).lopti_bots == "mixed"  # a damaged setting


def test_lopti_draws_its_deck_and_pile_as_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#42 item 4: the draw deck is a card back with its count (P-3.5), the pile an outlined place
    while empty, then its plays as cards with how many it holds; not "Empty table / Draw 25"."""
    monkeypatch.setattr(App, "new_seed", staticmethod(lambda: 1))
    s = open_at(tmp_path, "/")
    try:
        s.tap(t("en", "players_n", n=3))
        s.wait_for(lambda: s.find(ident="lopti-deck"), what="the Lopti table")
        table = s.app.screen
        obs = s.call(lambda: table.match.observation)
        deck = list(walk(s.one(ident="lopti-deck")))
        assert any(isinstance(c, ft.Image) and c.src == BACK_SRC for c in deck)
        assert any(getattr(c, "value", None) == str(obs["draw_size"]) for c in deck)
        pile = s.one(ident="lopti-pile")
        assert t("en", "lp_pile_n", n=0) in [getattr(c, "value", None) for c in walk(pile)]
        s.tap(t("en", "keep"))
        m = table.match
        s.wait_for(lambda: m.observation["pile"] or (m.my_turn and m.phase == "play"), what="play", timeout=30)
        if not s.call(lambda: m.observation["pile"]):  # I lead: my lowest card goes on the pile
            s.tap(ident="hand-0")
            s.tap(t("en", "play") + " (1)")
        s.wait_for(lambda: table.match.observation["pile"], what="a play on the pile", timeout=30)
        obs = s.call(lambda: table.match.observation)
        faces = {c.src for c in walk(s.one(ident="lopti-pile")) if isinstance(c, ft.Image)}
        assert {f"cards/classic/{c}.svg" for c in obs["pile"][-1]} <= faces
    finally:
        s.close()


def test_spit_draws_each_players_spit_deck_beside_the_piles(tmp_path: Path) -> None:
    """#42 item 4: each player's spit deck (S-2) lies beside the centre piles as a card back with
    its count."""
    s = open_at(tmp_path, "/spit/new")
    try:
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="spit-deck-0"), what="the Spit table")
        obs = s.call(lambda: s.app.screen.game.observation)
        for player in (0, 1):
            deck = list(walk(s.one(ident=f"spit-deck-{player}")))
            assert any(isinstance(c, ft.Image) and c.src == BACK_SRC for c in deck)
            assert str(obs["players"][player]["spit_count"]) in [getattr(c, "value", None) for c in deck]
    finally:
        s.close()


@pytest.mark.parametrize(("small", "large"), [((360, 640), (390, 844)), ((390, 844), (800, 1280))])
def test_cards_grow_with_the_screen(small: tuple[int, int], large: tuple[int, int]) -> None:
    """#42 item 5: a taller screen draws bigger cards on every table; the smallest phone keeps
    every tapped card a finger wide."""
    a, b = sizing.lanes(*small), sizing.lanes(*large)
    assert b.hand[1] >= a.hand[1] and b.lane[1] > a.lane[1]
    assert sizing.lopti(*large).pile[1] > sizing.lopti(*small).pile[1]
    assert sizing.lopti(*large).hand[1] >= sizing.lopti(*small).hand[1]
    assert sizing.spit(*large).stock[1] > sizing.spit(*small).stock[1]
    for size in (small, large):
        assert min(sizing.lanes(*size).lane[0], sizing.lopti(*size).table[0], sizing.spit(*size).stock[0]) >= 44
        assert sizing.lanes(*size).hand[0] >= 44


def test_long_lanes_close_their_step_before_the_cards_shrink() -> None:
    """#42 item 5: lanes sized for three cards; a longer lane overlaps its cards more (down to a
    strip that still shows the index) instead of pushing the hand off the screen."""
    short, long = sizing.lanes(390, 844, 2), sizing.lanes(390, 844, 10)
    assert short.lane[:2] == long.lane[:2] and long.lane[2] < short.lane[2]
    assert long.lane[2] >= sizing.MIN_STEP


def test_the_lanes_table_fills_the_height_on_a_tall_phone(tmp_path: Path) -> None:
    """#42 item 5: at 390×844 the lanes' beds take the height the cards leave (they expand) and
    the lane cards are the viewport's size, not a fixed phone size."""
    s = open_at(tmp_path, "/lanes/new")
    try:
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the table")
        table = s.app.screen
        assert s.call(lambda: table.lane_card) == sizing.lanes(390, 844).lane
        beds = [c for c in s.controls() if str(getattr(c, "identifier", "")).startswith("lane-")
                and str(c.identifier).count("-") == 2]
        assert len(beds) == 6 and all(c.expand for c in beds)
    finally:
        s.close()


def test_a_theme_is_shown_at_once_never_faded_in(tmp_path: Path) -> None:
    """#44: Flutter fades a changed theme over 200 ms, drawing every screen again in each frame;
    the client rebuilt the app's theme just after the home first showed, so a newcomer's first tap
    waited for the fade. The page asks for no theme motion, from the start and after a change of
    language (which sets the theme anew)."""
    s = open_at(tmp_path, "/")
    try:
        for lang in ("en", "ar"):
            if lang != "en":
                s.app.settings["language"] = lang
                s.call(s.app.apply_language)
            style = s.page.theme_animation_style
            assert style is not None and style.duration == ft.Duration() and style.reverse_duration == ft.Duration()
            assert s.page.theme is not None  # the app's theme is still there, only not faded
    finally:
        s.close()


def test_a_lanes_table_s_first_drawing_stays_light(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#44: the open path waits on what the table sends (Flet diffs every new control; the client
    parses and lays out every byte). What opening the Lanes table sends, dealt from seed 1, was 30.2 KB
    (194 controls); one number for four equal corners, a dragged card drawn as its bare face and one
    wrapper less per hand card made it 24.7 KB (186). This fails when it grows back by a tenth."""
    monkeypatch.setattr(App, "new_seed", staticmethod(lambda: 1))
    s = open_at(tmp_path, "/lanes/new")
    try:
        before = s.conn.bytes_sent
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the Lanes table")
        sent = s.conn.bytes_sent - before
        assert 10_000 < sent < 24_700 * 1.1, sent
    finally:
        s.close()


def loaded_ahead_on(s: Any) -> list[str]:
    """The pictures the screen lays out unseen for what comes next (views/ui/widgets.loaded_ahead)."""
    return [c.src for c in s.find(kind=ft.Image) if c.opacity == 0 and c.width == 1]


def test_the_home_loads_the_coming_deals_first_pictures_and_that_deal_is_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#44: a table's first frame waited on its card pictures, which the client asked for only once
    it had built the table. The home lays out the coming Lanes deal's hand and the decks' back
    unseen, so the client has them by the time that deal is on the table; the seed it looked ahead
    at is the next game's whichever game starts, so ``--seed N`` still deals N, N+1, … in order —
    also after a session that looked ahead and never dealt (a screenshot set's first viewport)."""
    from storage import api
    from views import app

    monkeypatch.setattr(app, "_seeds", {})
    monkeypatch.setenv("CARDTABLE_SEED", "7")
    glance = open_at(tmp_path, "/", db="glance.sqlite")
    try:
        glance.wait_for(lambda: loaded_ahead_on(glance), what="the first session's look ahead")
    finally:
        glance.close()
    s = open_at(tmp_path, "/")
    try:
        s.wait_for(lambda: loaded_ahead_on(s), what="the pictures loaded ahead")
        ahead = loaded_ahead_on(s)
        s.tap("Play against a bot")
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the table")
        table = s.app.screen
        hand = s.call(lambda: table.match.observation["hand"])
        assert ahead == [BACK_SRC, *(f"cards/classic/{card}.svg" for card in hand)]
        assert api.load_game(s.app.storage, table.match.mode.game_id).seed == 7
        s.go("/")
        s.wait_for(lambda: loaded_ahead_on(s) and loaded_ahead_on(s) != ahead, what="the next deal's pictures")
        s.go("/spit/new")
        s.tap("Beginner")
        s.wait_for(lambda: s.app.route.startswith("/play/") and s.app.route != f"/play/{table.match.mode.game_id}",
                   what="the Spit table")
        assert api.load_game(s.app.storage, int(s.app.route.rsplit("/", 1)[1])).seed == 8
    finally:
        s.close()



@pytest.mark.parametrize("points", [False, True])
def test_spits_opponent_screen_loads_the_coming_rounds_stock_tops(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, points: bool) -> None:
    """A Spit table waited, before its first frame, on decoding the ten stock tops it shows at once
    (#44, docs/app.md). The opponent screen lays out, unseen, the coming round's faces that are
    up from the start (S-2.2: each stock's top card, both sides) and the backs, in the points game too
    (S-8), and nothing of what the player cannot see (S-2.3: the spit cards lie face down)."""
    from engine.spit import RULES

    monkeypatch.setattr(App, "new_seed", staticmethod(lambda: 5))
    monkeypatch.setattr(App, "coming_seed", lambda self: 5)
    s = open_at(tmp_path, "/spit/new")
    try:
        if points:
            s.call(lambda: setattr(s.app.drafts, "spit_points", True))
            s.go("/")
            s.go("/spit/new")
        s.wait_for(lambda: loaded_ahead_on(s), what="the pictures loaded ahead")
        ahead = loaded_ahead_on(s)
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="stock-0-0"), what="the Spit table")
        state = s.call(lambda: s.app.screen.game.state)
        assert state.scoring == ("points" if points else "standard")
        tops = [card for side in RULES.observe(state, 0)["players"] for card in side["stock_tops"]]
        assert len(tops) == 10 and all(tops)
        assert ahead == [BACK_SRC, *dict.fromkeys(f"cards/classic/{card}.svg" for card in tops)]
        shown = {c.src for c in s.find(kind=ft.Image) if c.width != 1}
        assert set(ahead) <= shown  # each picture loaded ahead is one the table draws
    finally:
        s.close()
