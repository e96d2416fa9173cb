"""The code's shape, as the project's habits ask (#17): no function outside tests is longer than a
screen (60 lines), so each can be read whole; ruff holds complexity (C901) and the rest."""

from __future__ import annotations

import ast

from tests.conftest import ROOT

LIMIT = 60
PACKAGES = ("engine", "storage", "lobby", "views")


def too_long(source: str, where: str) -> list[str]:
    """The functions of ``source`` longer than LIMIT lines, as ``where:line name (n lines)``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None:
            lines = node.end_lineno - node.lineno + 1
            if lines > LIMIT:
                found.append(f"{where}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_function_outside_tests_is_longer_than_a_screen() -> None:
    files = [ROOT / "main.py", *(p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py")))]
    assert len(files) > 100  # every module of the four packages is read
    found = [f for path in files for f in too_long(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert found == []


def test_the_limit_is_sixty_lines_from_def_to_the_last_line() -> None:
    def function(lines: int) -> str:
        return "def f():\n" + "    x = 1\n" * (lines - 1)

    assert too_long(function(LIMIT), "m") == []
    assert too_long(function(LIMIT + 1), "m") == ["m:1 f (61 lines)"]
    assert too_long("class C:\n    async " + function(LIMIT + 5).replace("\n", "\n    "), "m") == ["m:2 f (65 lines)"]
