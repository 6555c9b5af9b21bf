"""How --python and the active environment become the interpreter that is probed: relative paths,
env folders, empty values, and binaries that are not named python."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mpscheck.checks.diagnose import diagnose
from mpscheck.cli import cli
from mpscheck.probes.target import TargetError, choose_target, probe_target
from mpscheck.render.json_report import render as render_json
from tests.conftest import PYTHON, fake_torch_env
from tests.scenarios import scenarios
from tests.test_cli import invoke


def _env_folder(root: Path) -> None:
    """A venv-shaped folder whose bin/python is this test run's interpreter."""
    (root / "bin").mkdir(parents=True)
    python = root / "bin" / "python"
    python.write_text(f'#!/bin/sh\nexec "{PYTHON}" "$@"\n')
    python.chmod(python.stat().st_mode | stat.S_IEXEC)


@pytest.mark.parametrize(
    ("requested", "extra_env"),
    [
        (".venv/bin/python", {}),
        (".venv", {}),
        ("./.venv/bin/python", {}),
        (None, {"VIRTUAL_ENV": ".venv"}),
        (None, {"CONDA_PREFIX": ".venv"}),
    ],
)
def test_a_relative_target_is_resolved_against_the_callers_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, requested: str | None, extra_env: dict[str, str]
) -> None:
    _env_folder(tmp_path / ".venv")
    monkeypatch.chdir(tmp_path)
    environ = {k: v for k, v in fake_torch_env("mps-vm").items() if k not in ("VIRTUAL_ENV", "CONDA_PREFIX")}
    environ.update(extra_env)
    choice = choose_target(requested, environ, own="/nonexistent/own/python")
    assert os.path.isabs(choice.path), choice
    assert choice.path == str(tmp_path / ".venv" / "bin" / "python")
    facts = probe_target(choice.path, timeout=60, environ=environ)
    assert facts.run.status == "ok", facts.run.message + facts.run.stderr_tail


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e308", "1e400", "86401"])
@pytest.mark.parametrize("command", ["doctor", "smoke-test"])
def test_a_timeout_that_is_not_a_sane_number_of_seconds_is_a_usage_error(command: str, value: str) -> None:
    result = invoke(command, "--timeout", value, "--python", PYTHON)
    assert result.exit_code == 2, result.output
    assert "--timeout" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("value", ["-5", "0", "nan", "inf", "1e308"])
def test_the_plugins_timeout_is_checked_as_a_usage_error(pytester: pytest.Pytester, value: str) -> None:
    pytester.makepyfile("import pytest\n\n@pytest.mark.mps\ndef test_needs_mps():\n    pass\n")
    result = pytester.runpytest_subprocess("--mpscheck-timeout", value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str() + result.stderr.str()
    assert "--mpscheck-timeout" in result.stderr.str()


def test_an_empty_python_is_a_usage_error() -> None:
    result = invoke("doctor", "--python", "")
    assert result.exit_code == 2 and "--python" in result.output and "empty" in result.output
    with pytest.raises(TargetError):
        choose_target("", {}, own=PYTHON)


def test_a_hanging_binary_not_named_python_obeys_the_timeout(tmp_path: Path) -> None:
    binary = tmp_path / "interp"
    binary.write_text("#!/bin/sh\nsleep 60\n")
    binary.chmod(0o755)
    started = time.monotonic()
    result = invoke("doctor", "--python", str(binary), "--timeout", "1")
    assert time.monotonic() - started < 1 + 3, result.output
    assert result.exit_code == 2 and "within 1 s" in result.output


def test_a_timed_out_probe_is_not_called_a_failed_import_of_torch(make_python) -> None:
    python = make_python("sleep 30")
    for require in ("gpu", "none"):
        result = invoke("doctor", "--python", python, "--timeout", "1", "--require", require, "--format", "json")
        platform = json.loads(result.output)["findings"][0]
        assert platform["id"] == "platform" and "torch could not be imported" not in platform["summary"]
        assert "no answer within 1 s" in platform["summary"], platform


def test_list_checks_as_json() -> None:
    result = invoke("doctor", "--list-checks", "--format", "json")
    assert result.exit_code == 0
    listed = json.loads(result.output)
    assert listed[0] == {"id": "platform", "title": "Platform"}
    assert all(set(item) == {"id", "title"} for item in listed)


def test_explain_reads_a_json_report_from_standard_input(tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    scenario = next(s for s in scenarios() if s.name.startswith("healthy native M1"))
    saved.write_text(render_json(diagnose(scenario.facts)))
    from_file = invoke("explain", str(saved), "--format", "json")
    runner = CliRunner()
    env = {"GITHUB_ACTIONS": "", "GITHUB_STEP_SUMMARY": "", "NO_COLOR": "1"}
    from_stdin = runner.invoke(cli, ["explain", "-", "--format", "json"], input=saved.read_text(), env=env)
    assert from_stdin.exit_code == from_file.exit_code == 0, from_stdin.output
    assert json.loads(from_stdin.output)["findings"] == json.loads(from_file.output)["findings"]
    broken = runner.invoke(cli, ["explain", "-"], input="{not json", env=env)
    assert broken.exit_code == 2 and "standard input is not JSON" in broken.output
