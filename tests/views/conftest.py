"""Fixtures shared by the view tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.db import open_storage
from views.ui.reconcile import Parts


@pytest.fixture
def st(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A fresh app database, closed after the test."""
    s = open_storage(tmp_path / "ui.sqlite")
    yield s
    s.close()


@pytest.fixture(autouse=True)
def parts_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every part a table keeps is also built and compared (views/ui/reconcile.py ``Parts``): each
    screen test checks that what a kept part is drawn from names all it shows."""
    monkeypatch.setattr(Parts, "check", True)
