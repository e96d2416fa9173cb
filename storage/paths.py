"""Where the database lives.

Order: an explicit path (the ``--db`` flag), the ``CARDTABLE_DB`` environment variable, Flet's
per-app storage directory on mobile (``FLET_APP_STORAGE_DATA``), then the platform's per-user data
directory (XDG on Linux, Application Support on macOS, %APPDATA% on Windows).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_DIR = "cardtable"
FILE_NAME = "cardtable.sqlite"


def user_data_dir() -> Path:
    if os.environ.get("FLET_APP_STORAGE_DATA"):
        return Path(os.environ["FLET_APP_STORAGE_DATA"])
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / APP_DIR
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP_DIR
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / APP_DIR


def database_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    if explicit:
        return Path(explicit)
    if os.environ.get("CARDTABLE_DB"):
        return Path(os.environ["CARDTABLE_DB"])
    return user_data_dir() / FILE_NAME
