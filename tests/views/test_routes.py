"""The route table (views/routes.py, #43 item 2): each destination is one (pattern, screen, parent)
row; a route that matches none, or a part of the wrong kind, is no screen."""

from __future__ import annotations

import pytest

from views.routes import match, parent

CASES = [  # route, the pattern it is, its named parts, where back goes
    ("/", "/", {}, "/"),
    ("/settings", "/settings", {}, "/"),
    ("/stats?from=home", "/stats", {}, "/"),
    ("/learn/lopti", "/learn/<game>", {"game": "lopti"}, "/"),
    ("/lesson/lanes-3-suit", "/lesson/<name>", {"name": "lanes-3-suit"}, "/learn/lanes"),
    ("/lesson/no-such-lesson", "/lesson/<name>", {"name": "no-such-lesson"}, "/learn"),
    ("/rules/spit", "/rules/<game>", {"game": "spit"}, "/"),
    ("/play/12", "/play/<id>", {"id": 12}, "/"),
    ("/replay/7", "/replay/<id>", {"id": 7}, "/stats"),
    ("/review/7/", "/review/<id>", {"id": 7}, "/stats"),
    ("/lanes/new", "/<game>/new", {"game": "lanes"}, "/"),
    ("/lopti/new", "/<game>/new", {"game": "lopti"}, "/"),
    ("/lopti/session/3", "/<game>/<rest>", {"game": "lopti", "rest": ["session", "3"]}, "/"),
]


@pytest.mark.parametrize(("route", "pattern", "parts", "back"), CASES)
def test_each_route_is_one_row_of_the_table(route: str, pattern: str, parts: dict[str, object], back: str) -> None:
    found = match(route)
    assert found is not None
    row, named = found
    assert row.pattern == pattern
    assert {k: getattr(named, k) for k in parts} == parts
    assert parent(route) == back


@pytest.mark.parametrize("route", ["/nowhere", "/play/abc", "/play/1234567890123", "/replay", "/rules/chess",
                                   "/chess/new", "/settings/extra", "/learn/lanes/more"])
def test_a_route_of_no_row_is_no_screen(route: str) -> None:
    assert match(route) is None
    assert parent(route) == "/"
