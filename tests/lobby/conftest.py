from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from lobby.app import create_app  # noqa: E402
from lobby.clock import FakeClock  # noqa: E402


class Lobby:
    def __init__(self, client: TestClient, clock: FakeClock, app: Any) -> None:
        self.c, self.clock, self.app = client, clock, app

    def player(self, name: str) -> dict[str, str]:
        r = self.c.post("/players", json={"name": name})
        assert r.status_code == 201, r.text
        return {"Authorization": "Bearer " + r.json()["token"], "id": r.json()["player"]["id"]}

    def h(self, who: dict[str, str]) -> dict[str, str]:
        return {"Authorization": who["Authorization"]}

    def match(self, a: dict[str, str], b: dict[str, str], rated: bool = True, tc: str = "3+2",
              variants: list[str] | None = None) -> str:
        terms = {"rated": rated, "time_control": tc, "variants": variants or []}
        code = self.c.post("/challenges", json=terms, headers=self.h(a)).json()["code"]
        r = self.c.post(f"/challenges/{code}/accept", headers=self.h(b))
        assert r.status_code == 200, r.text
        return str(r.json()["match_id"])

    def view(self, who: dict[str, str], mid: str) -> dict[str, Any]:
        r = self.c.get(f"/matches/{mid}", headers=self.h(who))
        assert r.status_code == 200, r.text
        return dict(r.json())

    def move(self, who: dict[str, str], mid: str, action: dict[str, Any] | None = None, n: int | None = None,
             cid: str | None = None) -> Any:
        v = self.view(who, mid)
        if action is None:
            action = v["legal"][0]
        n = v["move_count"] if n is None else n
        return self.c.post(f"/matches/{mid}/moves", headers=self.h(who),
                           json={"expected_move": n, "client_move_id": cid or f"{who['id']}-{n}", "action": action})

    def to_move(self, mid: str, a: dict[str, str], b: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
        v = self.view(a, mid)
        return (a, b) if v["clock"]["to_move"] == v["seat"] else (b, a)


_PG: dict[str, Any] = {}


def postgres_url() -> str:
    """A fresh database on the session's throwaway PostgreSQL server (tests/pg.py). Without the
    server binaries the PostgreSQL half is skipped — except under CI=true, where it must run."""
    import contextlib
    import os

    from tests.pg import pg_bin, postgres

    if "stack" not in _PG:
        if pg_bin() is None:
            if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
                raise RuntimeError("CI=true but PostgreSQL is missing: tests/run.py installs it as root")
            pytest.skip("PostgreSQL server not installed (apt-get install postgresql)")
        stack = contextlib.ExitStack()
        _PG["base"] = stack.enter_context(postgres())
        _PG["stack"], _PG["n"] = stack, 0
        import atexit

        atexit.register(stack.close)
    import sqlalchemy

    _PG["n"] += 1
    name = f"t{_PG['n']}"
    eng = sqlalchemy.create_engine(_PG["base"], isolation_level="AUTOCOMMIT")
    with eng.connect() as c:
        c.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    eng.dispose()
    return str(_PG["base"]).rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Every lobby test runs on both storage paths: SQLite (one worker) and PostgreSQL (several)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lobby.sqlite'}"
    return postgres_url()


@pytest.fixture
def lobby(db_url: str) -> Iterator[Lobby]:
    clock = FakeClock()
    app = create_app(db_url, clock=clock, run_sweeper=False, rate=1000, burst=5000)
    with TestClient(app) as client:
        yield Lobby(client, clock, app)
