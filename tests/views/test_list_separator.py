"""#47 item 6: parts said together are joined the language's way — Arabic with "،", not a Latin
comma — wherever views/ joins them (a lane's spoken label, a deal's places, a rule's effects, the
opponents of a game in progress, the stats' levels, a rating history)."""

from __future__ import annotations

import ast

from tests.conftest import ROOT
from views.ui.i18n import listed, t


def test_parts_are_joined_the_languages_way() -> None:
    parts = ["23", t("ar", "dir_up"), t("ar", "suit_H")]
    assert listed("ar", parts) == f"23، {parts[1]}، {parts[2]}"
    assert listed("en", ["23", "ascending"]) == "23, ascending"
    assert listed("vi", []) == ""


def test_no_view_joins_with_a_latin_comma() -> None:
    joined = []
    for path in sorted((ROOT / "views").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" \
                    and isinstance(node.func.value, ast.Constant) and str(node.func.value.value).strip() == ",":
                joined.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert joined == []
