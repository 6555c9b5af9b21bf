"""When mpscheck is killed outright (SIGKILL: a CI timeout, the OOM killer) while `run` or `ops` runs
the user's command, the command ends too (issue 18, item 4; probes/lifeline.py). Before: it kept
running, re-parented to init. When mpscheck lets go normally, the watcher touches nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from mpscheck.probes.command import run_user_command
from mpscheck.probes.lifeline import WATCHER, Lifeline

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
ROOT = Path(__file__).resolve().parent.parent
SLEEPER = "import os, sys, time\nopen(sys.argv[1], 'w').write(str(os.getpid()))\ntime.sleep(120)\n"


def _gone(pids: list[int], seconds: float) -> list[int]:
    """The pids of *pids* still running (zombies count as gone) after waiting up to *seconds*."""
    end = time.monotonic() + seconds
    while True:
        alive = []
        for pid in pids:
            try:
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    alive.append(pid)
            except psutil.NoSuchProcess:
                continue
        if not alive or time.monotonic() >= end:
            return alive
        time.sleep(0.05)


def _read_pid(path: Path, mpscheck: subprocess.Popen[bytes], seconds: float = 120) -> int:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists() and path.read_text().strip():
            return int(path.read_text())
        if mpscheck.poll() is not None:
            raise AssertionError(mpscheck.stderr.read().decode() if mpscheck.stderr else "mpscheck ended")
        time.sleep(0.05)
    raise AssertionError("the command never wrote its pid")


def _watchers_of(pid: int) -> list[int]:
    found = []
    for child in psutil.Process(pid).children(recursive=True):
        try:
            if str(WATCHER) in child.cmdline():
                found.append(child.pid)
        except psutil.Error:
            continue
    return found


COMMANDS = {
    "run": ["run", "--require", "none", "--"],
    "run --trace": ["run", "--require", "none", "--trace", "--"],
    "ops": ["ops", "--"],
}


@pytest.mark.parametrize("which", list(COMMANDS))
def test_sigkill_of_mpscheck_ends_the_users_command(tmp_path: Path, which: str) -> None:
    pid_file = tmp_path / "pid"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "GITHUB_ACTIONS": ""}
    mpscheck = subprocess.Popen(
        [sys.executable, "-m", "mpscheck", *COMMANDS[which], sys.executable, "-c", SLEEPER, str(pid_file)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    child = None
    try:
        child = _read_pid(pid_file, mpscheck)
        time.sleep(0.3)  # past the watcher's start
        watchers = _watchers_of(mpscheck.pid)
        mpscheck.kill()
        mpscheck.wait(timeout=10)
        assert _gone([child, *watchers], seconds=8) == []
    finally:
        if mpscheck.poll() is None:
            mpscheck.kill()
        if child is not None:
            for pid in _gone([child], seconds=0):
                os.kill(pid, signal.SIGKILL)


def test_a_dead_mpscheck_takes_the_commands_own_children_along(tmp_path: Path) -> None:
    """A shell that started a background job: the shell gets SIGTERM, the job it leaves behind SIGKILL."""
    pid_file = tmp_path / "pid"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "GITHUB_ACTIONS": ""}
    script = f"sleep 120 & echo $! > {pid_file}; wait"
    mpscheck = subprocess.Popen(
        [sys.executable, "-m", "mpscheck", "run", "--require", "none", "--", "sh", "-c", script],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    job = None
    try:
        job = _read_pid(pid_file, mpscheck)
        shell = psutil.Process(job).ppid()
        time.sleep(0.3)  # past the watcher's start
        mpscheck.kill()
        mpscheck.wait(timeout=10)
        assert _gone([shell, job], seconds=8) == []
    finally:
        if mpscheck.poll() is None:
            mpscheck.kill()
        if job is not None:
            for pid in _gone([job], seconds=0):
                os.kill(pid, signal.SIGKILL)


def test_a_released_lifeline_leaves_the_process_alone() -> None:
    """Letting go is not dying: the byte comes before the end-of-file, and the watcher touches nothing."""
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        lifeline = Lifeline.attach(sleeper.pid, grace=0.5)
        time.sleep(0.3)
        lifeline.close(release=True)
        time.sleep(1.0)
        assert sleeper.poll() is None
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_lifeline_closed_without_letting_go_ends_the_process() -> None:
    """What mpscheck's death does to the pipe (it closes unreleased): SIGTERM, then SIGKILL after the grace."""
    stubborn = subprocess.Popen(
        [sys.executable, "-c", "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(60)"]
    )
    try:
        time.sleep(0.3)
        lifeline = Lifeline.attach(stubborn.pid, grace=0.5)
        started = time.monotonic()
        lifeline.close(release=False)
        stubborn.wait(timeout=10)
        assert stubborn.returncode == -signal.SIGKILL
        assert time.monotonic() - started >= 0.5
    finally:
        if stubborn.poll() is None:
            stubborn.kill()
            stubborn.wait()


def test_a_normal_run_keeps_the_exit_code_and_leaves_no_watcher() -> None:
    done = run_user_command([sys.executable, "-c", "import sys; sys.exit(7)"], os.environ)
    assert done.exit_code == 7
    assert _watchers_of(os.getpid()) == []
