"""`run`, `run --trace` and `ops` pass every terminating signal on to the user's command, exit with
its code, and leave no temporary folder behind (issue 18, item 4). Before: SIGUSR1, SIGHUP and
SIGQUIT killed mpscheck, the command was re-parented to init, and the ops hook folder stayed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mpscheck.probes.relay import Relay

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
ROOT = Path(__file__).resolve().parent.parent

CHILD = (
    "import signal, sys, time\n"
    "for n in {numbers}:\n"
    "    signal.signal(n, lambda s, f: (print('got', signal.Signals(s).name, flush=True), sys.exit(s + 30)))\n"
    "print('ready', flush=True)\n"
    "time.sleep(120)\n"
)
SIGNALS = ["SIGUSR1", "SIGHUP", "SIGQUIT"]
COMMANDS = {
    "run": ["run", "--require", "none", "--"],
    "run --trace": ["run", "--require", "none", "--trace", "--"],
    "ops": ["ops", "--output", "{report}", "--"],
}


def _start(tmp_path: Path, command: list[str]) -> subprocess.Popen[str]:
    temp = tmp_path / "tmp"
    temp.mkdir(exist_ok=True)
    numbers = [int(getattr(signal, name)) for name in SIGNALS]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(temp), "NO_COLOR": "1", "GITHUB_ACTIONS": ""}
    script = CHILD.format(numbers=numbers)
    return subprocess.Popen(
        [sys.executable, "-m", "mpscheck", *command, sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
        text=True,
    )


def _wait_ready(proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    line = ""
    while "ready" not in line and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
    assert "ready" in line, proc.stderr.read() if proc.stderr else ""


@pytest.mark.parametrize("name", SIGNALS)
@pytest.mark.parametrize("which", list(COMMANDS))
def test_the_signal_reaches_the_command_and_no_folder_is_left(tmp_path: Path, which: str, name: str) -> None:
    proc = _start(tmp_path, [part.format(report=tmp_path / "report.txt") for part in COMMANDS[which]])
    try:
        _wait_ready(proc)
        signum = getattr(signal, name)
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    if which == "ops":  # ops exits with its report's verdict, not the script's code; it was not killed
        assert proc.returncode in (1, 0), err
    else:
        assert proc.returncode == signum + 30, err
    assert f"got {name}" in out
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_signal_while_no_command_runs_is_held_and_raised_after_the_cleanup(tmp_path: Path) -> None:
    folder = tmp_path / "made-inside"
    with pytest.raises(SystemExit) as raised, Relay():
        folder.mkdir()
        os.kill(os.getpid(), signal.SIGUSR1)  # no command attached: held, not fatal
        time.sleep(0.05)
        folder.rmdir()  # the cleanup runs in full
    assert raised.value.code == 128 + signal.SIGUSR1
    assert not folder.exists()


class _BrokenStderr:
    """mpscheck's stderr after the terminal went away: every write fails."""

    class buffer:  # stands for sys.stderr.buffer
        @staticmethod
        def write(data: bytes) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        @staticmethod
        def flush() -> None:
            raise BrokenPipeError(32, "Broken pipe")


def test_run_trace_keeps_draining_the_commands_stderr_when_ours_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: the copying thread died at the first failed write, the pipe filled, the command blocked."""
    import threading

    from mpscheck.probes.command import TEE_LINE_LIMIT, run_user_command

    monkeypatch.setattr(sys, "stderr", _BrokenStderr())
    script = "import sys; sys.stderr.write('e' * (4 * 1024 * 1024) + '\\n' + 'line\\n' * 100000)"
    seen: list[int] = []
    results = []
    worker = threading.Thread(
        target=lambda: results.append(
            run_user_command(
                [sys.executable, "-c", script], dict(os.environ), on_stderr_line=lambda s: seen.append(len(s))
            )
        ),
        daemon=True,
    )
    worker.start()
    worker.join(timeout=60)
    assert results and results[0].returncode == 0
    assert max(seen) <= TEE_LINE_LIMIT and seen.count(4) == 100000
