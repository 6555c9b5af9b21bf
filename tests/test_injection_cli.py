"""No value a user or a hostile CI gives mpscheck can start a GitHub workflow command in its own
messages (issue 18, item 8): every line mpscheck writes to stderr is defused, whatever was quoted
in it, and --python refuses a line break. The user's own command in `run` keeps its output as is."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mpscheck.render.output_stream import GuardedText

ENV = {**os.environ, "NO_COLOR": "1", "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": ""}
FORGED = "::error title=forged::forged"


def live_commands(text: str) -> list[str]:
    """The lines the Actions runner would take for a command: '::' after blanks, or '##[' anywhere,
    with lines broken at CR as well as LF (actions/runner, ActionCommand.cs)."""
    lines = text.replace("\r", "\n").split("\n")
    return [line for line in lines if line.lstrip().startswith("::") or "##[" in line]


PIECES = st.sampled_from([":", "::", "#", "##", "[", "##[", " ", "\t", "\n", "\r", "\x85", "\u2028", "a", "error"])


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.lists(PIECES, max_size=12).map("".join), max_size=8))
def test_no_sequence_of_writes_to_stderr_holds_a_workflow_command(writes: list[str]) -> None:
    sink = io.StringIO()
    stream = GuardedText(sink, "standard error", defuse=True)
    for text in writes:
        stream.write(text)
    assert live_commands(sink.getvalue()) == []
    assert sink.getvalue().replace(" ", "") == "".join(writes).replace(" ", "")  # only blanks were added


def _mpscheck(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("mpscheck", path=os.path.dirname(sys.executable)) or shutil.which("mpscheck")
    if not exe:
        pytest.skip("the mpscheck entry point is not installed")
    return subprocess.run([exe, *args], env=ENV, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("brk", ["\n", "\r", "\r\n", "\u2028"])
def test_a_line_break_in_python_is_a_usage_error_with_no_command(brk: str) -> None:
    done = _mpscheck("doctor", "--python", f"/usr/bin/python3{brk}{FORGED}", "--no-smoke")
    assert done.returncode == 2
    assert "line break" in done.stderr
    assert live_commands(done.stdout + done.stderr) == []


@pytest.mark.parametrize("brk", ["\n", "\r"])
def test_runs_echo_of_its_argv_starts_no_command(brk: str) -> None:
    done = _mpscheck("run", "--require", "none", "--", sys.executable, "-c", "pass", f"x{brk}{FORGED}{brk}##[warning]x")
    assert done.returncode == 0, done.stderr
    assert "starting" in done.stderr and "forged" in done.stderr
    assert live_commands(done.stderr) == []


def test_an_option_or_check_id_with_a_line_break_starts_no_command() -> None:
    for args in (["doctor", f"--x\n{FORGED}"], ["doctor", "--check", f"platform\n{FORGED}"]):
        done = _mpscheck(*args)
        assert done.returncode == 2
        assert live_commands(done.stdout + done.stderr) == []
