"""What a screen reader hears at a table (#47 item 1): each change of the status and last-move
lines is announced in the player's language, cards by their spoken names, and a bots' burst of
moves is one announcement when it ends."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from views.table.announce import Announcements
from views.ui.i18n import card_name, counted, spoken_cards, t

if TYPE_CHECKING:
    from tests.views.screen import Screen


def test_a_change_is_said_once_and_a_bot_burst_is_gathered() -> None:
    said: list[str] = []
    a = Announcements(said.append)
    assert a.shown("Your turn", "") == "Your turn"
    assert a.shown("Your turn", "") is None  # nothing new: a redraw says nothing
    assert a.shown("Choose a lane", "") == "Choose a lane"
    assert a.shown("Bot is thinking", "You played 7") == "You played 7 Bot is thinking"
    assert a.shown("Bot is thinking", "Bot 1 played 9", hold=True) is None  # inside the bots' burst
    assert a.shown("Bot is thinking", "Bot 2 played 10", hold=True) is None
    assert a.shown("Your turn", "Bot 2 played 10") == "Bot 1 played 9 Bot 2 played 10 Your turn"
    # a move with an unchanged status still says where the table stands
    assert a.shown("Your turn", "Bot 2 sold lane 1") == "Bot 2 sold lane 1 Your turn"
    assert a.shown("Not possible: that lane is full", "Bot 2 sold lane 1") == "Not possible: that lane is full"
    assert said == ["Your turn", "Choose a lane", "You played 7 Bot is thinking",
                    "Bot 1 played 9 Bot 2 played 10 Your turn", "Bot 2 sold lane 1 Your turn",
                    "Not possible: that lane is full"]


def test_a_long_burst_says_its_last_moves_and_how_many_came_before() -> None:
    """The bots finishing a Lopti deal after I went out made dozens of moves, said as one message:
    past ``keep`` moves a burst says how many came earlier, then the last ones, then the status."""
    said: list[str] = []
    a = Announcements(said.append, lambda n: f"{n} earlier moves.", keep=2)
    for k in range(1, 6):
        a.shown("Bots playing", f"Bot played {k}", hold=True)
    assert a.shown("Deal over", "Bot played 5") == "3 earlier moves. Bot played 4 Bot played 5 Deal over"
    for k in range(6, 8):
        a.shown("Bots playing", f"Bot played {k}", hold=True)
    assert a.shown("Your turn", "Bot played 7") == "Bot played 6 Bot played 7 Your turn"  # two: all said
    assert [t(lang, counted("said_earlier", 3), n=3) for lang in ("en", "ar")] == ["3 earlier moves.",
                                                                                  "3 حركات سابقة."]


def heard_since(s: Screen, n: int, end: str | tuple[str, ...]) -> str:
    """What the screen said from message ``n`` on, as one text once it ends with ``end`` ("" until
    then): views/table/speech.py joins what comes within its gap, so a move and the next may be one
    message or two."""
    heard = " ".join(s.conn.announced[n:])
    return heard if heard.endswith(end) else ""


@pytest.mark.parametrize("lang", ["en", "ar", "vi"])
def test_a_lanes_game_against_a_bot_is_announced_move_by_move(tmp_path: Path, lang: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Tapped through the opening: selecting a card says what to do next, each of my moves and the
    bot's reply are said with the cards' names (never a suit symbol), then whose turn it is."""
    from engine.lanes.actions import Play
    from storage import api
    from storage.db import open_storage
    from tests.views.screen import Screen
    from views.app import App, start
    from views.lanes.table import LanesTable

    # one deal, where I move first (a deal from the clock once held no card the test could open with)
    monkeypatch.setattr(App, "new_seed", staticmethod(lambda: 1))
    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, language=lang, bot_speed="fast", sound=False, haptics=False)
    st.close()
    s = Screen(tmp_path / "app.sqlite", start, route="/lanes/new")
    try:
        s.tap(t(lang, "beginner"))
        table = s.wait_for(lambda: isinstance(s.app.screen, LanesTable) and s.app.screen, what="the table")

        def said_last(words: str) -> bool:
            return bool(s.conn.announced) and s.conn.announced[-1].endswith(words)

        def said_just(n: int, words: str) -> bool:
            return s.conn.announced[n:] == [words]

        for _ in range(3):
            s.wait_for(lambda: table.match.my_turn and not table.busy, what="my turn")
            m = table.match
            # the opening: a card on one of my own lanes, as the rules offer it
            move = next(a for a in m.legal() if isinstance(a, Play) and a.owner is None)
            now = t(lang, "opening") if m.observation["in_opening"][0] else t(lang, "your_turn")
            # announcements travel on the page's loop: wait until the one for this turn has arrived
            s.wait_for(partial(said_last, now), what="my turn said")
            before = len(s.conn.announced)
            s.tap(ident=f"hand-{m.observation['hand'].index(str(move.card))}")
            s.wait_for(partial(said_just, before, t(lang, "pick_target")), what="pick a target")
            s.tap(ident=f"lane-0-{move.lane}")
            s.wait_for(lambda: table.match.my_turn and not table.busy, what="the bot's reply")
            bot_move = table.match.explain(table.match.last_events, lang)
            now = t(lang, "opening") if table.match.observation["in_opening"][0] else t(lang, "your_turn")
            theirs = " ".join([spoken_cards(lang, t(lang, "last_move", text=bot_move)), now])
            # my move, then the bot's and my turn: one message or two (views/table/speech.py joins
            # what comes within its gap)
            heard = s.wait_for(partial(heard_since, s, before + 1, theirs), what="the announcements")
            mine = heard[:-len(theirs)]
            assert mine.startswith(t(lang, "last_move", text="").strip()) and card_name(lang, str(move.card)) in mine
        assert not any(g in said for said in s.conn.announced for g in "♠♥♦♣")
    finally:
        s.close()


def test_a_lopti_bots_burst_is_one_announcement(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three seats: after my move the bots play, and the listener hears each of their moves and
    then that it is my turn again, in one message (not one per bot)."""
    from engine.lopti.actions import Keep
    from storage import api
    from storage.db import open_storage
    from tests.views.modes import local
    from tests.views.screen import Screen
    from views.app import App, start
    from views.lopti.table import LoptiTable

    monkeypatch.setattr(App, "new_seed", staticmethod(lambda: 1))  # one deal, the same every run
    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, bot_speed="fast", sound=False, haptics=False, lopti_bots="casual")
    st.close()
    s = Screen(tmp_path / "app.sqlite", start, route="/")
    try:
        s.tap(t("en", "players_n", n=3))
        table = s.wait_for(lambda: isinstance(s.app.screen, LoptiTable) and s.app.screen, what="the Lopti table")
        s.wait_for(lambda: table.match.my_turn and not table.busy, what="my turn")
        assert table.match.legal() and Keep() in table.match.legal()
        s.wait_for(lambda: s.conn.announced[-1:] == [t("en", "lp_setup")], what="the setup said")
        before, mine = len(s.conn.announced), local(table.match).seq
        s.tap(t("en", "keep"))
        statuses = (t("en", "lp_setup"), t("en", "lp_pick"))
        s.wait_for(lambda: table.match.my_turn and not table.busy, what="my turn again")
        # my move, then the burst: one message or two (views/table/speech.py joins what comes within
        # its gap), but the bots' moves are never said one message each with a status of their own
        heard = s.wait_for(partial(heard_since, s, before, statuses), what="the burst said")
        bots = local(table.match).seq - mine - 1  # the bots' moves between mine and my next turn
        assert bots >= 1 and heard.count(t("en", "last_move", text="").strip()) == bots + 1, heard
        assert sum(heard.count(status) for status in statuses) == 1, heard
    finally:
        s.close()


def test_spit_says_what_concerns_the_player_and_not_the_bots_cards(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Spit against a bot: the listener hears that the round waits for a Spit call, that play is
    on, and a refused move with its reason; the bot's cards landing on the piles are not said one
    by one (#47 item 1)."""
    from engine.spit import RULES
    from engine.spit.actions import PlayCard
    from storage import api
    from storage.db import open_storage
    from tests.views.modes import state_of
    from tests.views.screen import Screen
    from views.app import App, start
    from views.spit.table import SpitTable

    monkeypatch.setattr(App, "new_seed", staticmethod(lambda: 5))
    st = open_storage(tmp_path / "app.sqlite")
    api.update_profile(st, sound=False, haptics=False)
    st.close()
    s = Screen(tmp_path / "app.sqlite", start, route="/spit/new")
    try:
        s.tap(t("en", "beginner"))
        table = s.wait_for(lambda: isinstance(s.app.screen, SpitTable) and s.app.screen, what="the Spit table")
        # a round starts with empty centre piles: stuck until someone calls Spit
        s.wait_for(lambda: t("en", "sp_stalled") in s.conn.announced, what="the call for Spit said")
        s.tap(t("en", "spit_call"))
        s.wait_for(lambda: s.conn.announced[-1:] == [t("en", "sp_play")], what="play on said")

        def refused_now() -> tuple[int, int] | None:
            state = state_of(table.game)
            if state.phase != "play":
                return None
            legal = RULES.legal_actions(state, 0)
            sizes = table.game.observation["players"][0]["stock_sizes"]  # a stock with a card on top
            return next(((slot, pile) for slot in range(5) for pile in (0, 1)
                         if sizes[slot] and PlayCard(0, slot, pile) not in legal), None)

        slot, pile = s.wait_for(lambda: s.call(refused_now), what="a card that does not fit")
        before = len(s.conn.announced)
        played_before = s.call(lambda: sum(table.game.observation["pile_sizes"]))
        s.call(lambda: table.on_stock(slot))
        s.call(lambda: table.on_pile(pile))
        refusal = t("en", "not_possible", why="").split(":")[0]
        s.wait_for(lambda: any(m.startswith(refusal) for m in s.conn.announced[before:]), what="the refusal said")
        # the bot plays on: its cards land on the piles and none of them is said
        s.wait_for(lambda: s.call(lambda: sum(table.game.observation["pile_sizes"])) >= played_before + 3
                   or s.call(lambda: table.game.observation["phase"]) != "play", timeout=30, what="the bot's plays")
        heard = s.conn.announced[before:]
        assert 1 <= len(heard) <= 3, heard  # the refusal, and play on again once a move fits
        assert not any(g in m for m in heard for g in "♠♥♦♣")
    finally:
        s.close()
