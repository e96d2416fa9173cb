"""``python -m lobby [--host 127.0.0.1] [--port 8600] [--db URL] [--workers N]``."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys

#: the lobby's own packages, installed by the ``lobby`` extra (the app and its phone build carry none)
SERVER_PACKAGES = ("fastapi", "uvicorn", "orjson")
INSTALL_HINT = "The lobby needs its own packages: pip install -e \".[lobby]\" (from the project root)"


def missing_server_packages() -> list[str]:
    return [name for name in SERVER_PACKAGES if importlib.util.find_spec(name) is None]


def main(argv: list[str] | None = None) -> int:
    if missing_server_packages():
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    import uvicorn

    ap = argparse.ArgumentParser(description="Card Table lobby: online rated, timed Lanes matches")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8600)
    ap.add_argument("--db", default=os.environ.get("LOBBY_DB", "sqlite:///lobby.sqlite"),
                    help="database URL (default: a local SQLite file; PostgreSQL for several workers)")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    if args.workers > 1 and args.db.startswith("sqlite"):
        ap.error("several workers need PostgreSQL (--db postgresql://…); SQLite serves one worker")
    if args.workers < 1:
        ap.error("--workers must be at least 1")
    os.environ["LOBBY_DB"] = args.db
    uvicorn.run("lobby.app:create_app", factory=True, host=args.host, port=args.port, workers=args.workers,
                log_level="warning", access_log=False,
                proxy_headers=False)  # X-Forwarded-For is judged by lobby.ratelimit (trusted proxies only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
