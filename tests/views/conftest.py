"""Fixtures shared by the view tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.db import open_storage


@pytest.fixture
def st(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A fresh app database, closed after the test."""
    s = open_storage(tmp_path / "ui.sqlite")
    yield s
    s.close()
