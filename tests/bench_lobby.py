"""Lobby load benchmark (a script, not a test): starts `python -m lobby` on 127.0.0.1 with a fresh
SQLite file, opens N concurrent clocked matches and drives them from this process for a while;
prints moves per second and the move round-trip p50/p99.

    python tests/bench_lobby.py [--matches 1000] [--seconds 30] [--inflight 64] [--rate 200]

Without ``--rate`` every match moves as fast as it can (saturation: the most moves per second, and
the latency of a server that is never idle). With ``--rate R`` the matches together offer R moves
per second, spread evenly (each of N matches moves every N/R seconds, as players thinking would):
the latency a player sees at that load — the issue's target is 1,000 matches at 200 moves/s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--inflight", type=int, default=64)
    ap.add_argument("--rate", type=float, default=0.0, help="offered moves per second (0: as fast as possible)")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp()
    port = free_port()
    env = {**os.environ, "LOBBY_RATE": "1000", "LOBBY_BURST": "1000"}
    proc = subprocess.Popen([sys.executable, "-m", "lobby", "--port", str(port), "--db",
                             f"sqlite:///{tmp}/bench.sqlite"], cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                await asyncio.sleep(0.2)
        limits = httpx.Limits(max_connections=args.inflight, max_keepalive_connections=args.inflight)
        async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
            sem = asyncio.Semaphore(args.inflight)

            async def call(method: str, path: str, token: str | None = None, **kw: object) -> httpx.Response:
                async with sem:
                    headers = {"Authorization": f"Bearer {token}"} if token else {}
                    for attempt in range(3):  # a kept-alive connection the server just closed: retry
                        try:
                            return await http.request(method, path, headers=headers, **kw)  # type: ignore[arg-type]
                        except httpx.TransportError:
                            if attempt == 2:
                                raise
                    raise AssertionError("unreachable")

            t0 = time.perf_counter()

            async def new_pair(i: int) -> tuple[str, str, str]:
                a = (await call("POST", "/players", json={"name": f"a{i}"})).json()["token"]
                b = (await call("POST", "/players", json={"name": f"b{i}"})).json()["token"]
                terms = {"rated": True, "time_control": "10+5"}
                code = (await call("POST", "/challenges", a, json=terms)).json()["code"]
                mid = (await call("POST", f"/challenges/{code}/accept", b)).json()["match_id"]
                return a, b, mid
            pairs = await asyncio.gather(*(new_pair(i) for i in range(args.matches)))
            print(f"set up {len(pairs)} matches in {time.perf_counter() - t0:.1f} s", flush=True)
            latencies: list[float] = []
            moves = 0
            stop = time.perf_counter() + args.seconds

            async def drive(a: str, b: str, mid: str) -> None:
                """Two requests per move, as a client with an open event stream makes: the mover's
                view, then the move."""
                nonlocal moves
                v = (await call("GET", f"/matches/{mid}", a)).json()
                token = a if v["clock"]["to_move"] == v["seat"] else b
                while time.perf_counter() < stop:
                    mine = (await call("GET", f"/matches/{mid}", token)).json()
                    if mine.get("status") != "running" or not mine["legal"]:
                        return
                    body = {"expected_move": mine["move_count"], "client_move_id": f"{mid}-{mine['move_count']}",
                            "action": mine["legal"][0]}
                    t = time.perf_counter()
                    r = await call("POST", f"/matches/{mid}/moves", token, json=body)
                    latencies.append((time.perf_counter() - t) * 1000)
                    if r.status_code == 200:
                        moves += 1
                    token = b if token == a else a
            async def paced(a: str, b: str, mid: str, offset: float, period: float) -> None:
                """One match moving every ``period`` seconds from ``offset`` (a view, then the move)."""
                nonlocal moves
                v = (await call("GET", f"/matches/{mid}", a)).json()
                token = a if v["clock"]["to_move"] == v["seat"] else b
                due = time.perf_counter() + offset
                while True:
                    await asyncio.sleep(max(0.0, due - time.perf_counter()))
                    if time.perf_counter() >= stop:
                        return
                    mine = (await call("GET", f"/matches/{mid}", token)).json()
                    if mine.get("status") != "running" or not mine["legal"]:
                        return
                    body = {"expected_move": mine["move_count"], "client_move_id": f"{mid}-{mine['move_count']}",
                            "action": mine["legal"][0]}
                    t = time.perf_counter()
                    r = await call("POST", f"/matches/{mid}/moves", token, json=body)
                    latencies.append((time.perf_counter() - t) * 1000)
                    if r.status_code == 200:
                        moves += 1
                    token = b if token == a else a
                    due += period

            start = time.perf_counter()
            if args.rate > 0:
                period = len(pairs) / args.rate
                await asyncio.gather(*(paced(*p, offset=period * i / len(pairs), period=period)
                                       for i, p in enumerate(pairs)))
            else:
                await asyncio.gather(*(drive(*p) for p in pairs))
            elapsed = time.perf_counter() - start
            lat = sorted(latencies)
            p50 = lat[len(lat) // 2] if lat else 0.0
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else 0.0
            mode = f"offered {args.rate:.0f} moves/s" if args.rate > 0 else "as fast as possible"
            print(f"lobby  {args.matches} concurrent matches ({mode})  {moves / elapsed:7.1f} moves/s  "
                  f"move round-trip p50 {p50:.1f} ms  p99 {p99:.1f} ms  ({moves} moves in {elapsed:.1f} s, "
                  f"{args.inflight} requests in flight)")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    asyncio.run(main())
