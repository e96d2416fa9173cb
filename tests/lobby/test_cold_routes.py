"""Many signed-in requests at once on the cold routes (the ORM sessions in AnyIO's threads): each
is answered, on both storage paths. On PostgreSQL the cold pool has 15 connections and AnyIO 40
threads; with nothing between them, a burst left 15 requests holding a connection while they
waited for a thread, and 40 threads waiting for a connection, until the pool's 30 s timeout made
them 500s (found by ``tests/bench_lobby.py --compare`` setting up its matches; #34)."""

from __future__ import annotations

import asyncio

import httpx

from lobby.app import create_app
from lobby.clock import FakeClock

BURST = 150  # well over AnyIO's 40 threads plus the cold pool's 15 connections


def test_a_burst_of_signed_in_requests_is_answered_without_waiting_for_the_pools_timeout(db_url: str) -> None:
    app = create_app(db_url, clock=FakeClock(), run_sweeper=False, rate=100_000, burst=100_000)

    async def burst() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://lobby") as client:
            token = (await client.post("/players", json={"name": "burst"})).json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            answers = await asyncio.gather(*(client.get("/players/me", headers=auth) for _ in range(BURST)))
            return [a.status_code for a in answers]

    try:
        assert asyncio.run(burst()) == [200] * BURST
    finally:
        app.state.engine.dispose()
