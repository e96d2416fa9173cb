"""The lobby's address: which one the app uses, and what counts as an address.

The player's own choice (Settings → Online, stored in the profile as ``lobby_url``) wins. Without
one the app uses the built-in address: ``CARDTABLE_LOBBY`` in the environment (web and desktop), else
``[tool.cardtable] lobby`` in the packaged ``pyproject.toml`` (the setting an operator fills in
before ``flet build``; docs/app.md, "Build for phones"). Never loopback by default: on a phone
127.0.0.1 is the phone itself. With neither set there is no address, and the online screens ask for
one instead of calling anything.
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

ENV = "CARDTABLE_LOBBY"
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
_PATH = re.compile(r"[A-Za-z0-9._~/-]*")


class BadAddress(ValueError):
    """Not a lobby address; ``reason`` names what is wrong (``empty``, ``scheme``, ``host``, ``port``,
    ``extra``), for a message in the player's language."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def normalise(text: str) -> str:
    """``scheme://host[:port][/path]`` with the scheme and host in lower case and no trailing slash,
    or :class:`BadAddress`. http and https only; a host name, IPv4 or [IPv6] address; a port from 1
    to 65535; no user name, password, query or fragment."""
    raw = text.strip()
    if not raw:
        raise BadAddress("empty")
    try:
        parts = urlsplit(raw)
    except ValueError as exc:  # a malformed [IPv6] host
        raise BadAddress("host") from exc
    if "://" not in raw or parts.scheme.lower() not in ("http", "https"):
        raise BadAddress("scheme")
    if parts.username is not None or parts.password is not None or parts.query or parts.fragment \
            or "?" in raw or "#" in raw or not _PATH.fullmatch(parts.path):
        raise BadAddress("extra")
    host = _host(parts.netloc, parts.hostname)
    try:
        port = parts.port
    except ValueError as exc:
        raise BadAddress("port") from exc
    if (port is not None and not 1 <= port <= 65535) or parts.netloc.endswith(":"):
        raise BadAddress("port")
    return f"{parts.scheme.lower()}://{host}{'' if port is None else f':{port}'}{parts.path.rstrip('/')}"


def _host(netloc: str, hostname: str | None) -> str:
    if not hostname:
        raise BadAddress("host")
    if netloc.split("@")[-1].startswith("["):
        try:
            return f"[{ipaddress.IPv6Address(hostname)}]"
        except ValueError as exc:
            raise BadAddress("host") from exc
    if len(hostname) > 253 or not _HOST.fullmatch(hostname):
        raise BadAddress("host")
    return hostname


def built_in() -> str:
    """The address the app starts with: ``CARDTABLE_LOBBY``, else the build's setting, else ``""``.
    A malformed one counts as none (the player is asked), never as a crash."""
    for candidate in (os.environ.get(ENV, ""), _build_setting()):
        try:
            return normalise(candidate)
        except BadAddress:
            continue
    return ""


def _build_setting() -> str:
    try:
        data = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    value = data.get("tool", {}).get("cardtable", {}).get("lobby", "")
    return value if isinstance(value, str) else ""


def current(stored: object) -> str:
    """The address to use: the player's stored choice when it is a valid address, else the built-in."""
    if isinstance(stored, str):
        try:
            return normalise(stored)
        except BadAddress:
            pass
    return built_in()
