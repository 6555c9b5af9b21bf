"""Whatever ends mpscheck, the processes it started end too (issue 18, item 4): a daemon that
double-forked out of the session before any scan saw it, the probe after mpscheck's SIGKILL (the
agent's control pipe), and the tree after any catchable terminating signal to mpscheck."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from mpscheck.probes.children import MARKER_ENV, terminating_signals
from mpscheck.probes.process import run_command
from tests.conftest import PYTHON, fake_torch_env
from tests.test_process import _wait_for, _wait_gone

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX sessions and signals")

DAEMON = f"( \"{PYTHON}\" -c 'import os, time; os.setsid(); time.sleep(300)' >/dev/null 2>&1 & echo $! > {{pids}} )"


def test_a_double_forked_daemon_is_found_by_its_marker_after_a_normal_exit(make_python, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    python = make_python(DAEMON.format(pids=pids) + "\nexit 0")
    done = run_command([python], timeout=30)
    assert done.returncode == 0
    assert _wait_gone([int(_wait_for(pids))]) == []


def test_the_marker_is_this_runs_own(make_python, tmp_path: Path) -> None:
    """A process carrying another run's token (or none) is not touched."""
    bystander = subprocess.Popen(
        [PYTHON, "-c", "import time; time.sleep(60)"], env={**os.environ, MARKER_ENV: "another-run"}
    )
    try:
        done = run_command([make_python("exit 0")], timeout=30)
        assert done.returncode == 0
        time.sleep(0.2)
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()


def _doctor(extra_env: dict[str, str]) -> subprocess.Popen[bytes]:
    env = {**fake_torch_env("import-hangs"), "NO_COLOR": "1", "GITHUB_ACTIONS": "", **extra_env}
    return subprocess.Popen(
        [sys.executable, "-m", "mpscheck", "doctor", "--python", PYTHON, "--timeout", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def _agent_tree(mpscheck: subprocess.Popen[bytes], seconds: float = 60) -> list[int]:
    """The probed interpreter and its children, once the agent has started."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for child in psutil.Process(mpscheck.pid).children(recursive=True):
            try:
                if any("agent" in part and part.endswith("main.py") for part in child.cmdline()):
                    time.sleep(0.5)  # past the watchdog's start
                    return [child.pid, *(c.pid for c in child.children(recursive=True))]
            except psutil.Error:
                continue
        time.sleep(0.05)
    raise AssertionError("the agent never started")


def test_sigkill_of_mpscheck_ends_the_probed_interpreter() -> None:
    mpscheck = _doctor({})
    try:
        tree = _agent_tree(mpscheck)
        mpscheck.kill()
        mpscheck.wait(timeout=10)
        assert _wait_gone(tree, seconds=10) == []
    finally:
        if mpscheck.poll() is None:
            mpscheck.kill()
        for pid in _wait_gone(tree if "tree" in locals() else [], seconds=0):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("signum", [s for s in terminating_signals() if s not in (signal.SIGINT, signal.SIGTERM)])
def test_any_terminating_signal_to_mpscheck_ends_the_probe(signum: int) -> None:
    mpscheck = _doctor({})
    try:
        tree = _agent_tree(mpscheck)
        mpscheck.send_signal(signum)
        mpscheck.wait(timeout=10)
    finally:
        if mpscheck.poll() is None:
            mpscheck.kill()
    assert mpscheck.returncode in (128 + signum, -signum)
    assert _wait_gone(tree) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_proc_scan_finds_only_marked_processes_started_since_the_run_began() -> None:
    """The Linux scan reads the start time first and the environment only of newer processes."""
    from mpscheck.probes.children import linux_marked

    since = time.time() - 1.0
    marked = subprocess.Popen([PYTHON, "-c", "import time; time.sleep(60)"], env={**os.environ, MARKER_ENV: "tok-1"})
    other = subprocess.Popen([PYTHON, "-c", "import time; time.sleep(60)"], env={**os.environ, MARKER_ENV: "tok-12"})
    try:
        assert linux_marked("tok-1", since, skip=set()) == [marked.pid]
        assert linux_marked("tok-1", since, skip={marked.pid}) == []
        assert linux_marked("tok-1", time.time() + 60, skip=set()) == []  # started before "the run"
    finally:
        for process in (marked, other):
            process.kill()
            process.wait()
