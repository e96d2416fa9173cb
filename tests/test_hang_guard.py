"""The browser tier's watchdog (tests/hang_guard.py): a hung test fails in seconds rather than never,
says where it waited, and runs once more; a plain failure is not run again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

SCENARIOS = '''
import subprocess, sys
from pathlib import Path
import pytest

HERE = Path(__file__).parent


def runs(name):
    """How many times the test ``name`` has started (a file beside this one counts)."""
    f = HERE / name
    n = int(f.read_text()) + 1 if f.exists() else 1
    f.write_text(str(n))
    return n


def wait_for_a_child_that_never_ends():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    assert child.wait() == 0  # returns only when the watchdog kills the child


@pytest.mark.browser
def test_hangs_once():
    if runs("once") == 1:
        wait_for_a_child_that_never_ends()


@pytest.mark.browser
def test_hangs_always():
    runs("always")
    wait_for_a_child_that_never_ends()


def in_the_test_greenlet():
    """As under Playwright's sync API: the test switches to a greenlet that runs the wait."""
    import greenlet
    greenlet.greenlet(wait_for_a_child_that_never_ends).switch()


@pytest.mark.browser
def test_hangs_once_in_a_greenlet():
    if runs("greenlet") == 1:
        in_the_test_greenlet()


@pytest.mark.browser
def test_fails_plainly():
    runs("plain")
    assert False, "an ordinary failure"


def test_not_a_browser_test():
    runs("plain-unit")
'''


def test_a_hung_browser_test_is_killed_reported_and_run_once_more(tmp_path: Path) -> None:
    (tmp_path / "test_scenarios.py").write_text(SCENARIOS)
    env = {**os.environ, "BROWSER_HANG_SECONDS": "1", "PYTHONPATH": str(ROOT),
           "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # the installed plugins (flet, schemathesis…) cost seconds
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.hang_guard", "-p", "no:cacheprovider",
                          "-o", "markers=browser: b", "-rA", "test_scenarios.py"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    out = run.stdout
    assert "2 failed, 3 passed" in out, out
    names = ("once", "always", "greenlet", "plain", "plain-unit")
    counts = {name: int((tmp_path / name).read_text()) for name in names}
    assert counts == {"once": 2, "always": 2, "greenlet": 2, "plain": 1, "plain-unit": 1}, out
    assert "test_scenarios.py::test_hangs_once stopped answering for 1 s" in out, out  # the warning summary
    assert "It was run again." in out
    in_greenlet = out.split("test_hangs_once_in_a_greenlet stopped answering")[1].split("It was run again.")[0]
    assert "in a greenlet it switched from" in in_greenlet and "in_the_test_greenlet" in in_greenlet, out
    hang_section = out.split("- hang -")[1]  # the twice-hung test's failure shows both stacks
    assert hang_section.count("wait_for_a_child_that_never_ends") >= 2, out
    assert "runtestprotocol" not in hang_section  # the runner's own frames are left out
    assert "FAILED test_scenarios.py::test_hangs_always" in out
    assert "FAILED test_scenarios.py::test_fails_plainly" in out
