"""How --python and the active environment become the interpreter that is probed: relative paths,
env folders, empty values, and binaries that are not named python."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mpscheck.probes.target import choose_target, probe_target
from tests.conftest import PYTHON, fake_torch_env
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
