"""`mpscheck ops` and `mpscheck run` end to end, with the real CPU torch: exit codes, the script's
own output and exit code, usage errors, the doctor as a gate, the child's environment, and signals.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import mpscheck.ops.prediction as prediction
from mpscheck.cli import cli
from tests.coverage_fixture import SMALL_TABLE, FixtureTable

pytest.importorskip("torch")

SCRIPTS = Path(__file__).parent / "op_scripts"
ROOT = Path(__file__).resolve().parent.parent

# The fixture table, plus the factory op that the all-clear script below uses.
TABLE_DATA = copy.deepcopy(SMALL_TABLE)
TABLE_DATA["ops"]["aten::ones"] = {"history": [["2.0.0", "mps"]]}


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> FixtureTable:
    fixture = FixtureTable(TABLE_DATA)
    monkeypatch.setattr(prediction, "default_table", lambda: fixture)
    return fixture


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), env={"NO_COLOR": "1", "GITHUB_ACTIONS": ""}, catch_exceptions=False)


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "script.py"
    path.write_text(body)
    return str(path)


def test_ops_flags_roll_for_2_0_and_clears_it_for_2_1(table: FixtureTable, tmp_path: Path) -> None:
    script = _script(tmp_path, "import torch\nx = torch.ones(2, 2)\ny = torch.roll(x, 1) @ x\n")
    old = invoke("ops", "--torch", "2.0", "--format", "json", "--", sys.executable, script)
    assert old.exit_code == 1
    report = json.loads(old.stdout)
    roll = next(op for op in report["ops"] if op["name"] == "aten::roll")
    assert (roll["status"], roll["first_release"], roll["calls"]) == ("fallback", "2.1.0", 1)
    assert report["script_exit_code"] == 0 and report["torch"] == "2.0.0"
    new = invoke("ops", "--torch", "2.1", "--format", "json", "--", sys.executable, script)
    assert new.exit_code == 0, new.stdout
    assert {op["status"] for op in json.loads(new.stdout)["ops"]} == {"mps"}


def test_ops_text_shows_problems_first_with_the_fix(table: FixtureTable) -> None:
    result = invoke("ops", "--torch", "2.0", "--", sys.executable, str(SCRIPTS / "roll_and_svd.py"))
    assert result.exit_code == 1
    text = result.stdout
    assert text.index("Problems:") < text.index("[fallback] aten::roll") < text.index("Fine on MPS")
    assert "fix: upgrade: pip install 'torch>=2.1.0'" in text


def test_ops_json_keeps_stdout_for_the_report(table: FixtureTable, tmp_path: Path) -> None:
    script = _script(tmp_path, "import torch\nprint('noise from the script')\ntorch.ones(1)\n")
    result = invoke("ops", "--format", "json", "--torch", "2.1", "--", sys.executable, script)
    assert json.loads(result.stdout)["kind"] == "mpscheck-ops"


def test_a_failing_script_is_reported_with_its_exit_code_and_the_ops_before(table: FixtureTable) -> None:
    result = invoke("ops", "--format", "json", "--torch", "2.0", "--", sys.executable, str(SCRIPTS / "fails_midway.py"))
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["script_exit_code"] == 1
    assert "aten::roll" in {op["name"] for op in report["ops"]}


def test_a_script_that_died_is_never_ready_and_its_last_words_are_shown(table: FixtureTable, tmp_path: Path) -> None:
    # Issue 18 item 2: every op it ran is fine on 2.1, but it died on line 3: nothing is predicted for the rest.
    script = _script(tmp_path, "import torch\ntorch.ones(2)\nimport no_such_module_for_mpscheck\ntorch.ones(3)\n")
    result = invoke("ops", "--format", "json", "--torch", "2.1", "--", sys.executable, script)
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["ready"] is False and report["script_completed"] is False
    assert report["script_exit_code"] == 1 and report["counts"]["mps"] >= 1
    assert any("No module named 'no_such_module_for_mpscheck'" in line for line in report["script_last_words"])
    assert "did not run to its end (exit 1)" in report["headline"]
    text = invoke("ops", "--torch", "2.1", "--", sys.executable, script)
    assert text.exit_code == 1
    assert "The script's last words (stderr):" in text.stdout and "ModuleNotFoundError" in text.stdout


def test_ops_writes_the_report_to_a_file(table: FixtureTable, tmp_path: Path) -> None:
    out = tmp_path / "ops.md"
    result = invoke("ops", "--torch", "2.0", "--format", "markdown", "-o", str(out), "--", sys.executable,
                    str(SCRIPTS / "roll_and_svd.py"))  # fmt: skip
    assert result.exit_code == 1
    assert "| fallback | `aten::roll` |" in out.read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ops"], "give the command to record"),
        (["ops", "--torch", "1.9", "--", "python3", "-c", "pass"], "--torch 1.9: not in the op coverage table"),
        (["ops", "--torch", "nightly", "--", "python3", "-c", "pass"], "--torch nightly: not a torch version"),
        (["ops", "--macos", "sonoma", "--", "python3", "-c", "pass"], "--macos sonoma"),
        (["ops", "--", "/no/such/program"], "cannot start /no/such/program"),
        (["ops", "--op", "roll", "--", "python3"], "give it no command"),
        (["ops", "--op", "aten::nothing_like_this"], "not in the op coverage table"),
        (["run"], "give the command to run"),
    ],
)
def test_usage_errors_exit_2_with_one_line(table: FixtureTable, args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_ops_looks_one_op_up(table: FixtureTable) -> None:
    result = invoke("ops", "--op", "roll")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "aten::roll: MPS kernel since 2.1"


# ---- mpscheck run -------------------------------------------------------------------------------


def test_run_does_not_start_the_command_when_mps_is_required_off_a_mac(tmp_path: Path) -> None:
    if sys.platform == "darwin":
        pytest.skip("on a Mac MPS may well be there")
    marker = tmp_path / "started"
    result = invoke("run", "--require", "mps", "--", sys.executable, "-c", f"open({str(marker)!r}, 'w')")
    assert result.exit_code == 1
    assert not marker.exists()
    assert "not starting" in result.stderr


def test_run_passes_the_exit_code_and_sets_the_fallback_variable(tmp_path: Path) -> None:
    out = tmp_path / "env.txt"
    code = (
        f"import os, sys; open({str(out)!r}, 'w').write(os.environ.get('PYTORCH_ENABLE_MPS_FALLBACK', '-')); "
        "sys.exit(7)"
    )
    result = invoke("run", "--require", "none", "--fallback", "--", sys.executable, "-c", code)
    assert result.exit_code == 7
    assert out.read_text() == "1"
    plain = invoke("run", "--require", "none", "--", sys.executable, "-c", code)
    assert plain.exit_code == 7 and out.read_text() == "-"


def test_run_trace_off_a_mac_uses_the_recording_and_says_so(table: FixtureTable) -> None:
    if sys.platform == "darwin":
        pytest.skip("a Mac traces for real")
    result = invoke("run", "--require", "none", "--trace", "--", sys.executable, str(SCRIPTS / "roll_and_svd.py"))
    assert result.exit_code == 0, result.output  # the script's own exit code
    assert "Not a Mac: --trace cannot watch torch fall back here" in result.stderr
    assert "would not run on MPS with torch 2.2.0" in result.stderr  # the newest release of the fixture


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(("name", "expected"), [("SIGTERM", 42), ("SIGINT", 43)])
def test_run_forwards_sigint_and_sigterm_to_the_command(tmp_path: Path, name: str, expected: int) -> None:
    child = (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, lambda *a: (print('got SIGTERM', flush=True), sys.exit(42)))\n"
        "signal.signal(signal.SIGINT, lambda *a: (print('got SIGINT', flush=True), sys.exit(43)))\n"
        "print('ready', flush=True)\n"
        "time.sleep(120)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mpscheck", "run", "--require", "none", "--", sys.executable, "-c", child],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 120
        line = ""
        while "ready" not in line and time.monotonic() < deadline:
            line = proc.stdout.readline()
        assert "ready" in line
        proc.send_signal(getattr(signal, name))
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == expected
    assert f"got {name}" in out


def test_run_trace_on_a_mac_sets_the_profiler_bit_and_warn_always_and_reads_stderr(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The Mac path's plumbing, run here: the child is real Python with real torch (warn-always must be
    on after `import torch`); what torch would print on a Mac is replayed from a public thread."""
    from tests.recorded_fallbacks import ROLL_WARNING_2_0

    monkeypatch.setattr(sys, "platform", "darwin")
    seen = tmp_path / "seen.json"
    child = _script(
        tmp_path,
        "import json, os, sys, torch\n"
        f"json.dump({{'profile': os.environ.get('PYTORCH_MPS_LOG_PROFILE_INFO'),"
        f" 'warn_always': torch.is_warn_always_enabled()}}, open({str(seen)!r}, 'w'))\n"
        f"sys.stderr.write({ROLL_WARNING_2_0!r} * 2)\n"
        "sys.exit(5)\n",
    )
    monkeypatch.setenv("PYTORCH_MPS_LOG_PROFILE_INFO", "1")
    result = invoke("run", "--require", "none", "--trace", "--", sys.executable, child)
    assert result.exit_code == 5
    assert json.loads(seen.read_text()) == {"profile": "65", "warn_always": True}
    assert "aten::roll: 2 call(s)" in result.stderr


def test_the_dataloaders_shuffling_is_never_an_mps_problem_with_the_real_table() -> None:
    """Issue 19 item 1: aten::random_ first reached in the DataLoader's seeding was a false alarm for 2.0."""
    result = invoke("ops", "--torch", "2.0", "--format", "json", "--", sys.executable,
                    str(SCRIPTS / "dataloader_shuffle.py"))  # fmt: skip
    report = json.loads(result.stdout)
    problems = [(op["name"], op["first_site"]) for op in report["ops"] if op["status"] not in ("mps", "composite")]
    # Only the script's own random_ (its last line) is flagged; the DataLoader's is CPU-side.
    assert problems == [("aten::random_", f"{SCRIPTS / 'dataloader_shuffle.py'}:23")]
    sides = {(op["name"], op["side"]) for op in report["cpu_side_ops"]}
    assert ("aten::random_", "data-loading") in sides and ("aten::argmax", "cpu-result") in sides
    assert "DataLoader" in report["cpu_side_rule"] and ".cpu()" in report["cpu_side_rule"]
    text = invoke("ops", "--torch", "2.0", "--", sys.executable, str(SCRIPTS / "dataloader_shuffle.py")).stdout
    assert "How ops were judged: a CPU-only run" in text and "DataLoader work (torch/utils/data)" in text


def test_pytorch_examples_mnist_has_no_false_alarm_at_the_dataloader() -> None:
    """Issue 19: `--torch 2.0` flagged aten::random_ first reached in mnist's DataLoader (main.py:37)."""
    script = SCRIPTS / "pytorch_examples" / "run_mnist.py"
    result = invoke("ops", "--torch", "2.0", "--format", "json", "--", sys.executable, str(script))
    report = json.loads(result.stdout)
    assert result.exit_code == 0 and report["ready"] is True, report["headline"]
    assert ("aten::random_", "data-loading") in {(op["name"], op["side"]) for op in report["cpu_side_ops"]}
    assert "aten::convolution" in {name for op in report["ops"] for name in op["recorded_as"]}
