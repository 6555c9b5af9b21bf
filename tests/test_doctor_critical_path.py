"""What stays off the doctor's critical path (issue 20: the doctor without torch in 0.3 s): a probe
whose command ends at once imports neither psutil nor hmac, the Linux host probe reads /proc as
psutil would, and mpscheck exits without the interpreter's teardown, with the same exit status."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the /proc readings are Linux's")


def run_python(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)


@LINUX
def test_a_command_that_ends_at_once_costs_no_psutil_or_hmac_import() -> None:
    done = run_python(
        "import sys\n"
        "from mpscheck.probes.process import run_command\n"
        "done = run_command(['/bin/sh', '-c', 'echo hello'], timeout=10)\n"
        "print(done.returncode, done.stdout.strip(), 'psutil' in sys.modules, 'hmac' in sys.modules)\n"
    )
    assert done.stdout.split() == ["0", "hello", "False", "False"], done.stderr


@LINUX
def test_the_linux_host_probe_reads_psutils_figures_without_psutil() -> None:
    done = run_python(
        "import sys\n"
        "from mpscheck.probes.host import probe_host\n"
        "facts = probe_host(gpu=False, toolchain=False)\n"
        "imported = 'psutil' in sys.modules\n"
        "import psutil\n"
        "print(imported, facts.cpu_count == psutil.cpu_count(logical=True),"
        " facts.memory_bytes == psutil.virtual_memory().total)\n"
    )
    assert done.stdout.split() == ["False", "True", "True"], done.stderr


@pytest.mark.parametrize(("argv", "status"), [(["--version"], 0), (["doctor", "--check", "no-such-check"], 2)])
def test_mpscheck_exits_with_its_status_and_without_the_teardown(argv: list[str], status: int) -> None:
    """An atexit handler stands for the teardown: it never runs, and the status is the verdict's."""
    done = run_python(
        "import atexit, sys\n"
        "atexit.register(lambda: print('teardown ran', file=sys.stderr))\n"
        f"sys.argv = ['mpscheck', *{argv!r}]\n"
        "from mpscheck.entry import main\n"
        "main()\n"
    )
    assert done.returncode == status and "teardown ran" not in done.stderr, done.stderr
    assert done.stdout or done.stderr  # what it printed was flushed before the exit


def test_a_command_that_exits_through_system_exit_keeps_its_status(tmp_path: Path) -> None:
    """explain exits with its verdict from inside the command (sys.exit): the same status as click's own runner."""
    from click.testing import CliRunner

    from mpscheck.cli import cli

    pasted = tmp_path / "paste.txt"
    pasted.write_text("RuntimeError: MPS backend out of memory (MPS allocated: 0 bytes, other allocations: 0 bytes)\n")
    done = run_python(
        f"import sys; sys.argv = ['mpscheck', 'explain', {str(pasted)!r}]\nfrom mpscheck.entry import main\nmain()\n"
    )
    expected = CliRunner().invoke(cli, ["explain", str(pasted)], catch_exceptions=False).exit_code
    assert done.returncode == expected == 1, done.stderr


def test_the_agent_starts_uname_first_and_the_interpreter_stage_reads_its_answer() -> None:
    """platform.processor() runs `uname -p`: begun in a thread before the agent's modules load."""
    done = run_python(
        "import json, platform, sys\n"
        "sys.argv = ['main.py']\n"
        "import runpy\n"
        "main = runpy.run_path('mpscheck/probes/agent/main.py', run_name='agent_main')\n"
        "thread = main['read_processor_early']()\n"
        "started = thread.is_alive() or thread.ident is not None\n"
        "main['load_package']()\n"
        "facts = main['part']('interpreter').interpreter_facts({}, thread)\n"
        "print(json.dumps([started, thread.daemon, thread.is_alive(), facts['processor'] == platform.processor()]))\n"
    )
    assert done.stdout.strip() == "[true, true, false, true]", done.stderr


def test_the_doctor_without_torch_compiles_no_known_error_pattern(tmp_path: Path) -> None:
    """The known-errors table compiles a row's pattern on first use: loading the judge and the whole
    doctor against an interpreter without torch (nothing for the table to read) compile none."""
    venv = tmp_path / "no-torch"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    argv = ["doctor", "--python", str(venv / "bin" / "python"), "--format", "json"]
    done = run_python(
        "import sys\n"
        "from mpscheck.knowledge.errors import TABLE\n"
        "import mpscheck.checks.diagnose, mpscheck.render.json_report\n"
        "loaded = sum('pattern' in vars(row) for row in TABLE)\n"
        "from mpscheck.cli import cli\n"
        "try:\n"
        f"    cli.main({argv!r}, standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(len(TABLE), loaded, sum('pattern' in vars(row) for row in TABLE), file=sys.stderr)\n"
    )
    counts = done.stderr.split()[-3:]
    assert counts[1:] == ["0", "0"] and int(counts[0]) > 50, done.stderr
    assert '"torch-import"' in done.stdout  # the doctor did judge the target


def test_a_known_error_row_compiles_its_text_once_on_first_use() -> None:
    from mpscheck.knowledge.errors import BY_ID, availability_pattern

    oom = BY_ID["oom-zero"]
    assert isinstance(oom.regex, str) and oom.pattern.pattern == oom.regex
    assert oom.pattern is oom.pattern  # cached: compiled once
    unavailable = next(row for row in BY_ID.values() if callable(row.regex))  # built from the release table
    assert unavailable.pattern.pattern == availability_pattern().pattern
    assert unavailable.pattern.search("The MPS backend is supported on MacOS 14.0+")


def test_the_target_starts_before_the_facts_classes_load(tmp_path: Path) -> None:
    """mpscheck.facts (its dataclasses) loads once the target runs, beside it: not before its start."""
    venv = tmp_path / "no-torch"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    argv = ["mpscheck", "doctor", "--python", str(venv / "bin" / "python"), "--format", "json"]
    done = run_python(
        "import os, subprocess, sys\n"
        "original = subprocess.Popen.__init__\n"
        "def spy(self, args, *rest, **kwargs):\n"
        "    if str(args[1]).endswith('main.py'):\n"
        "        os.write(2, f'at start: {\"mpscheck.facts\" in sys.modules}\\n'.encode())\n"
        "    return original(self, args, *rest, **kwargs)\n"
        "subprocess.Popen.__init__ = spy\n"
        f"sys.argv = {argv!r}\n"
        "from mpscheck.entry import main\n"
        "main()\n"
    )
    assert "at start: False" in done.stderr, done.stderr
    assert done.returncode == 1 and '"torch-import"' in done.stdout  # and the doctor judged it as before


AGENT = str(ROOT / "mpscheck" / "probes" / "agent" / "main.py")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], ("none", "auto")),
        (["--workload", "quick", "--device", "gpu"], ("quick", "gpu")),
        (["--device=cpu", "--workload=bench-tiny"], ("bench-tiny", "cpu")),
    ],
)
def test_the_agent_reads_its_arguments_without_argparse(argv: list[str], expected: tuple[str, str]) -> None:
    done = run_python(
        "import runpy, sys\n"
        f"main = runpy.run_path({AGENT!r}, run_name='agent_main')\n"
        f"print(*main['parse_args']({argv!r}), 'argparse' in sys.modules)\n"
    )
    assert done.stdout.split() == [*expected, "False"], done.stderr


@pytest.mark.parametrize(
    "argv", [["--workload", "huge"], ["--device"], ["--verbose"], ["--device", "tpu"], ["--workload=none", "extra"]]
)
def test_a_wrong_agent_argument_exits_2_with_the_usage_as_argparse_did(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, AGENT, *argv], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("usage: mpscheck-agent [--workload {none,quick,"), done.stderr
    assert "mpscheck-agent: error: " in done.stderr and not done.stdout
