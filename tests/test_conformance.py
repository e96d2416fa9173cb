"""The conformance interface: public examples, our golden cases, and robustness on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.conformance import handle
from tests.conftest import ROOT, SHARED

CHECKER = SHARED / "tools" / "conformance_check.py"
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.jsonl"))
IMPLEMENTED = ("lanes", "lopti", "spit")


def _check(path: Path) -> None:
    proc = subprocess.run([sys.executable, str(CHECKER), str(path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " 0 failed" in proc.stdout


@pytest.mark.parametrize("game", IMPLEMENTED)
def test_public_examples_pass(game: str) -> None:
    _check(SHARED / "conformance" / f"{game}-examples.jsonl")


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_golden_cases_pass(path: Path) -> None:
    _check(path)


def test_output_is_one_line_per_input_line_even_for_garbage() -> None:
    lines = ['{"id": 1, "game": "lanes"}', "not json", "[1,2]", '{"id": 4, "game": "chess", "position": {}}',
             '{"id": 5, "game": "lanes", "position": {"players": []}, "extra": 1}', '"text"', "{}"]
    proc = subprocess.run([sys.executable, "-m", "engine.conformance"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == len(lines) and all(o["ok"] is False for o in out)
    assert out[0]["error"]["code"] == "bad_request" and out[4]["error"]["code"] == "bad_request"


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.text(max_size=4),
                      st.sampled_from(["5H", "10S", "JK", "KC", "AS", "2D", "QH", "JD"]))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(
        ["hand", "deck", "discard", "lanes", "players", "to_move", "play", "lane", "owner", "stack",
         "discard", "disband", "resign", "player", "in_opening", "held_direction", "variants"]), inner, max_size=5)),
    max_leaves=25)


@given(json_value, st.lists(json_value, max_size=4), st.sampled_from(["lanes", "lopti", "spit"]))
def test_fuzz_requests_never_crash(position: object, actions: list[object], game: str) -> None:
    resp = handle({"id": "f", "game": game, "options": {}, "position": position, "actions": actions})
    assert isinstance(resp["ok"], bool)
    if not resp["ok"]:
        assert resp["error"]["code"] in ("bad_request", "bad_position", "illegal_action")
        assert resp["error"]["code"] != "bad_request" or "internal error" not in resp["error"]["message"]


@given(st.lists(json_value, max_size=6))
def test_fuzz_actions_on_a_valid_lanes_position(actions: list[object]) -> None:
    position = {"to_move": 0, "players": [
        {"hand": ["5H", "KS", "JK", "QD", "JC"], "deck": ["2C"], "discard": [], "lanes": [[["7H"]], [["9S"]], []]},
        {"hand": ["4C"], "deck": ["7C"], "discard": [], "lanes": [[["3H"]], [], [["10D", "KH"]]]}]}
    resp = handle({"id": "f", "game": "lanes", "options": {}, "position": position, "actions": actions})
    if not resp["ok"]:
        assert resp["error"]["code"] in ("bad_request", "illegal_action")
        assert "internal error" not in resp["error"]["message"]
        assert isinstance(resp["error"]["index"], int)
