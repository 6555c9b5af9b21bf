"""The progress line: on a terminal it names the running stage and its time, and after 10 s says
why it may be slow; on anything else (CI logs, pipes) nothing is drawn."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import time

from mpscheck.probes.progress import Progress, terminal_progress
from mpscheck.probes.target import probe_target
from tests.conftest import PYTHON, fake_torch_env


def _start(stage: str) -> str:
    return json.dumps({"v": 1, "event": "start", "stage": stage})


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_line_names_the_stage_its_time_and_why_it_is_slow() -> None:
    clock, stream = FakeClock(), io.StringIO()
    progress = Progress(stream, clock=clock)
    assert progress.text() == "mpscheck: starting the interpreter… 0 s"
    progress.on_line(_start("interpreter"))
    progress.on_line('{"v": 1, "event": "done", "stage": "interpreter", "data": {}}')
    progress.on_line(_start("torch"))
    clock.now += 12.4
    assert progress.text() == "mpscheck: importing torch… 12 s (a first import after an install is slow)"
    clock.now -= 3
    assert progress.text() == "mpscheck: importing torch… 9 s"
    progress.on_line(_start("step:matmul"))
    assert progress.text() == "mpscheck: running the matmul step… 0 s"
    progress.on_line("not json at all")
    assert "\r\x1b[Kmpscheck: importing torch… 0 s" in stream.getvalue()


def test_nothing_is_drawn_when_stderr_is_not_a_terminal() -> None:
    assert terminal_progress(io.StringIO()) is None
    assert terminal_progress(io.StringIO(), is_tty=lambda: True) is not None


def test_the_probe_feeds_the_line_and_erases_it_after() -> None:
    stream = io.StringIO()
    progress = Progress(stream, interval=0.2)
    facts = probe_target(PYTHON, timeout=4, environ=fake_torch_env("import-hangs"), progress=progress)
    assert facts.run.status == "timeout"
    drawn = stream.getvalue()
    assert re.search(r"mpscheck: importing torch… [1-9] s", drawn), drawn
    assert drawn.endswith("\r\x1b[K")


def _doctor_with_stderr(stderr_fd: int) -> subprocess.Popen[bytes]:
    env = {**fake_torch_env("import-hangs"), "NO_COLOR": "1", "GITHUB_ACTIONS": ""}
    argv = [sys.executable, "-m", "mpscheck", "doctor", "--python", PYTHON, "--no-smoke", "--timeout", "4"]
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=stderr_fd, env=env)


def _read_all(fd: int, process: subprocess.Popen[bytes]) -> bytes:
    data = b""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the terminal closed
                break
            if not chunk:
                break
            data += chunk
        elif process.poll() is not None:
            break
    return data


def test_a_terminal_sees_the_stage_and_a_pipe_sees_nothing() -> None:
    controller, terminal = pty.openpty()
    process = _doctor_with_stderr(terminal)
    os.close(terminal)
    seen = _read_all(controller, process).decode("utf-8", "replace")
    process.wait(timeout=30)
    os.close(controller)
    assert re.search(r"mpscheck: importing torch… [1-9] s", seen), seen
    piped = _doctor_with_stderr(subprocess.PIPE)
    _, err = piped.communicate(timeout=60)
    assert b"importing torch" not in err and b"\x1b[K" not in err
