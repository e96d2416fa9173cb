"""main.py as a newcomer runs it (the README's first command)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.helpers import free_port


def test_web_mode_says_where_it_serves(tmp_path: Path) -> None:
    """#42: `main.py --web` printed nothing, so a newcomer did not know where to point the browser."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "main.py", "--web", "--port", str(port), "--db", str(tmp_path / "a.db")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == f"Card Table is served at http://127.0.0.1:{port}/ (Ctrl+C stops it)"
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def test_a_seed_deals_the_games_again_in_the_order_they_start(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`--seed N`: the games the app starts take seeds N, N+1, … (a reported deal, or a screenshot
    set, dealt again); without it, or with a value that is not a seed, the clock picks them."""
    import main
    from views import app

    assert main.parse_args(["--seed", "41"]).seed == 41
    with pytest.raises(SystemExit):
        main.parse_args(["--seed", "-1"])
    monkeypatch.setattr(app, "_seeds", {})
    monkeypatch.setenv("CARDTABLE_SEED", "41")
    assert [app.draw_seed() for _ in range(3)] == [41, 42, 43]
    monkeypatch.setenv("CARDTABLE_SEED", "soon")
    clock = app.draw_seed()
    assert clock not in (41, 42, 43, 44) and 0 <= clock <= 0xFFFFFFFF


def test_the_web_renderer_is_flets_choice_unless_asked() -> None:
    """`--renderer`: the browser's Flutter renderer, Flet's own choice by default (skwasm in
    Chromium; CanvasKit measured far slower there, docs/app.md); the names are Flet's own."""
    import flet as ft

    import main

    assert set(main.RENDERERS) == {r.value for r in ft.WebRenderer}
    assert main.parse_args(["--web"]).renderer == "auto"
    assert main.parse_args(["--web", "--renderer", "canvaskit"]).renderer == "canvaskit"
    with pytest.raises(SystemExit):
        main.parse_args(["--renderer", "html"])


def test_the_heap_loaded_at_start_is_out_of_the_collectors_way_before_anyone_is_served(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full garbage collection walked every object the process held, ~110,000 of them loaded at
    start and living as long as it, and every session's events waited ~100 ms on it (docs/app.md,
    tests/bench_gc.py): what the start-up loaded is frozen (``gc.freeze``) before the server takes
    its first page, and what a session makes afterwards is still collected."""
    import gc
    import weakref

    import flet as ft

    import main

    when_served: list[int] = []
    monkeypatch.setattr(ft, "run", lambda *args, **kwargs: when_served.append(gc.get_freeze_count()))
    monkeypatch.setenv("CARDTABLE_DB", str(tmp_path / "a.db"))  # main() notes --db there: undone after
    try:
        main.main(["--web", "--port", str(free_port()), "--db", str(tmp_path / "a.db")])
        assert len(when_served) == 1 and when_served[0] > 10_000, when_served

        class Made:  # a session's garbage, in a cycle: only the collector frees it
            pass

        made = Made()
        made.me = made  # type: ignore[attr-defined]
        gone = weakref.ref(made)
        del made
        gc.collect()
        assert gone() is None
    finally:
        gc.unfreeze()
