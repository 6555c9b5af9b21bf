"""smoke-test decisions that only a Mac can produce, on recorded facts and torch's recorded texts."""

from __future__ import annotations

import copy

from mpscheck.checks.diagnose import diagnose
from mpscheck.facts import ProbeRun, SmokeFacts, SmokeStep
from mpscheck.model import Requirement, Status
from tests import recorded as rec
from tests.scenarios import PHYSICAL, facts, interpreter, mac_host, quick_smoke, scenarios, torch_facts

# Observations as the workload reports them: numbers only, judged by the checks.
FULL_PASS_VALUES = {
    "allocate": {"elements": 4096, "mismatches": 0, "tensor_device": "mps:0"},
    "elementwise": {"max_relative_error": {"add": 0.0, "sum": 1e-7}},
    "matmul": {
        "float32": {"n": 1024, "max_relative_error": 1e-6, "iterations": 50, "gflops": 1000.0},
        "float16": {"n": 512, "max_relative_error": 1e-4, "iterations": 1, "gflops": 900.0},
    },
    "train": {"steps": 5, "losses": [2.3, 2.2, 2.0, 1.9, 1.8], "cpu_first_loss": 2.30001, "gradients_finite": True},
    "memory": {
        "synchronize": "torch.mps.synchronize",
        "allocated_before": 0,
        "allocated_after": 67108864,
        "block_bytes": 67108864,
        "readback": 1.0,
        "recommended_max": 22906503168,
    },
}


def mps_dtypes(bf16_error: str | None = None) -> SmokeStep:
    table: dict = {name: {"result": "ran", "mismatches": 0} for name in ("float32", "float16", "int64", "bool")}
    table["complex64"] = {"result": "ran", "mismatches": 0}
    table["bfloat16"] = (
        {"result": "raised", "error": bf16_error, "error_type": "TypeError"}
        if bf16_error
        else {"result": "ran", "mismatches": 0}
    )
    table["float64"] = {"result": "raised", "error": rec.FLOAT64_ERROR, "error_type": "TypeError"}
    return SmokeStep("dtypes", "ran", 0.1, {"dtypes": table})


def full_smoke(*replace: SmokeStep, fallback: str | None = "1", device: str = "mps") -> SmokeFacts:
    # A copy: tests change a step's values, and FULL_PASS_VALUES must stay the same for the next test.
    steps = [SmokeStep(name, "ran", 0.1, copy.deepcopy(values)) for name, values in FULL_PASS_VALUES.items()]
    steps.insert(4, mps_dtypes())
    steps.append(SmokeStep("fallback", "ran", 0.0, {"value": fallback}))
    by_name = {s.name: s for s in steps}
    for step in replace:
        by_name[step.name] = step
    return SmokeFacts(
        requested="auto",
        device=device,
        reason="torch.backends.mps.is_available() is True",
        mode="full",
        steps=list(by_name.values()),
    )


def m1_facts(smoke: SmokeFacts, sw_vers: str = rec.SW_VERS_14_5, torch_version: str = "2.5.1", run=None, **interp):
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, sw_vers, rec.DISPLAYS_M1)
    return facts(
        host,
        interpreter(**interp),
        torch_facts(torch_version, mps_device_name="Apple M1"),
        smoke,
        run=run or ProbeRun(status="ok", workload="full"),
    )


def smoke_findings(facts_, require: Requirement = Requirement.DEVICE, strict: bool = False):
    report = diagnose(facts_, command="smoke-test", require=require, strict=strict)
    return report, {f.id: f for f in report.findings}


def test_healthy_mps_run_passes_with_float64_expected_unsupported() -> None:
    report, found = smoke_findings(m1_facts(full_smoke()))
    assert {i: f.status.value for i, f in found.items()} == {
        "smoke-device": "pass",
        "smoke-allocate": "pass",
        "smoke-elementwise": "pass",
        "smoke-matmul": "pass",
        "smoke-train": "pass",
        "smoke-dtypes": "pass",
        "smoke-memory": "pass",
        "smoke-fallback": "pass",
        "smoke-exit": "pass",
    }
    assert "float64 unsupported as expected on mps (use float32)" in found["smoke-dtypes"].summary
    assert "1000 GFLOP/s" in found["smoke-matmul"].summary
    assert "recommended maximum 21.3 GiB" in found["smoke-memory"].summary
    assert int(report.verdict.exit_code) == 0


def test_bfloat16_on_macos_13_is_explained_by_the_os() -> None:
    smoke = full_smoke(mps_dtypes(rec.BF16_MACOS13_ERROR))
    _, found = smoke_findings(m1_facts(smoke, sw_vers=rec.SW_VERS_13_5, mac_ver="13.5"))
    dtypes = found["smoke-dtypes"]
    assert dtypes.status is Status.WARN
    assert "bfloat16 need macOS 14 (this is 13.5)" in dtypes.summary
    assert dtypes.fix.commands == ("softwareupdate --list",)


def test_bfloat16_missing_on_macos_14_is_not_blamed_on_the_os() -> None:
    smoke = full_smoke(
        mps_dtypes("Trying to convert BFloat16 to the MPS backend but it does not have support for that dtype.")
    )
    _, found = smoke_findings(m1_facts(smoke))
    assert found["smoke-dtypes"].status is Status.WARN
    assert "unsupported: bfloat16" in found["smoke-dtypes"].summary
    assert "--upgrade torch" in found["smoke-dtypes"].fix.commands[0]


def test_vm_signature_fails_allocate_and_skips_nothing_silently() -> None:
    failing = SmokeStep("allocate", "raised", 0.3, {}, rec.VM_ALLOCATION_ERROR, "RuntimeError")
    _, found = smoke_findings(m1_facts(full_smoke(failing)))
    assert found["smoke-allocate"].status is Status.FAIL
    assert "paravirtual GPU" in found["smoke-allocate"].summary
    assert found["smoke-allocate"].fix.commands == ("mpscheck doctor --require none",)


def test_real_out_of_memory_is_read_by_its_numbers_as_a_paste_is() -> None:
    """The smoke test reads an out-of-memory error with the paste's rule (checks/memory.py): here torch's
    own tensors fill the cap (17.36 GB of 18.13 GB), so the model or batch is too large."""
    failing = SmokeStep("train", "raised", 3.0, {}, rec.REAL_OOM, "RuntimeError")
    _, found = smoke_findings(m1_facts(full_smoke(failing)))
    train = found["smoke-train"]
    assert train.status is Status.FAIL and "torch holds 17.36 GB" in train.summary and "too large" in train.summary
    assert train.fix.commands == ("export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0",)
    from mpscheck.checks.causes import explain_text

    pasted = explain_text(rec.REAL_OOM).cause
    assert pasted.id == "out-of-memory" and pasted.variant == "too-large" and pasted.fix == train.fix


def test_missing_kernel_with_fallback_off_says_to_enable_it() -> None:
    failing = SmokeStep("train", "raised", 1.0, {}, rec.FALLBACK_OFF_ERROR, "NotImplementedError")
    _, found = smoke_findings(m1_facts(full_smoke(failing, fallback=None), env={}))
    assert found["smoke-train"].status is Status.FAIL
    assert found["smoke-train"].fix.commands == ("export PYTORCH_ENABLE_MPS_FALLBACK=1",)
    assert found["smoke-fallback"].status is Status.WARN


def test_abort_inside_metal_names_the_step_and_skips_the_rest() -> None:
    smoke = full_smoke()
    smoke.steps = smoke.steps[:2]  # allocate and elementwise finished; matmul was running
    run = ProbeRun(
        status="crashed",
        workload="full",
        returncode=-6,
        running_stage="step:matmul",
        message="killed by SIGABRT during the step:matmul stage",
        stderr_tail="(the crashed process's last words)\n",
    )
    report, found = smoke_findings(m1_facts(smoke, run=run))
    assert found["smoke-allocate"].status is Status.PASS
    assert found["smoke-matmul"].status is Status.FAIL
    assert "did not finish: killed by SIGABRT" in found["smoke-matmul"].summary
    assert "(an abort inside Metal)" in found["smoke-matmul"].summary
    assert found["smoke-train"].summary == "not run: the workload stopped during the matmul step"
    assert int(report.verdict.exit_code) == 1


def test_auto_on_linux_cpu_warns_and_strict_fails() -> None:
    linux = next(s for s in scenarios() if s.name == "Linux CPU only, --require none").facts
    linux.target.smoke = full_smoke(device="cpu")
    linux.target.smoke.reason = "neither MPS nor CUDA is available"
    report, found = smoke_findings(linux)
    device = found["smoke-device"]
    assert device.status is Status.WARN
    assert "mps not used: not macOS (Linux)" in device.summary
    assert "cuda not used: no CUDA device visible (a CPU-only torch build)" in device.summary
    assert int(report.verdict.exit_code) == 0
    assert int(smoke_findings(linux, strict=True)[0].verdict.exit_code) == 1
    assert int(smoke_findings(linux, require=Requirement.GPU)[0].verdict.exit_code) == 1


def test_rosetta_reason_is_given_when_auto_falls_back_to_cpu() -> None:
    rosetta = next(s for s in scenarios() if s.name.startswith("universal2 python.org")).facts
    rosetta.target.smoke = full_smoke(device="cpu")
    report, found = smoke_findings(rosetta, require=Requirement.MPS)
    device = found["smoke-device"]
    assert device.status is Status.WARN and "mps not used: x86_64 Python under Rosetta 2" in device.summary
    assert device.fix.commands[0].startswith("arch -arm64 ")
    assert int(report.verdict.exit_code) == 1
    assert report.verdict.headline == "Not ready: MPS is required and the workload ran on cpu"


def test_quick_smoke_in_the_doctor_reuses_the_step_judgement() -> None:
    failing = SmokeStep("allocate", "raised", 0.2, {}, rec.FALLBACK_OFF_ERROR, "NotImplementedError")
    report = diagnose(m1_facts(quick_smoke(failing=failing), run=ProbeRun(workload="quick")))
    smoke = next(f for f in report.findings if f.id == "smoke")
    assert smoke.status is Status.FAIL and smoke.fix.commands == ("export PYTORCH_ENABLE_MPS_FALLBACK=1",)
