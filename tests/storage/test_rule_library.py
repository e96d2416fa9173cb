"""The rule library (#36 item 6): a Lopti rule — an engine rule or a table rule in words — saved
once, checked on the way in, and carried by the data export and import."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.lopti.templates import TEMPLATES
from storage import api
from storage.db import open_storage

TABLE: dict[str, Any] = {"id": "table-1-0", "table": "Whoever plays a queen sings.", "author": 0}


@pytest.fixture
def st(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = open_storage(tmp_path / "app.sqlite")
    yield s
    s.close()


def test_engine_and_table_rules_are_saved_once_and_bad_ones_refused(st: Any) -> None:
    first = api.save_preset(st, "lopti_rule", "eights", TEMPLATES[0])
    words = api.save_preset(st, "lopti_rule", TABLE["table"], TABLE)
    assert api.save_preset(st, "lopti_rule", "eights again", TEMPLATES[0]) == first  # kept once
    assert [(i, d) for i, _, d in api.presets(st, "lopti_rule")] == [(first, TEMPLATES[0]), (words, TABLE)]
    for bad in ({**TEMPLATES[0], "do": []}, {"id": "t", "table": " "}, {"id": "t", "table": "x" * 201}, None):
        with pytest.raises(ValueError):
            api.save_preset(st, "lopti_rule", "bad", bad)
    api.delete_preset(st, words)
    assert [i for i, _, _ in api.presets(st, "lopti_rule")] == [first]


def test_the_library_goes_with_the_data_export_and_a_bad_item_stores_nothing(tmp_path: Path) -> None:
    src = open_storage(tmp_path / "src.sqlite")
    api.save_preset(src, "lopti_rule", "eights", TEMPLATES[0])
    api.save_preset(src, "lopti_rule", TABLE["table"], TABLE)
    api.save_preset(src, "lanes_variants", "mine", [])
    text = api.export_all(src)
    src.close()
    dst = open_storage(tmp_path / "dst.sqlite")
    try:
        broken = json.loads(text)
        broken["library"][1]["data"] = {"id": "t", "table": ""}
        with pytest.raises(api.ImportError_, match="library item 2"):
            api.import_all(dst, json.dumps(broken))
        assert api.presets(dst, "lopti_rule") == []  # nothing of the archive was stored
        assert api.import_all(dst, text) == (0, 0)
        assert api.import_all(dst, text) == (0, 0)  # a second import keeps each rule once
        assert [d for _, _, d in api.presets(dst, "lopti_rule")] == [TEMPLATES[0], TABLE]
        assert [n for _, n, _ in api.presets(dst, "lanes_variants")] == ["mine"]
        old = {k: v for k, v in json.loads(text).items() if k != "library"}  # an archive from before the library
        assert api.import_all(dst, json.dumps(old)) == (0, 0)
    finally:
        dst.close()
