"""Fuzz the lobby from its own OpenAPI schema (schemathesis, in-process): no request, however
malformed, may produce a server error."""

from __future__ import annotations

import tempfile

import schemathesis
from hypothesis import settings
from schemathesis.checks import not_a_server_error

from lobby.app import create_app

app = create_app(f"sqlite:///{tempfile.mkdtemp()}/fuzz.sqlite", run_sweeper=False, rate=1e6, burst=1e6)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(max_examples=25, deadline=None)
def test_no_server_errors(case) -> None:  # type: ignore[no-untyped-def]
    response = case.call()
    case.validate_response(response, checks=(not_a_server_error,))
