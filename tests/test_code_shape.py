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


def modules_of(*packages: str) -> dict[str, ast.Module]:
    """Every module of ``packages`` by its dotted name, parsed."""
    found = {}
    for path in sorted(p for package in packages for p in (ROOT / package).rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found[name] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def view_modules() -> dict[str, ast.Module]:
    return modules_of("views")


def imported(tree: ast.Module, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``tree`` imports anywhere: at the top, inside a function (a
    lazy import) or under ``TYPE_CHECKING`` — each is a dependency a reader has to follow."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            submodules = {f"{node.module}.{a.name}" for a in node.names} & known
            # "from engine.bots import lopti_infer" depends on that module, not on the package's own code
            out |= submodules if len(submodules) == len(node.names) else {node.module, *submodules}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return out & known


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph`` (its strongly connected parts of more than one module)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        order[v] = low[v] = len(order)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in order:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], order[w])
        if low[v] == order[v]:
            part = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in order:
            visit(v)
    return found


def test_no_view_imports_the_app_shell_not_even_for_its_type() -> None:
    """#43 item 1: screens and tables are typed against views.host.Host; views.app is reached only
    from the start path (main.py), so no screen depends on the shell that shows it."""
    modules = view_modules()
    assert "views.host" in modules and "views.app" in modules
    importers = sorted(name for name, tree in modules.items() if "views.app" in imported(tree, {"views.app"}))
    assert importers == []
    assert imported(modules["views.host"], set(modules)) <= {"views.table.feedback", "views.table.screen",
                                                             "views.ui.prefs"}  # a leaf: no screen


def test_no_package_imports_in_a_circle() -> None:
    """#43 items 1 and 5: 17 files formed one circle around views.app, stats ↔ review another, and
    engine/lopti's actions ↔ record ↔ state a third."""
    modules = modules_of(*PACKAGES)
    graph = {name: imported(tree, set(modules)) - {name} for name, tree in modules.items()}
    assert sum(map(len, graph.values())) > 400  # the graph was read
    assert circles(graph) == []


def test_the_circle_finder_finds_circles() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def named_games(tree: ast.Module) -> list[int]:
    """Lines of ``tree`` that compare something with a game's name (``game == "lanes"``, ``in
    ("lanes", …)``): a dispatch on the game instead of its record."""
    from engine.games import GAMES

    def names(node: ast.expr) -> set[object]:
        elts = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
        return {e.value for e in elts if isinstance(e, ast.Constant)}

    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Compare)
            and any(names(side) & set(GAMES) for side in [n.left, *n.comparators])]


def test_screens_shared_by_the_games_never_name_a_game() -> None:
    """#43 item 2: a screen every game uses asks the game's record (views/games.py); only a game's
    own package says its name (14 such dispatches before, the last two were the replay's and the
    opponent screen's)."""
    own = tuple(f"views.{g}." for g in ("lanes", "lopti", "spit"))
    found = {name: lines for name, tree in view_modules().items()
             if not name.startswith(own) and (lines := named_games(tree))}
    assert found == {}
    assert named_games(ast.parse('if game == "spit" or kind in ("lopti", "x"): pass')) == [1, 1]


def flet_updates(tree: ast.Module) -> list[int]:
    """Lines of ``tree`` that ask Flet to update: ``x.update()`` (a control, or the whole page) or
    ``page.update(…)`` (a set's ``update(items)`` has arguments and is not a page's)."""
    def is_page(node: ast.expr) -> bool:
        return (isinstance(node, ast.Name) and node.id == "page"
                or isinstance(node, ast.Attribute) and node.attr == "page")

    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "update" and (not n.args and not n.keywords or is_page(n.func.value))]


def test_one_way_to_update_the_screen() -> None:
    """#44: a screen or table changes what it shows through views/ui/reconcile.py only — ``show``
    (a part described afresh, reconciled onto what is shown) or ``send`` (controls changed in
    place) — which sends just the controls that changed. A ``control.update()`` or a whole
    ``page.update()`` elsewhere is a second way (there were thirty)."""
    found = {name: lines for name, tree in view_modules().items()
             if name != "views.ui.reconcile" and (lines := flet_updates(tree))}
    assert found == {}
    assert flet_updates(ast.parse("app.page.update()\nlabel.update()\npage.update(x)\nseen.update(more)")) == [1, 2, 3]
    assert flet_updates(view_modules()["views.ui.reconcile"])  # the one place (the check reads calls)


#: the uses of ``typing.Any`` in views/ (#43 item 3: at most 60, from 306; now 50, and it may only go down).
#: What is left is JSON: the lobby's answers and Lopti's house-rule documents as drafted
ANY_CEILING = 50


def test_views_use_any_no_more_than_the_ceiling() -> None:
    uses = sum(isinstance(n, ast.Name) and n.id == "Any" or isinstance(n, ast.Attribute) and n.attr == "Any"
               for tree in view_modules().values() for n in ast.walk(tree))
    assert 0 < uses <= ANY_CEILING


def test_seat_kinds_are_named_by_the_enum_not_spelled() -> None:
    """#43 item 4: a seat's kind is storage.seats.SeatKind; a "person" spelled out in views/ (outside
    docstrings) is how the 28 literals crept in ("online" is also a route and a word, so it is not
    checked)."""
    spelled = []
    for name, tree in view_modules().items():
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr)}
        spelled += [f"{name}:{n.lineno}" for n in ast.walk(tree) if isinstance(n, ast.Constant)
                    and n.value in ("person", "bot") and id(n) not in docstrings]
    assert spelled == []


def test_font_sizes_come_from_the_type_scale() -> None:
    """#43 item 6: a screen names a line's role (views/ui/theme.py TYPE_BODY, TYPE_TITLE…), never its
    size: 157 sizes were written out as numbers across views/."""
    written = []
    for name, tree in view_modules().items():
        if name == "views.ui.theme":
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            sizes = [node.args[2]] if called == "text" and len(node.args) >= 3 else []
            sizes += [kw.value for kw in node.keywords if kw.arg == "size" and called in ("text", "Text")]
            written += [f"{name}:{s.lineno}" for s in sizes if isinstance(s, ast.Constant)]
    assert written == []


def written_spacings(tree: ast.AST) -> list[int]:
    """The lines of ``tree`` that write a gap or a padding as a number (``spacing=4``,
    ``padding=ft.Padding.all(16)``, ``pad2(8, 4)``) instead of naming a step of the scale."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        owner = func.value.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute) \
            else func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""
        values = [kw.value for kw in node.keywords if kw.arg in ("spacing", "run_spacing", "padding")]
        if called == "pad2" or owner == "Padding":
            values += [*node.args, *(kw.value for kw in node.keywords)]
        lines += [v.lineno for v in values if isinstance(v, ast.Constant) and isinstance(v.value, (int, float))]
    return sorted(lines)


def test_spacings_come_from_the_spacing_scale() -> None:
    """#43 item 6: a gap between controls and a padding is a step of views/ui/theme.py's spacing scale
    (SPACE_TIGHT, SPACE…), never a number of its own: ~140 were written out, in 14 sizes."""
    written = [f"{name}:{line}" for name, tree in view_modules().items() if name != "views.ui.theme"
               for line in written_spacings(tree)]
    assert written == []


def test_the_spacing_check_sees_each_way_of_writing_a_number() -> None:
    tree = ast.parse("ft.Column(c, spacing=4)\nft.Container(padding=ft.Padding.all(16))\npad2(8, theme.SPACE)\n"
                     "ft.Row(run_spacing=2)\nft.Padding.symmetric(horizontal=5)\nft.Row(spacing=theme.SPACE)")
    assert written_spacings(tree) == [1, 2, 3, 4, 5]


def test_colours_come_from_the_theme() -> None:
    """#43 item 6: every colour is named in views/ui/theme.py (the cloth's fixed colours and the
    page's Material roles); no other module writes ft.Colors.X or a "#RRGGBB" of its own."""
    import re

    written = []
    for name, tree in view_modules().items():
        if name == "views.ui.theme":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                    and node.value.attr == "Colors":
                written.append(f"{name}:{node.lineno} Colors.{node.attr}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?", node.value):
                written.append(f"{name}:{node.lineno} {node.value}")
    assert written == []


def test_waits_are_named_in_the_theme() -> None:
    """#43 item 6: how long a screen waits before it looks again is a named timing in
    views/ui/theme.py (LOBBY_POLL_S, CLOCK_TICK_S…), never a number in a sleep."""
    written = [f"{name}:{node.lineno}" for name, tree in view_modules().items() for node in ast.walk(tree)
               if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "sleep"
               and node.args and isinstance(node.args[0], ast.Constant)]
    assert written == []
