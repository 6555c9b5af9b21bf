"""The Python API (mpscheck/api.py): doctor() and device() on the real CPU torch and on fake torches.

device() must prove a GPU with an allocation: the fake 'mps-vm' torch says MPS is available and
cannot allocate (a hosted macOS runner), so it must get cpu; the fake 'mps-works' one computes
what the CPU computes, so it must get mps. Jupyter's displays are checked as the strings they show.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import mpscheck
from mpscheck.api import Device, DoctorReport
from mpscheck.model import ExitCode, Status
from tests.conftest import FAKE_TORCH


@pytest.fixture
def fake_torch(monkeypatch: pytest.MonkeyPatch):
    def use(mode: str) -> None:
        monkeypatch.setenv("PYTHONPATH", str(FAKE_TORCH))
        monkeypatch.setenv("FAKE_TORCH_MODE", mode)

    return use


# What these tests expect of the real CPU torch is what Linux gives (no MPS applies, the platform check
# fails); on a macOS runner the same calls meet a VM's paravirtual GPU instead (.github/workflows/macos.yml).
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="expects Linux's verdict")


class _Printer:
    """IPython's pretty printer, as far as _repr_pretty_ uses it."""

    def __init__(self) -> None:
        self.written: list[str] = []

    def text(self, value: str) -> None:
        self.written.append(value)


def test_import_mpscheck_loads_neither_the_api_nor_torch() -> None:
    code = (
        "import sys, mpscheck; "
        "print(sorted(m for m in ('torch', 'rich', 'click', 'mpscheck.api', 'mpscheck.pipeline') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@linux_only
def test_device_on_cpu_torch_is_cpu_with_the_reason_and_torch_stays_out_of_the_caller(real_torch: None) -> None:
    code = (
        "import sys, json, mpscheck; d = mpscheck.device(); "
        "print(json.dumps([str(d), d.reason, isinstance(d, str), 'torch' in sys.modules]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    name, reason, is_str, torch_loaded = json.loads(done.stdout)
    assert (name, is_str, torch_loaded) == ("cpu", True, False)
    assert reason.startswith("no GPU works here: neither MPS nor CUDA is available (torch 2.")


@linux_only
def test_device_result_is_usable_by_torch(real_torch: None) -> None:
    import torch

    chosen = mpscheck.device()
    assert torch.device(chosen).type == "cpu"
    assert torch.zeros(2).to(chosen).device.type == "cpu"
    assert isinstance(chosen.report, DoctorReport)
    assert chosen.report.finding("smoke") is not None


def test_device_refuses_mps_that_says_available_but_cannot_allocate(fake_torch) -> None:
    fake_torch("mps-vm")
    chosen = mpscheck.device()
    assert chosen == "cpu"
    assert "mps failed the smoke test" in chosen.reason
    assert "paravirtual GPU in a macOS VM" in chosen.reason
    assert repr(chosen).startswith("Device('cpu', reason=")


def test_device_is_mps_when_an_allocation_and_the_arithmetic_work(fake_torch) -> None:
    fake_torch("mps-works")
    chosen = mpscheck.device()
    assert isinstance(chosen, Device) and isinstance(chosen, str)
    assert chosen == "mps"
    assert chosen.reason.startswith("float32 work on mps matches the CPU (allocate, elementwise;")


@linux_only
def test_doctor_returns_the_report_with_findings_fixes_and_json(real_torch: None) -> None:
    report = mpscheck.doctor(smoke=False)
    assert report.ready is False and report.exit_code is ExitCode.PROBLEMS
    platform = report.finding("platform")
    assert platform is not None and platform.status is Status.FAIL and platform.fix is not None
    assert platform in report.problems
    assert [f.id for f in report.findings][:2] == ["platform", "chip"]
    data = json.loads(report.to_json())
    assert data == report.to_dict()
    assert data["kind"] == "mpscheck-report" and data["exit_code"] == 1 and data["ready"] is False
    assert data["target"]["chosen_because"] == "the calling interpreter, sys.executable"
    assert data["facts"]["target"]["run"]["workload"] == "none"


@linux_only
def test_doctor_displays_as_the_text_report_in_jupyter(real_torch: None) -> None:
    report = mpscheck.doctor(smoke=False)
    text = str(report)
    assert text.startswith(f"mpscheck doctor · probed {sys.executable} (the calling interpreter, sys.executable)\n")
    assert "[✗] platform" in text and text.rstrip().endswith("✗ Not ready: MPS failed: platform")
    printer = _Printer()
    report._repr_pretty_(printer, cycle=False)
    assert printer.written == [text]
    markdown = report._repr_markdown_()
    assert markdown.startswith("## mpscheck doctor · probed ")
    assert "**Not ready: MPS failed: platform**" in markdown
    assert repr(report) == "<mpscheck DoctorReport exit_code=1: Not ready: MPS failed: platform>"


def test_the_api_and_the_cli_judge_alike(real_torch: None) -> None:
    """One pipeline: the same interpreter probed both ways gives the same findings and verdict."""
    done = subprocess.run(
        [sys.executable, "-m", "mpscheck", "doctor", "--no-smoke", "--format", "json", "--python", sys.executable],
        capture_output=True,
        text=True,
        timeout=120,
    )
    cli = json.loads(done.stdout)
    api = mpscheck.doctor(sys.executable, smoke=False).to_dict()
    assert done.returncode == api["exit_code"] == 1
    assert [(f["id"], f["status"]) for f in cli["findings"]] == [(f["id"], f["status"]) for f in api["findings"]]
    assert cli["headline"] == api["headline"]


def test_usage_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="require"):
        mpscheck.doctor(require="tpu")
    with pytest.raises(ValueError, match="timeout"):
        mpscheck.doctor(timeout=0)
    with pytest.raises(ValueError, match="timeout"):
        mpscheck.device(timeout=-1)
    with pytest.raises(ValueError, match="no such file"):
        mpscheck.doctor("/nonexistent/python")
