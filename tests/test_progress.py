"""Progress: on a terminal one line names the running stage in words, its place and its time, and
after 10 s says why it may be slow; in a CI log or a pipe a stage that runs a few seconds prints one
plain line when it starts and one with its time when it ends, and quick stages print nothing."""

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

from mpscheck.probes.progress import PlainProgress, Progress, label, terminal_progress
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


def _doctor_with_stderr(stderr_fd: int, timeout: str = "4") -> subprocess.Popen[bytes]:
    env = {**fake_torch_env("import-hangs"), "NO_COLOR": "1", "GITHUB_ACTIONS": ""}
    argv = [sys.executable, "-m", "mpscheck", "doctor", "--python", PYTHON, "--no-smoke", "--timeout", timeout]
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


def test_a_terminal_sees_the_stage_and_a_pipe_sees_plain_lines() -> None:
    controller, terminal = pty.openpty()
    process = _doctor_with_stderr(terminal)
    os.close(terminal)
    seen = _read_all(controller, process).decode("utf-8", "replace")
    process.wait(timeout=30)
    os.close(controller)
    assert re.search(r"mpscheck: importing torch… [1-9] s", seen), seen
    # A CI log: no escape codes, no carriage returns, one line as the slow stage runs and one at its end.
    piped = _doctor_with_stderr(subprocess.PIPE, timeout="7")
    _, err = piped.communicate(timeout=60)
    assert b"\x1b" not in err and b"\r" not in err
    lines = err.decode().splitlines()
    assert lines[0] == "mpscheck: importing torch…", lines
    assert re.fullmatch(r"mpscheck: importing torch: stopped after [67]\.\d s", lines[1]), lines


def test_stages_are_named_in_words_not_ids() -> None:
    assert label("bench:time:resnet50", "cuda") == "training ResNet-50 on cuda"
    assert label("bench:time:resnet50:cpu", "cuda") == "training ResNet-50 on the CPU (the baseline)"
    assert label("bench:time:matmul-bfloat16", "cuda") == "timing bfloat16 matmul on cuda"
    assert label("bench:time:copy", "mps") == "timing copies on mps"
    assert label("bench:numerics:bert-base", "mps") == "checking BERT-base on mps against the CPU"
    assert (label("bench:info", None), label("bench:info", "cuda")) == ("reading the device", "reading the cuda device")
    assert label("torch") == "importing torch" and label("bench:unheard-of") == "bench:unheard-of"
    assert label("step:train", "mps") == "running the train step on mps"


def test_the_terminal_line_says_n_of_m_on_the_device_chosen() -> None:
    clock, stream = FakeClock(), io.StringIO()
    progress = Progress(stream, clock=clock)
    progress.on_line(json.dumps({"v": 1, "event": "done", "stage": "bench-device", "data": {"device": "cuda"}}))
    progress.on_line(json.dumps({"v": 1, "event": "start", "stage": "bench:time:resnet50", "data": {"n": 2, "of": 6}}))
    clock.now += 3
    assert progress.text() == "mpscheck: training ResNet-50 on cuda, 2 of 6… 3 s"
    progress.on_line(json.dumps({"v": 1, "event": "start", "stage": "step:x", "data": {"n": 9, "of": 2}}))
    assert progress.text() == "mpscheck: running the x step on cuda… 0 s"  # an impossible place is not shown


def test_a_log_hears_only_the_slow_stages_once_each_with_their_time() -> None:
    clock, stream = FakeClock(), io.StringIO()
    progress = PlainProgress(stream, clock=clock, after=5.0)
    progress.on_line(_start("interpreter"))
    clock.now += 1
    progress.draw()
    progress.on_line('{"v": 1, "event": "done", "stage": "interpreter", "data": {}}')
    assert stream.getvalue() == ""  # a quick stage says nothing
    progress.on_line(_start("torch"))
    clock.now += 6
    progress.draw()
    progress.draw()
    clock.now += 2.25
    progress.on_line('{"v": 1, "event": "done", "stage": "torch", "data": {}}')
    clock.now += 30
    progress.draw()  # between stages: nothing to announce
    progress.on_line(json.dumps({"v": 1, "event": "start", "stage": "step:allocate", "data": {"n": 1, "of": 2}}))
    clock.now += 5
    progress.draw()
    progress.finish()
    assert stream.getvalue().splitlines() == [
        "mpscheck: importing torch…",
        "mpscheck: importing torch: 8.2 s",
        "mpscheck: running the allocate step, 1 of 2…",
        "mpscheck: running the allocate step, 1 of 2: stopped after 5.0 s",
    ]


def test_a_run_of_quick_stages_is_not_silent_for_more_than_ten_seconds() -> None:
    clock, stream = FakeClock(), io.StringIO()
    progress = PlainProgress(stream, clock=clock, after=5.0)
    for n in range(1, 7):
        progress.on_line(json.dumps({"v": 1, "event": "start", "stage": f"step:s{n}", "data": {"n": n, "of": 6}}))
        clock.now += 2
        progress.draw()
        progress.on_line(json.dumps({"v": 1, "event": "done", "stage": f"step:s{n}", "data": {}}))
    assert stream.getvalue().splitlines() == [
        "mpscheck: running the s5 step, 5 of 6…",  # 10 s after the last line (here: the start)
        "mpscheck: running the s5 step, 5 of 6: 2.0 s",
    ]


def test_which_progress_a_stream_gets(tmp_path) -> None:
    with open(tmp_path / "log", "w") as log:
        assert type(terminal_progress(log)) is PlainProgress  # a CI log or a pipe: plain lines
        assert type(terminal_progress(log, is_tty=lambda: True)) is Progress


def test_the_bench_agent_says_each_stage_and_its_place(real_torch: None) -> None:
    stream = io.StringIO()
    facts = probe_target(
        PYTHON, workload="bench-tiny", device="cpu", timeout=300, progress=PlainProgress(stream, after=0.0)
    )
    assert facts.run.status == "ok", facts.run.message
    lines = stream.getvalue().splitlines()
    assert "mpscheck: reading the cpu device, 1 of 15…" in lines
    assert "mpscheck: checking float32 matmul on cpu against the CPU, 2 of 15…" in lines
    assert "mpscheck: training ResNet-50 on cpu, 13 of 15…" in lines
    assert any(re.fullmatch(r"mpscheck: training VGG16 on cpu, 15 of 15: \d+\.\d s", line) for line in lines)
