"""A throwaway PostgreSQL server for the lobby's PostgreSQL tests (Debian's packages).

``tests/run.py`` installs ``postgresql`` with apt when it runs as root and the server binaries are
missing (as in CI). Each test session gets its own cluster in a temporary directory, listening on a
free port on 127.0.0.1, owned by the ``postgres`` user when we are root (the server refuses to run
as root). With ``CI=true`` a missing PostgreSQL fails the tests instead of skipping them."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.helpers import free_port


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _as_owner(cmd: list[str]) -> list[str]:
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@contextmanager
def postgres() -> Iterator[str]:
    """Start a cluster; yield a SQLAlchemy URL for a fresh database; stop and delete it afterwards."""
    bindir = pg_bin()
    if bindir is None:
        raise FileNotFoundError("PostgreSQL server binaries not found (apt-get install postgresql)")
    root = Path(tempfile.mkdtemp(prefix="lobby-pg-"))
    data = root / "data"
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    port = free_port()
    subprocess.run(_as_owner([str(bindir / "initdb"), "-D", str(data), "-U", "lobby", "--auth=trust",
                              "-E", "UTF8", "--no-sync"]), check=True, stdout=subprocess.DEVNULL)
    opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    subprocess.run(_as_owner([str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-w", "-l", str(root / "log"),
                              "start"]), check=True, stdout=subprocess.DEVNULL)
    try:
        subprocess.run([str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "lobby", "lobby"],
                       check=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        yield f"postgresql+psycopg://lobby@127.0.0.1:{port}/lobby"
    finally:
        subprocess.run(_as_owner([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(root, ignore_errors=True)
