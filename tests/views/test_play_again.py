"""A returning player reaches a table in one tap (#44): each game's tile on home offers its last
opponent again ("Play again — Beginner"), the newest finished game played on this device (not an
online match or an import), and the tap starts that game at once."""

from __future__ import annotations

from pathlib import Path

from storage import api
from storage.db import open_storage
from tests.views.test_screens import open_at, played_lanes_game
from views.lanes.table import LanesTable
from views.ui.i18n import t


def test_home_offers_the_last_opponent_again_and_one_tap_starts_that_game(tmp_path: Path) -> None:
    db = tmp_path / "app.sqlite"
    s = open_at(tmp_path, "/")
    try:
        assert not s.find(ident="again-lanes")  # nothing played yet: nothing to play again
    finally:
        s.close()
    played_lanes_game(db, 0)  # against the Beginner, resigned
    st = open_storage(db)
    before = len(api.history(st, "lanes"))
    st.close()
    s = open_at(tmp_path, "/")
    try:
        again = s.one(ident="again-lanes")
        assert again.content.content == t("en", "play_again_vs", who=t("en", "beginner"))
        assert not s.find(ident="again-spit")  # each game its own
        s.tap(ident="again-lanes")
        table = s.wait_for(lambda: isinstance(s.app.screen, LanesTable) and s.app.screen, what="the Lanes table")
        assert s.call(lambda: table.match.level) == "beginner"
        assert s.page.route.startswith("/play/")
    finally:
        s.close()
    st = open_storage(db)
    assert len(api.history(st, "lanes")) == before and len(api.local_games_in_progress(st, "lanes")) == 1
    st.close()


def test_only_games_played_here_are_offered_again(tmp_path: Path) -> None:
    st = open_storage(tmp_path / "app.sqlite")
    gid = api.new_game(st, "lanes", {}, 3, 2, [{"kind": "person"}, {"kind": "online", "level": "online"}],
                       mode="online")
    api.finish_game(st, gid, 0, "resigned")
    assert api.last_opponent(st, "lanes") is None
    gid = api.new_game(st, "spit", {}, 3, 2, [{"kind": "person"}, {"kind": "person"}], mode="pass_and_play")
    api.finish_game(st, gid, 0, "out_of_cards")
    assert api.last_opponent(st, "spit") == "person"
    st.close()
