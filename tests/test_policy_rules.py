"""The rule of readiness on hand-made finding lists: which path is judged, what blocks it, the headline.

test_readiness.py drives the policy through whole probe outcomes; here decide() gets findings
directly, so each clause of the rule (a warning under --strict, an ignored check, a missing one,
the device the workload ran on, the path reported on Linux) is the only thing that differs.
"""

from __future__ import annotations

import copy

import pytest

from mpscheck.checks.policy import SMOKE_STEPS, decide
from mpscheck.facts import Facts
from mpscheck.model import ExitCode, Finding, Requirement, Status, Verdict
from tests import recorded as rec
from tests.scenarios import CUDA_SMOKE, PHYSICAL, _linux, facts, interpreter, mac_host, quick_smoke, torch_facts

MPS_RESTS_ON = ("platform", "interpreter", "torch-import", "mps-built", "mps-available", "smoke")
CUDA_RESTS_ON = ("interpreter", "torch-import", "cuda", "smoke")


def mac(device: str | None = "mps", workload: str = "quick", system: str = "Darwin") -> Facts:
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_14_5, rec.DISPLAYS_M1)
    host.system = system
    made = facts(host, interpreter(), torch_facts(), quick_smoke(device), workload=workload)
    if device is None:
        made.target.smoke = None
    return made


def linux(smoke_device: str | None = "cuda") -> Facts:
    smoke = copy.deepcopy(CUDA_SMOKE)
    smoke.device = smoke_device
    return _linux(torch_facts("2.11.0+cu130", mps_built=False, available=False), smoke)


def findings(*ids: str, **statuses: str) -> list[Finding]:
    """Passing findings for *ids*, with the statuses given by keyword (underscores for dashes)."""
    out = {i: "pass" for i in ids}
    out.update({k.replace("_", "-"): v for k, v in statuses.items()})
    return [Finding(i, i, Status(s), f"{i} summary") for i, s in out.items()]


def doctor(
    found: list[Finding], facts_: Facts, require: Requirement = Requirement.MPS, strict: bool = False
) -> Verdict:
    return decide(found, facts_, require=require, strict=strict, command="doctor")


def smoke_test(found: list[Finding], facts_: Facts, require: Requirement, strict: bool = False) -> Verdict:
    return decide(found, facts_, require=require, strict=strict, command="smoke-test")


def test_every_required_check_passing_is_ready() -> None:
    verdict = doctor(findings(*MPS_RESTS_ON), mac())
    assert verdict == Verdict(ExitCode.READY, True, (), "MPS is ready")


def test_warnings_count_in_the_headline_and_fail_under_strict() -> None:
    found = findings(*MPS_RESTS_ON, mps_available="warn", frameworks="warn")
    assert doctor(found, mac()) == Verdict(ExitCode.READY, True, (), "MPS is ready (2 warnings)")
    one = findings(*MPS_RESTS_ON, frameworks="warn")
    assert doctor(one, mac()).headline == "MPS is ready (1 warning)"
    strict = doctor(found, mac(), strict=True)
    assert strict == Verdict(
        ExitCode.PROBLEMS, False, ("mps-available", "frameworks"), "Not ready: MPS failed: mps-available, frameworks"
    )


def test_a_failure_outside_the_path_blocks_it_unless_the_path_ignores_that_check() -> None:
    found = findings(*MPS_RESTS_ON, mps_fallback_env="fail")
    assert doctor(found, mac()) == Verdict(
        ExitCode.PROBLEMS, False, ("mps-fallback-env",), "Not ready: MPS failed: mps-fallback-env"
    )
    ignored = findings(*MPS_RESTS_ON, cuda="fail")
    assert doctor(ignored, mac()) == Verdict(ExitCode.READY, True, (), "MPS is ready", ("cuda",))
    ignored_warning = findings(*MPS_RESTS_ON, cuda="warn")
    assert doctor(ignored_warning, mac(), strict=True).headline == "MPS is ready"


def test_a_failed_required_check_is_named_once() -> None:
    verdict = doctor(findings(*MPS_RESTS_ON, mps_available="fail"), mac())
    assert verdict.blocking == ("mps-available",)
    assert verdict.headline == "Not ready: MPS failed: mps-available"


@pytest.mark.parametrize("status", ["skip", None])
def test_a_required_check_skipped_or_absent_is_not_confirmed(status: str | None) -> None:
    ids = [i for i in MPS_RESTS_ON if i != "mps-built"]
    found = findings(*ids, mps_built=status) if status else findings(*ids)
    verdict = doctor(found, mac())
    assert verdict == Verdict(
        ExitCode.PROBLEMS, False, ("mps-built",), "Not ready: MPS not confirmed: mps-built did not pass"
    )


def test_the_smoke_is_required_unless_it_was_turned_off() -> None:
    ids = [i for i in MPS_RESTS_ON if i != "smoke"]
    verdict = doctor(findings(*ids), mac(device=None))
    assert verdict.blocking == ("smoke",)
    assert verdict.headline == "Not ready: MPS not confirmed: smoke did not pass"
    assert doctor(findings(*ids), mac(device=None, workload="none")).ready is True


def test_a_passing_smoke_on_the_wrong_device_does_not_confirm_mps() -> None:
    verdict = doctor(findings(*MPS_RESTS_ON), mac(device="cpu"))
    assert verdict == Verdict(
        ExitCode.PROBLEMS, False, ("smoke",), "Not ready: MPS is required and the workload ran on cpu"
    )


def test_gpu_on_linux_takes_the_cuda_path_and_reports_it() -> None:
    found = findings(*CUDA_RESTS_ON, platform="fail", mps_built="skip", mps_available="skip")
    assert doctor(found, linux(), Requirement.GPU) == Verdict(
        ExitCode.READY, True, (), "Ready: CUDA works", ("platform",)
    )
    assert doctor(found, linux(), Requirement.MPS).headline == "Not ready: MPS failed: platform"
    no_cuda = findings(*CUDA_RESTS_ON, platform="fail", cuda="fail")
    verdict = doctor(no_cuda, linux(), Requirement.GPU)
    assert verdict == Verdict(ExitCode.PROBLEMS, False, ("cuda",), "Not ready: CUDA failed: cuda", ("platform",))
    cpu_smoke = doctor(findings(*CUDA_RESTS_ON, platform="fail"), linux("cpu"), Requirement.GPU)
    assert cpu_smoke == Verdict(
        ExitCode.PROBLEMS, False, ("smoke",), "Not ready: CUDA is required and the workload ran on cpu", ("platform",)
    )


def test_gpu_on_a_mac_or_an_unknown_os_reports_the_mps_path() -> None:
    found = findings("platform", "interpreter", "torch-import", "mps-built", "smoke", mps_available="fail")
    for system in ("Darwin", ""):
        verdict = doctor(found, mac(system=system), Requirement.GPU)
        assert verdict.headline == "Not ready: MPS failed: mps-available", system
        assert verdict.blocking == ("mps-available",)


def test_report_only_never_fails_but_says_what_it_found() -> None:
    clean = doctor(findings(*MPS_RESTS_ON), mac(), Requirement.NONE)
    assert clean == Verdict(ExitCode.READY, True, (), "Report only (--require none): no problems")
    found = findings(*MPS_RESTS_ON, platform="fail", cuda="warn", chip="fail")
    lenient = doctor(found, mac(), Requirement.NONE)
    assert lenient == Verdict(ExitCode.READY, False, (), "Report only (--require none): 2 problem(s): platform, chip")
    strict = doctor(found, mac(), Requirement.NONE, strict=True)
    assert strict.headline == "Report only (--require none): 3 problem(s): platform, cuda, chip"


def test_a_crashed_check_is_an_internal_error_whatever_the_requirement() -> None:
    found = findings(*MPS_RESTS_ON, chip="crash", cuda="crash")
    for require in Requirement:
        verdict = doctor(found, mac(), require)
        assert verdict == Verdict(
            ExitCode.INTERNAL, False, ("chip", "cuda"), "mpscheck itself failed in chip, cuda: please report this bug"
        )


@pytest.mark.parametrize(
    ("require", "device", "ready", "headline"),
    [
        (Requirement.DEVICE, "cpu", True, "Ready: the workload passed on cpu"),
        (Requirement.GPU, "cuda", True, "Ready: the workload passed on cuda"),
        (Requirement.MPS, "mps", True, "Ready: the workload passed on mps"),
        (Requirement.GPU, "cpu", False, "Not ready: a GPU (MPS or CUDA) is required and the workload ran on cpu"),
        (Requirement.MPS, "cuda", False, "Not ready: MPS is required and the workload ran on cuda"),
    ],
)
def test_smoke_test_accepts_the_devices_of_the_requirement(
    require: Requirement, device: str, ready: bool, headline: str
) -> None:
    verdict = smoke_test(findings(*SMOKE_STEPS), mac(device=device), require)
    assert (verdict.ready, verdict.headline) == (ready, headline)
    assert verdict.blocking == (() if ready else ("smoke-device",))


def test_smoke_test_without_a_device_or_with_a_skipped_step_is_not_ready() -> None:
    verdict = smoke_test(findings(*SMOKE_STEPS), mac(device=None), Requirement.DEVICE)
    assert verdict == Verdict(
        ExitCode.PROBLEMS, False, ("smoke-device",), "Not ready: the workload not confirmed: smoke-device did not pass"
    )
    skipped = smoke_test(findings(*SMOKE_STEPS, smoke_dtypes="skip"), mac(), Requirement.DEVICE)
    assert skipped.blocking == ("smoke-dtypes",)
    warned = smoke_test(findings(*SMOKE_STEPS, smoke_fallback="warn"), mac(), Requirement.DEVICE)
    assert warned.headline == "Ready: the workload passed on mps (1 warning)"
    strict = smoke_test(findings(*SMOKE_STEPS, smoke_fallback="warn"), mac(), Requirement.DEVICE, strict=True)
    assert strict.headline == "Not ready: the workload failed: smoke-fallback"


def test_the_doctor_judges_any_other_requirement_as_mps() -> None:
    assert doctor(findings(*MPS_RESTS_ON), mac(), Requirement.DEVICE) == Verdict(
        ExitCode.READY, True, (), "MPS is ready"
    )
    verdict = doctor(findings(*MPS_RESTS_ON, mps_built="skip"), mac(), Requirement.DEVICE)
    assert verdict.headline == "Not ready: MPS not confirmed: mps-built did not pass"


def test_a_paste_is_judged_by_the_same_requirement_and_strictness() -> None:
    from mpscheck.checks.policy import decide_text

    for require in (Requirement.MPS, Requirement.GPU, Requirement.NONE):
        assert decide_text(None, require=require, strict=True) is ExitCode.USAGE  # unreadable: never ready
        assert decide_text(Status.PASS, require=require, strict=True) is ExitCode.READY
    assert decide_text(Status.FAIL, require=Requirement.MPS, strict=False) is ExitCode.PROBLEMS
    assert decide_text(Status.FAIL, require=Requirement.NONE, strict=True) is ExitCode.READY
    assert decide_text(Status.WARN, require=Requirement.MPS, strict=False) is ExitCode.READY
    assert decide_text(Status.WARN, require=Requirement.MPS, strict=True) is ExitCode.PROBLEMS
    assert decide_text(Status.SKIP, require=Requirement.MPS, strict=False) is ExitCode.PROBLEMS


def test_ops_is_judged_by_the_policy_too() -> None:
    from mpscheck.checks.policy import decide_ops

    assert decide_ops(True) is ExitCode.READY and decide_ops(False) is ExitCode.PROBLEMS
    assert decide_ops(True, script_completed=False) is ExitCode.PROBLEMS  # a script that died predicts nothing
