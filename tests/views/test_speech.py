"""views/table/speech.py: announcements go to the device one at a time, each at least GAP_S after
the device took the one before (Flutter's web engine loses its live region when two overlap while a
dialog is open); what came meanwhile is said with it, none dropped or reordered; a step queued
behind them runs once they are said."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, cast

import pytest

from views.table import speech
from views.table.speech import Speech


class Device:
    """A client that takes each announcement after ``delay`` seconds, and a log of what it saw."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.log: list[tuple[str, str, float]] = []  # (what, message, monotonic time)
        self.in_flight = 0
        self.most_in_flight = 0

    async def announce(self, message: str, rtl: bool) -> None:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        self.log.append(("start", message, time.monotonic()))
        await asyncio.sleep(self.delay)
        self.log.append(("taken", message, time.monotonic()))
        self.in_flight -= 1


def on_loop(loop: asyncio.AbstractEventLoop) -> Callable[[Callable[[], Awaitable[None]]], object]:
    """Flet's ``page.run_task``: the coroutine runs on the page's loop, from any thread."""
    return lambda handler: asyncio.run_coroutine_threadsafe(cast(Coroutine[Any, Any, None], handler()), loop)


async def settled(s: Speech, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while (s.queue or s.running) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert not s.queue and not s.running


def test_messages_go_one_at_a_time_with_the_gap_and_a_step_runs_after_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(speech, "GAP_S", 0.05)
    device = Device(delay=0.02)

    async def main() -> None:
        s = Speech(on_loop(asyncio.get_running_loop()), device.announce)
        s.say("one")
        s.say("two")  # waiting together: said as one
        s.then(lambda: device.log.append(("step", "", time.monotonic())))
        s.say("three", rtl=True)
        while not device.log:
            await asyncio.sleep(0.001)
        s.say("four")  # while three waits for its turn: said with it
        await settled(s)
        s.say("five")  # the queue has ended: it starts again
        await settled(s)

    asyncio.run(main())
    assert [(what, m) for what, m, _ in device.log] == [
        ("start", "one two"), ("taken", "one two"), ("step", ""), ("start", "three four"), ("taken", "three four"),
        ("start", "five"), ("taken", "five")]
    assert device.most_in_flight == 1
    taken = {m: at for what, m, at in device.log if what == "taken"}
    started = {m: at for what, m, at in device.log if what == "start"}
    # the clock of the loop may wake a timer up to its resolution early
    assert started["three four"] - taken["one two"] >= 0.05 - 0.005
    assert started["five"] - taken["three four"] >= 0.05 - 0.005


def test_messages_said_from_handler_threads_are_all_said_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flet runs a plain event handler in a worker thread: messages said from several at once, also
    while the queue is ending, are each said once and never two at a time."""
    monkeypatch.setattr(speech, "GAP_S", 0.002)
    device = Device(delay=0.001)

    async def main() -> None:
        s = Speech(on_loop(asyncio.get_running_loop()), device.announce)

        def handler(k: int) -> None:
            for i in range(10):
                s.say(f"{k}-{i}")
                time.sleep(0.003 * (k % 3))

        threads = [threading.Thread(target=handler, args=(k,)) for k in range(4)]
        for th in threads:
            th.start()
        while any(th.is_alive() for th in threads):
            await asyncio.sleep(0.01)
        await settled(s)

    asyncio.run(main())
    said = [m for what, joined, _ in device.log if what == "taken" for m in joined.split()]
    assert sorted(said) == sorted(f"{k}-{i}" for k in range(4) for i in range(10))
    for k in range(4):  # each handler's messages in the order it said them
        mine = [m for m in said if m.startswith(f"{k}-")]
        assert mine == [f"{k}-{i}" for i in range(10)]
    assert device.most_in_flight == 1


@pytest.mark.parametrize("device", ["refuses", "never answers"])
def test_a_device_that_does_not_take_a_message_does_not_stop_the_queue(device: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A platform without announcements raises; a client gone quiet never answers, and Flet would
    wait for it without end. Either way the step (the result dialog) and the next message still come."""
    monkeypatch.setattr(speech, "TAKEN_S", 0.05)
    calls: list[str] = []

    async def announce(message: str, rtl: bool) -> None:
        calls.append(message)
        if device == "refuses":
            raise RuntimeError("no announcements here")
        await asyncio.Event().wait()  # never answered

    async def main() -> None:
        s = Speech(on_loop(asyncio.get_running_loop()), announce)
        s.say("one")
        s.then(lambda: calls.append("step"))
        s.say("two")
        await settled(s)

    asyncio.run(main())
    assert calls == ["one", "step", "two"]


def test_without_a_running_page_a_step_runs_at_once() -> None:
    """A page closing (or a test without one): nothing can be said, and the result still shows."""
    def closed(handler: Callable[[], Awaitable[None]]) -> object:
        raise RuntimeError("the session is closed")

    ran: list[str] = []
    s = Speech(closed, Device(0).announce)
    s.say("lost with the page")
    s.then(lambda: ran.append("result"))
    assert ran == ["result"] and not s.queue and not s.running
