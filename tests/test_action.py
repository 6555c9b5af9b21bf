"""The composite GitHub Action: every input reaches the CLI, and its script behaves per input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import PYTHON

ACTION = yaml.safe_load((Path(__file__).resolve().parent.parent / "action.yml").read_text())
DOCTOR_STEP = next(step for step in ACTION["runs"]["steps"] if step.get("id") == "doctor")


def test_every_input_is_passed_to_the_doctor_step() -> None:
    for name in ACTION["inputs"]:
        assert DOCTOR_STEP["env"][f"INPUT_{name.upper()}"] == "${{ inputs." + name + " }}"
    assert ACTION["runs"]["using"] == "composite"


def run_step(tmp_path: Path, **inputs: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Run the doctor step's script as Actions would; the report is where its `report` output says."""
    mpscheck = shutil.which("mpscheck", path=os.path.dirname(sys.executable)) or shutil.which("mpscheck")
    assert mpscheck, "the mpscheck console script is not installed"
    values = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()}
    values.update({"python": PYTHON, **inputs})
    env = {**os.environ, **{f"INPUT_{k.upper()}": v for k, v in values.items()}}
    env.update(
        MPSCHECK_BIN=mpscheck,
        RUNNER_TEMP=str(tmp_path),
        GITHUB_OUTPUT=str(tmp_path / "output"),
        GITHUB_STEP_SUMMARY=str(tmp_path / "summary.md"),
        GITHUB_ACTIONS="true",
    )
    done = subprocess.run(
        ["bash", "-c", DOCTOR_STEP["run"]], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    outputs = (tmp_path / "output").read_text().splitlines() if (tmp_path / "output").exists() else []
    reports = [line.split("=", 1)[1] for line in outputs if line.startswith("report=")]
    return done, Path(reports[-1]) if reports else tmp_path / "no-report-output"


def test_require_none_passes_and_leaves_a_report(tmp_path, real_torch) -> None:
    done, report = run_step(tmp_path, require="none", smoke="false")
    assert done.returncode == 0, done.stdout + done.stderr
    document = json.loads(report.read_text())
    assert document["require"] == "none" and document["facts"]["target"]["run"]["workload"] == "none"
    assert (tmp_path / "output").read_text() == f"report={report}\n"
    assert report.parent.parent == tmp_path
    assert (tmp_path / "summary.md").read_text().startswith("## mpscheck doctor")


def test_require_mps_fails_on_linux_with_an_annotation(tmp_path, real_torch) -> None:
    done, report = run_step(tmp_path, require="mps", strict="true")
    assert done.returncode == 1
    assert "::error title=mpscheck platform::" in done.stdout
    assert json.loads(report.read_text())["strict"] is True


@pytest.mark.parametrize(("name", "value"), [("strict", "yes"), ("smoke", "maybe")])
def test_bad_boolean_inputs_are_refused(tmp_path, name: str, value: str) -> None:
    done, _ = run_step(tmp_path, **{name: value})
    assert done.returncode == 2 and f"::error::{name} must be true or false" in done.stdout


def test_bad_require_is_a_usage_error(tmp_path) -> None:
    done, _ = run_step(tmp_path, require="tpu")
    assert done.returncode == 2 and "'tpu' is not one of" in done.stderr


def test_a_failed_run_never_shows_the_report_of_an_earlier_one(tmp_path, real_torch) -> None:
    first, first_report = run_step(tmp_path, require="none", smoke="false")
    assert first.returncode == 0 and first_report.exists()
    summary = (tmp_path / "summary.md").read_text()
    second, second_report = run_step(tmp_path, require="tpu")
    assert second.returncode == 2
    assert second_report != first_report and not second_report.exists()
    assert "::" not in second.stdout and "Ready" not in second.stdout, second.stdout
    assert (tmp_path / "summary.md").read_text() == summary  # nothing stale appended


@pytest.mark.parametrize("name", ["python", "require", "timeout", "strict", "smoke"])
@pytest.mark.parametrize("brk", ["\n", "\r", "\r\n"])
def test_an_input_with_a_line_break_is_refused_and_starts_no_command(tmp_path, name: str, brk: str) -> None:
    done, _ = run_step(tmp_path, **{name: f"x{brk}::error::forged{brk}##[warning]forged"})
    assert done.returncode == 2
    assert f"::error::{name} must be one line" in done.stdout
    for line in (done.stdout + done.stderr).replace("\r", "\n").splitlines():  # the runner's line breaks
        assert not line.lstrip().startswith("::error::forged"), line
        assert "##[" not in line or line.startswith(f"::error::{name} must be one line"), line  # data, not a command
