"""Shared test helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tests.hang_guard import pytest_runtest_protocol  # noqa: F401 - the browser tier's watchdog (a hook)

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

# Property tests: a reduced profile in CI and by default; SOAK=1 for long runs; tests/run.py --fast
# picks the "fast" profile (docs/testing.md).
settings.register_profile("default", max_examples=40, deadline=None)
settings.register_profile("soak", max_examples=2000, deadline=None)
settings.register_profile("fast", max_examples=10, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("soak" if os.environ.get("SOAK") else "default"))


#: tests that share one worker under pytest-xdist (tests/run.py runs two): one Chromium at a time (its
#: walks are the suite's most timing-bound tests), and one throwaway PostgreSQL server
GROUPS = ("browser", "postgres")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``soak`` run only with SOAK=1; the browser and PostgreSQL tests each keep to one
    worker (``--dist loadgroup``)."""
    skip = None if os.environ.get("SOAK") else pytest.mark.skip(reason="soak tier (SOAK=1)")
    for item in items:
        if skip is not None and item.get_closest_marker("soak"):
            item.add_marker(skip)
        group = next((g for g in GROUPS if item.get_closest_marker(g)), None)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"../shared not found at {SHARED}")
    return SHARED


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker hands the protocol suite's figures to the controller, which prints them."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        from tests.test_protocol import STATS

        workeroutput["protocol"] = dict(STATS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """The controller adds up what each worker's protocol suite checked."""
    from tests.test_protocol import STATS

    STATS.update(getattr(node, "workeroutput", {}).get("protocol", {}))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The protocol suite's size in this run (tests/test_protocol.py)."""
    from tests.test_protocol import EXAMPLES, STATS

    if STATS["games"]:
        terminalreporter.write_line(
            f"protocol suite: {STATS['games']} games ({EXAMPLES} examples per game), {STATS['actions']} actions "
            f"played, {STATS['listed']} listed actions applied, {STATS['refusals']} unlisted actions refused, "
            f"{STATS['observations']} observations resampled")
