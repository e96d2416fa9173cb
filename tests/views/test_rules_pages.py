"""The rules pages teach every numbered rule (#23): each id defined in ../shared/rules/<game>.md
appears on its game's page (assets/rules/<game>.json) with its text in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from views.ui.i18n import LANGS
from views.ui.rules_pages import page

PREFIX = {"lanes": "L", "lopti": "P", "spit": "S"}


def rule_ids(shared: Path, game: str) -> list[str]:
    """Every rule the rules file defines: a list item that starts with its id (``- L-8.3a …``)."""
    text = (shared / "rules" / f"{game}.md").read_text(encoding="utf-8")
    return re.findall(rf"^- ({PREFIX[game]}-\d+(?:\.\d+)?[a-z]?)\b", text, re.M)


@pytest.mark.parametrize("game", sorted(PREFIX))
def test_every_numbered_rule_is_on_its_games_page_in_every_language(shared_dir: Path, game: str) -> None:
    ids = rule_ids(shared_dir, game)
    assert len(ids) >= 20  # the rules file was read
    items = [it for sec in page(game).sections for it in sec.items]
    shown = {it.rule for it in items}
    assert [i for i in ids if i not in shown] == []
    for it in items:
        if it.rule in ids:
            assert all(it.text[lang].strip() for lang in LANGS), it.rule
