"""The lobby's hot transactions alone, in one thread: CPU per move on SQLite and on PostgreSQL.

    python tests/bench_lobby_tx.py [--matches 40] [--rounds 8]
    python tests/bench_lobby_tx.py --joined [--matches 100 --rounds 20]

A benchmark, not a test (#34). ``tests/bench_lobby.py`` measures the whole server: HTTP, the
event loop, the thread hop per request. This one calls what the two hot requests call — the
mover's view (``service.quiet_view``) and the move (``service.make_move``), each in its own
transaction through ``Database.run_tx`` — in a loop in this process, on a fresh SQLite file and on
a throwaway PostgreSQL cluster (tests/pg.py), and prints the process's CPU per move and the ratio.
So it shows what the database path costs by itself: the driver, the statements and the round
trips, without threads contending. Both players' views are read each round (2.5 views per move on
average), as the same loop for both databases.

``--joined``: PostgreSQL alone, on the server's event-loop path, a move's writes joined into one
statement (``lobby.rows.later``) against each its own, alternating round by round; prints both and
their ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parent.parent)]

from fastapi.testclient import TestClient  # noqa: E402

from lobby import rows  # noqa: E402
from lobby import service as svc  # noqa: E402
from lobby.app import create_app  # noqa: E402
from lobby.clock import FakeClock  # noqa: E402
from lobby.database import Database  # noqa: E402
from tests.bench_lobby import _postgres_ticks  # noqa: E402
from tests.lobby.conftest import Lobby, postgres_url  # noqa: E402


def matches(url: str, n: int, clock: FakeClock) -> list[tuple[str, str, str]]:
    """``n`` fresh matches on ``url``, made through the API: ``(match id, token a, token b)``."""
    app = create_app(url, clock=clock, run_sweeper=False, rate=100_000, burst=100_000)
    out = []
    with TestClient(app) as client:
        lobby = Lobby(client, clock, app)
        for i in range(n):
            a, b = lobby.player(f"a{i}"), lobby.player(f"b{i}")
            out.append((lobby.match(a, b), a["Authorization"][7:], b["Authorization"][7:]))
    return out


def view(tx: Any, clock: FakeClock, token: str, mid: str) -> Any:
    return svc.quiet_view(tx, clock, svc.authenticate_id(tx, token), mid)


def move(tx: Any, clock: FakeClock, token: str, mid: str, v: dict[str, Any]) -> Any:
    caller = svc.authenticate_id(tx, token)
    return svc.make_move(tx, clock, caller, mid, v["move_count"], f"{token[:8]}-{v['move_count']}", v["legal"][0])


def one_round(db: Database, clock: FakeClock, games: list[tuple[str, str, str]]) -> int:
    """Every match's mover (found by reading the views) makes the first legal move: moves made."""
    made = 0
    for mid, *tokens in games:
        for token in tokens:
            v = db.run_tx(partial(view, clock=clock, token=token, mid=mid), read=True)
            if v["clock"]["to_move"] != v["seat"] or not v["legal"]:
                continue
            assert db.run_tx(partial(move, clock=clock, token=token, mid=mid, v=v)).status == 200
            made += 1
            break
    return made


def cpu_per_move(url: str, n: int, rounds: int) -> float:
    clock = FakeClock()
    games = matches(url, n, clock)
    db = Database(url)
    try:
        one_round(db, clock, games)  # warm: the state cache, prepared statements
        t0, made = time.process_time(), 0
        for _ in range(rounds):
            made += one_round(db, clock, games)
        return 1000 * (time.process_time() - t0) / made
    finally:
        db.close()


async def one_round_on_loop(db: Database, clock: FakeClock, games: list[tuple[str, str, str]]) -> int:
    """:func:`one_round` as the server runs it on PostgreSQL: each transaction on the event loop."""
    made = 0
    for mid, *tokens in games:
        for token in tokens:
            v = await db.run_db(partial(view, clock=clock, token=token, mid=mid), read=True)
            if v["clock"]["to_move"] != v["seat"] or not v["legal"]:
                continue
            assert (await db.run_db(partial(move, clock=clock, token=token, mid=mid, v=v))).status == 200
            made += 1
            break
    return made


def joined_or_not(n: int, rounds: int) -> None:
    """A move's writes joined into one statement (``lobby.rows.later``) against each its own
    statement, on PostgreSQL with the server's event-loop path, alternating round by round in one
    run: this process's CPU per move, the PostgreSQL server's, and the ratios (joined / apart)."""
    url = postgres_url()
    clock = FakeClock()
    games = matches(url, n, clock)
    db = Database(url)
    spent = {True: [0.0, 0, 0], False: [0.0, 0, 0]}  # process seconds, server ticks, moves

    async def run() -> None:
        await one_round_on_loop(db, clock, games)  # warm: the state cache, prepared statements
        for r in range(2 * rounds):
            rows.JOIN_WRITES = joined = r % 2 == 0
            t0, s0 = time.process_time(), _postgres_ticks()
            made = await one_round_on_loop(db, clock, games)
            d = spent[joined]
            d[0] += time.process_time() - t0
            d[1] += _postgres_ticks() - s0
            d[2] += made
        if db.hot_pool is not None:
            await db.hot_pool.close()

    try:
        asyncio.run(run())
    finally:
        rows.JOIN_WRITES = True
        db.close()
    tick = 1000 / os.sysconf("SC_CLK_TCK")
    own = {k: 1000 * v[0] / v[2] for k, v in spent.items()}
    server = {k: tick * v[1] / v[2] for k, v in spent.items()}
    for k, label in ((False, "each write its own statement"), (True, "writes joined")):
        print(f"PostgreSQL on the event loop, {label}: this process {own[k]:.3f} ms per move, "
              f"the PostgreSQL server {server[k]:.3f} ms ({spent[k][2]} moves)")
    print(f"ratios joined / apart: this process {own[True] / own[False]:.2f}, "
          f"the server {server[True] / server[False]:.2f}, both "
          f"{(own[True] + server[True]) / (own[False] + server[False]):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--joined", action="store_true", help="compare joined and separate writes (PostgreSQL)")
    args = ap.parse_args()
    if args.joined:
        joined_or_not(args.matches, args.rounds)
        return
    lite = cpu_per_move(f"sqlite:///{tempfile.mkdtemp()}/tx.sqlite", args.matches, args.rounds)
    pg = cpu_per_move(postgres_url(), args.matches, args.rounds)
    print(f"CPU per move (its views and the move, in-process, one thread): SQLite {lite:.2f} ms, "
          f"PostgreSQL {pg:.2f} ms, ratio {pg / lite:.2f}")


if __name__ == "__main__":
    main()
