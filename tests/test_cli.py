"""The command line through click's CliRunner and through the installed entry point."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mpscheck.checks.diagnose import diagnose
from mpscheck.cli import cli
from mpscheck.render.json_report import render as render_json
from tests.conftest import PYTHON
from tests.scenarios import scenarios
from tests.test_renderers import validate


def invoke(*args: str, env: dict[str, str] | None = None):
    runner = CliRunner()
    base = {"GITHUB_ACTIONS": "", "GITHUB_STEP_SUMMARY": "", "NO_COLOR": "1"}
    return runner.invoke(cli, list(args), env={**base, **(env or {})}, catch_exceptions=False)


def test_help_and_version() -> None:
    result = invoke("--help")
    assert result.exit_code == 0 and "doctor" in result.output and "smoke-test" in result.output
    assert invoke("--version").output.startswith("mpscheck, version ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["doctor", "--frobnicate"], "--frobnicate"),
        (["doctor", "--format", "yaml"], "'yaml' is not one of"),
        (["doctor", "--require", "tpu"], "'tpu' is not one of"),
        (["doctor", "--timeout", "0"], "must be a number of seconds above 0"),
        (["doctor", "--timeout", "soon"], "'soon' is not a valid float"),
        (["doctor", "--python", "/nonexistent/python3"], "no such file"),
        (["doctor", "--python", "/bin/ls"], "not a Python interpreter"),
        (["doctor", "--check", "no-such-check"], "unknown check id no-such-check"),
        (["smoke-test", "--device", "tpu"], "'tpu' is not one of"),
        (["explain"], "Missing argument"),
    ],
)
def test_usage_errors_exit_2_without_traceback(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_list_checks() -> None:
    result = invoke("doctor", "--list-checks")
    assert result.exit_code == 0
    assert result.output.splitlines()[0].split()[0] == "platform"
    assert "python-arch" in result.output and "frameworks" in result.output


def test_doctor_on_this_linux_machine(real_torch) -> None:
    result = invoke("doctor", "--python", PYTHON, "--format", "json")
    assert result.exit_code == 1  # MPS cannot be used on Linux: the documented exit code
    document = json.loads(result.output)
    validate(document)
    statuses = {f["id"]: f["status"] for f in document["findings"]}
    assert statuses["platform"] == "fail" and statuses["torch-import"] == "pass"
    assert document["facts"]["target"]["torch"]["version"].startswith("2.")
    assert document["target"]["python"] == PYTHON


def test_doctor_require_none_reports_and_exits_0(real_torch) -> None:
    result = invoke("doctor", "--python", PYTHON, "--require", "none")
    assert result.exit_code == 0
    assert "MPS cannot be used here" in result.output
    assert f"probed {PYTHON}" in result.output
    assert "Report only (--require none)" in result.output


def test_doctor_check_selects_findings(real_torch) -> None:
    result = invoke(
        "doctor",
        "--python",
        PYTHON,
        "--check",
        "torch-import,interpreter",
        "--format",
        "json",
        "--require",
        "none",
        "--no-smoke",
    )
    assert [f["id"] for f in json.loads(result.output)["findings"]] == ["interpreter", "torch-import"]


def test_output_file_and_summary_on_stderr(tmp_path, real_torch) -> None:
    target = tmp_path / "report.json"
    result = invoke("doctor", "--python", PYTHON, "--format", "json", "--output", str(target), "--no-smoke")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "Not ready: MPS failed: platform (report written to" in result.stderr
    validate(json.loads(target.read_text()))


def test_unwritable_output_is_a_usage_error_before_probing(tmp_path) -> None:
    result = invoke("doctor", "--python", "/nonexistent", "--output", str(tmp_path / "no" / "dir" / "r.json"))
    assert result.exit_code == 2 and "does not exist" in result.output
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who can write anywhere (root)")
        result = invoke("doctor", "--output", str(locked / "r.json"))
        assert result.exit_code == 2 and "not writable" in result.output
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_write_failure_leaves_nothing_half_written(tmp_path, monkeypatch) -> None:
    from mpscheck.render import deliver

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(deliver.os, "replace", broken_replace)
    with pytest.raises(deliver.OutputError, match="No space left"):
        deliver.write_whole(str(tmp_path / "r.json"), "{}")
    assert list(tmp_path.iterdir()) == []


def _saved(tmp_path: Path, name: str) -> Path:
    scenario = next(s for s in scenarios() if s.name.startswith(name))
    path = tmp_path / "saved.json"
    path.write_text(render_json(diagnose(scenario.facts)))
    return path


def test_explain_rejudges_a_report_saved_on_a_mac(tmp_path) -> None:
    path = _saved(tmp_path, "GitHub-hosted macOS arm64 runner")
    result = invoke("explain", str(path))
    assert result.exit_code == 1
    assert "[✗] smoke" in result.output and "paravirtual GPU" in result.output
    assert invoke("explain", str(path), "--require", "none").exit_code == 0
    healthy = _saved(tmp_path, "healthy native M1")
    assert invoke("explain", str(healthy)).exit_code == 0
    assert invoke("explain", str(healthy), "--format", "markdown").output.startswith("## mpscheck doctor")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not JSON"),
        ('{"kind": "something-else"}', "is not an mpscheck report"),
        ('{"kind": "mpscheck-report", "schema_version": 99, "facts": {}}', "schema version 99"),
        (
            '{"kind": "mpscheck-report", "schema_version": 1, "facts": {"host": {"cpu_count": "many"}}}',
            "corrupt facts: facts.host.cpu_count: expected int",
        ),
        ('{"kind": "mpscheck-report", "schema_version": 1, "facts": []}', "corrupt facts"),
    ],
)
def test_explain_rejects_corrupt_or_foreign_reports(tmp_path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = invoke("explain", str(path))
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_explain_missing_file(tmp_path) -> None:
    result = invoke("explain", str(tmp_path / "nope.json"))
    assert result.exit_code == 2 and "cannot read" in result.output


def test_under_github_actions_the_default_format_is_github(tmp_path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("")
    path = _saved(tmp_path, "GitHub-hosted macOS arm64 runner")
    result = invoke("explain", str(path), env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)})
    assert "::error title=mpscheck smoke::" in result.output
    assert "[✗] smoke" in result.output  # the readable report stays in the log
    assert summary.read_text().startswith("## mpscheck doctor")


def test_a_crashing_check_is_exit_3_with_a_crash_finding(tmp_path, monkeypatch) -> None:
    import dataclasses

    from mpscheck.checks import registry

    def explode(ctx):
        raise ZeroDivisionError("boom")

    monkeypatch.setitem(registry.REGISTRY, "chip", dataclasses.replace(registry.REGISTRY["chip"], run=explode))
    result = invoke("explain", str(_saved(tmp_path, "healthy native M1")), "--format", "json")
    assert result.exit_code == 3
    chip = next(f for f in json.loads(result.output)["findings"] if f["id"] == "chip")
    assert chip["status"] == "crash" and "ZeroDivisionError: boom" in chip["summary"]


def test_internal_error_is_exit_3_without_traceback(monkeypatch) -> None:
    import mpscheck.pipeline

    def broken(*args, **kwargs):
        raise RuntimeError("unexpected")

    monkeypatch.setattr(mpscheck.pipeline, "doctor_report", broken)
    result = CliRunner().invoke(cli, ["doctor"], catch_exceptions=False)
    assert result.exit_code == 3
    assert "internal error: RuntimeError: unexpected" in result.output and "Traceback" not in result.output


def test_probe_failure_is_a_finding_not_a_crash(make_python) -> None:
    result = invoke(
        "doctor", "--python", make_python("sleep 30"), "--timeout", "1", "--require", "none", "--format", "json"
    )
    document = json.loads(result.output)
    interpreter = next(f for f in document["findings"] if f["id"] == "interpreter")
    assert interpreter["status"] == "fail" and "no answer within 1 s" in interpreter["summary"]
    assert "--timeout 120" in " ".join(interpreter["fix"]["commands"])


def test_smoke_test_on_cpu(real_torch) -> None:
    result = invoke("smoke-test", "--python", PYTHON, "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    validate(document)
    statuses = {f["id"]: f["status"] for f in document["findings"]}
    assert statuses["smoke-device"] == "warn"  # auto ended on the CPU
    assert all(
        statuses[f"smoke-{s}"] == "pass" for s in ("allocate", "elementwise", "matmul", "train", "dtypes", "memory")
    )
    seconds = [s["seconds"] for s in document["facts"]["target"]["smoke"]["steps"]]
    assert len(seconds) == 7 and all(isinstance(s, float) for s in seconds)


def test_smoke_test_device_mps_on_linux_is_a_failing_finding(real_torch) -> None:
    result = invoke("smoke-test", "--python", PYTHON, "--device", "mps")
    assert result.exit_code == 1
    assert "--device mps was requested and torch cannot use mps here: not macOS (Linux)" in result.output
    assert "Traceback" not in result.output


def test_smoke_test_device_gpu_never_settles_for_the_cpu_and_says_why_each_gpu_was_refused(real_torch) -> None:
    result = invoke("smoke-test", "--python", PYTHON, "--device", "gpu", "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.output)
    assert document["facts"]["target"]["smoke"]["device"] is None  # no CPU run
    device = next(f for f in document["findings"] if f["id"] == "smoke-device")
    assert device["status"] == "fail"
    assert device["summary"] == (
        "neither MPS nor CUDA is available: mps not used: not macOS (Linux); "
        "cuda not used: no CUDA device visible (a CPU-only torch build)"
    )
    assert device["fix"]["commands"][-1] == "nvidia-smi"  # the doctor's fix for CUDA on this CPU-only build


def test_installed_entry_point_runs_as_a_subprocess(real_torch) -> None:
    exe = shutil.which("mpscheck", path=os.path.dirname(sys.executable)) or shutil.which("mpscheck")
    if exe is None:
        pytest.fail("the mpscheck console script is not installed (pip install -e .)")
    done = subprocess.run(
        [exe, "doctor", "--python", PYTHON, "--require", "none", "--no-smoke"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "torch-import" in done.stdout and "\x1b[" not in done.stdout
    module = subprocess.run(
        [sys.executable, "-m", "mpscheck", "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert module.returncode == 0 and "mpscheck, version" in module.stdout


def test_explain_with_an_unknown_check_id_is_a_usage_error(tmp_path) -> None:
    result = invoke("explain", str(_saved(tmp_path, "healthy native M1")), "--check", "no-such-id")
    assert result.exit_code == 2 and "unknown check id no-such-id" in result.output


def test_doctor_check_filters_the_report_but_linux_is_still_not_ready(real_torch) -> None:
    result = invoke("doctor", "--python", PYTHON, "--check", "interpreter", "--no-smoke")
    assert result.exit_code == 1, result.output
    assert "[✓] interpreter" in result.output and "MPS is ready" not in result.output
    assert "Not ready: MPS failed: platform" in result.output


def test_explain_rejudges_a_schema_1_report_from_its_numbers(tmp_path) -> None:
    """A report saved by mpscheck 0.1 (steps carrying their own verdicts) is upgraded, then re-judged."""
    document = json.loads(_saved(tmp_path, "healthy native M1").read_text())
    document["schema_version"] = 1
    steps = document["facts"]["target"]["smoke"]["steps"]
    for step in steps:
        step["status"] = "pass"
        del step["outcome"]
    steps[0]["values"].pop("mismatches")
    steps[1]["values"] = {"max_relative_error": {"add": 0.5}, "tolerance": 1e-4}  # v1 said pass; the numbers disagree
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(document))
    result = invoke("explain", str(path), "--format", "json")
    assert result.exit_code == 1, result.output
    smoke = next(f for f in json.loads(result.output)["findings"] if f["id"] == "smoke")
    assert smoke["status"] == "fail" and "add differs from the CPU by 0.5" in smoke["summary"]
