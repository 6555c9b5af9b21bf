"""The target's whole process tree ends with the run: on a timeout (children that called setsid and
ones that ignore SIGTERM included), and when mpscheck itself gets SIGINT or SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from mpscheck.probes.process import run_command
from mpscheck.probes.target import probe_target
from tests.conftest import PYTHON

# A grandchild that leaves the process group and the session, and keeps the output pipes open.
SETSID_SLEEPER = f"\"{PYTHON}\" -c 'import os, time; os.setsid(); time.sleep(300)' &"


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE  # killed, not yet reaped by init
    except psutil.NoSuchProcess:
        return True


def _wait_for(path: Path, seconds: float = 30) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists() and path.read_text().strip():
            return path.read_text()
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


def _wait_gone(pids: list[int], seconds: float = 5) -> list[int]:
    end = time.monotonic() + seconds
    while time.monotonic() < end and not all(_gone(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if not _gone(p)]


def test_a_setsid_child_does_not_survive_a_timeout(make_python, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    python = make_python(f"{SETSID_SLEEPER}\necho $! > {pids}\nsleep 300")
    facts = probe_target(python, timeout=1.0)
    assert facts.run.status == "timeout"
    assert facts.run.seconds is not None and facts.run.seconds < 1.0 + 2.0
    assert _wait_gone([int(_wait_for(pids))]) == []


def test_a_child_ignoring_sigterm_ends_within_timeout_plus_2s(make_python, tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    python = make_python(f"trap '' TERM\necho $$ > {pids}\nwhile :; do sleep 1; done")
    started = time.monotonic()
    done = run_command([python], timeout=1.0)
    assert done.timed_out and time.monotonic() - started < 3.0
    assert _wait_gone([int(_wait_for(pids))]) == []


def test_partial_output_is_kept_when_a_grandchild_holds_the_pipes(make_python) -> None:
    python = make_python(f"{SETSID_SLEEPER}\necho first line\nprintf 'no newline yet'\nsleep 300")
    started = time.monotonic()
    done = run_command([python], timeout=1.5)
    assert done.timed_out and time.monotonic() - started < 3.5
    assert done.stdout == "first line\nno newline yet"


def test_a_command_that_closes_its_output_and_then_hangs_still_times_out(make_python) -> None:
    python = make_python("echo said; exec >&- 2>&-; sleep 300")
    started = time.monotonic()
    done = run_command([python], timeout=1.0)
    assert done.timed_out and done.returncode is None and done.stdout == "said\n"
    assert 1.0 <= time.monotonic() - started < 3.0


def test_each_output_line_reaches_the_callback_as_it_comes(make_python) -> None:
    python = make_python("echo one; sleep 0.5; echo two; echo three >&2; printf four")
    seen: list[tuple[str, float]] = []
    started = time.monotonic()
    done = run_command([python], timeout=10, on_line=lambda line: seen.append((line, time.monotonic() - started)))
    assert done.returncode == 0 and done.stdout == "one\ntwo\nfour" and done.stderr == "three\n"
    assert [line for line, _ in seen] == ["one", "two", "four"]
    assert seen[0][1] < seen[1][1] - 0.3  # "one" arrived before the sleep ended, not at the end


def test_the_end_of_the_command_is_seen_at_once_not_at_the_next_poll(make_python) -> None:
    """The loop waiting for a line is woken when stdout closes: each probe used to lose up to 50 ms
    (its poll interval) after the target's last record, on the doctor's critical path."""
    python = make_python("echo last; exec sleep 0.06")
    after_last_line = []
    for _ in range(5):
        seen: list[float] = []
        started = time.monotonic()
        done = run_command([python], timeout=10, on_line=lambda _line, seen=seen: seen.append(time.monotonic()))
        assert done.returncode == 0 and len(seen) == 1
        after_last_line.append(started + done.seconds - seen[0])
    # The command lives 0.06 s after its line; polling every 50 ms would see its end at 0.1 s.
    assert sorted(after_last_line)[2] < 0.09, after_last_line


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 128 + signal.SIGTERM)])
def test_a_signal_to_mpscheck_ends_the_targets_whole_tree(make_python, tmp_path: Path, signum: int, code: int) -> None:
    pids = tmp_path / "pids"
    python = make_python(f"{SETSID_SLEEPER}\nsetsid_pid=$!\nsleep 300 &\necho $$ $setsid_pid $! > {pids}\nwait")
    env = {**os.environ, "NO_COLOR": "1", "GITHUB_ACTIONS": ""}
    mpscheck = subprocess.Popen(
        [sys.executable, "-m", "mpscheck", "doctor", "--python", python, "--timeout", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        tree = [int(p) for p in _wait_for(pids).split()]
        assert len(tree) == 3
        mpscheck.send_signal(signum)
        mpscheck.wait(timeout=10)
    finally:
        if mpscheck.poll() is None:
            mpscheck.kill()
    assert mpscheck.returncode in (code, -signum), mpscheck.stderr.read() if mpscheck.stderr else ""
    assert _wait_gone(tree) == []


def test_a_signal_during_the_start_is_held_until_the_tree_is_guarded() -> None:
    """The race the stress run found: SIGTERM between Popen and the cleanup's try left the tree alive."""
    from mpscheck.probes.process import _SignalGuard

    before = signal.getsignal(signal.SIGTERM)
    with _SignalGuard() as guard:
        os.kill(os.getpid(), signal.SIGTERM)  # not armed yet: held, not raised
        time.sleep(0.05)
        assert guard.pending == signal.SIGTERM
        with pytest.raises(SystemExit) as raised:
            guard.arm()
    assert raised.value.code == 128 + signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) == before  # the previous handler is back
