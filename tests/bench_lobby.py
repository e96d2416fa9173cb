"""Lobby load benchmark (a script, not a test): starts `python -m lobby` on 127.0.0.1 with a fresh
SQLite file (or a throwaway PostgreSQL cluster, ``--db pg``, with ``--workers N``), opens N
concurrent clocked matches and drives them from this process for a while; prints moves per second,
the move round-trip p50/p99 and the server's CPU per move (all its worker processes).

    python tests/bench_lobby.py [--matches 1000] [--seconds 30] [--inflight 64] [--rate 200]
    python tests/bench_lobby.py --find-max [--db pg --workers 2]
    python tests/bench_lobby.py --compare [--matches 300 --seconds 10]

``--compare`` runs ``--find-max`` for SQLite with one worker and PostgreSQL with one and two, in one
run, and prints the three rows (moves/s held, the lobby's CPU per move, the PostgreSQL server's)
with the ratios #34 targets.

``--find-max`` offers rising rates (fresh matches each step), then 50 moves/s steps between the last
rate held and the first missed, and prints the highest rate held with a move p99 of at most 50 ms —
the figure docs/lobby.md's performance log keeps.

Without ``--rate`` every match moves as fast as it can (saturation: the most moves per second, and
the latency of a server that is never idle). With ``--rate R`` the matches together offer R moves
per second, spread evenly (each of N matches moves every N/R seconds, as players thinking would):
the latency a player sees at that load — the issue's target is 1,000 matches at 200 moves/s.

The driver speaks HTTP/1.1 over a pool of kept-alive asyncio connections itself: httpx costs more
CPU per request than the lobby does, and on a 2-core machine the measuring client would otherwise
be what is measured (a bare FastAPI endpoint: ~280 requests/s through httpx, ~2,500 through this).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers import free_port  # noqa: E402  (after the path it is found on)


class Pool:
    """At most ``size`` kept-alive connections; one request at a time on each."""

    def __init__(self, port: int, size: int) -> None:
        self.port = port
        self.idle: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter] | None] = asyncio.Queue()
        for _ in range(size):
            self.idle.put_nowait(None)  # opened on first use

    async def request(self, method: str, path: str, token: str | None = None,
                      body: Any = None) -> tuple[int, Any]:
        conn = await self.idle.get()
        try:
            for attempt in range(3):
                if conn is None:
                    conn = await asyncio.open_connection("127.0.0.1", self.port)
                reader, writer = conn
                data = json.dumps(body).encode() if body is not None else b""
                head = f"{method} {path} HTTP/1.1\r\nHost: lobby\r\nContent-Length: {len(data)}\r\n"
                if body is not None:
                    head += "Content-Type: application/json\r\n"
                if token:
                    head += f"Authorization: Bearer {token}\r\n"
                try:
                    writer.write(head.encode() + b"\r\n" + data)
                    await writer.drain()
                    status_line = await reader.readuntil(b"\r\n")
                    headers = await reader.readuntil(b"\r\n\r\n")
                except (ConnectionError, asyncio.IncompleteReadError):
                    writer.close()
                    conn = None
                    if attempt == 2:
                        raise
                    continue
                length = 0
                for line in headers.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                payload = await reader.readexactly(length)
                return int(status_line.split()[1]), json.loads(payload) if payload else None
            raise AssertionError("unreachable")
        finally:
            self.idle.put_nowait(conn)


def _tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (uvicorn's worker processes)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            continue
    return out


def _ticks(stat: str) -> int:
    """User + system ticks from a ``/proc/…/stat`` file (0 if it is gone)."""
    try:
        with open(stat) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except OSError:
        return 0


def _process_ticks(pids: list[int]) -> int:
    return sum(_ticks(f"/proc/{pid}/stat") for pid in pids)


def _loop_thread_ticks(pid: int) -> int:
    """User + system ticks of ``pid``'s main thread alone: with one worker, the event loop's (HTTP,
    JSON, the views); the rest of the process is its other threads (PostgreSQL: the transactions)."""
    return _ticks(f"/proc/{pid}/task/{pid}/stat")


def _cpu_ticks(pid: int) -> list[float]:
    """The machine's user, system, idle, iowait and steal ticks, then the server's user+system (all
    its processes), then this driver's."""
    with open("/proc/stat") as f:
        cpu = [int(x) for x in f.readline().split()[1:9]]
    return [cpu[0] + cpu[1], cpu[2], cpu[3], cpu[4], cpu[7], _process_ticks(_tree(pid)),
            sum(os.times()[:2]) * os.sysconf("SC_CLK_TCK")]


async def sample_cpu(pid: int, trace: list[Any]) -> None:
    """Every quarter second, the CPU ticks spent since the last sample: machine
    user/system/idle/iowait/steal, the server process, this driver — to tell a slow moment of the
    server from a busy machine (on a shared virtual machine the hypervisor may take ("steal") a
    virtual CPU from the server for seconds at a time)."""
    last = _cpu_ticks(pid)
    while True:
        await asyncio.sleep(0.25)
        now = _cpu_ticks(pid)
        trace.append((time.perf_counter(), "cpu", [round(b - a, 1) for a, b in zip(last, now, strict=True)]))
        last = now


async def run_load(pool: Pool, matches: int, rate: float, seconds: float, pid: int, tag: int,
                   trace_to: Path | None = None) -> dict[str, Any]:
    """Set up ``matches`` fresh matches, drive them (``rate`` 0: as fast as possible) for ``seconds``;
    the figures of the run."""
    call = pool.request
    t0 = time.perf_counter()

    async def new_pair(i: int) -> tuple[str, str, str]:
        a = (await call("POST", "/players", body={"name": f"a{tag}-{i}"}))[1]["token"]
        b = (await call("POST", "/players", body={"name": f"b{tag}-{i}"}))[1]["token"]
        terms = {"rated": True, "time_control": "10+5"}
        code = (await call("POST", "/challenges", a, terms))[1]["code"]
        mid = (await call("POST", f"/challenges/{code}/accept", b))[1]["match_id"]
        return a, b, mid
    pairs = await asyncio.gather(*(new_pair(i) for i in range(matches)))
    setup = time.perf_counter() - t0
    latencies: list[float] = []
    views: list[float] = []
    trace: list[tuple[float, str, Any]] = []  # (start, "view"/"move", ms) and ("cpu", ticks)
    statuses: dict[int, int] = {}
    errors: list[Any] = []
    moves = 0
    stop = time.perf_counter() + seconds

    async def one_move(mid: str, token: str) -> bool:
        """The mover's view, then the move (as a client with an open event stream makes)."""
        nonlocal moves
        t = time.perf_counter()
        _, mine = await call("GET", f"/matches/{mid}", token)
        views.append((time.perf_counter() - t) * 1000)
        trace.append((t, "view", views[-1]))
        if mine.get("status") != "running" or not mine["legal"]:
            return False
        body = {"expected_move": mine["move_count"], "client_move_id": f"{mid}-{mine['move_count']}",
                "action": mine["legal"][0]}
        t = time.perf_counter()
        status, answer = await call("POST", f"/matches/{mid}/moves", token, body)
        latencies.append((time.perf_counter() - t) * 1000)
        trace.append((t, "move", latencies[-1]))
        statuses[status] = statuses.get(status, 0) + 1
        if status == 200:
            moves += 1
        elif len(errors) < 3:
            errors.append(answer)
        return True

    async def first_token(a: str, b: str, mid: str) -> str:
        v = (await call("GET", f"/matches/{mid}", a))[1]
        return a if v["clock"]["to_move"] == v["seat"] else b

    async def drive(a: str, b: str, mid: str) -> None:
        token = await first_token(a, b, mid)
        while time.perf_counter() < stop and await one_move(mid, token):
            token = b if token == a else a

    async def paced(a: str, b: str, mid: str, offset: float, period: float) -> None:
        """One match moving every ``period`` seconds from ``offset`` (its first look at the
        match is paced too: 1,000 matches asking at once would be a burst no player makes)."""
        due = time.perf_counter() + offset
        await asyncio.sleep(offset)
        token = await first_token(a, b, mid)
        while True:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if time.perf_counter() >= stop or not await one_move(mid, token):
                return
            token = b if token == a else a
            due += period

    start = time.perf_counter()
    loop0, pg0 = _loop_thread_ticks(pid), _postgres_ticks()
    sampler = asyncio.ensure_future(sample_cpu(pid, trace))
    if rate > 0:
        period = len(pairs) / rate
        stop = start + seconds
        await asyncio.gather(*(paced(*p, offset=period * i / len(pairs), period=period)
                               for i, p in enumerate(pairs)))
    else:
        await asyncio.gather(*(drive(*p) for p in pairs))
    sampler.cancel()
    loop_ticks, pg_ticks = _loop_thread_ticks(pid) - loop0, _postgres_ticks() - pg0
    # moves are only started before `stop`; a paced match may then sleep past it until it sees so
    elapsed = min(time.perf_counter() - start, seconds)

    def pct(xs: list[float], q: float) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(len(xs) * q))] if xs else 0.0
    def per_move(ticks: float) -> float:
        """CPU ticks as milliseconds per move made."""
        return 1000 * ticks / os.sysconf("SC_CLK_TCK") / moves if moves else 0.0
    cpu = [(int(t - start), ticks) for t, kind, ticks in trace if kind == "cpu"]
    server_ticks = sum(r[5] for _, r in cpu)
    if trace_to is not None:
        with trace_to.open("w") as f:
            for t, kind, ms in trace:
                f.write(json.dumps([round(t - start, 4), kind, ms if kind == "cpu" else round(ms, 2)]) + "\n")
    return {"setup_s": setup, "moves": moves, "elapsed": elapsed, "rate": moves / elapsed if elapsed else 0.0,
            "p50": pct(latencies, 0.5), "p99": pct(latencies, 0.99), "view_p50": pct(views, 0.5),
            "view_p99": pct(views, 0.99), "statuses": statuses, "errors": errors, "trace": trace, "start": start,
            "cpu": cpu, "server_ms_per_move": per_move(server_ticks), "loop_ms_per_move": per_move(loop_ticks),
            # over the same seconds as the lobby's (the matches' set-up, before them, is in neither)
            "pg_ms_per_move": per_move(pg_ticks)}


def share(rows: list[tuple[int, list[float]]], k: int) -> float:
    """Column ``k`` of the CPU samples (:func:`sample_cpu`) as a percentage of the machine's ticks
    (all its cores) over ``rows``."""
    total = sum(sum(x[:5]) for _, x in rows)
    return 100 * sum(x[k] for _, x in rows) / total if total else 0.0


def report(args: argparse.Namespace, r: dict[str, Any], rate: float) -> None:
    mode = f"offered {rate:.0f} moves/s" if rate > 0 else "as fast as possible"
    where = f"{args.db} x{args.workers} worker{'s' if args.workers > 1 else ''}"
    print(f"lobby [{where}]  {args.matches} concurrent matches ({mode})  {r['rate']:7.1f} moves/s  "
          f"move round-trip p50 {r['p50']:.1f} ms  p99 {r['p99']:.1f} ms  (view p50 {r['view_p50']:.1f} / "
          f"p99 {r['view_p99']:.1f} ms; {r['moves']} moves in {r['elapsed']:.1f} s, at most {args.inflight} "
          f"requests in flight; move answers {r['statuses']})  server CPU {r['server_ms_per_move']:.2f} ms per "
          f"move (with its view)" + (f", its event loop's thread {r['loop_ms_per_move']:.2f} ms"
                                     if args.workers == 1 else "")
          + (f"; the PostgreSQL server's CPU {r['pg_ms_per_move']:.2f} ms per move" if args.db == "pg" else ""),
          flush=True)
    if r["errors"]:
        print("refused moves, e.g.:", r["errors"])
    slow = [(t - r["start"], ms) for t, kind, ms in r["trace"] if kind in ("view", "move") and ms > 50]
    seconds = {int(t) for t, _ in slow}
    if slow:
        print(f"{len(slow)} requests over 50 ms, started in {len(seconds)} distinct seconds: "
              f"{sorted(seconds)[:20]}{' ...' if len(seconds) > 20 else ''}; "
              f"the slowest {max(ms for _, ms in slow):.0f} ms")
    cpu = r["cpu"]
    hot = [c for c in cpu if c[0] in seconds]
    calm = [c for c in cpu if c[0] not in seconds]
    print(f"CPU time stolen by the hypervisor: {share(cpu, 4):.0f} % of the machine's over the run"
          + (f"; {share(hot, 4):.0f} % in the seconds slow requests started, {share(calm, 4):.0f} % in the others"
             if hot else "")
          + f". The server used {2 * share(cpu, 5):.0f} % of one core, the driver {2 * share(cpu, 6):.0f} %.")


def start_server(db: str, workers: int, stack: contextlib.ExitStack,
                 pin: bool = False) -> tuple[subprocess.Popen[bytes], int]:
    """The lobby on a fresh database. ``pin``: the lobby's workers on the first cores, PostgreSQL
    and this driver on the last one (a cluster started from here inherits this process's)."""
    tmp = tempfile.mkdtemp()
    last = os.cpu_count() or 1
    if pin:
        os.sched_setaffinity(0, {last - 1})
    if db == "pg":
        from tests.pg import postgres
        url = stack.enter_context(postgres())
    else:
        url = f"sqlite:///{tmp}/bench.sqlite"
    port = free_port()
    env = {**os.environ, "LOBBY_RATE": "100000", "LOBBY_BURST": "100000"}
    where = ["taskset", "-c", f"0-{max(0, last - 2)}"] if pin else []
    proc = subprocess.Popen([*where, sys.executable, "-m", "lobby", "--port", str(port), "--db", url,
                             "--workers", str(workers)], cwd=ROOT, env=env)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.2)
    time.sleep(1.0 if workers > 1 else 0.0)  # every worker up
    return proc, port


COARSE = (200, 400, 600, 800, 1000, 1250, 1500, 1750, 2000, 2500, 3000)
FINE = 50  # near the limit, the rates between the last held and the first missed, this far apart


def _held(r: dict[str, Any], rate: float) -> bool:
    return r["p99"] <= 50 and r["rate"] >= 0.95 * rate


def _comm(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def _postgres_ticks() -> int:
    """CPU ticks of the PostgreSQL server (the bench's throwaway cluster: nothing else runs one
    while it measures): every live ``postgres`` process, plus what the postmaster's children that
    have exited used (a backend ends with its connection; its time moves to the postmaster's)."""
    total = 0
    for d in os.listdir("/proc"):
        if not d.isdigit() or _comm(d) != "postgres":
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
        if _comm(fields[1]) != "postgres":  # the postmaster: its reaped children's time too
            total += int(fields[13]) + int(fields[14])
    return total


def _busy(cpu: list[tuple[int, list[float]]]) -> float:
    """How busy the whole machine was over a run, in % of all its cores (user + system ticks)."""
    return share(cpu, 0) + share(cpu, 1)


async def find_max(pool: Pool, args: argparse.Namespace, pid: int) -> dict[str, Any]:
    """Rising offered rates (fresh matches each step), then ``FINE`` steps between the last rate
    held (move p99 <= 50 ms, >= 95 % of the offer) and the first missed: the highest held, with
    the lobby's and the PostgreSQL server's CPU per move at that rate."""
    best: dict[str, Any] = {"rate": 0.0, "server_ms": 0.0, "pg_ms": 0.0, "busy": 0.0}
    step = 0

    async def attempt(rate: float) -> bool:
        nonlocal step
        step += 1
        r = await run_load(pool, args.matches, rate, args.seconds, pid, step)
        report(args, r, rate)
        if not _held(r, rate):
            return False
        best.update(rate=r["rate"], server_ms=r["server_ms_per_move"], pg_ms=r["pg_ms_per_move"], busy=_busy(r["cpu"]))
        return True
    missed = None
    for rate in COARSE:
        if not await attempt(rate):
            missed = rate
            break
    if missed is not None:
        rate = best["rate"] // FINE * FINE + FINE
        while rate < missed and await attempt(rate):
            rate += FINE
    return best


async def compare(args: argparse.Namespace) -> None:
    """#34's three rows in one run: SQLite with one worker, PostgreSQL with one and with two, each
    as the highest rate held and the CPU per move, with the targets' ratios."""
    rows = []
    for db, workers in (("sqlite", 1), ("pg", 1), ("pg", 2)):
        run = argparse.Namespace(**{**vars(args), "db": db, "workers": workers})
        with contextlib.ExitStack() as stack:
            proc, port = start_server(db, workers, stack, args.pin)
            try:
                rows.append((db, workers, await find_max(Pool(port, args.inflight), run, proc.pid)))
            finally:
                proc.terminate()
                proc.wait(timeout=20)
    print(f"\nrow           moves/s held (p99 <= 50 ms)   lobby CPU ms/move   PostgreSQL CPU ms/move   "
          f"machine busy (all {os.cpu_count()} cores)")
    for db, workers, b in rows:
        print(f"{db:6s} x{workers}     {b['rate']:10.0f}                 {b['server_ms']:8.2f}            "
              + (f"{b['pg_ms']:8.2f}" if db == "pg" else "      -") + f"                 {b['busy']:5.0f} %")
    (_, _, lite), (_, _, pg1), (_, _, pg2) = rows

    def ratio(a: float, b: float) -> float:
        return a / b if b else float("nan")
    print(f"PostgreSQL 1 worker / SQLite: {ratio(pg1['rate'], lite['rate']):.2f} (target >= 0.5); "
          f"PostgreSQL 2 / 1 workers: {ratio(pg2['rate'], pg1['rate']):.2f} (target >= 1.7); "
          f"CPU per move, PostgreSQL (lobby + server) / SQLite: "
          f"{ratio(pg1['server_ms'] + pg1['pg_ms'], lite['server_ms']):.2f} (target <= 2)")
    # the most any number of workers could hold here: the whole machine's CPU per move at one
    # worker's rate (lobby, PostgreSQL and this driver, which share the cores), with every core busy
    if pg1["busy"]:
        print(f"This machine's ceiling for PostgreSQL: {pg1['rate'] * 100 / pg1['busy']:.0f} moves/s with all "
              f"{os.cpu_count()} cores busy at one worker's CPU per move (the whole machine's), so at most "
              f"{100 / pg1['busy']:.2f}x one worker's rate, however many workers")


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--inflight", type=int, default=64)
    ap.add_argument("--rate", type=float, default=0.0, help="offered moves per second (0: as fast as possible)")
    ap.add_argument("--db", choices=("sqlite", "pg"), default="sqlite")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--find-max", action="store_true",
                    help="rising offered rates; print the highest held with a move p99 of at most 50 ms")
    ap.add_argument("--trace", type=Path, help="write every request's start time (s) and round trip (ms) "
                    "as JSON lines to this file, to see when slow requests happened")
    ap.add_argument("--compare", action="store_true",
                    help="#34's rows in one run: --find-max for SQLite x1, PostgreSQL x1 and PostgreSQL x2")
    ap.add_argument("--pin", action="store_true",
                    help="the lobby's workers on the first cores, PostgreSQL and this driver on the last one")
    args = ap.parse_args()
    if args.compare:
        await compare(args)
        return
    with contextlib.ExitStack() as stack:
        proc, port = start_server(args.db, args.workers, stack, args.pin)
        try:
            pool = Pool(port, args.inflight)
            if not args.find_max:
                r = await run_load(pool, args.matches, args.rate, args.seconds, proc.pid, 0, args.trace)
                print(f"set up {args.matches} matches in {r['setup_s']:.1f} s")
                report(args, r, args.rate)
                return
            best = await find_max(pool, args, proc.pid)
            print(f"highest rate held at p99 <= 50 ms [{args.db} x{args.workers}]: {best['rate']:.0f} moves/s")
        finally:
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    asyncio.run(main())
