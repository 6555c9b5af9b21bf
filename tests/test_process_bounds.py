"""Whatever a target writes, mpscheck keeps a bounded head of stdout and tail of stderr, says when it
cut, never reads a flooded protocol stream as a success, and still ends on time (issue 18, item 3)."""

from __future__ import annotations

import time

import psutil
import pytest

from mpscheck.probes.process import CALLBACK_LINE_LIMIT, STDERR_LIMIT, STDOUT_LIMIT, run_command
from mpscheck.probes.target import probe_target
from tests.conftest import PYTHON

# Writes *total* megabytes of 1 KB lines to *stream* as fast as it can, then hangs.
FLOOD = (
    "import sys, time\n"
    "out = getattr(sys, {stream!r}).buffer\n"
    "line = {line!r}\n"
    "for _ in range({total} * 1024 * 1024 // len(line)):\n"
    "    out.write(line)\n"
    "out.flush()\n"
    "time.sleep(300)\n"
)


def _flood(stream: str, total_mb: int, line: bytes = b"x" * 1023 + b"\n") -> list[str]:
    return [PYTHON, "-c", FLOOD.format(stream=stream, line=line, total=total_mb)]


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_a_flood_is_kept_bounded_and_the_timeout_holds(stream: str) -> None:
    rss_before = psutil.Process().memory_info().rss
    started = time.monotonic()
    done = run_command(_flood(stream, 200), timeout=4.0)
    elapsed = time.monotonic() - started
    assert done.timed_out and elapsed < 4.0 + 2.0
    if stream == "stdout":
        assert len(done.stdout.encode()) == STDOUT_LIMIT and done.stdout_cut > 0
        assert done.stdout.startswith("x" * 1023 + "\n")  # the head, where the protocol is
    else:
        assert len(done.stderr.encode()) == STDERR_LIMIT and done.stderr_cut > 0
    assert psutil.Process().memory_info().rss - rss_before < 64 * 1024 * 1024


def test_an_endless_line_reaches_the_callback_cut_and_the_next_line_whole() -> None:
    script = "import sys; sys.stdout.write('y' * (20 * 1024 * 1024) + '\\nnext\\n'); sys.stdout.flush()"
    seen: list[str] = []
    done = run_command([PYTHON, "-c", script], timeout=30, on_line=seen.append)
    assert done.returncode == 0 and done.stdout_cut == 20 * 1024 * 1024 + 6 - STDOUT_LIMIT
    assert [len(line) for line in seen] == [CALLBACK_LINE_LIMIT, 4] and seen[-1] == "next"


def test_a_flooded_protocol_stream_is_bad_output_never_ok(make_python) -> None:
    """The agent's records, then the end record after a flood: what followed the cut is never read."""
    end = '{"v": 1, "event": "done", "stage": "end", "data": {}}'
    python = make_python(f"{PYTHON} -c \"import sys; sys.stdout.write(('z' * 1023 + '\\n') * 10000)\"\necho '{end}'")
    facts = probe_target(python, timeout=30.0)
    assert facts.run.status == "bad-output"
    assert "protocol stream" in (facts.run.message or "")


def test_an_overlong_record_is_junk_not_parsed() -> None:
    from mpscheck.probes.target import RECORD_CHARS, parse_records

    record = '{"v": 1, "event": "done", "stage": "end", "data": {"pad": "' + "p" * RECORD_CHARS + '"}}'
    stages, _, junk = parse_records(record)
    assert stages == {} and junk == [record[:200]]
