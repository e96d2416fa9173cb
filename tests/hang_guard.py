"""A browser test whose browser stops answering fails in minutes, says where it waited, and runs once more.

Why: one CI run sat in a browser lesson walk until CI's 90-minute limit (stop 50; the walk passes in
~20 s, also with both cores busy). Some Playwright calls have no timeout of their own: a mouse click
waits for the renderer to take the input, ``locator.count()`` runs in the page. When Chromium's
renderer stops answering, they wait for ever. So each test marked ``browser`` runs under a watchdog.
After ``BROWSER_HANG_SECONDS`` (default 300, ~4× the slowest browser test on a loaded machine), the
watchdog notes the test's stack and kills every process the test started: Chromium, Playwright's
driver and the app. The blocked call then raises at once. Playwright's sync API runs its own event
loop in a greenlet of the test's thread, so while a call waits that thread's stack is the loop's; the
test's own frames are in the greenlet it left, and the report gives those too.

Such a test is run once more, on fresh fixtures, and its stack becomes a warning in the run's summary:
so a hang in the browser does not sink a CI run, and it is never silent. A second hang fails the test
with both stacks. A test that fails without hanging is not run again. Any other hang anywhere in the
suite is stopped by pytest-timeout (pyproject.toml), which prints every thread's stack and ends the run.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import threading
import traceback
from pathlib import Path
from types import FrameType

import pytest
from _pytest.runner import runtestprotocol

HANG_SECONDS = float(os.environ.get("BROWSER_HANG_SECONDS") or 300)


#: the test runner's own frames, left out of the stack a hang reports
PLUMBING = ("/_pytest/", "/pluggy/", "/pytest/", "<frozen runpy>", "hang_guard.py")


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children first-level first), read from /proc."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            for child in (int(c) for c in (task / "children").read_text().split()):
                found += [child, *descendants(child)]
    return found


class Watchdog:
    """Kills the processes the current thread started if it is still inside after ``seconds``."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.stack: str | None = None  # where the watched thread waited when the watchdog fired
        self._watched = threading.get_ident()
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def __enter__(self) -> Watchdog:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def _fire(self) -> None:
        self.stack = "".join([stack_of(sys._current_frames().get(self._watched)) or "(no stack)\n",
                              *(f"and in a greenlet it switched from (the test, under Playwright's sync API):\n{s}"
                                for s in suspended_stacks())])
        for pid in descendants(os.getpid()):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def stack_of(frame: FrameType | None) -> str:
    """The stack that ends at ``frame``, without the runner's own frames."""
    frames = [f for f in traceback.extract_stack(frame) if not any(part in f.filename for part in PLUMBING)]
    return "".join(traceback.format_list(frames))


def suspended_stacks() -> list[str]:
    """The stacks of the greenlets switched away from (not running), where a Playwright test waits."""
    try:
        from greenlet import greenlet
    except ImportError:
        return []
    frames = [g.gr_frame for g in gc.get_objects() if isinstance(g, greenlet) and g.gr_frame is not None]
    return [stack for frame in frames if (stack := stack_of(frame))]


def hung(seconds: float, stack: str) -> str:
    return f"stopped answering for {seconds:.0f} s; its processes were killed. It waited here:\n{stack}"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """Runs a ``browser`` test under a `Watchdog`, and once more if the watchdog fired."""
    if item.get_closest_marker("browser") is None or not hasattr(os, "getpid") or not Path("/proc").is_dir():
        return None
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    stacks: list[str] = []
    for _attempt in range(2):
        with Watchdog(HANG_SECONDS) as dog:
            reports = runtestprotocol(item, nextitem=nextitem, log=False)
        if dog.stack is None:
            break
        stacks.append(dog.stack)
        if len(stacks) == 1:
            item.warn(pytest.PytestWarning(f"{item.nodeid} {hung(HANG_SECONDS, dog.stack)}It was run again."))
    if len(stacks) == 2:
        for report in reports:
            if report.failed:
                report.sections.append(("hang", "\n".join(hung(HANG_SECONDS, s) for s in stacks)))
    for report in reports:
        item.ihook.pytest_runtest_logreport(report=report)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True
