"""The rule of readiness as a table: probe outcome, command, --require and --strict give the exit code.

Exit 0 needs positive evidence. Every row below that is not a clean, complete run on the required
device must be non-zero, whatever else the facts say; --require none always reports (exit 0).
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.facts import Facts, ProbeRun, SmokeFacts, TorchFacts
from mpscheck.model import Requirement
from tests import recorded as rec
from tests.scenarios import PHYSICAL, _linux, facts, interpreter, mac_host, scenarios, torch_facts
from tests.test_smoke_checks import full_smoke

HEALTHY_TORCH = torch_facts("2.9.0", mps_device_name="Apple M1")


def _mac(smoke: SmokeFacts | None, run: ProbeRun, torch: TorchFacts | None = HEALTHY_TORCH) -> Facts:
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_14_5, rec.DISPLAYS_M1)
    return facts(host, interpreter(), copy.deepcopy(torch), smoke, run=run)


def _ok(workload: str) -> ProbeRun:
    return ProbeRun(status="ok", workload=workload, returncode=0, seconds=3.0)


def outcome(name: str, workload: str) -> Facts:
    """A healthy M1 whose probe ended as *name*: only 'ok' is a complete run."""
    smoke = full_smoke()
    if workload == "quick":
        smoke.steps = smoke.steps[:2]
        smoke.mode = "quick"
    dead = ProbeRun(workload=workload, returncode=None, seconds=60.0, timeout=60.0)
    if name == "ok":
        return _mac(smoke, _ok(workload))
    if name == "timeout in import":
        return _mac(None, replace(dead, status="timeout", running_stage="torch", message="no answer"), None)
    if name == "timeout in a step":
        partial = copy.deepcopy(smoke)
        partial.steps = partial.steps[:1]
        run = replace(dead, status="timeout", running_stage="step:elementwise", message="no answer")
        return _mac(partial, run)
    if name == "abort in a step":
        partial = copy.deepcopy(smoke)
        partial.steps = partial.steps[:1]
        run = replace(dead, status="crashed", returncode=-6, running_stage="step:elementwise", message="SIGABRT")
        return _mac(partial, run)
    if name == "crash at exit after every step":
        return _mac(smoke, replace(dead, status="crashed", returncode=-11, message="killed by SIGSEGV"))
    if name == "hang at exit after every step":
        return _mac(smoke, replace(dead, status="timeout", message="no answer within 60 s"))
    if name == "died after choosing its device":
        empty = copy.deepcopy(smoke)
        empty.steps = []
        return _mac(empty, replace(dead, status="failed", returncode=1, message="exited with status 1"))
    if name == "exit 0 without its end record":
        return _mac(smoke, replace(dead, status="bad-output", returncode=0, message="ended without reporting"))
    if name == "junk output":
        junk = _mac(None, replace(dead, status="bad-output", returncode=0, message="output mpscheck cannot read"))
        junk.target.interpreter = None
        return junk
    if name == "no torch":
        return _mac(None, _ok(workload), TorchFacts(installed=False))
    raise AssertionError(name)


OUTCOMES = (
    "ok",
    "timeout in import",
    "timeout in a step",
    "abort in a step",
    "crash at exit after every step",
    "hang at exit after every step",
    "died after choosing its device",
    "exit 0 without its end record",
    "junk output",
    "no torch",
)
COMMANDS = {
    "doctor": ("quick", (Requirement.MPS, Requirement.GPU, Requirement.NONE)),
    "smoke-test": (
        "full",
        (Requirement.DEVICE, Requirement.MPS, Requirement.GPU, Requirement.NONE),
    ),
}
ROWS = [
    (name, command, require, strict)
    for name in OUTCOMES
    for command, (_, requires) in COMMANDS.items()
    for require in requires
    for strict in (False, True)
]


@pytest.mark.parametrize(
    ("name", "command", "require", "strict"),
    ROWS,
    ids=[f"{n}|{c}|{r.value}|{'strict' if s else 'lenient'}" for n, c, r, s in ROWS],
)
def test_readiness_table(name: str, command: str, require: Requirement, strict: bool) -> None:
    facts_ = outcome(name, COMMANDS[command][0])
    verdict = diagnose(facts_, command=command, require=require, strict=strict).verdict
    expected = 0 if require is Requirement.NONE or name == "ok" else 1
    assert int(verdict.exit_code) == expected, verdict.headline
    if require is not Requirement.NONE:
        assert verdict.ready is (expected == 0)
    if expected:
        assert verdict.headline.startswith("Not ready"), verdict.headline
        assert verdict.blocking, "a not-ready verdict names what blocked it"


@pytest.mark.parametrize(
    ("command", "require", "headline"),
    [
        # the warning: silent-bugs (no release fixes the known silent bugs of this torch; checks/silent.py)
        ("doctor", Requirement.MPS, "MPS is ready"),
        ("doctor", Requirement.GPU, "MPS is ready"),
        ("smoke-test", Requirement.DEVICE, "Ready: the workload passed on mps"),
    ],
)
def test_ready_headlines(command: str, require: Requirement, headline: str) -> None:
    verdict = diagnose(outcome("ok", COMMANDS[command][0]), command=command, require=require).verdict
    assert verdict.headline == headline


def test_headlines_name_the_root_cause_or_what_was_not_confirmed() -> None:
    verdict = diagnose(outcome("no torch", "quick"), require=Requirement.MPS).verdict
    assert verdict.headline == "Not ready: MPS failed: torch-import"
    hung = outcome("hang at exit after every step", "full")
    verdict = diagnose(hung, command="smoke-test", require=Requirement.DEVICE).verdict
    assert verdict.headline == "Not ready: the workload failed: smoke-exit"
    verdict = diagnose(outcome("timeout in import", "quick"), require=Requirement.MPS).verdict
    assert verdict.headline == "Not ready: MPS failed: torch-import"
    unrun = _mac(None, _ok("quick"))  # a clean probe whose quick smoke never reported
    verdict = diagnose(unrun, require=Requirement.MPS).verdict
    assert verdict.headline == "Not ready: MPS not confirmed: smoke did not pass"


def test_no_smoke_rests_on_mps_available_alone() -> None:
    facts_ = _mac(None, _ok("none"))
    assert int(diagnose(facts_, require=Requirement.MPS).verdict.exit_code) == 0


@pytest.mark.parametrize("strict", [False, True])
def test_linux_cpu_is_never_ready_for_a_gpu(strict: bool) -> None:
    linux = _linux(torch_facts("2.13.0+cpu", mps_built=False, available=False), None)
    for require in (Requirement.MPS, Requirement.GPU):
        assert int(diagnose(linux, require=require, strict=strict).verdict.exit_code) == 1
    cpu_run = copy.deepcopy(linux)
    cpu_run.target.smoke = full_smoke(device="cpu")
    cpu_run.target.run = _ok("full")
    for require in (Requirement.MPS, Requirement.GPU):
        verdict = diagnose(cpu_run, command="smoke-test", require=require, strict=strict).verdict
        assert int(verdict.exit_code) == 1, verdict.headline


def test_linux_cuda_is_ready_for_gpu_and_not_for_mps() -> None:
    cuda = next(s for s in scenarios() if s.name == "Linux with CUDA, --require gpu").facts
    assert diagnose(cuda, require=Requirement.GPU).verdict.headline == "Ready: CUDA works"
    assert int(diagnose(cuda, require=Requirement.MPS).verdict.exit_code) == 1
    skipped_smoke = copy.deepcopy(cuda)
    skipped_smoke.target.smoke = None  # the quick smoke did not run: CUDA is not confirmed
    assert int(diagnose(skipped_smoke, require=Requirement.GPU).verdict.exit_code) == 1


def test_check_filters_what_is_shown_never_what_decides() -> None:
    linux = _linux(torch_facts("2.13.0+cpu", mps_built=False, available=False), None)
    report = diagnose(linux, require=Requirement.MPS, only=["interpreter"])
    assert [f.id for f in report.findings] == ["interpreter"]
    assert int(report.verdict.exit_code) == 1 and "platform" in report.verdict.blocking


def test_a_skipped_step_in_smoke_test_is_not_a_pass() -> None:
    facts_ = outcome("ok", "full")
    facts_.target.smoke.steps = [s for s in facts_.target.smoke.steps if s.name != "matmul"]
    verdict = diagnose(facts_, command="smoke-test", require=Requirement.DEVICE).verdict
    assert int(verdict.exit_code) == 1 and "smoke-matmul" in verdict.blocking


def test_a_step_observed_wrong_fails_even_though_the_probe_was_clean() -> None:
    facts_ = outcome("ok", "full")
    matmul = next(s for s in facts_.target.smoke.steps if s.name == "matmul")
    matmul.values["float32"]["max_relative_error"] = 0.5
    train = next(s for s in facts_.target.smoke.steps if s.name == "train")
    train.values["losses"] = [2.0, 2.1, 2.2, 2.3, 2.4]
    report = diagnose(facts_, command="smoke-test", require=Requirement.DEVICE)
    statuses = {f.id: f.status.value for f in report.findings}
    assert statuses["smoke-matmul"] == "fail" and statuses["smoke-train"] == "fail"
    assert int(report.verdict.exit_code) == 1


def test_a_step_record_without_its_numbers_is_not_a_pass() -> None:
    facts_ = outcome("ok", "full")
    for entry in facts_.target.smoke.steps:
        entry.values = {}
    statuses = {f.id: f.status.value for f in diagnose(facts_, command="smoke-test").findings}
    assert all(statuses[f"smoke-{n}"] == "fail" for n in ("allocate", "elementwise", "matmul", "train", "dtypes"))


def test_smoke_step_values_of_the_wrong_type_are_findings_not_crashes() -> None:
    facts_ = outcome("ok", "full")
    for entry in facts_.target.smoke.steps:
        entry.values = {key: "x" for key in entry.values} | {"losses": "x", "dtypes": [1]}
    report = diagnose(facts_, command="smoke-test")
    assert int(report.verdict.exit_code) == 1
    assert not any(f.status.value == "crash" for f in report.findings)


def test_a_quick_smoke_missing_one_of_its_steps_does_not_confirm_mps() -> None:
    """The probe ended cleanly but only the allocate step reported: the doctor's smoke is not a pass."""
    facts_ = outcome("ok", "quick")
    facts_.target.smoke.steps = [s for s in facts_.target.smoke.steps if s.name == "allocate"]
    report = diagnose(facts_, require=Requirement.MPS)
    smoke = next(f for f in report.findings if f.id == "smoke")
    assert smoke.status.value == "skip" and "elementwise" in smoke.summary
    assert int(report.verdict.exit_code) == 1 and "smoke" in report.verdict.blocking
