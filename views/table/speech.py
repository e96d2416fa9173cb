"""Announcements to a screen reader, said one at a time.

Flutter's web engine says an announcement by putting its text in a hidden live region for 300 ms
(``liveMessageDuration``); while a modal dialog is on the page it first moves that region into the
dialog (the rest of the page is hidden from a screen reader then), and when the 300 ms are over it
empties the region and puts it back where it found it. Two announcements within those 300 ms break
this: the second finds the region inside the dialog and, on its way out, puts it back *there*. When
the dialog closes the region leaves the page with it, and every later announcement goes to an element
nobody reads, until the page is reloaded. The window is easy to hit: confirming a disband closes a
dialog while the move is said, and a fast bot's reply is said a moment later (a CI failure: the
game's result was never heard; a bot's move said in that window was lost in two runs of three).

So :class:`Speech` sends an announcement only when the device has taken the one before (Flet's call
returns when the client has handled it) and :data:`GAP_S` has passed since, which is longer than the
engine's 300 ms. Messages that came in the meantime are said together, in order, as one: nothing is
dropped, and the queue never falls behind the table (a quick player's taps once queued a minute of
messages, and the result dialog behind them). What must come after the words (the result dialog
after the game's last move) queues behind them with :meth:`then`.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable

#: between the device taking one announcement and the next being sent: the web engine's 300 ms and
#: room for a loaded device's timer to run late
GAP_S = 0.45
#: how long a message may take to reach the device: Flet's call waits for the client's answer without
#: end, and a client that lost its connection never answers (the queue, and a result dialog behind
#: it, would wait for good)
TAKEN_S = 3.0


class Speech:
    """One per page: a queue of messages to say and of steps to take once they are said."""

    def __init__(self, run_task: Callable[[Callable[[], Awaitable[None]]], object],
                 announce: Callable[[str, bool], Awaitable[object]]) -> None:
        #: Flet's ``page.run_task`` (raises without a running page)
        self.run_task = run_task
        #: says one message (right to left or not) and returns when the device has taken it
        self.announce = announce
        self.queue: deque[tuple[str, bool] | Callable[[], object]] = deque()
        self.running = False
        #: Flet runs a plain event handler in a worker thread: starting the queue is one step
        self.lock = threading.Lock()
        #: when the device took the last message (monotonic seconds)
        self.said_at = -GAP_S

    def say(self, message: str, rtl: bool = False) -> None:
        self.queue.append((message, rtl))
        self._start()

    def then(self, step: Callable[[], object]) -> None:
        """Run ``step`` once everything said before it has reached the device (it waits for no gap)."""
        self.queue.append(step)
        self._start()

    def _start(self) -> None:
        with self.lock:
            if self.running:
                return
            self.running = True
        try:
            self.run_task(self._drain)
        except RuntimeError:  # no running page (it is closing, or a test has none): nothing can be said
            with self.lock:
                self.running = False
            waiting, self.queue = self.queue, deque()
            for item in waiting:
                if not isinstance(item, tuple):
                    item()

    async def _drain(self) -> None:
        try:
            while self.queue:
                item = self.queue.popleft()
                if not isinstance(item, tuple):
                    item()
                    continue
                await asyncio.sleep(max(0.0, self.said_at + GAP_S - time.monotonic()))
                parts = [item]  # what came meanwhile is said with it: the queue never lags behind
                while self.queue and isinstance(waiting := self.queue[0], tuple):
                    self.queue.popleft()
                    parts.append(waiting)
                with contextlib.suppress(Exception):  # no announcements there, or no answer: play on
                    await asyncio.wait_for(self.announce(" ".join(m for m, _ in parts), parts[-1][1]), TAKEN_S)
                self.said_at = time.monotonic()
        finally:
            with self.lock:
                self.running = False
        if self.queue:  # added from another thread as this one ended
            self._start()
