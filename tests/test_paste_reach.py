"""Every doctor check that can be judged from text is reachable from a paste: for each one, a set of
facts a paste can show makes it fail or warn on the paste, through the same registry and rule as the
doctor. A check that cannot be judged from text says why here, so a new check is a decision, not an
oversight."""

from __future__ import annotations

from typing import Any

import pytest

from mpscheck.checks import DOCTOR, INPUT, ORDER, REGISTRY
from mpscheck.checks.causes.findings import check_cause, check_inputs, relevant_findings
from mpscheck.knowledge.causes import CAUSES
from mpscheck.knowledge.errors import TABLE
from mpscheck.model import Status
from mpscheck.probes.paste.model import Observation, Paste

MAC = {"host.system": "Darwin", "host.macos_version": "14.5", "host.cpu_brand": "Apple M1"}
# check id -> facts a paste shows (as the readers name them) that make it fail or warn
FAILING: dict[str, dict[str, Any]] = {
    "platform": {"host.system": "Linux"},
    "chip": {"host.system": "Darwin", "host.cpu_brand": "Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz"},
    "virtual-machine": {**MAC, "host.hypervisor": True},
    "python-arch": {
        **MAC,
        "host.arm64_hardware": True,
        "interpreter.machine": "x86_64",
        "interpreter.proc_translated": 1,
    },
    "python-macos-compat": {**MAC, "interpreter.mac_ver": "10.16", "interpreter.machine": "arm64"},
    "macos-version": {**MAC, "host.macos_version": "12.6", "torch.version": "2.5.1"},
    "mps-built": {**MAC, "torch.version": "2.5.1", "torch.mps_built": False},
    "mps-available": {**MAC, "torch.version": "2.5.1", "torch.mps_built": True, "torch.mps_available": False},
    "mps-fallback-env": {**MAC, "interpreter.env.PYTORCH_ENABLE_MPS_FALLBACK": "yes please"},
    "mps-watermark-env": {**MAC, "interpreter.env.PYTORCH_MPS_HIGH_WATERMARK_RATIO": "5"},
    # an error line as the errors reader records it: its text is the line itself
    "error-text": {**MAC, "error": {"severity": "error", "values": {}}},
}
ERROR_LINE = "RuntimeError: invalid high watermark ratio 2.5"  # MPSAllocator.mm's TORCH_CHECK text
# Doctor checks that text cannot settle, and why.
NOT_FROM_TEXT = {
    "interpreter": "whether the target interpreter answered a probe",
    "torch-import": "whether import torch worked in a probed process, and how long it took",
    "cuda": "a CUDA probe in the target (MPS is what a paste is judged for)",
    "mps-env-vars": "every PYTORCH_MPS_* variable of a probed process's environment",
    "smoke": "a workload run by mpscheck itself",
    "silent-bugs": "not a diagnosis of a paste: a paste's wrong values or NaN on mps with its torch and a shown op "
    "name the known bug instead (checks/causes/silent.py)",
    "frameworks": "the installed frameworks' versions as the target reports them",
}


def paste_of(facts: dict[str, Any]) -> Paste:
    lines = [ERROR_LINE if name == "error" else f"{name}: {value}" for name, value in facts.items()]
    observations = [
        Observation(name, value, n, lines[n - 1], "test") for n, (name, value) in enumerate(facts.items(), 1)
    ]
    return Paste("\n".join(lines), observations)


def test_every_doctor_check_is_judged_from_text_or_says_why_not() -> None:
    inputs = check_inputs()
    for check_id in ORDER[DOCTOR] + ORDER[INPUT]:
        assert (check_id in inputs) != (check_id in NOT_FROM_TEXT), check_id
    assert set(FAILING) == set(inputs)


def test_what_a_check_reads_and_the_cause_it_stands_for_are_declared_on_the_check() -> None:
    """One home: the facts explain needs and the cause id, on @check; explain derives its maps."""
    assert check_inputs() == {
        "platform": ("host.system",),
        "chip": ("host.cpu_brand",),
        "virtual-machine": ("host.hypervisor",),
        "python-arch": ("interpreter.machine",),
        "python-macos-compat": ("interpreter.mac_ver", "host.macos_version"),
        "macos-version": ("host.macos_version",),
        "mps-built": ("torch.mps_built",),
        "mps-available": ("torch.mps_available",),
        "mps-fallback-env": ("interpreter.env.PYTORCH_ENABLE_MPS_FALLBACK",),
        "mps-watermark-env": ("interpreter.env.PYTORCH_MPS_HIGH_WATERMARK_RATIO",),
        "error-text": ("error",),
    }
    causes = {check_id: check_cause(check_id) for check_id in REGISTRY}
    assert {k: v for k, v in causes.items() if v} == {
        "platform": "not-macos",
        "chip": "intel-mac",
        "virtual-machine": "virtual-machine",
        "python-arch": "rosetta-python",
        "macos-version": "macos-too-old",
        "mps-built": "torch-not-built-with-mps",
        "mps-available": "no-metal-device",
        "mps-watermark-env": "watermark-invalid",
    }
    vocabulary = set(CAUSES) | {row.cause for row in TABLE}  # the one cause vocabulary (corpus README)
    assert all(cause in vocabulary for cause in causes.values() if cause), "a check's cause is a documented id"
    assert check_cause("no-such-check") is None


@pytest.mark.parametrize("check_id", sorted(check_inputs()))
def test_a_paste_makes_each_text_judged_check_fail(check_id: str) -> None:
    found = {f.id: f for f in relevant_findings(paste_of(FAILING[check_id]))}
    assert check_id in found, f"{check_id}: the paste's facts do not reach it"
    assert found[check_id].status in (Status.FAIL, Status.WARN), found[check_id]
