"""Rate limiting: a token bucket per verified player, else per client address.

Keys, and why (each closes a way around the limit found by the outside test):

* **A verified player** (``p:<id>``): a bearer token this process has already verified
  (``service.known_player``, the cache every authenticated request fills). A junk token is not a
  key of its own — a new junk header per request used to give a new full bucket per request (and a
  database read each); now it counts against the sender's address like any unauthenticated call.
* **The client address** (``a:<ip>``): the connection's peer. ``X-Forwarded-For`` is believed only
  when the peer is one of the operator's proxies (``LOBBY_TRUSTED_PROXIES``, comma-separated
  addresses, empty by default); then the right-most address the proxies did not add is the client.
  Without that rule a different ``X-Forwarded-For`` per request was a new bucket per request.

The store is bounded (``max_keys``): past it, the least recently seen key is dropped, never the
whole table (which used to refill every bucket at once). Buckets live in each worker's memory:
with N workers a client may get up to N times the rate; sharing buckets through PostgreSQL would
add a write to every request (the hot move path is a few milliseconds), so a deployment with
several workers sets the per-worker rate accordingly or limits at the reverse proxy, which sees
every request (docs/lobby.md, "Several workers"). A maintained library (``limits``/``slowapi``)
was considered: it keys on the address alone or per route, and adds a middleware layer to every
request; the 60 lines here key on the verified player and keep the hot path plain ASGI.
"""

from __future__ import annotations

import ipaddress
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from starlette.responses import JSONResponse

from lobby import hot


def _addresses(values: Iterable[str]) -> frozenset[str]:
    out = set()
    for v in values:
        v = v.strip()
        if v:
            out.add(str(ipaddress.ip_address(v)))  # a typo in the setting fails at start, loudly
    return frozenset(out)


def trusted_proxies_from_env() -> frozenset[str]:
    return _addresses(os.environ.get("LOBBY_TRUSTED_PROXIES", "").split(","))


class RateLimiter:
    """A token bucket per key: bursts are fine, floods get 429."""

    def __init__(self, rate: float = 20.0, burst: float = 60.0, *, max_keys: int = 100_000,
                 trusted_proxies: Iterable[str] = (), player_of: Callable[[str], str | None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.max_keys = rate, burst, max_keys
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self.lock = threading.Lock()
        self.trusted = _addresses(trusted_proxies)
        self.player_of = player_of or (lambda token: None)
        self.clock = clock

    def allow(self, key: str, now: float) -> bool:
        with self.lock:
            tokens, last = self.buckets.pop(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            allowed = tokens >= 1
            self.buckets[key] = (tokens - 1 if allowed else tokens, now)  # now the most recent key
            while len(self.buckets) > self.max_keys:
                self.buckets.popitem(last=False)  # the least recently seen
            return allowed

    def client(self, scope: Any) -> str:
        """The client's address: the peer, or — behind a trusted proxy — the address it forwarded."""
        peer = scope.get("client")
        address = peer[0] if peer else "?"
        if address not in self.trusted:
            return address
        forwarded = hot.header(scope, b"x-forwarded-for")
        if not forwarded:
            return address
        for hop in reversed([h.strip() for h in forwarded.decode("latin-1").split(",")]):
            if hop and hop not in self.trusted:
                return hop
        return address

    def key(self, scope: Any) -> str:
        token = hot.bearer(hot.header(scope, b"authorization"))
        player = self.player_of(token) if token else None
        return f"p:{player}" if player else f"a:{self.client(scope)}"

    def over(self, scope: Any) -> bool:
        """Whether this HTTP request is over its budget."""
        return not self.allow(self.key(scope), self.clock())


class RateLimit:
    """Plain ASGI middleware (Starlette's ``BaseHTTPMiddleware`` wraps every request in extra tasks
    and streams): a request over its budget gets 429 with ``Retry-After``."""

    def __init__(self, app: Any, limiter: RateLimiter) -> None:
        self.app, self.limiter = app, limiter

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not scope.get(hot.COUNTED) and self.limiter.over(scope):
            response = JSONResponse(hot.TOO_MANY_REQUESTS, status_code=429, headers={"Retry-After": "1"})
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
