"""Seat kinds (#43 item 4): one enum for who sits at a seat, stored as the words earlier versions wrote."""

from __future__ import annotations

import json

from storage.seats import PERSON, SeatKind, seat_levels, stored_seats


def test_seats_stored_and_read_back_are_the_same_words() -> None:
    levels = [PERSON, "expert", "beginner"]
    stored = json.loads(json.dumps(stored_seats(levels)))
    assert stored == [{"kind": "person"}, {"kind": "bot", "level": "expert"}, {"kind": "bot", "level": "beginner"}]
    assert seat_levels(stored) == levels


def test_seats_written_by_earlier_versions_read_as_the_enum() -> None:
    old = [{"kind": "person", "name": "Ann"}, {"kind": "bot"}, {"kind": "online", "level": "online", "name": "Bob"}]
    assert seat_levels(old) == [SeatKind.PERSON, "casual", SeatKind.ONLINE]
    assert SeatKind("person") is PERSON and f"{PERSON}" == "person"
