"""Fast screen tests of the real app (no browser): the real controls on a real Flet session with a
stand-in connection (tests/views/screen.py), tapped through Flet's own event path."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from engine.lanes import VARIANTS
from storage import api
from tests.views.modes import live, local, online_seat, state_of
from tests.views.screen import Screen, walk
from views.app import start
from views.host import Host
from views.ui import theme
from views.ui.i18n import counted, t


@pytest.fixture
def screen(tmp_path: Path) -> Iterator[Screen]:
    s = Screen(tmp_path / "app.sqlite", start)
    yield s
    s.close()


def variant_boxes(screen: Screen) -> list[ft.Checkbox]:
    return [c for c in screen.find(kind=ft.Checkbox) if str(c.label).startswith(tuple(
        t("en", f"variant_{v}") for v in VARIANTS))]


def open_house_rules(screen: Screen) -> list[ft.Checkbox]:
    """The house rules' list opened as the client does (``expanded`` set, then the change): its
    toggles are built then, and only then."""
    tile = screen.one(kind=ft.ExpansionTile)
    screen.call(lambda: screen.session.apply_patch(tile._i, {"expanded": True}))
    screen.fire(tile, "change", True)
    screen.wait_for(lambda: variant_boxes(screen), what="the house rules' toggles")
    return variant_boxes(screen)


def test_lanes_new_game_offers_the_house_rules_and_the_rated_badge(screen: Screen) -> None:
    """L-9 house rules and the L-8.5 rated-rules badge are on the Lanes opponent screen."""
    buttons = screen.find("Play against a bot")
    screen.fire(buttons[0])  # the Lanes tile comes first
    screen.wait_text(t("en", "choose_level"))
    assert screen.shows(t("en", "rated_rules"))
    assert not variant_boxes(screen)  # built when the list is opened (#44)
    assert len(open_house_rules(screen)) == len(VARIANTS)


def test_spit_new_game_has_no_lanes_house_rules(screen: Screen) -> None:
    buttons = screen.find("Play against a bot")
    screen.fire(buttons[-1])  # the Spit tile comes last
    screen.wait_text(t("en", "sp_split"))
    assert not variant_boxes(screen)
    assert not screen.shows(t("en", "rated_rules"))


def test_a_house_rule_toggled_on_makes_the_game_friendly_and_is_played(screen: Screen) -> None:
    """L-8.5: any L-9 rule on makes the game friendly (never rated); the table uses it."""
    screen.fire(screen.find("Play against a bot")[0])
    screen.wait_text(t("en", "rated_rules"))
    box = next(b for b in open_house_rules(screen) if b.label == t("en", "variant_quick_sell"))
    screen.toggle(box, True)
    screen.wait_text("Friendly game: 1 house rule")  # one rule, said in the singular
    screen.tap("Beginner")
    screen.wait_for(lambda: screen.find(ident="hand-0"), what="the Lanes table")
    games = api.games_in_progress(screen.app.storage)
    assert games and games[0].options["variants"] == ["quick_sell"]


def test_background_pauses_the_spit_clock_and_return_resumes_it(screen: Screen) -> None:
    """The app in the background freezes Spit's game time (no move falls due, the bot waits);
    coming back resumes exactly where it stopped (docs/app.md, Background)."""
    from views.spit.table import SpitTable

    screen.fire(screen.find("Play against a bot")[-1])
    screen.tap("Beginner")
    table = screen.wait_for(lambda: isinstance(screen.app.screen, SpitTable) and screen.app.screen, what="Spit")
    screen.fire(screen.page, "app_lifecycle_state_change", {"state": "hide"})
    assert screen.app.paused and table.paused_at is not None
    frozen = table.now()
    time.sleep(0.05)
    assert table.now() == frozen
    screen.fire(screen.page, "app_lifecycle_state_change", {"state": "resume"})
    assert not screen.app.paused and table.paused_at is None
    assert frozen <= table.now() < frozen + 0.5  # the background time is not game time


def test_a_tap_on_a_hand_card_updates_the_table_in_place(screen: Screen) -> None:
    """Selecting a card changes the controls already on screen (same identity on the client) and
    sends a small patch, not the table (docs/app.md, One way to update the screen): Flet diffs the
    few controls that changed, never the whole page (which costs the server ~9 ms a tap)."""
    screen.fire(screen.find("Play against a bot")[0])
    screen.tap("Beginner")
    screen.wait_for(lambda: screen.find(ident="hand-0"), what="the Lanes table")
    screen.wait_text(t("en", "opening"))  # our move (the bot may have opened)
    time.sleep(0.3)  # the arrival's second frame, if the bot moved
    hand = screen.call(lambda: list(screen.app.screen.match.observation["hand"]))
    number = next(i for i, c in enumerate(hand) if c[:-1] not in ("J", "Q", "K") and c != "JK")  # it has targets
    before = screen.find(ident=f"hand-{number}")[0]
    table_bytes = screen.conn.bytes_sent
    sent = screen.conn.bytes_sent
    diffed: list[str] = []
    diff = screen.session.patch_control

    def counted(control: ft.BaseControl, *args: Any, **kwargs: Any) -> None:
        diffed.append(type(control).__name__)
        diff(control, *args, **kwargs)

    screen.session.patch_control = counted  # type: ignore[method-assign]
    screen.tap(ident=f"hand-{number}")
    screen.wait_text(t("en", "pick_target"))
    tap_bytes = screen.conn.bytes_sent - sent
    assert screen.find(ident=f"hand-{number}")[0] is before
    assert 0 < tap_bytes < table_bytes / 10, (tap_bytes, table_bytes)
    assert diffed and "Page" not in diffed and "View" not in diffed, diffed


# --- every screen, by route and by tapping -------------------------------------------------------

def test_home_offers_every_game_and_the_top_bar(screen: Screen) -> None:
    for game in ("lanes", "lopti", "spit"):
        assert screen.shows(t("en", game)) and screen.shows(t("en", f"{game}_blurb"))
    labels = {c.label for c in screen.find(kind=ft.Semantics)}
    assert {t("en", k) for k in ("learn", "online", "stats", "settings")} <= labels
    assert len(screen.find("Play against a bot")) == 2 and screen.find(t("en", "lopti_table_setup"))


def route_is(s: Screen, route: str) -> Callable[[], bool]:
    return lambda: s.page.route == route


def dialog_says(s: Screen, start: str) -> Callable[[], bool]:
    return lambda: s.dialog_shown() and any(w.startswith(start) for w in s.texts())


def open_at(tmp_path: Path, route: str, db: str = "app.sqlite") -> Screen:
    return Screen(tmp_path / db, start, route=route)


@pytest.mark.parametrize(("route", "ident", "words"), [
    ("/lopti/new", "first-out-ends", "first_out_ends"), ("/settings", "setting-spectators", "ol_spectators_setting"),
    ("/settings", "setting-reduce_motion", "reduce_motion")])
def test_a_switch_keeps_its_words_on_a_small_phone(tmp_path: Path, route: str, ident: str, words: str) -> None:
    """P-7.4's switch and the settings': Flet lays a switch's label out at its full width beside it,
    and long words ran off a 360-px phone; they are given the room left beside the switch, and wrap
    there. They stay the switch's own label (a tap on them flips it; a screen reader names it by them)."""
    s = Screen(tmp_path / "app.sqlite", start, route=route, size=(360, 640))
    try:
        switch = next(c for c in walk(s.wait_for(lambda: s.find(ident=ident), what=ident)[0])
                      if isinstance(c, ft.Switch))
        assert isinstance(switch.label, ft.Container)
        assert isinstance(switch.label.content, ft.Text) and switch.label.content.value == t("en", words)
        width = switch.label.width
        assert width is not None and theme.SPACE_WIDE + theme.SWITCH_WIDTH + width + theme.SPACE_WIDE <= 360
    finally:
        s.close()


def test_the_settings_keep_to_a_column_on_a_desktop_and_their_switches_words_to_it(tmp_path: Path) -> None:
    """A desktop's settings ran 1,250 px across; the form keeps to ``NARROW_COLUMNS`` (half of a
    1280-px page), and the switches' words, sized for the form's column and not the whole page,
    wrap inside it (sized by the page, right to left they ran off the column out of sight)."""
    s = Screen(tmp_path / "app.sqlite", start, route="/settings", size=(1280, 800))
    try:
        s.wait_for(lambda: s.find(ident="setting-reduce_motion"), what="the settings")
        row = next(c for c in s.controls() if isinstance(c, ft.ResponsiveRow))
        assert len(row.controls) == 1 and row.controls[0].col == theme.NARROW_COLUMNS
        column = (1280 - 2 * theme.PAD) * 6 / 12
        for ident in ("setting-reduce_motion", "setting-spectators"):
            switch = next(c for c in walk(s.one(ident=ident)) if isinstance(c, ft.Switch))
            assert isinstance(switch.label, ft.Container) and switch.label.width is not None
            assert column / 2 < theme.SWITCH_WIDTH + switch.label.width <= column
    finally:
        s.close()


def test_the_rules_keep_to_a_readable_column_on_a_desktop(tmp_path: Path) -> None:
    """A rule's line ran 1,100 px across a desktop; the rules page keeps to ``NARROW_COLUMNS``."""
    s = Screen(tmp_path / "app.sqlite", start, route="/rules/lanes", size=(1280, 800))
    try:
        s.wait_text("L-1.1")
        row = next(c for c in s.controls() if isinstance(c, ft.ResponsiveRow))
        assert len(row.controls) == 1 and row.controls[0].col == theme.NARROW_COLUMNS
        assert "L-8.2" in [c.value for c in walk(row.controls[0]) if isinstance(c, ft.Text)]
    finally:
        s.close()


@pytest.mark.parametrize(("page", "form"), [(360, 360), (767, 767), (768, 736 * 8 / 12 + 32), (1199, 810), (1200, 616)])
def test_a_form_takes_the_whole_phone_and_part_of_a_wider_page(page: int, form: float) -> None:
    """``theme.narrow_width``: the page a form's column makes, at Flet's breakpoints (md 768, xl 1200)."""
    assert theme.narrow_width(page) == pytest.approx(form)
    assert theme.narrow_width(None) is None


def test_deep_links_open_their_screen_and_a_bad_one_says_so(tmp_path: Path) -> None:
    s = open_at(tmp_path, "/lanes/new")
    try:
        assert s.shows(t("en", "rated_rules")) and [v.route for v in s.page.views] == ["/", "/lanes/new"]
    finally:
        s.close()
    for bad in ("/nowhere", "/play/999", "/lesson/no-such-lesson", "/rules/poker", "/play/" + "9" * 40):
        s = open_at(tmp_path, bad)
        try:
            s.wait_text(t("en", "no_such_screen"))
            s.wait_for(route_is(s, "/"), what="home after a bad link")
        finally:
            s.close()


def test_back_by_escape_by_android_and_by_the_arrow_goes_to_the_routes_parent(screen: Screen) -> None:
    screen.fire(screen.find("Play against a bot")[0])
    screen.wait_for(lambda: screen.page.route == "/lanes/new")
    screen.fire(screen.page, "keyboard_event", {"key": "Escape", "shift": False, "ctrl": False, "alt": False,
                                                "meta": False})
    screen.wait_for(lambda: screen.page.route == "/", what="home after Escape")
    screen.fire(next(c for c in screen.find(kind=ft.Semantics) if c.label == t("en", "stats")))
    screen.wait_for(lambda: screen.page.route == "/stats")
    screen.fire(screen.page, "view_pop", {"route": "/stats"})  # Android's back button
    screen.wait_for(lambda: screen.page.route == "/", what="home after Android back")
    screen.go("/learn/spit")
    screen.wait_for(lambda: screen.find(ident="lesson-spit-1-basics") or screen.shows(t("en", "lessons")))
    screen.fire(next(c for c in screen.find(kind=ft.Semantics) if c.label == t("en", "back")))  # the arrow
    screen.wait_for(lambda: screen.page.route == "/", what="home after the arrow")
    assert not screen.call(screen.app.back)  # on home, back leaves the app (Android)


def test_a_lesson_opens_on_its_table_and_back_returns_to_its_lessons(screen: Screen) -> None:
    from views.table.lessons import lessons

    first = lessons()["lanes"][0]
    screen.go("/learn")
    screen.wait_for(lambda: screen.find(ident=f"lesson-{first.id}"), what="the lessons list")
    screen.tap(ident=f"lesson-{first.id}")
    screen.wait_for(lambda: screen.find(ident="coach-text"), what="the coach panel")
    assert screen.page.route == f"/lesson/{first.id}" and screen.shows(first.title["en"])
    screen.call(screen.app.back)
    screen.wait_for(lambda: screen.page.route == "/learn/lanes", what="back to the Lanes lessons")


def test_settings_save_the_language_and_the_app_comes_back_in_arabic(screen: Screen) -> None:
    screen.go("/settings")
    screen.wait_text(t("en", "save"))
    language = next(d for d in screen.find(kind=ft.Dropdown) if d.label == t("en", "language"))
    screen.enter(language, "ar")
    screen.tap(t("en", "save"))
    screen.wait_for(lambda: screen.page.route == "/" and screen.shows(t("ar", "app_title")), what="Arabic home")
    assert screen.page.rtl is True and api.get_profile(screen.app.storage)[1]["language"] == "ar"
    # the app's locale too: dialogs open above the views, whose own direction does not reach them
    # (an Arabic dialog was laid out left to right)
    locale = screen.page.locale_configuration
    assert locale is not None and locale.current_locale is not None and locale.current_locale.language_code == "ar"
    assert [x.language_code for x in locale.supported_locales] == ["en", "ar", "vi"]


def finished_lanes_game(db: Path) -> int:
    """A Lanes game against the Beginner bot that ended by resignation (L-8.3), stored in ``db``."""
    return played_lanes_game(db, 0)


def test_stats_list_a_finished_game_whose_replay_steps_and_goes_back_to_the_stats(tmp_path: Path) -> None:
    finished_lanes_game(tmp_path / "app.sqlite")
    s = open_at(tmp_path, "/stats")
    try:
        s.wait_for(lambda: s.find(ident="replay-game-0"), what="the recent game")
        s.tap(ident="replay-game-0")
        s.wait_for(lambda: s.find(ident="replay-next"), what="the replay bar")
        last = s.texts()
        s.tap(ident="replay-last")
        s.wait_for(lambda: s.texts() != last, what="the last step")
        assert s.page.route.startswith("/replay/")
        s.call(s.app.back)
        s.wait_for(lambda: s.page.route == "/stats", what="back to the stats")
    finally:
        s.close()


def test_a_reload_reopens_the_game_in_progress(tmp_path: Path) -> None:
    s = open_at(tmp_path, "/")
    try:
        s.fire(s.find("Play against a bot")[0])
        s.tap("Beginner")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the table")
        route = s.page.route
        hand = [w for c in s.find(kind=ft.Semantics) if (w := getattr(c, "identifier", "") or "").startswith("hand-")]
    finally:
        s.close()
    again = open_at(tmp_path, route)  # the browser reloads the page at its route
    try:
        again.wait_for(lambda: again.find(ident="hand-0"), what="the same table")
        assert again.page.route == route and len(again.find(kind=ft.Semantics)) > 0
        assert [w for c in again.find(kind=ft.Semantics)
                if (w := getattr(c, "identifier", "") or "").startswith("hand-")] == hand
    finally:
        again.close()


def test_lopti_setup_starts_a_session_whose_table_resumes_at_its_route(tmp_path: Path) -> None:
    s = open_at(tmp_path, "/lopti/new")
    try:
        s.tap(t("en", "players_n", n=4))
        s.wait_for(lambda: s.find(ident="seat-4"), what="four seats")
        s.tap(t("en", "start"))
        s.wait_for(lambda: s.page.route.startswith("/lopti/session/"), what="the session's route")
        s.wait_for(lambda: s.find(ident="sess-next"), what="the session before its first deal")
        assert s.find(ident="sess-vote")  # P-9.1: the first deal's rule vote is offered too
        s.tap(ident="sess-next")
        s.wait_for(lambda: s.find(ident="hand-0"), what="the Lopti table")
        route = s.page.route
    finally:
        s.close()
    again = open_at(tmp_path, route)
    try:
        again.wait_for(lambda: again.find(ident="hand-0"), what="the deal again")
    finally:
        again.close()


def test_a_session_between_deals_shows_its_results_and_rules(tmp_path: Path) -> None:
    from storage.db import open_storage
    from tests.views.test_lopti_session import play_out
    from views.lopti.session import SessionFlow

    st = open_storage(tmp_path / "app.sqlite")
    flow = SessionFlow(st, ["casual", "beginner"], seed=31)
    m = flow.start_deal()
    play_out(m)
    flow.deal_over(m)
    sid = flow.session_id
    st.close()
    s = open_at(tmp_path, f"/lopti/session/{sid}")
    try:
        s.wait_for(lambda: s.find(ident="sess-next") or s.find(ident="sess-again") or s.shows(
            t("en", "sess_next_deal", n=2)), what="the session screen")
        assert s.page.route == f"/lopti/session/{sid}"
    finally:
        s.close()


def test_a_rules_page_names_its_rules_by_id(screen: Screen) -> None:
    screen.go("/rules/lanes")
    screen.wait_for(lambda: any(w.startswith("L-") for w in screen.texts()), what="rule ids")
    assert sum(w.startswith("L-") for w in screen.texts()) > 20


def test_a_damaged_record_is_refused_in_words_and_nothing_crashes(tmp_path: Path) -> None:
    """A stored game whose actions no longer replay (a corrupt file): its table and its replay say
    so and go back; the app goes on."""
    import sqlite3

    game_id = finished_lanes_game(tmp_path / "app.sqlite")
    with sqlite3.connect(tmp_path / "app.sqlite") as db:
        db.execute("UPDATE gameaction SET action = ? WHERE game_id = ? AND seq = 0", ('{"play": "ZZ"}', game_id))
    for route, back in ((f"/replay/{game_id}", "/stats"), (f"/play/{game_id}", "/")):
        s = open_at(tmp_path, route)
        try:
            said = t("en", "replay_broken", why="")
            s.wait_for(dialog_says(s, said),
                       what="the damage in words")
            s.wait_for(route_is(s, back), what="back to a working screen")
        finally:
            s.close()


def test_online_sign_in_the_lobby_screen_and_the_leaderboard_against_a_real_lobby(screen: Screen,
                                                                                  tmp_path: Path) -> None:
    from tests.helpers import free_port
    from tests.lobby.test_e2e import start as start_lobby

    port = free_port()
    lobby = start_lobby(tmp_path / "lobby.sqlite", port)
    try:
        screen.go("/online")
        url = next(f for f in screen.find(kind=ft.TextField) if f.label == t("en", "ol_url"))
        screen.enter(url, f"http://127.0.0.1:{port}")
        screen.tap(t("en", "ol_sign_in"))
        screen.wait_text(t("en", "ol_find_rated"))
        assert api.get_account(screen.app.storage, f"http://127.0.0.1:{port}") is not None
        screen.tap(t("en", "ol_leaderboard"))
        screen.wait_for(lambda: screen.shows(t("en", "ol_nobody")) or screen.shows("1. "), what="the leaderboard")
        screen.call(screen.app.back)
        screen.wait_text(t("en", "ol_find_rated"))
    finally:
        lobby.terminate()
        lobby.wait(timeout=10)


def test_no_control_stands_in_two_places_on_any_table(screen: Screen) -> None:
    """A control object placed twice would get its updates on one copy only (the in-place updates
    address controls by id): every table's tree holds each control once."""
    def once(what: str) -> None:
        seen: set[int] = set()
        for c in screen.call(lambda: list(walk_all(screen.page.views[-1]))):
            assert id(c) not in seen, f"{what}: {type(c).__name__} placed twice"
            seen.add(id(c))

    screen.fire(screen.find("Play against a bot")[0])
    screen.tap("Beginner")
    screen.wait_for(lambda: screen.find(ident="hand-0"))
    once("Lanes")
    screen.go("/")
    screen.tap(t("en", "players_n", n=3))
    screen.wait_for(lambda: screen.find(ident="hand-0"))
    once("Lopti")
    screen.go("/spit/new")
    screen.tap("Beginner")
    screen.wait_for(lambda: screen.find(ident="stock-0-0"))
    once("Spit")


def walk_all(control: object) -> list[object]:
    """Every control under ``control`` through every field that holds controls (a Draggable's
    feedback and its ghost included)."""
    out: list[object] = []
    stack = [control]
    while stack:
        c = stack.pop()
        if isinstance(c, list):
            stack.extend(c)
            continue
        if not isinstance(c, ft.BaseControl):
            continue
        out.append(c)
        kind: Any = type(c)  # Flet's @control sets this on the class
        for value in list(c._values.values()) + [getattr(c, n, None) for n in kind._structural_fields
                                                 if not n.startswith("_")]:
            if isinstance(value, (ft.BaseControl, list)):
                stack.append(value)
    return out


def test_leaving_a_table_stops_the_bot_thinking_and_its_move_is_not_played(screen: Screen) -> None:
    """Bots think off the UI loop and can be cancelled: back from the table while the Expert
    searches its reply ends the search, and its move never lands (the stored game keeps mine)."""
    from engine.lanes.actions import Play
    from views.lanes.table import LanesTable

    screen.go("/lanes/new")
    screen.tap("Expert")
    table = screen.wait_for(lambda: isinstance(screen.app.screen, LanesTable) and screen.app.screen, what="table")
    screen.wait_for(lambda: table.match.my_turn and not table.busy, what="my move")
    move = next(a for a in table.match.legal() if isinstance(a, Play) and a.owner is None)
    screen.tap(ident=f"hand-{table.match.observation['hand'].index(str(move.card))}")
    screen.tap(ident=f"lane-0-{move.lane}")
    game_id = local(table.match).game_id
    mine = len(api.load_game(screen.app.storage, game_id).actions)
    screen.wait_for(lambda: table.busy, timeout=5, what="the Expert thinking")
    screen.call(screen.app.back)
    screen.wait_for(lambda: not table.busy, timeout=10, what="the bot's turn to end")
    assert table.stopped and screen.page.route == "/"
    time.sleep(0.5)
    assert len(api.load_game(screen.app.storage, game_id).actions) == mine


def test_a_spit_round_played_by_tapping_stocks_and_piles_updates_in_place(screen: Screen) -> None:
    """S-3.1, S-3.3: tap a stock, then a pile it fits (or an empty slot); every such play lands,
    the bot plays meanwhile, and nothing on the table fails while it is updated in place (the ticker included)."""
    from engine.spit import RULES as SPIT
    from engine.spit.actions import CallSpit, Fill, PlayCard
    from views.spit.table import SpitTable

    screen.go("/spit/new")
    screen.tap("Beginner")
    table = screen.wait_for(lambda: isinstance(screen.app.screen, SpitTable) and screen.app.screen, what="Spit")
    plays = 0
    deadline = time.monotonic() + 60  # a loaded machine: the bot may take the pile first, often
    while plays < 3 and time.monotonic() < deadline:
        legal = screen.call(lambda: SPIT.legal_actions(table.game.state, 0))
        move = next((a for a in legal if isinstance(a, PlayCard)), None)
        if move is not None:
            before = len(api.load_game(screen.app.storage, live(table.game).game_id).actions)
            if screen.call(lambda: table.game.picked[0]) != move.stock:  # a second tap puts it down
                screen.tap(ident=f"stock-0-{move.stock}")
            if screen.call(lambda: table.game.picked[0]) == move.stock:
                screen.tap(ident=f"pile-{move.pile}")
            plays += len(api.load_game(screen.app.storage, live(table.game).game_id).actions) > before
        elif (fill := next((a for a in legal if isinstance(a, Fill)), None)) is not None:
            if screen.call(lambda: table.game.picked[0]) != fill.source:  # S-3.3: a card to an empty slot
                screen.tap(ident=f"stock-0-{fill.source}")
            screen.tap(ident=f"stock-0-{fill.slot}")
        elif any(isinstance(a, CallSpit) for a in legal):
            screen.tap("Spit!")
        time.sleep(0.1)
    assert plays >= 3 and not screen.conn.crashes
    assert screen.find(ident="pile-0") and screen.find(ident="stock-0-0")


def test_a_whole_lanes_match_by_tapping_ends_in_its_result(tmp_path: Path) -> None:
    """A whole Lanes match against the Beginner bot by tapping (my moves are the Casual level's
    choices from my own observation): to its end, with the result shown (L-7, L-8)."""
    from engine.bots import decide
    from engine.lanes.actions import Discard, Play
    from storage.db import open_storage
    from views.lanes.table import LanesTable

    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, bot_speed="fast", sound=False)
    st.close()
    s = open_at(tmp_path, "/lanes/new")
    try:
        s.tap("Beginner")
        table = s.wait_for(lambda: isinstance(s.app.screen, LanesTable) and s.app.screen, what="the table")
        deadline = time.monotonic() + 120
        while not table.match.status.over and time.monotonic() < deadline:
            if not table.match.my_turn or table.busy:
                time.sleep(0.02)
                continue
            m = table.match
            move = decide("lanes", m.observation, "casual", local(m).seq)
            if not isinstance(move, Play | Discard):
                move = next(a for a in m.legal() if isinstance(a, Discard))
            s.tap(ident=f"hand-{m.observation['hand'].index(str(move.card))}")
            if isinstance(move, Discard):
                s.tap("Discard")
            elif move.owner is None:
                s.tap(ident=f"lane-0-{move.lane}")
            else:
                s.tap(ident=f"lane-{move.owner}-{move.lane}-{move.stack}")
        assert table.match.status.over and not s.conn.crashes
        s.wait_for(lambda: s.dialog_shown() and (s.shows(t("en", "won")) or s.shows(t("en", "lost"))),
                   what="the result")
    finally:
        s.close()


def test_a_session_on_screen_the_winner_adds_a_rule_the_table_votes_and_the_next_deal_starts(
        tmp_path: Path) -> None:
    """P-8.1: the person who won picks a rule; P-9.1: a change put to the vote (a tie goes to
    rock-paper-scissors, P-10, thrown by the app here); then the next deal opens on its table."""
    from storage.db import open_storage
    from tests.views.test_rule_builder import session_won_by_the_person
    from views.lopti.table import LoptiTable

    st = open_storage(tmp_path / "app.sqlite")
    sid = session_won_by_the_person(st).session_id
    st.close()
    s = open_at(tmp_path, f"/lopti/session/{sid}")
    try:
        s.wait_for(lambda: s.find(ident="rb-own"), what="the rule to add")
        pick = next(c for c in s.find(kind=ft.Semantics) if (c.identifier or "").startswith("pick-"))
        s.fire(pick)
        s.tap(ident="sess-add-rule")
        s.wait_for(lambda: s.find(ident="sess-vote"), what="the session screen with the vote")
        assert any((c.identifier or "").startswith("sess-rule-") for c in s.find(kind=ft.Semantics))
        s.tap(ident="sess-vote")
        s.wait_for(lambda: s.find(ident="prop-0"), what="the proposals")
        s.tap(ident="prop-0")
        s.wait_for(lambda: s.find(ident="vote-count"), what="the vote")
        s.tap(ident="vote-count")
        s.wait_for(lambda: s.find(ident="rps-auto") or s.find(ident="sess-next"), what="the outcome")
        if s.find(ident="rps-auto"):
            s.tap(ident="rps-auto")
        s.wait_for(lambda: s.find(ident="sess-next"), what="back between deals")
        s.tap(ident="sess-next")
        s.wait_for(lambda: isinstance(s.app.screen, LoptiTable), what="the next deal's table")
        assert state_of(s.app.screen.match).deal_number == 1 and s.page.route == f"/lopti/session/{sid}"
    finally:
        s.close()


def test_pass_and_play_hides_every_hand_until_the_next_player_says_they_hold_the_device(screen: Screen) -> None:
    """Two people on one device: after a move nobody's cards are on screen (no hand identifier, no
    card label) until the next player taps Ready; then their own hand shows (L-2, observe)."""
    from engine.lanes.actions import Play
    from views.lanes.table import LanesTable

    screen.go("/lanes/new")
    screen.tap(t("en", "pass_and_play"))
    table = screen.wait_for(lambda: isinstance(screen.app.screen, LanesTable) and screen.app.screen, what="table")
    first, seat = list(table.match.observation["hand"]), table.match.human
    move = next(a for a in table.match.legal() if isinstance(a, Play) and a.owner is None)
    screen.tap(ident=f"hand-{first.index(str(move.card))}")
    screen.tap(ident=f"lane-{seat}-{move.lane}")
    screen.wait_for(lambda: screen.find(ident="privacy-ready"), what="the privacy screen")
    labels = [str(c.label) for c in screen.find(kind=ft.Semantics)]
    on_screen = " ".join(screen.texts() + labels)
    assert not screen.find(ident="hand-0") and not any(card in on_screen.split() for card in first)
    screen.call(table.refresh)  # a redraw meanwhile (the motion's second frame, a resize) keeps it hidden
    assert screen.find(ident="privacy-ready") and not screen.find(ident="hand-0")
    screen.tap(ident="privacy-ready")
    screen.wait_for(lambda: screen.find(ident="hand-0"), what="player 2's hand")
    assert table.match.human == 1 - seat and table.match.observation["hand"] != first


def test_the_house_rule_lesson_on_the_real_session_screens(screen: Screen) -> None:
    """#23: the house-rule flow hands-on — the learner writes a rule in the builder, puts a change
    to the vote, makes it a tie and the tie goes to rock-paper-scissors (P-8.1, P-9.1, P-10); the
    coach follows the engine's session, and the finished lesson is stored."""
    from views.table.lessons import find

    lesson = find("lopti-14-house-rules")
    assert lesson is not None
    screen.go("/lesson/lopti-14-house-rules")
    screen.wait_for(lambda: screen.find(ident="rb-own"), what="the winner's rule screen")
    assert screen.find(ident="session-coach") and screen.shows(lesson.steps[0].text["en"])
    screen.tap(ident="rb-own")
    screen.wait_for(lambda: screen.find(ident="rb-done"), what="the rule builder")
    screen.tap(ident="rb-done")  # the builder's first rule is a valid one
    screen.wait_for(lambda: screen.find(ident="sess-vote"), what="between deals, with the vote")
    assert screen.shows(lesson.steps[1].text["en"]) and not screen.find(ident="sess-next")
    screen.tap(ident="sess-vote")
    screen.wait_for(lambda: screen.find(ident="prop-0"), what="the proposals")
    screen.tap(ident="prop-0")  # remove the rule just written: Player 2 defends it
    screen.wait_for(lambda: screen.find(ident="vote-count"), what="the vote")
    screen.toggle(screen.one(ident="vote-0").content, True)  # yes for me, no for Player 2: a tie
    screen.tap(ident="vote-count")
    # my own rule: its author (me) cannot defend it, so Player 2, who keeps it, steps forward (P-10.2)
    screen.wait_for(lambda: screen.find(ident="defend-1"), what="who defends the rule")
    screen.toggle(switch_in(screen, "defend-1"), True)
    screen.tap(ident="defend-go")
    screen.wait_for(lambda: screen.find(ident="rps-auto"), what="rock-paper-scissors")
    screen.tap(ident="rps-rock")
    screen.tap(ident="rps-paper")  # Player 2 throws without seeing mine
    screen.tap(ident="rps-auto")
    screen.wait_for(lambda: screen.shows(lesson.done["en"]), what="the lesson done")
    assert api.lesson_progress(screen.app.storage)["lopti-14-house-rules"][1] is True
    assert api.sessions(screen.app.storage) == []  # a practice table is not kept


def test_the_spit_points_game_is_chosen_on_its_screen_and_its_scores_are_shown(screen: Screen) -> None:
    """#18, S-8.1: the points game is offered on the Spit opponent screen (off by default), the game
    is stored with it, and the table shows each player's score."""
    from views.spit.table import SpitTable

    screen.go("/spit/new")
    switch = screen.one(ident="spit-points").content.content.controls[0]
    assert switch.value is False
    screen.toggle(switch, True)
    screen.tap(t("en", "beginner"))
    table = screen.wait_for(lambda: isinstance(screen.app.screen, SpitTable) and screen.app.screen, what="table")
    assert table.game.observation["scoring"] == "points"
    assert api.load_game(screen.app.storage, live(table.game).game_id).options["scoring"] == "points"
    screen.wait_for(lambda: screen.shows(t("en", "sp_points", n=0)) or any(
        t("en", "sp_points", n=0) in x for x in screen.texts()), what="the scores")


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_a_lopti_table_shows_the_house_rules_in_force_with_their_authors(tmp_path: Path, lang: str) -> None:
    """#18, P-8: the deal's house rules (as the engine applies them) behind a button on the table;
    a tap lists each in the player's language with its author, and the base-rule changes. #36 item
    3, P-9.4: the author deletes theirs there, mid-deal, and it is gone from the next move — in the
    deal's state, in its stored record (a resumed deal has it deleted too) and in the session."""
    from engine.lopti.actions import DeleteRule
    from engine.lopti.describe import describe
    from engine.lopti.templates import TEMPLATES
    from engine.lopti.votes import Proposal
    from storage.db import open_storage
    from tests.views.test_rule_builder import session_won_by_the_person
    from views.lopti.table import LoptiTable

    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, language=lang)
    flow = session_won_by_the_person(st)
    flow.add_rule(TEMPLATES[0])
    flow.vote(Proposal("param", 0, param="draw_threshold", value=4, when="now"), {0: True})
    flow.start_deal()
    sid = flow.session_id
    st.close()
    s = open_at(tmp_path, f"/lopti/session/{sid}")
    try:
        s.wait_for(lambda: isinstance(s.app.screen, LoptiTable), what="the deal's table")
        assert s.shows(t(lang, "house_rules_n", n=2))  # the rule and the base-rule change both count
        s.tap(ident="house-rules")
        s.wait_for(s.dialog_shown, what="the rules in force")
        assert s.shows(describe(TEMPLATES[0], lang)) and s.shows(t(lang, "sess_rule_by", who=t(lang, "you")))
        assert s.shows(t(lang, "param_draw_threshold", v=4)) and s.shows(t(lang, "base_changes"))
        table = s.app.screen
        rule_id = local(table.match).state.options.house_rules[0].id
        moves = s.call(lambda: len(local(table.match).state.moves))
        s.tap(ident=f"delete-{rule_id}")
        s.wait_for(lambda: s.shows(t(lang, "deleted_now")), what="the deletion said")
        # the base-rule change stays counted
        assert local(table.match).state.options.house_rules == () and s.shows(t(lang, "house_rules_n", n=1))
        assert len(local(table.match).state.moves) == moves  # no move of the deal's was made
        assert any(t(lang, "lp_rule_deleted_you") in w for w in s.texts())  # the last move, in words
        assert table.session is not None and not table.session.session.rules[0].in_force
        assert table.session.session.deal_options().house_rules == ()
        game_id = local(table.match).game_id
        stored = api.load_game(s.app.storage, game_id).actions
        assert stored[-1] == {"delete_rule": rule_id, "by": 0}
        _, resumed = api.resume_game(s.app.storage, game_id)
        assert resumed.options.house_rules == ()
        assert DeleteRule(rule_id, 0) not in table.match.deletions()
    finally:
        s.close()


def test_the_rule_builder_shows_the_engines_dry_run_before_saving(tmp_path: Path) -> None:
    """#18, house-rules guarantee 8: 200 simulated deals with and without the rule being built,
    shown in the builder before it is added (and nothing is added by trying)."""
    from storage.db import open_storage
    from tests.views.test_rule_builder import session_won_by_the_person

    st = open_storage(tmp_path / "app.sqlite")
    sid = session_won_by_the_person(st).session_id
    st.close()
    s = open_at(tmp_path, f"/lopti/session/{sid}")
    try:
        s.wait_for(lambda: s.find(ident="rb-own"), what="the winner's rule screen")
        s.tap(ident="rb-own")
        s.wait_for(lambda: s.find(ident="rb-dry-run"), what="the builder")
        s.tap(ident="rb-dry-run")
        s.wait_for(lambda: any("200 simulated deals of 4 players" in x for x in s.texts()), timeout=60,
                   what="the dry run's figures")
        assert s.find(ident="rb-done")  # still in the builder: trying saves nothing
    finally:
        s.close()


def test_lanes_house_rules_are_remembered_and_saved_as_named_sets(tmp_path: Path) -> None:
    """#18: the last choice of L-9 rules is remembered (the default_variants setting, read at start),
    a set is saved under a name and picked again from the saved sets (storage presets)."""
    s = open_at(tmp_path, "/lanes/new")
    try:
        box = next(b for b in open_house_rules(s) if b.label == t("en", "variant_king_adds"))
        s.toggle(box, True)
        assert api.get_profile(s.app.storage)[1]["default_variants"] == ["king_adds"]
        s.tap(ident="preset-save")
        s.wait_for(s.dialog_shown, what="the name dialog")
        field = s.one(kind=ft.TextField)
        s.enter(field, "Kings")
        s.tap(ident="preset-save-ok")
        s.wait_for(lambda: s.find(ident="presets"), what="the saved sets")
        assert [name for _, name, _ in api.presets(s.app.storage, "lanes_variants")] == ["Kings"]
        # the screen shown again with the new set: the list stays open, the choice still on
        assert s.one(kind=ft.ExpansionTile).expanded is True
        box = next(b for b in variant_boxes(s) if b.label == t("en", "variant_king_adds"))
        assert box.value is True
        s.toggle(box, False)
        assert s.app.drafts.lanes_variants == set()
        dd = s.one(ident="presets").content
        pid = str(api.presets(s.app.storage, "lanes_variants")[0][0])
        s.enter(dd, pid)
        s.fire(dd, "select", pid)
        s.wait_for(lambda: s.app.drafts.lanes_variants == {"king_adds"}, what="the set picked again")
    finally:
        s.close()
    again = open_at(tmp_path, "/lanes/new")  # the app opened again: the last choice is still on
    try:
        assert again.shows(t("en", counted("friendly_rules", 1), n=1))
        box = next(b for b in open_house_rules(again) if b.label == t("en", "variant_king_adds"))
        assert box.value is True
    finally:
        again.close()


def test_any_person_at_the_table_may_propose_the_deals_vote(tmp_path: Path) -> None:
    """#18, P-9.1, P-10.2: with two people at the table, the vote screen asks who proposes, and
    the proposal that goes to the vote is that person's."""
    from storage.db import open_storage
    from views.lopti.session import SessionFlow

    st = open_storage(tmp_path / "app.sqlite")
    flow = SessionFlow(st, ["person", "casual"], seed=5)
    flow.save()
    sid = flow.session_id
    st.close()
    s = open_at(tmp_path, f"/lopti/session/{sid}")
    try:
        s.wait_for(lambda: s.find(ident="sess-vote"), what="the vote before the first deal (P-9.1)")
        s.tap(ident="sess-vote")
        chooser = s.wait_for(lambda: s.find(ident="proposer") and s.one(ident="proposer").content, what="who")
        s.enter(chooser, "1")
        s.fire(chooser, "select", "1")
        s.wait_for(lambda: s.one(ident="proposer").content.value == "1", what="player 2 proposing")
        dd = s.one(ident="param-draw_threshold").content
        s.enter(dd, "4")
        s.fire(dd, "select", "4")
        s.tap(ident="param-draw_threshold-vote")
        s.wait_for(lambda: s.find(ident="vote-count"), what="the vote")
        s.tap(ident="vote-count")
        s.wait_for(lambda: s.find(ident="sess-next"), what="back between deals")
        data = api.load_session(s.app.storage, sid)["data"]  # type: ignore[arg-type]
        vote = next(step for step in data["steps"] if step[0] == "vote")
        assert vote[1]["proposer"] == 1 and vote[1]["param"] == "draw_threshold"
    finally:
        s.close()


def test_a_casual_online_challenge_with_house_rules_is_friendly_and_says_so(screen: Screen, tmp_path: Path) -> None:
    """#18, L-8.5, L-9: a challenge by code with a house rule is casual, its table says "friendly,
    never rated"; the rated switch is off by default."""
    import re

    from storage.lobby_client import LobbyClient
    from tests.helpers import free_port
    from tests.lobby.test_e2e import start as start_lobby

    port = free_port()
    lobby = start_lobby(tmp_path / "lobby.sqlite", port)
    friend = LobbyClient(f"http://127.0.0.1:{port}")
    try:
        screen.go("/online")
        url = next(f for f in screen.find(kind=ft.TextField) if f.label == t("en", "ol_url"))
        screen.enter(url, f"http://127.0.0.1:{port}")
        screen.tap(t("en", "ol_sign_in"))
        screen.wait_text(t("en", "ol_find_rated"))
        assert screen.one(ident="ol-rated-challenge").content.value is False
        screen.toggle(screen.one(ident="ol-variant-king_adds").content, True)
        screen.tap(ident="ol-challenge")
        pattern = re.escape(t("en", "ol_your_code", code="@@")).replace("@@", "([A-Z0-9]{6})")
        said = screen.wait_for(lambda: next((m for x in screen.texts() if (m := re.search(pattern, x))), None),
                               what="the code")
        friend.sign_up("Friend")
        view = friend.accept(said.group(1))
        assert view["rated"] is False and view["observation"]["options"]["variants"] == ["king_adds"]
        table = screen.wait_for(lambda: online_seat(screen.app.screen), timeout=30, what="the online table")
        assert t("en", "ol_friendly_tag") in table._clock_text()
    finally:
        friend.close()
        lobby.kill()  # the table's long poll may hold a connection open: no graceful wait
        lobby.wait(timeout=10)


def test_a_running_online_match_is_listed_and_reopened_and_offered_on_opening_the_app(tmp_path: Path) -> None:
    """#18: back from an online table the match goes on; the Online screen lists it (opponent,
    terms, whose move) and reopens it; opening the app again offers it on the home screen."""
    from storage.lobby_client import LobbyClient
    from tests.helpers import free_port
    from tests.lobby.test_e2e import start as start_lobby

    port = free_port()
    lobby = start_lobby(tmp_path / "lobby.sqlite", port)
    friend = LobbyClient(f"http://127.0.0.1:{port}")
    s = open_at(tmp_path, "/online")
    try:
        url = next(f for f in s.find(kind=ft.TextField) if f.label == t("en", "ol_url"))
        s.enter(url, f"http://127.0.0.1:{port}")
        s.tap(t("en", "ol_sign_in"))
        s.wait_text(t("en", "ol_find_rated"))
        friend.sign_up("Friend")
        code = friend.challenge(rated=False, time_control="10+5")
        field = next(f for f in s.find(kind=ft.TextField) if f.label == t("en", "ol_code"))
        s.enter(field, code)
        s.tap(t("en", "ol_accept"))
        table = s.wait_for(lambda: online_seat(s.app.screen), what="the table")
        mid = table.online.match_id
        s.call(s.app.back)  # the match goes on at the lobby
        s.wait_for(lambda: s.find(ident=f"ol-running-{mid}"), what="the running match listed")
        assert any("Friend" in x for x in s.texts())
        s.tap(ident=f"ol-running-{mid}")
        s.wait_for(lambda: (seat := online_seat(s.app.screen)) is not None and seat.online.match_id == mid,
                   what="the match reopened")
    finally:
        s.close()
    again = open_at(tmp_path, "/")
    try:
        again.wait_for(lambda: again.find(ident=f"home-online-{mid}"), what="the match offered at once")
    finally:
        again.close()
        friend.close()
        lobby.kill()
        lobby.wait(timeout=10)


def test_settings_export_and_import_your_data(screen: Screen, tmp_path: Path) -> None:
    """#18, "Your data": Settings offers export and import (the platform's file dialogs, which a
    screen test cannot open); what an imported file's bytes do is said in words — the games that
    came in, or why nothing did (and then nothing was stored)."""
    from views.screens.settings import import_text

    screen.go("/settings")
    assert screen.find(ident="export-all") and screen.find(ident="import-file")
    game_id = finished_lanes_game(tmp_path / "other.sqlite")
    from storage.db import open_storage
    other = open_storage(tmp_path / "other.sqlite")
    archive = api.export_all(other)
    other.close()
    said = screen.call(lambda: import_text(screen.app, b"\xff\xfe not json"))
    assert said.startswith(t("en", "import_refused", why="")) and api.history(screen.app.storage) == []
    said = screen.call(lambda: import_text(screen.app, archive.encode()))
    assert said == "Imported 1 game and 0 sessions." and game_id > 0
    assert len(api.history(screen.app.storage)) == 1


def test_the_profile_plots_the_rating_history(screen: Screen, tmp_path: Path) -> None:
    """#18: the profile shows the rating after each rated match as a small plot (and the figures)."""
    from engine.bots import decide
    from engine.lanes import RULES as LANES
    from storage.lobby_client import LobbyClient
    from tests.helpers import free_port
    from tests.lobby.test_e2e import start as start_lobby

    port = free_port()
    lobby = start_lobby(tmp_path / "lobby.sqlite", port)
    url = f"http://127.0.0.1:{port}"
    friend = LobbyClient(url)
    try:
        screen.go("/online")
        field = next(f for f in screen.find(kind=ft.TextField) if f.label == t("en", "ol_url"))
        screen.enter(field, url)
        screen.tap(t("en", "ol_sign_in"))
        screen.wait_text(t("en", "ol_find_rated"))
        acc = api.get_account(screen.app.storage, url)
        assert acc is not None
        me = LobbyClient(url, acc.token)
        friend.sign_up("Friend")
        mid = friend.accept(me.challenge(rated=True, time_control="10+5"))["match_id"]
        for _ in range(2):  # both first moves: the match is rated
            for c in (me, friend):
                v = c.view(mid)
                if v["clock"]["to_move"] == v["seat"]:
                    c.move(mid, v["move_count"], LANES.action_to_json(decide("lanes", v["observation"], "casual")))
        friend.resign(mid)
        me.close()
        screen.tap(t("en", "ol_profile"))
        plot = screen.wait_for(lambda: screen.find(ident="rating-plot"), what="the rating plot")[0]
        label = str(plot.label)  # "Rating history: 1662": the one rated result, after the win
        assert label.startswith(t("en", "ol_history") + ": ") and int(label.rsplit(" ", 1)[1]) > 1500
    finally:
        friend.close()
        lobby.kill()
        lobby.wait(timeout=10)


def played_lanes_game(db: Path, moves: int) -> int:
    """A Lanes game against the Beginner bot in which I made ``moves`` moves (the Casual level's
    choices), then resigned (L-8.3a), stored in ``db``."""
    from storage.db import open_storage
    from views.lanes.controller import LanesMatch

    st = open_storage(db)
    m = LanesMatch.new(st, "beginner", 4)
    for _ in range(moves):
        while not m.my_turn:
            m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
        move = m.suggest()
        assert move is not None  # my turn: the hint has a move
        m.mode.submit(move)
    while not m.my_turn:
        m.apply_bot(m.bot_choice())  # type: ignore[arg-type]
    m.resign()
    game_id = local(m).game_id
    st.close()
    assert game_id is not None
    return game_id


def test_a_review_runs_behind_its_progress_bar_is_stored_and_opens_at_once_the_second_time(tmp_path: Path) -> None:
    from storage.db import open_storage

    gid = played_lanes_game(tmp_path / "app.sqlite", 3)
    s = open_at(tmp_path, "/stats")
    try:
        s.tap(ident="review-game-0")
        s.wait_for(lambda: s.find(kind=ft.ProgressBar), what="the progress bar")
        s.wait_for(lambda: s.find(ident="review-words"), timeout=60, what="the reviewed replay")
        assert s.page.route == f"/review/{gid}" and s.shows("Expert review: 3 of your moves")
        assert not s.conn.crashes
    finally:
        s.close()
    st = open_storage(tmp_path / "app.sqlite")
    stored = api.load_review(st, gid)
    st.close()
    assert stored is not None and len(stored.moves) == 3
    again = open_at(tmp_path, f"/review/{gid}")
    try:  # stored: the replay with its review comes up without the progress bar
        assert again.find(ident="review-words") and not again.find(kind=ft.ProgressBar)
        again.tap(ident="replay-next")
        again.wait_for(lambda: again.find(ident="review-words"), what="the next step")
    finally:
        again.close()


def test_a_review_can_be_cancelled_and_then_nothing_is_stored(tmp_path: Path) -> None:
    from storage.db import open_storage

    gid = played_lanes_game(tmp_path / "app.sqlite", 12)  # long enough to be under way when cancelled
    s = open_at(tmp_path, f"/review/{gid}")
    try:
        s.wait_for(lambda: s.find(ident="review-cancel"), what="the progress screen")
        s.tap(ident="review-cancel")
        s.wait_for(lambda: s.page.route == "/stats", what="back to the stats")
        time.sleep(1.0)  # the worker notices the cancel at its next decision
        assert not s.find(ident="review-words") and not s.conn.crashes
    finally:
        s.close()
    st = open_storage(tmp_path / "app.sqlite")
    assert api.load_review(st, gid) is None
    st.close()


def _finished_spit_game(st: Any) -> int:
    """A whole Spit game between two scripted bots, stored and finished as the app stores one."""
    from tests.spit.test_driver import run_bots

    d = run_bots(3)
    assert d.state.over
    gid = api.new_game(st, "spit", {}, 3, 2, [{"kind": "person"}, {"kind": "bot", "level": "casual"}])
    for i, (_t, action) in enumerate(d.log):
        api.append_action(st, gid, i, action)
    api.finish_game(st, gid, d.state.winner, "won")
    return gid


@pytest.mark.parametrize("which", ["finished spit", "unfinished lanes"])
def test_a_spit_game_or_an_unfinished_game_is_not_reviewed(tmp_path: Path, which: str) -> None:
    """The review is for finished Lanes and Lopti games: a Spit game, even finished, and a game
    still in progress are turned back with a word, and nothing is reviewed."""
    from storage.db import open_storage

    st = open_storage(tmp_path / "app.sqlite")
    if which == "finished spit":
        gid = _finished_spit_game(st)
        assert api.load_game(st, gid).finished_at is not None  # only the game decides it
    else:
        gid = api.new_game(st, "lanes", {}, 3, 2, [{"kind": "person"}, {"kind": "bot", "level": "casual"}])
    st.close()
    s = open_at(tmp_path, f"/review/{gid}")
    try:
        s.wait_text(t("en", "review_unavailable"))
        s.wait_for(lambda: s.page.route == "/stats", what="the stats")
    finally:
        s.close()
    st = open_storage(tmp_path / "app.sqlite")
    assert api.load_review(st, gid) is None
    st.close()


def test_the_hint_asks_the_level_chosen_in_the_settings_and_thinks_visibly(tmp_path: Path) -> None:
    from engine.bots import decide
    from storage.db import open_storage
    from views.lanes.table import LanesTable

    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, hint_level="expert", bot_speed="fast", sound=False)
    st.close()
    s = open_at(tmp_path, "/lanes/new")
    try:
        s.tap("Beginner")
        table = s.wait_for(lambda: isinstance(s.app.screen, LanesTable) and s.app.screen, what="the table")
        s.wait_for(lambda: table.match.my_turn and not table.busy, what="my turn")
        m = table.match
        expected = decide("lanes", m.observation, "expert", local(m).seq)
        s.tap("Hint")
        s.wait_for(lambda: s.shows("Hint: "), timeout=30, what="the hint in words")
        assert table.thinking is False and m.selected == expected.card  # the expert's card, selected
        s.call(table.refresh)  # a redraw (an arrival's second frame) keeps the words: they once went
        assert s.shows("Hint: ")
        other = next(i for i, c in enumerate(m.observation["hand"]) if c != str(expected.card))
        s.tap(ident=f"hand-{other}")  # another card picked (or refused): the hint is over
        s.wait_for(lambda: not s.shows("Hint: "), what="the hint's words gone")
        assert not s.conn.crashes
    finally:
        s.close()


def throw_the_knockout(s: Screen) -> None:
    """The P-10.4 knockout thrown by hand, one throw at a time, until the defender is chosen."""
    s.wait_for(lambda: s.find(ident="ko-rock"), what="the knockout")
    throws = ["rock", "paper", "scissors", "rock", "rock", "paper"]
    for k in range(30):
        if not s.find(ident="ko-rock"):
            break
        s.tap(ident=f"ko-{throws[k % len(throws)]}")


def switch_in(s: Screen, ident: str) -> ft.Switch:
    """The switch inside the control with semantics identifier ``ident``."""
    from tests.views.screen import walk

    return next(c for c in walk(s.one(ident=ident)) if isinstance(c, ft.Switch))


def test_a_person_leaves_the_table_and_a_supporter_defends_their_rule_on_screen(tmp_path: Path) -> None:
    """P-10.2 on screen: seat 2's person leaves (a bot stands in); in the tied vote on their rule
    the author cannot defend it, the bot that kept it steps forward, and I throw against it."""
    from storage.db import open_storage
    from tests.views.test_lopti_session import session_won_by_seat_1

    st = open_storage(tmp_path / "app.sqlite")
    flow = session_won_by_seat_1(st, ["person", "person", "casual"], seed=13)
    sid = flow.session_id
    rule = next(r for r in flow.session.rules if r.author == 1)
    index = next(i for i, p in enumerate(flow.proposals(0)) if p.rule_id == rule.id and p.kind == "remove")
    st.close()
    s = open_at(tmp_path, f"/lopti/session/{sid}")
    try:
        s.tap(ident="sess-leave-1")
        s.wait_for(lambda: s.find(ident="leave-confirm-1"), what="the confirmation")
        s.tap(ident="leave-confirm-1")
        s.wait_for(lambda: s.shows("Player 2 has left the session"), what="the seat left")
        s.wait_for(lambda: not s.dialog_shown(), what="the confirmation closed")
        assert s.shows("Seat 2 (Casual, standing in)")
        s.tap(ident="sess-vote")
        s.wait_for(lambda: s.find(ident=f"prop-{index}"), what="the proposals")
        s.tap(ident=f"prop-{index}")
        s.wait_for(lambda: s.find(ident="vote-count"), what="the vote")
        for seat in (0, 2):
            s.toggle(switch_in(s, f"vote-{seat}"), True)
        s.tap(ident="vote-count")
        s.wait_for(lambda: s.find(ident="defend-go"), what="who defends the rule")
        assert s.shows("Seat 4 (Casual) steps forward to defend it.") and not s.find(ident="defend-1")
        s.tap(ident="defend-go")
        s.wait_for(lambda: s.find(ident="rps-auto"), what="my series against the defender")
        s.tap(ident="rps-auto")
        s.wait_for(lambda: s.find(ident="sess-next"), what="back between deals")
        assert not s.conn.crashes
    finally:
        s.close()
    st = open_storage(tmp_path / "app.sqlite")
    from views.lopti.session import SessionFlow

    again = SessionFlow.resume(st, sid)  # type: ignore[arg-type]
    assert again.session.absent == {1} and again.session.votes[-1].rps["defender"] == 3  # type: ignore[index]
    st.close()


def test_two_people_play_the_defenders_knockout_by_hand_on_screen(tmp_path: Path) -> None:
    """P-10.4 on screen: the author asks to remove their own rule; seats 3 and 4 both volunteer to
    defend it and throw one decisive throw each (again on a tie) until one is chosen."""
    from storage.db import open_storage
    from tests.views.test_lopti_session import session_won_by_seat_1
    from views.lopti.play import open_deal
    from views.lopti.session import SessionFlow
    from views.lopti.session_screen import session_screen
    from views.lopti.vote_screens import vote_screen

    st = open_storage(tmp_path / "app.sqlite")
    flow = session_won_by_seat_1(st, ["person", "person", "person"], seed=2)
    rule = next(r for r in flow.session.rules if r.author == 1)
    st.close()
    s = open_at(tmp_path, f"/lopti/session/{flow.session_id}")
    try:
        s.wait_for(lambda: s.find(ident="sess-vote"), what="the session")
        flow = SessionFlow.resume(s.app.storage, flow.session_id)  # type: ignore[arg-type]  # the app's storage
        proposal = next(p for p in flow.proposals(1) if p.rule_id == rule.id and p.kind == "remove")
        votes = {0: True, 1: True, 2: False, 3: False}
        def between(app: Host, flow: SessionFlow, notice: str = "") -> None:  # as the session screen gives it
            session_screen(app, flow, notice, open_deal)

        s.call(lambda: vote_screen(s.app, between, flow, proposal))
        s.wait_for(lambda: s.find(ident="vote-count"), what="the vote")
        for seat in (0, 1):
            s.toggle(switch_in(s, f"vote-{seat}"), True)
        s.tap(ident="vote-count")
        s.wait_for(lambda: s.find(ident="defend-2") and s.find(ident="defend-3"), what="the volunteers")
        for seat in (2, 3):
            s.toggle(switch_in(s, f"defend-{seat}"), True)
        s.tap(ident="defend-go")
        throw_the_knockout(s)
        s.wait_for(lambda: s.find(ident="rps-auto"), what="the series between the proposer and the defender")
        s.tap(ident="rps-auto")
        s.wait_for(lambda: s.find(ident="sess-next"), what="back between deals")
        record = flow.session.votes[-1]
        assert record.rps is not None and record.rps["defender"] in (2, 3) and votes == record.votes
        assert s.shows("defends the rule.") and not s.conn.crashes
    finally:
        s.close()



@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_a_tied_base_rule_change_faces_whoever_objected_first_on_screen(tmp_path: Path, lang: str) -> None:
    """P-10.2 on screen (#36 item 4): a change to a base rule is tied two against two; the proposer
    faces the first player who objected, so the table says who that was — here seat 4, though
    seat 3 comes first in seat order — and the series is thrown against them. The choice is stored
    with the vote, so the session resumes with the same defender."""
    from engine.lopti.votes import Proposal
    from storage.db import open_storage
    from tests.views.test_lopti_session import session_won_by_seat_1
    from views.lopti.play import open_deal
    from views.lopti.session import SessionFlow
    from views.lopti.session_screen import session_screen
    from views.lopti.vote_screens import vote_screen

    st = open_storage(tmp_path / "app.sqlite")
    flow = session_won_by_seat_1(st, ["person", "person", "person"], seed=2)  # four seats: me and three
    api.update_profile(st, language=lang)
    sid = flow.session_id
    st.close()
    s = open_at(tmp_path, f"/lopti/session/{sid}")
    try:
        s.wait_for(lambda: s.find(ident="sess-vote"), what="the session")
        flow = SessionFlow.resume(s.app.storage, sid)  # type: ignore[arg-type]  # the app's storage
        name, value, choices = flow.params()[0]
        proposal = Proposal("param", 0, param=name, value=next(v for v, why in choices if why is None))

        def between(app: Host, flow: SessionFlow, notice: str = "") -> None:  # as the session screen gives it
            session_screen(app, flow, notice, open_deal)

        s.call(lambda: vote_screen(s.app, between, flow, proposal))
        s.wait_for(lambda: s.find(ident="vote-count"), what="the vote")
        for seat in (0, 1):
            s.toggle(switch_in(s, f"vote-{seat}"), True)
        s.tap(ident="vote-count")
        s.wait_for(lambda: s.find(ident="objector-2") and s.find(ident="objector-3"), what="who objected first")
        assert s.shows(t(lang, "obj_title")) and not s.find(ident="objector-0") and not s.find(ident="objector-1")
        s.tap(ident="objector-3")
        s.wait_for(lambda: s.find(ident="rps-auto"), what="the series between the proposer and the first objector")
        s.tap(ident="rps-auto")
        s.wait_for(lambda: s.find(ident="sess-next"), what="back between deals")
        record = flow.session.votes[-1]
        assert record.tally == "tie" and record.rps is not None and record.rps["defender"] == 3
        assert record.rps["proposer"] == 0 and not s.conn.crashes
    finally:
        s.close()
    st = open_storage(tmp_path / "app.sqlite")
    again = SessionFlow.resume(st, sid)  # type: ignore[arg-type]
    assert again.session.votes[-1].rps == record.rps
    assert again.session.objector_choices(proposal, record.votes) == [2, 3]  # seat order would have named seat 3
    st.close()

def test_a_damaged_record_is_not_reviewed_and_the_app_says_why(tmp_path: Path) -> None:
    from sqlmodel import select

    from storage.db import open_storage
    from storage.models import GameAction

    gid = played_lanes_game(tmp_path / "app.sqlite", 2)
    st = open_storage(tmp_path / "app.sqlite")
    with st.session() as sess:  # a move that the position does not allow
        row = sess.exec(select(GameAction).where(GameAction.game_id == gid, GameAction.seq == 0)).one()
        row.action = '{"play": "QS", "lane": 9}'
        sess.add(row)
    st.close()
    s = open_at(tmp_path, f"/review/{gid}")
    try:
        s.wait_for(lambda: s.page.route == "/stats", timeout=30, what="back to the stats")
        s.wait_for(lambda: s.shows("This game cannot be replayed"), what="the reason")
        assert not s.conn.crashes
    finally:
        s.close()
    st = open_storage(tmp_path / "app.sqlite")
    assert api.load_review(st, gid) is None
    st.close()


def test_a_lopti_table_may_stop_each_deal_at_its_first_player_out(tmp_path: Path) -> None:
    """#36 item 5 (P-7.4): the setup's switch makes every deal of the session stop when its first
    player goes out; the session says so between deals, and a resumed session keeps it."""
    from storage import api
    from storage.db import open_storage
    from views.lopti.session import SessionFlow

    s = open_at(tmp_path, "/lopti/new")
    try:
        s.wait_for(lambda: s.find(ident="first-out-ends"), what="the setup")
        s.toggle(s.one(ident="first-out-ends").content, True)
        s.tap(t("en", "start"))
        s.wait_for(lambda: s.page.route.startswith("/lopti/session/"), what="the session's route")
        s.wait_text(t("en", "first_out_ends_on"))
        sid = int(s.page.route.rsplit("/", 1)[1])
    finally:
        s.close()
    st = open_storage(tmp_path / "app.sqlite")
    try:
        flow = SessionFlow.resume(st, sid)
        assert flow.session.options.first_out_ends
        flow.start_deal()
        assert flow.current_game_id is not None
        _, state = api.resume_game(st, flow.current_game_id)
        assert state.options.first_out_ends  # every deal of the session is dealt with it
    finally:
        st.close()
