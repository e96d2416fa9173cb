"""Why a Lanes game ended names the player who ended it (views/lanes/ending.py): resigning, running
out of cards (L-8.2), running out of time (L-8.3) or staying away is the loser's doing."""

from __future__ import annotations

import pytest

from views.lanes.ending import BY_ONE, ending_said
from views.ui.i18n import LANGS, t

NAMES = ["Ann", "Bob"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("reason", BY_ONE)
def test_the_loser_is_told_it_was_them_and_the_winner_is_told_who(lang: str, reason: str) -> None:
    for winner in (0, 1):
        loser = 1 - winner
        to_loser = ending_said(lang, reason, winner, loser, NAMES.__getitem__)
        to_winner = ending_said(lang, reason, winner, winner, NAMES.__getitem__)
        to_watcher = ending_said(lang, reason, winner, None, NAMES.__getitem__)
        assert to_loser == t(lang, f"reason_{reason}_you") and NAMES[loser] not in to_loser
        assert to_winner == to_watcher == t(lang, f"reason_{reason}_by", who=NAMES[loser])
        assert NAMES[loser] in to_winner and NAMES[winner] not in to_winner and "{" not in to_winner
        assert len({to_loser, to_winner, t(lang, f"reason_{reason}")}) == 3


def test_english_words() -> None:
    assert ending_said("en", "resigned", 1, 0, NAMES.__getitem__) == "You resigned."
    assert ending_said("en", "timeout", 0, 0, NAMES.__getitem__) == "Bob ran out of time."
    assert ending_said("en", "out_of_cards", 1, None, NAMES.__getitem__) == "Ann ran out of cards."
    assert ending_said("en", "disconnected", 1, 0, NAMES.__getitem__) == "You were away for a minute."


@pytest.mark.parametrize(("reason", "winner"), [("sold", 0), ("aborted", None), ("resigned", None),
                                                ("resigned", True), ("resigned", 2), ("resigned", "1"), (None, 1)])
def test_an_ending_without_one_player_behind_it_is_said_without_a_name(reason: object, winner: object) -> None:
    """Lanes sold (L-7) and an abort have nobody to name; a winner the lobby sends that is not a
    seat is said without one rather than guessed."""
    said = ending_said("en", reason, winner, 0, NAMES.__getitem__)
    assert said == t("en", f"reason_{reason}") and "Ann" not in said and "Bob" not in said
