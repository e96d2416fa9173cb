"""UI benchmark in the browser, as ratios against baselines served the same way in the same run (a
script that prints figures; not a test — these shared machines change speed by 2x within seconds,
so only a ratio measured side by side means anything):

    .venv/bin/python tests/bench_ui.py [--opens 5] [--taps 40] [--block 10]

The baselines (tests/bench_pages.py): Flet's bare counter, and a bare Flet app with the app's own
path — home ("Play against a bot") -> the opponent screen ("Beginner") -> a Lanes-shaped table (8
printed faces, 2 decks, 6 lanes, a status line; routes and ``page.views``), in Flet's classic
style (``bare``) and as declarative components (``declarative``, the other update style #44 asked
to prototype).

* open -> playable table: browser open -> the hand shown through home and the opponent screen, for
  the app (a Lanes table against the Beginner bot, no game in progress), ``bare`` and
  ``declarative``, as ratios to ``bare``; and browser open -> the app's home against the counter's
  page. ``--opens`` fresh pages of each (each its own browser context: cold), each page first in
  turn;
* tap -> update: a hand card tapped to select it, then to deselect it, until the status line
  changes (the app taps a card the rules let it play now), against the counter's tap until its
  number changes; median and p95 as ratios to the counter, select and deselect apart, each split
  at the page's websocket: the input (the click -> the tap's frame out), the server's part (-> the
  answer's first frame in), the rest of the answer (-> its last frame in) and the browser's (->
  shown), with the bytes the server sent for it; alternating blocks of taps. Every time is the
  page's own (`CLOCK_JS`, `ARM_JS`): the input's time stamp, the frames stamped in the page, the
  words seen in the semantics tree by a mutation observer (docs/app.md, "How a tap is timed");
* a Spit round against the Expert bot (real time: the player taps a stock and a pile whenever a
  card fits, and "Spit!" when play is stuck): the app process's CPU seconds per second of play, and
  the longest gap between two frames the browser drew (requestAnimationFrame), against the same
  figures for the counter page left open.

``--against REV`` serves the app as it was at commit ``REV`` too (a git worktree in a temporary
directory, its own database), and takes it down every path beside the app: a change's effect
measured in one run, where two runs of the same code differ by more than most changes. Each
page's server process is also charged its CPU time, per tap.

Every page is served by ``flet`` in web mode (no CDN) in its own process, driven by one headless
Debian Chromium.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def counter_main(port: int) -> None:
    """The baseline: Flet's own counter sample, served like the app."""
    import flet as ft

    def main(page: ft.Page) -> None:
        count = ft.Text("0", size=30)

        def add(e: Any) -> None:
            count.value = str(int(count.value or "0") + 1)

        page.add(ft.Semantics(identifier="count", content=count),
                 ft.Semantics(identifier="add", button=True, content=ft.Button("Add", on_click=add)))

    ft.run(main, view=ft.AppView.WEB_BROWSER, host="127.0.0.1", port=port, no_cdn=True)


def checkout(rev: str, where: Path) -> Path:
    """The repository as it was at commit ``rev``, in a git worktree at ``where`` (``--against``);
    ``remove_checkout`` takes it away."""
    subprocess.run(["git", "worktree", "add", "--detach", str(where), rev], cwd=ROOT, check=True, capture_output=True)
    return where


def remove_checkout(where: Path) -> None:
    subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT, capture_output=True)


@contextmanager
def side_by_side(rev: str, tmp: Path, command: Callable[[int, int], list[str]]) -> Iterator[dict[str, str]]:
    """This tree ("now") and commit ``rev`` (a worktree under ``tmp``), version ``i`` served by
    ``command(i, port)`` from its own directory with its own database (``tmp/{i}.sqlite``): their
    addresses by name. On leaving, both are taken down and the worktree removed."""
    from tests.helpers import free_port

    dirs = {"now": ROOT, rev: checkout(rev, tmp / "against")}
    procs: list[subprocess.Popen[bytes]] = []
    urls: dict[str, str] = {}
    try:
        for i, (name, where) in enumerate(dirs.items()):
            port = free_port()
            procs.append(serve(command(i, port), port, {**os.environ, "CARDTABLE_DB": str(tmp / f"{i}.sqlite")},
                               cwd=where))
            urls[name] = f"http://127.0.0.1:{port}/"
        yield urls
    finally:
        for proc in procs:
            proc.terminate()
        remove_checkout(tmp / "against")


def serve(cmd: list[str], port: int, env: dict[str, str], cwd: Path = ROOT) -> subprocess.Popen[bytes]:
    from tests.helpers import listening

    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if listening(port, 60):
        return proc
    proc.kill()
    raise SystemExit(f"{cmd} did not listen on {port}")


def enable_semantics(page: Any) -> None:
    """Flutter's accessibility tree appears after a click on its placeholder (as soon as it exists)."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        page.evaluate("document.querySelector('flt-semantics-placeholder')?.click()")
        if page.query_selector("flt-semantics-placeholder") is None or page.query_selector(
                "[flt-semantics-identifier]") is not None:
            return
        time.sleep(0.05)


#: in the page, before the app loads: each websocket frame out and in, on the page's clock (the
#: Playwright events reach this script only when it next talks to the browser, so their times were
#: late by as much as the check that polled the page, which costs more on a bigger page)
CLOCK_JS = """(() => {
  window.__out = []; window.__in = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (d) { window.__out.push(performance.now()); return send.call(this, d); };
  const Socket = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Socket(...args);
    ws.addEventListener('message', () => window.__in.push(performance.now()));
    return ws; };
  window.WebSocket.prototype = Socket.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})()"""
#: before a tap: when the pointer went down (the input's own time stamp, so a busy page's wait to
#: handle it counts) and when ``changed`` (a JS expression) first held after it, seen by a
#: mutation observer (no polling, which loaded the page's main thread more on a bigger page)
ARM_JS = """(changed) => { const tap = window.__tap = {down: null, done: null};
  document.addEventListener('pointerdown', e => { tap.down = e.timeStamp; }, {capture: true, once: true});
  const check = new Function('return (' + changed + ')');
  const seen = new MutationObserver(() => {
    if (tap.down !== null && tap.done === null && check()) { tap.done = performance.now(); seen.disconnect(); } });
  seen.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true}); }"""
#: the tap's times on the page's clock: down, the first frame out after it, the first frame in
#: after that, the last frame in before the change was shown, and shown
READ_JS = """() => { const t = window.__tap; const out = window.__out.find(x => x >= t.down);
  const after = window.__in.filter(x => out !== undefined && x >= out && x <= t.done);
  const [first, last] = after.length ? [after[0], after[after.length - 1]] : [null, null];
  return [t.down, out ?? null, first, last, t.done]; }"""
#: the words shown on the screen (the semantics tree), not what was announced to a screen reader
#: (the app says its status line aloud as well, in a live region outside that tree, a frame earlier)
SHOWN_JS = "(document.querySelector('flt-semantics-host') || {textContent: ''}).textContent"


#: the counter page's number, as the page holds it
COUNT_JS = "(document.querySelector('[flt-semantics-identifier=\"count\"]') || {}).textContent"


def new_page(browser: Any) -> Any:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.add_init_script(CLOCK_JS)
    return page


def open_page(browser: Any, url: str, ready: str) -> tuple[Any, float]:
    """A fresh page at ``url``; seconds until the control ``ready`` (a semantics id) is shown."""
    page = new_page(browser)
    start = time.perf_counter()
    page.goto(url)
    enable_semantics(page)
    page.wait_for_selector(f'[flt-semantics-identifier="{ready}"]', timeout=60_000)
    return page, time.perf_counter() - start


def table_ready(browser: Any, url: str, pace: float = 0.0) -> tuple[Any, Wire, float, float]:
    """A fresh page at ``url`` taken to a playable Lanes table the way a player goes (home, "Play
    against a bot", "Beginner", the hand shown): the page, its wire, and seconds until the home
    was shown and until the table was. ``pace``: seconds a person takes to read a screen before
    tapping on it, waited before each press and not counted in the times (0: a robot's instant
    press, which also charges a page for work it does while a person would still be reading)."""
    page = new_page(browser)
    wire = Wire(page)
    start = time.perf_counter()
    page.goto(url)
    enable_semantics(page)
    # buttons found by their semantics identifier (a CSS query, the same in every language); the
    # press waits for the page's main thread, which is busy for ~200-300 ms after the app's home
    # first shows (~15 ms on the bare home): a player's tap there would wait as long, so it counts
    play = page.locator('[flt-semantics-identifier="play-lanes"]')
    play.wait_for(timeout=60_000)
    home = time.perf_counter() - start
    time.sleep(pace)
    press(page, play)  # a person's tap: the mouse at the button (no waiting for it to be "stable")
    beginner = page.locator('[flt-semantics-identifier="level-beginner"]')
    beginner.wait_for(timeout=20_000)
    time.sleep(pace)
    press(page, beginner)
    page.wait_for_selector('[flt-semantics-identifier="hand-0"]', timeout=60_000)
    elapsed = time.perf_counter() - start - 2 * pace
    deadline = time.monotonic() + 30  # our move (the bot may open)
    while "Opening:" not in page.inner_text("body") and time.monotonic() < deadline:
        time.sleep(0.05)
    return page, wire, home, elapsed


def press(page: Any, locator: Any) -> None:
    box = locator.bounding_box(timeout=2_000)
    deadline = time.monotonic() + 10
    while box is None and time.monotonic() < deadline:  # in the page, not laid out yet
        time.sleep(0.01)
        box = locator.bounding_box(timeout=2_000)
    assert box is not None, "the button never showed"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


class Wire:
    """The page's websocket frames (Flet's protocol): when the tap's frame left the browser, when
    the first answer came back and how many bytes came back, so a tap's time splits into the
    server's part (sent -> answered) and the browser's (answered -> shown)."""

    def __init__(self, page: Any) -> None:
        self.sent: float | None = None
        self.answered: float | None = None
        self.bytes = 0
        page.on("websocket", self.attach)

    def attach(self, ws: Any) -> None:
        ws.on("framesent", self.on_sent)
        ws.on("framereceived", self.on_received)

    def reset(self) -> None:
        self.sent, self.answered, self.bytes = None, None, 0

    def on_sent(self, payload: Any) -> None:
        if self.sent is None:
            self.sent = time.perf_counter()

    def on_received(self, payload: Any) -> None:
        if self.sent is not None:
            self.answered = self.answered or time.perf_counter()
            self.bytes += len(payload)


@dataclass
class Tap:
    """One tap: until shown, and its parts (ms), and the bytes the server sent for it."""

    total: float
    server: float
    browser: float
    bytes: int
    #: from the click until the tap's frame left the browser (the page taking the input)
    input: float = float("nan")
    #: from the answer's first frame to its last (the server sends an update as several)
    sending: float = float("nan")


def tap_until(page: Any, ident: str, changed: str, wire: Wire | None = None) -> Tap:
    """Tap the control ``ident`` and wait until the JS expression ``changed`` holds; the times are
    the page's own (`ARM_JS`, `READ_JS`)."""
    box = page.locator(f'[flt-semantics-identifier="{ident}"]').first.bounding_box()
    if wire is not None:
        wire.reset()
    page.evaluate(ARM_JS, changed)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + min(20, box["height"] / 2))
    try:
        page.wait_for_function("() => window.__tap.done !== null", timeout=10_000)
    except Exception as exc:
        page.screenshot(path="/tmp/bench-stuck.png")
        raise SystemExit(f"no update after a tap on {ident} at {page.url}: {page.inner_text('body')[:200]!r}") from exc
    down, out, first, last, done = page.evaluate(READ_JS)
    size = 0 if wire is None else wire.bytes
    if first is None:  # no answer came in (then ``last`` is None too)
        return Tap(done - down, float("nan"), float("nan"), size)
    return Tap(done - down, first - out, done - last, size, out - down, last - first)


FRAMES_JS = """() => { window.__gaps = []; let last = performance.now();
  const step = (t) => { window.__gaps.push(t - last); last = t; requestAnimationFrame(step); };
  requestAnimationFrame(step); }"""


def cpu_seconds(pid: int) -> float:
    """User + system CPU of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def watch(page: Any, pid: int, seconds: float, act: Any = None) -> tuple[float, float]:
    """CPU seconds per second of ``pid`` and the longest frame gap (ms) over ``seconds``."""
    page.evaluate(FRAMES_JS)
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        if act is not None:
            act()
        time.sleep(0.2)
    cpu = (cpu_seconds(pid) - cpu0) / (time.perf_counter() - t0)
    gaps = page.evaluate("() => window.__gaps.slice(5)")
    return cpu, max(gaps) if gaps else float("nan")


def spit_round(browser: Any, url: str, pid: int, seconds: float, db: Path) -> tuple[float, float]:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url)
    enable_semantics(page)
    page.get_by_role("button", name="Play against a bot").nth(1).click(timeout=60_000)
    page.get_by_role("button", name="Expert").click(timeout=20_000)
    page.wait_for_selector('[flt-semantics-identifier="stock-0-0"]', timeout=60_000)

    from playwright.sync_api import Error as PlaywrightError

    from engine.spit import RULES as SPIT
    from engine.spit.actions import CallSpit, PlayCard
    from tests.views.test_browser import latest_game

    def play() -> None:
        """The player's side: a card that fits, tapped stock then pile; "Spit!" when stuck."""
        state, _ = latest_game(db, "spit")
        if state is None:
            return
        legal = SPIT.legal_actions(state, 0)
        move = next((a for a in legal if isinstance(a, PlayCard)), None)
        try:
            if move is not None:
                for ident in (f"stock-0-{move.stock}", f"pile-{move.pile}"):
                    press(page, page.locator(f'[flt-semantics-identifier="{ident}"]').first)
            elif any(isinstance(a, CallSpit) for a in legal):
                press(page, page.get_by_role("button", name="Spit!").first)
        except (PlaywrightError, TypeError):
            pass  # the control went away meanwhile (the bot was faster): the next round of play

    return watch(page, pid, seconds, play)


def spit_actions(db: Path) -> int:
    """Actions stored for the newest Spit game (how much was played while measuring)."""
    from storage import api
    from storage.db import open_storage

    st = open_storage(db)
    try:
        games = [g for g in api.games_in_progress(st) + api.history(st) if g.game == "spit"]
        return len(max(games, key=lambda g: g.id).actions) if games else 0
    finally:
        st.close()


def forget_games(db: Path) -> None:
    """Delete the games in progress, so the next open starts a game without being asked to resume
    the last one (the path the bare pages take)."""
    from storage import api
    from storage.db import open_storage

    st = open_storage(db)
    try:
        for g in api.games_in_progress(st):
            api.delete_game(st, g.id)
    finally:
        st.close()


def figures(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def playable(db: Path) -> int:
    """The first card of the player's hand in the newest stored Lanes game that a rule lets them
    play now (no face card during the opening, L-3.2: tapping one is refused, not selected)."""
    from engine.lanes import RULES as LANES
    from engine.lanes.actions import Play
    from tests.views.test_browser import latest_game

    state, _ = latest_game(db, "lanes")
    cards = {str(a.card) for a in LANES.legal_actions(state, 0) if isinstance(a, Play)}
    return next(i for i, c in enumerate(LANES.observe(state, 0)["hand"]) if c in cards)


def select_deselect(page: Any, wire: Wire, taps: list[Tap], card: int = 0) -> None:
    """Two taps on hand card ``card``: select (the status asks for a lane), then deselect."""
    for want in ("Tap a highlighted lane", "Opening:"):
        taps.append(tap_until(page, f"hand-{card}", f"{SHOWN_JS}.includes({want!r})", wire))


def tap_line(name: str, taps: list[Tap], base: float, cpu: list[float]) -> str:
    """Median and p95 of ``taps``, each half (select, deselect) and its parts, as ratios to ``base``;
    ``cpu``: its server's CPU ms per tap, block by block."""
    median, p95 = figures([t.total for t in taps])
    sel = statistics.median(t.total for t in taps[0::2])
    desel = statistics.median(t.total for t in taps[1::2])
    taken, server, sending, browser = (statistics.median(getattr(t, part) for t in taps)
                                       for part in ("input", "server", "sending", "browser"))
    size = statistics.median(t.bytes for t in taps)
    return (f"  {name}: median {median:.0f} ms (ratio {median / base:.2f}), p95 {p95:.0f} ms; select {sel:.0f}, "
            f"deselect {desel:.0f}; input {taken:.0f} + server {server:.0f} (first frame) + {sending:.0f} (the "
            f"rest) + browser {browser:.0f} ms; {size:.0f} bytes an update; server CPU "
            f"{statistics.median(cpu):.1f} ms a tap")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--taps", type=int, default=40, help="taps on each page (half select, half deselect)")
    ap.add_argument("--block", type=int, default=10)
    ap.add_argument("--spit-seconds", type=float, default=20.0)
    ap.add_argument("--opens", type=int, default=5, help="page-ready runs (alternating the pages)")
    ap.add_argument("--pace", type=float, default=0.0,
                    help="seconds a person reads a screen before tapping it, on the open path (not counted)")
    ap.add_argument("--against", default=None, metavar="REV",
                    help="also serve the app as it was at this commit, beside it on every path")
    ap.add_argument("--serve-counter", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--serve-page", nargs=2, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve_counter:
        counter_main(args.serve_counter)
        return
    if args.serve_page:
        from tests.bench_pages import serve as serve_page

        serve_page(args.serve_page[0], int(args.serve_page[1]))
        return
    from playwright.sync_api import sync_playwright

    from tests.helpers import free_port
    from tests.views.test_browser import launch

    tmp = Path(tempfile.mkdtemp())
    env = {**os.environ, "CARDTABLE_DB": str(tmp / "bench.sqlite")}
    apps = {"app": tmp / "bench.sqlite"}  # each app served and its database
    ports = {name: free_port() for name in ("app", "counter", "bare", "declarative", "against")}
    bench = [sys.executable, "tests/bench_ui.py"]
    procs = {"app": serve([sys.executable, "main.py", "--web", "--port", str(ports["app"])], ports["app"], env),
             "counter": serve([*bench, "--serve-counter", str(ports["counter"])], ports["counter"], env),
             "bare": serve([*bench, "--serve-page", "imperative", str(ports["bare"])], ports["bare"], env),
             "declarative": serve([*bench, "--serve-page", "declarative", str(ports["declarative"])],
                                  ports["declarative"], env)}
    if args.against:
        then = checkout(args.against, tmp / "against")
        apps["against"] = tmp / "against.sqlite"
        procs["against"] = serve([sys.executable, "main.py", "--web", "--port", str(ports["against"])],
                                 ports["against"], {**env, "CARDTABLE_DB": str(apps["against"])}, cwd=then)
    url = {name: f"http://127.0.0.1:{port}/" for name, port in ports.items()}
    try:
        with sync_playwright() as p:
            browser, first = launch(p)
            first.close()
            opens: list[dict[str, float]] = []
            for _ in range(max(1, args.opens)):
                counter, counter_ready = open_page(browser, url["counter"], "add")
                row = {"counter": counter_ready}
                pages: dict[str, tuple[Any, Wire]] = {}
                for db in apps.values():
                    forget_games(db)
                order = [*apps, "bare", "declarative"]
                turn = len(opens) % len(order)
                for name in order[turn:] + order[:turn]:  # each goes first in turn
                    page, wire, home, ready = table_ready(browser, url[name], args.pace)
                    row[name], row[f"{name} home"] = ready, home
                    pages[name] = (page, wire)
                opens.append(row)
                if len(opens) < args.opens:  # the last pages stay open for the taps
                    for page, _ in pages.values():
                        page.close()
                    counter.close()
            card = {**{name: playable(db) for name, db in apps.items()}, "bare": 0, "declarative": 0}
            counter_taps: list[Tap] = []
            taps: dict[str, list[Tap]] = {name: [] for name in pages}
            cpu: dict[str, list[float]] = {name: [] for name in ["counter", *pages]}
            while len(taps["app"]) < args.taps:
                spent = cpu_seconds(procs["counter"].pid)
                for _ in range(args.block // 2):
                    for _ in range(2):
                        before = counter.evaluate(f"() => {COUNT_JS}")
                        counter_taps.append(tap_until(counter, "add", f"{COUNT_JS} !== {json.dumps(before)}"))
                cpu["counter"].append((cpu_seconds(procs["counter"].pid) - spent) * 1000 / args.block)
                for name, (page, wire) in pages.items():
                    spent = cpu_seconds(procs[name].pid)
                    for _ in range(args.block // 2):
                        select_deselect(page, wire, taps[name], card[name])
                    cpu[name].append((cpu_seconds(procs[name].pid) - spent) * 1000 / args.block)
            counter_cpu, counter_gap = watch(counter, procs["counter"].pid, args.spit_seconds)
            spit_cpu, spit_gap = spit_round(browser, url["app"], procs["app"].pid, args.spit_seconds,
                                            tmp / "bench.sqlite")
            browser.close()
    finally:
        for proc in procs.values():
            proc.terminate()
            proc.wait(timeout=10)
        if args.against:
            remove_checkout(tmp / "against")
    report(opens, counter_taps, taps, cpu, args.pace, args.block)
    print(f"Spit against the Expert for {args.spit_seconds:.0f} s ({spit_actions(tmp / 'bench.sqlite')} actions "
          f"played): app process {spit_cpu:.2f} CPU s/s, longest "
          f"frame gap {spit_gap:.0f} ms; the counter page open as long: {counter_cpu:.2f} CPU s/s, "
          f"{counter_gap:.0f} ms")


def rounds(ratios: list[float]) -> str:
    """Each round's ratio, in the order measured: how far one run's median can be trusted (on
    these machines two runs of the same code differ by up to 0.2)."""
    return ", ".join(f"{r:.2f}" for r in ratios)


def by_block(taps: list[Tap], counter_taps: list[Tap], block: int) -> list[float]:
    """The taps' median over the counter's, block by block (the two alternate in blocks of ``block``)."""
    return [statistics.median(t.total for t in taps[i:i + block])
            / statistics.median(t.total for t in counter_taps[i:i + block])
            for i in range(0, min(len(taps), len(counter_taps)), block)]


def report(opens: list[dict[str, float]], counter_taps: list[Tap], taps: dict[str, list[Tap]],
           cpu: dict[str, list[float]], pace: float, block: int) -> None:
    against = "against" in taps
    for row in opens:
        then = f", against {row['against']:.2f} s" if against else ""
        print(f"page ready: counter {row['counter']:.2f} s; home: app {row['app home']:.2f} s, bare "
              f"{row['bare home']:.2f} s; playable table: app {row['app']:.2f} s, bare {row['bare']:.2f} s, "
              f"declarative {row['declarative']:.2f} s{then}")
    ratio = {name: statistics.median(r[name] / r["bare"] for r in opens)
             for name in ("app", "declarative", *(["against"] if against else []))}
    paced = f" at a person's pace ({pace:.2f} s before each tap, not counted)" if pace else ""
    print(f"open -> playable table{paced}, median of {len(opens)} runs, as a ratio to the bare Flet page's same path: "
          f"app {ratio['app']:.2f}, declarative {ratio['declarative']:.2f}"
          f"{', against ' + format(ratio['against'], '.2f') if against else ''}; the app's home to the counter's "
          f"page {statistics.median(r['app home'] / r['counter'] for r in opens):.2f}")
    print(f"  the app's open -> table, round by round: {rounds([r['app'] / r['bare'] for r in opens])}")
    base, _ = figures([t.total for t in counter_taps])
    print(f"tap -> update ({len(counter_taps)} taps each; ratios to the counter's median {base:.0f} ms, server CPU "
          f"{statistics.median(cpu['counter']):.1f} ms a tap):")
    for name, mine in taps.items():
        print(tap_line(name, mine, base, cpu[name]))
    print(f"  the app's tap, block by block ({block} taps each): {rounds(by_block(taps['app'], counter_taps, block))}")
    app, bare = figures([t.total for t in taps["app"]])[0], figures([t.total for t in taps["bare"]])[0]
    print(f"  the app's hand card to the bare table's: {app / bare:.2f}")
    if against:
        earlier = figures([t.total for t in taps["against"]])[0]
        print(f"  the app against the app at --against: tap {app / earlier:.2f}, open -> table "
              f"{statistics.median(r['app'] / r['against'] for r in opens):.2f}")


if __name__ == "__main__":
    main()
