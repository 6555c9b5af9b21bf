"""Input and output that deserve a clear error (exit 2), never a crash (exit 3) or a traceback, run
through the installed `mpscheck` entry point as a real process (issue 18, item 6): a closed stdout
or stdin, /dev/full, a pipe whose reader left, an ASCII-only encoding, deeply nested JSON, a
--python path component over 255 characters, and a Ctrl-C while mpscheck is still loading."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX descriptors and signals")

PACKAGE = Path(__file__).resolve().parent.parent / "mpscheck"
PASTE = Path(__file__).parent / "corpus" / "cellpose-1468-intel-imac-bf16.txt"  # its report holds a ✓
ENV = {**os.environ, "NO_COLOR": "1", "GITHUB_ACTIONS": "", "GITHUB_STEP_SUMMARY": ""}


def _exe() -> str:
    found = shutil.which("mpscheck", path=os.path.dirname(sys.executable)) or shutil.which("mpscheck")
    if not found:
        pytest.skip("the mpscheck entry point is not installed")
    return found


def _run(args: list[str], env: dict[str, str] | None = None, **streams) -> subprocess.CompletedProcess[bytes]:
    streams.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([_exe(), *args], env=env or ENV, timeout=120, check=False, **streams)


def _clean_error(done: subprocess.CompletedProcess[bytes], code: int = 2) -> str:
    err = done.stderr.decode("utf-8", "replace") if done.stderr else ""
    assert done.returncode == code, err
    assert "Traceback" not in err and "internal error" not in err, err
    return err


COMMANDS = [
    ["explain", str(PASTE)],
    ["doctor", "--list-checks"],
    ["ops", "--op", "aten::roll"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_stdout_on_dev_full_is_a_clear_error(args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = _run(args, stdout=full)
    assert "No space left on device" in _clean_error(done)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_a_closed_stdout_is_a_clear_error(args: list[str]) -> None:
    done = _run(args, stdout=None, pass_fds=(), preexec_fn=lambda: os.close(1))
    assert "standard output: it is closed" in _clean_error(done)


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_a_pipe_whose_reader_left_is_a_clear_error(args: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)
    try:
        done = _run(args, stdout=write)
    finally:
        os.close(write)
    assert "the reader closed the pipe" in _clean_error(done)


def test_closed_stdout_and_stderr_still_exit_2_quietly() -> None:
    done = _run(["explain", str(PASTE)], stderr=None, preexec_fn=lambda: (os.close(1), os.close(2)))
    assert done.returncode == 2


def test_an_ascii_only_encoding_writes_escapes_and_keeps_the_verdict() -> None:
    done = _run(["explain", str(PASTE)], env={**ENV, "PYTHONIOENCODING": "ascii"}, stdout=subprocess.PIPE)
    _clean_error(done, code=1)  # the paste's own verdict: a problem
    assert done.stdout.isascii() and b"\\u" in done.stdout


def test_explain_from_a_closed_stdin_is_a_usage_error() -> None:
    done = _run(["explain", "-"], preexec_fn=lambda: os.close(0))
    assert "standard input is closed" in _clean_error(done)


@pytest.mark.parametrize("depth", [500, 2000, 100_000])
def test_deeply_nested_json_is_a_usage_error(tmp_path: Path, depth: int) -> None:
    for where in ('"facts": {}, "x": ', ""):
        path = tmp_path / "nested.json"
        path.write_text('{"kind": "mpscheck-report", ' + where + "[" * depth + "]" * depth + "}")
        _clean_error(_run(["explain", str(path)], stdout=subprocess.PIPE))


@pytest.mark.parametrize("python", ["/tmp/" + "a" * 300 + "/python", "a" * 300, "/tmp/x\0y"])
def test_an_unusable_python_path_is_a_usage_error(python: str) -> None:
    if "\0" in python:  # argv cannot carry a NUL: the check is on the function the option calls
        from mpscheck.probes.target import TargetError, resolve_python

        with pytest.raises(TargetError):
            resolve_python(python, os.environ)
        return
    assert "--python" in _clean_error(_run(["doctor", "--python", python]))


def test_the_package_loads_nothing_before_the_entry_points_handler() -> None:
    """The console script imports mpscheck/__init__.py before entry.py's first line, the SIGINT handler:
    it must import nothing (typing alone took ~17 ms of that window, in which a Ctrl-C printed a traceback)."""
    code = "import sys\nbefore = set(sys.modules)\nimport mpscheck\nprint(sorted(set(sys.modules) - before))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "['mpscheck']", done.stdout


SPY_ON_ENTRY = """
import importlib.abc, runpy, signal, sys
class Spy(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "mpscheck.entry":  # printed at once: mpscheck ends with os._exit, after its own output
            print("handled:", signal.getsignal(signal.SIGINT) is not signal.default_int_handler, flush=True)
sys.meta_path.insert(0, Spy())
sys.argv = ["mpscheck", "--version"]
runpy.run_module("mpscheck", run_name="__main__", alter_sys=True)
"""


def test_python_dash_m_handles_sigint_before_it_loads_the_entry_module() -> None:
    """`python -m mpscheck`: a Ctrl-C while Python finds and loads mpscheck.entry ended in a traceback
    through mpscheck/__main__.py (the adversarial run's Ctrl-C at 20 ms); its handler now comes first."""
    done = subprocess.run([sys.executable, "-c", SPY_ON_ENTRY], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.splitlines()[0] == "handled: True", done.stdout + done.stderr


def _early_ctrl_c_problem() -> str | None:
    """The stderr of the first of 30 runs, each interrupted a little later, that breaks the rule below."""
    for step in range(30):
        proc = subprocess.Popen(
            [_exe(), "doctor", "--require", "none", "--no-smoke"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=ENV,
        )
        time.sleep(step * 0.004)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        text = err.decode("utf-8", "replace")
        frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', text)
        ours = [(path, where) for path, where in frames if path.startswith(str(PACKAGE))]
        # Only the lines that run before the handler: the package's __init__ and entry's first lines.
        if not all(where == "<module>" and path.endswith(("__init__.py", "entry.py")) for path, where in ours):
            return text
        if "mpscheck: interrupted" in text and (proc.returncode != 130 or "Traceback" in text):
            return f"exit {proc.returncode}: {text}"
    return None


def test_a_ctrl_c_while_mpscheck_loads_prints_no_traceback_from_mpscheck() -> None:
    """Python's own start-up (site, .pth files) comes before any mpscheck code and may still print one;
    from the first line of mpscheck's entry point on, a SIGINT ends with one line and exit 130.
    The moment a signal lands is not under the test's control: a sweep that breaks the rule is run once
    more, and both must break it to fail (one failure in six full runs was seen on a loaded machine and
    could not be reproduced in twenty sweeps)."""
    first = _early_ctrl_c_problem()
    if first is not None:
        again = _early_ctrl_c_problem()
        assert again is None, f"{first}\n--- and again ---\n{again}"
