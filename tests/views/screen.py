"""Fast screen tests: the real app on a real Flet ``Session`` with a stand-in connection — no
browser, no Flutter. Every control the app builds is the one a browser would draw; taps are
dispatched through Flet's own event path (``Session.dispatch_event``, as the web server calls it),
and every outgoing message is encoded with Flet's own msgpack encoder, as the socket server does,
so the diffs the app sends are the diffs a client would get.

The app sends every change itself (views/ui/reconcile.send; views/app.py turns Flet's auto-update
off). So after an event whose handler sent nothing, while no other work of the app is under way,
the screen diffs the whole page as Flet's auto-update did: a change found there was left unsent —
in a browser the screen would stay stale — and ``close`` fails the test with it.

The session's event loop runs in a thread of its own, as it does under ``ft.run``: bot turns
started with ``page.run_task`` go on while a test looks at the screen. Tests read the screen only
through ``Screen`` (which runs its reads on that loop), and wait for what a person would wait for.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page, context
from flet.messaging.connection import Connection
from flet.messaging.protocol import MessageAction, configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

T = TypeVar("T")
ENCODE = configure_encode_object_for_msgpack(BaseControl)


class StandInConnection(Connection):
    """Encodes what the app sends (like the socket server) and answers the client methods the app
    calls: ``push_route`` becomes the client's route change, the rest answer ``None``."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self.loop = loop
        self.executor = concurrent.futures.ThreadPoolExecutor(4)
        self.pubsubhub = PubSubHub(loop)
        self.page_url = "http://127.0.0.1:8550"
        self.session: Session | None = None
        self.patches = 0
        self.bytes_sent = 0
        self.crashes: list[str] = []
        self.invoked: list[str] = []
        #: the last patch sent (what a change left unsent turned out to be)
        self.last_patch: Any = None
        #: what the app announced to a screen reader (``SemanticsService.announce_message``), in order
        self.announced: list[str] = []

    def send_message(self, message: Any) -> None:
        body = msgpack.packb([message.action, message.body], default=ENCODE)
        self.bytes_sent += len(body)
        if message.action == MessageAction.PATCH_CONTROL:
            self.patches += 1
            self.last_patch = message.body
        elif message.action == MessageAction.SESSION_CRASHED:
            self.crashes.append(str(message.body))
        elif message.action == MessageAction.INVOKE_METHOD:
            self.loop.call_soon(self._answer, message.body)

    def _answer(self, call: Any) -> None:
        assert self.session is not None
        self.invoked.append(call.name)
        if call.name == "announce_message":
            self.announced.append(call.args["message"])
        self.session.handle_invoke_method_results(call.control_id, call.call_id, None, None)
        if call.name == "push_route":
            route = call.args["route"]
            # as the socket server applies the client's own change: no patch goes back for it
            self.session.apply_page_patch({"route": route})
            asyncio.ensure_future(self.session.dispatch_event(self.session.page._i, "route_change", {"route": route}))


def flets_own(patch: list[Any]) -> bool:
    """Whether a patch only touches what Flet works out for itself from a control's properties when
    it diffs it (``_internals``: a button's style made from its colours, made anew at each diff, so
    a diff of the whole page always finds it "changed"). A patch is the tree of the nodes it
    touches (``[id, {field: subtree}]``), then its operations (``[op, node id, field, value]``)."""
    tree, *ops = patch
    own: set[int] = set()

    def mark(node: list[Any], inside: bool) -> None:
        if inside:
            own.add(node[0])
        for field, sub in (node[1].items() if len(node) > 1 else ()):
            mark(sub, inside or field == "_internals")

    mark(tree, False)
    return all(op[1] in own for op in ops)


def walk(control: Any) -> Iterator[Any]:
    """Every control under ``control`` (content, controls, actions, titles, …), depth first."""
    if isinstance(control, list):
        for c in control:
            yield from walk(c)
        return
    if not isinstance(control, BaseControl):
        return
    yield control
    for name in ("content", "controls", "title", "leading", "trailing", "subtitle", "actions", "label",
                 "appbar", "tabs", "feedback"):
        value = getattr(control, name, None)
        if isinstance(value, (BaseControl, list)):
            yield from walk(value)


def words(control: Any) -> str:
    """What a control says: its text, or a button's text."""
    for name in ("value", "content", "label", "text"):
        value = getattr(control, name, None)
        if isinstance(value, str):
            return value
    return ""


class Screen:
    """The running app, as a person sees and taps it."""

    def __init__(self, db: Path, start: Callable[[ft.Page, str], Any], route: str = "/",
                 size: tuple[int, int] = (390, 844), beside: Screen | None = None) -> None:
        """``beside``: a second session on that screen's loop, as the web server runs every
        browser's session on one loop (closed with it)."""
        self.shares_loop = beside is not None
        self.loop: asyncio.AbstractEventLoop
        #: exceptions raised in background work (a bot's turn, the Spit ticker): a test fails on any
        self.errors: list[str]
        self.thread: threading.Thread
        if beside is not None:
            self.loop, self.errors, self.thread = beside.loop, beside.errors, beside.thread
        else:
            self.loop = asyncio.new_event_loop()
            self.errors = []
            self.loop.set_exception_handler(lambda loop, context: self.errors.append(
                repr(context.get("exception") or context.get("message"))))
            self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
            self.thread.start()
        self.conn = StandInConnection(self.loop)
        self.session: Session = self.call(lambda: Session(self.conn))
        self.conn.session = self.session
        self.page: ft.Page = self.session.page
        #: events after which a change stayed unsent (see the module's docstring)
        self.unsent: list[str] = []
        #: how many times the check looked (it looks only when the app is otherwise idle)
        self.looked = 0
        setattr(self.session, "after_event", self._checked(self.session.after_event))  # noqa: B010  # a method
        # what the socket server does when a browser registers: the client's page properties in,
        # the page (and its services) mounted and sent back
        width, height = size
        self.call(lambda: self.session.apply_page_patch({"route": route, "width": width, "height": height,
                                                         "platform": "linux", "web": True}))
        self.conn.bytes_sent += len(msgpack.packb(self.call(self.session.get_page_patch), default=ENCODE))
        self.app = self.call(lambda: start(self.page, str(db)))

    def _checked(self, after_event: Callable[[BaseControl | None], Any]) -> Callable[[BaseControl | None], Any]:
        """Flet's end of an event, after a look for changes its handler left unsent."""
        async def checked(control: BaseControl | None) -> None:
            if not context.was_update_called() and not self.busy():
                self.looked += 1
                sent = self.conn.patches
                self.session.patch_control(self.page)  # what Flet's auto-update sent
                if self.conn.patches != sent and not flets_own(self.conn.last_patch.patch):
                    self.unsent.append(f"after an event of {type(control).__name__}: {self.conn.last_patch}"[:400])
            await after_event(control)

        return checked

    def busy(self) -> bool:
        """Whether other work is under way on the loop (a lobby call awaited, a bot's turn, a clock):
        what it changed before an await it sends when it ends, so a look now could find it half
        done. The check looks only when the app is otherwise idle, so it never depends on timing."""
        me = asyncio.current_task()
        return any(not task.done() for task in asyncio.all_tasks(self.loop) if task is not me)

    # --- running on the session's loop ----------------------------------------------------------

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the session's loop (where the app's handlers run) and return its result."""
        async def run() -> T:
            if getattr(self, "page", None) is not None:
                _context_page.set(self.page)  # type: ignore[arg-type]  # Flet declares it ContextVar[None]
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=30)

    def close(self) -> None:
        if self.shares_loop:  # the loop is the other screen's: it stops when that one closes
            self.conn.executor.shutdown(wait=False, cancel_futures=True)
            assert not self.conn.crashes, self.conn.crashes
            assert not self.unsent, f"changes left unsent (a browser would not show them): {self.unsent}"
            return

        async def cancel_all() -> None:
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(cancel_all(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        self.conn.executor.shutdown(wait=False, cancel_futures=True)
        assert not self.errors, f"background work failed: {self.errors}"
        assert not self.conn.crashes, self.conn.crashes
        assert not self.unsent, f"changes left unsent (a browser would not show them): {self.unsent}"

    # --- looking ----------------------------------------------------------------------------------

    def controls(self) -> list[Any]:
        """Everything on the top view and in any open dialog."""
        def collect() -> list[Any]:
            out = list(walk(self.page.views[-1] if self.page.views else []))
            dialogs = getattr(self.page, "_dialogs", None)
            for d in getattr(dialogs, "controls", []):
                if getattr(d, "open", False):
                    out.extend(walk(d))
            return out

        return self.call(collect)

    def dialog_shown(self) -> bool:
        return self.call(lambda: any(getattr(d, "open", False) for d in self.page._dialogs.controls))

    def texts(self) -> list[str]:
        return [w for c in self.controls() if (w := words(c))]

    def shows(self, text: str) -> bool:
        return any(text in w for w in self.texts())

    def find(self, text: str | None = None, *, kind: type | None = None, ident: str | None = None) -> list[Any]:
        """Controls saying ``text`` (exactly), of type ``kind``, or with semantics identifier ``ident``."""
        out = []
        for c in self.controls():
            if kind is not None and not isinstance(c, kind):
                continue
            if text is not None and words(c) != text:
                continue
            if ident is not None and getattr(c, "identifier", None) != ident:
                continue
            out.append(c)
        return out

    def one(self, text: str | None = None, *, kind: type | None = None, ident: str | None = None) -> Any:
        found = self.find(text, kind=kind, ident=ident)
        assert found, f"nothing on screen matches text={text!r} kind={kind} ident={ident!r}: {self.texts()}"
        return found[0]

    def wait_for(self, check: Callable[[], Any], timeout: float = 20, what: str = "") -> Any:
        """Wait until ``check()`` is truthy (a bot's move, a route change) and return its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = check()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what or check}: screen says {self.texts()}")
            time.sleep(0.02)

    def wait_text(self, text: str, timeout: float = 20) -> None:
        self.wait_for(lambda: self.shows(text), timeout, repr(text))

    # --- doing ------------------------------------------------------------------------------------

    def fire(self, control: Any, event: str = "click", data: Any = None, timeout: float = 30) -> None:
        """Deliver ``event`` to ``control`` as the client would; wait for the handler up to
        ``timeout`` seconds (0: do not wait). (``dispatch_event`` ends in ``after_event``: a second
        one here, as this once did, diffed the whole page after every tap — ~9 ms a tap the real
        server never spends.)"""
        def clickable(c: Any) -> Any:
            # a Semantics wrapper or a Container: the handler sits on the first control that has one
            for x in walk(c):
                if getattr(x, f"on_{event}", None) is not None:
                    return x
            raise AssertionError(f"{c} has no on_{event} handler")

        target = self.call(lambda: clickable(control))

        async def deliver() -> None:
            await self.session.dispatch_event(target._i, event, data)
            # what the client does when a dialog closes: it reports the dismiss once closed
            for dialog in list(self.page._dialogs.controls):
                if not dialog.open and dialog.on_dismiss is not None:
                    await self.session.dispatch_event(dialog._i, "dismiss", None)

        done = asyncio.run_coroutine_threadsafe(deliver(), self.loop)
        if timeout:
            done.result(timeout=timeout)
        assert not self.conn.crashes, self.conn.crashes

    def go(self, route: str) -> None:
        """Open ``route`` as a link in the app would, and wait until it is the page's route."""
        self.call(lambda: self.app.go(route))
        self.wait_for(lambda: self.page.route == route, what=f"route {route}")

    def tap(self, text: str | None = None, *, kind: type | None = None, ident: str | None = None,
            timeout: float = 30) -> None:
        self.fire(self.one(text, kind=kind, ident=ident), timeout=timeout)

    def enter(self, control: Any, value: Any) -> None:
        """Set ``control``'s value as the client reports a person's input (a field typed in, a menu
        chosen, a switch flipped): taken in without a patch going back (Flet's own way), so a
        change the app must send is never mistaken for one the client made."""
        self.call(lambda: self.session.apply_patch(control._i, {"value": value}))

    def toggle(self, control: Any, value: bool) -> None:
        self.enter(control, value)
        self.fire(control, "change", str(value).lower())
