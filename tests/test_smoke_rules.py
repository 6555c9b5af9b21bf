"""The smoke workload's observations judged at the tolerances' edges: what passes, what fails, in which words.

The rules (checks/smoke.py) take the numbers the workload recorded; these tables give them numbers
on both sides of each tolerance, values of the wrong type, and missing values, and name the exact
problem or description the report will print. Numbers are chosen, not measured: they stand for
what a device could report.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.checks.smoke import judge_allocate, judge_elementwise, judge_matmul, judge_train
from mpscheck.facts import ProbeRun, SmokeStep
from mpscheck.model import Finding, Remediation, Requirement, Status
from tests import recorded as rec
from tests.scenarios import _linux, quick_smoke, torch_facts
from tests.test_smoke_checks import FULL_PASS_VALUES, full_smoke, m1_facts

NOT_RECORDED = "the elementwise errors were not recorded as numbers"


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({}, ("the round trip's mismatch count was not recorded", "unknown")),
        ({"mismatches": True, "elements": 4}, ("the round trip's mismatch count was not recorded", "unknown")),
        ({"mismatches": "0", "elements": 4}, ("the round trip's mismatch count was not recorded", "unknown")),
        ({"mismatches": 3, "elements": 4096}, ("3 of 4096 values changed in the round trip to the device", "")),
        ({"mismatches": 0, "elements": 4096}, (None, "4096 float32 values survived the round trip to {device}")),
    ],
)
def test_allocate(values: dict[str, Any], expected: tuple[str | None, str]) -> None:
    assert judge_allocate(values) == expected


@pytest.mark.parametrize(
    ("errors", "expected"),
    [
        (None, (NOT_RECORDED, "")),
        ({}, (NOT_RECORDED, "")),
        ("0.0", (NOT_RECORDED, "")),
        ({"add": "0"}, (NOT_RECORDED, "")),
        ({"add": True}, (NOT_RECORDED, "")),
        ({"add": math.nan}, (NOT_RECORDED, "")),
        ({"add": 0.0, "sum": math.inf}, (NOT_RECORDED, "")),
        ({"add": 0.0}, (None, "1 op on {device} matches the CPU (worst relative error 0, tolerance 0.0001)")),
        (
            {"add": 0.0, "sum": 1e-5},
            (None, "2 ops on {device} match the CPU (worst relative error 1e-05, tolerance 0.0001)"),
        ),
        (
            {"add": 1e-4, "sum": 3e-5, "exp": 0},
            (None, "3 ops on {device} match the CPU (worst relative error 0.0001, tolerance 0.0001)"),
        ),
        ({"add": 0.0, "mul": 2e-4}, ("mul differs from the CPU by 0.0002 (tolerance 0.0001)", "")),
        ({"add": 0.5, "mul": 2e-4}, ("add differs from the CPU by 0.5 (tolerance 0.0001)", "")),
    ],
)
def test_elementwise(errors: Any, expected: tuple[str | None, str]) -> None:
    values = {} if errors is None else {"max_relative_error": errors}
    assert judge_elementwise(values) == expected


F32 = {"n": 1024, "max_relative_error": 1e-6, "gflops": 1000.0}
F16 = {"n": 512, "max_relative_error": 1e-4, "gflops": 900.0}


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({}, ("the float32 result was not recorded", "")),
        ({"float32": "x", "float16": F16}, ("the float32 result was not recorded", "")),
        ({"float32": {"n": 1024}}, ("the float32 error was not recorded", "")),
        ({"float32": {"n": 1024, "max_relative_error": "1e-6"}}, ("the float32 error was not recorded", "")),
        (
            {"float32": F32},
            (None, "matmul on {device} matches the CPU: float32 1024×1024 error 1e-06, 1000 GFLOP/s"),
        ),
        (
            {"float32": {**F32, "gflops": 0}, "float16": F16},
            (None, "matmul on {device} matches the CPU: float32 1024×1024 error 1e-06; float16 512×512 error 0.0001"),
        ),
        (
            {"float32": {**F32, "gflops": "fast"}, "float16": {"error": "float16 boom\nsecond line"}},
            (None, "matmul on {device} matches the CPU: float32 1024×1024 error 1e-06; float16 raised: float16 boom"),
        ),
        (
            {"float32": {**F32, "max_relative_error": 1e-3}, "float16": {**F16, "max_relative_error": 1e-2}},
            (
                None,
                "matmul on {device} matches the CPU: float32 1024×1024 error 0.001, 1000 GFLOP/s; "
                "float16 512×512 error 0.01",
            ),
        ),
        (
            {"float32": {**F32, "max_relative_error": 1.1e-3}, "float16": F16},
            ("float32 1024×1024 differs from the CPU by 0.0011 (tolerance 0.001)", ""),
        ),
        (
            {"float32": F32, "float16": {**F16, "max_relative_error": 0.011}},
            ("float16 512×512 differs from the CPU by 0.011 (tolerance 0.01)", ""),
        ),
        (
            {"float32": {**F32, "max_relative_error": 0.5}, "float16": {**F16, "max_relative_error": 0.5}},
            (
                "float32 1024×1024 differs from the CPU by 0.5 (tolerance 0.001); "
                "float16 512×512 differs from the CPU by 0.5 (tolerance 0.01)",
                "",
            ),
        ),
        (
            {"float32": None, "float16": {**F16, "max_relative_error": 0.5}},
            (
                "the float32 result was not recorded; float16 512×512 differs from the CPU by 0.5 (tolerance 0.01)",
                "",
            ),
        ),
        (
            {"float32": {"n": 1024}, "float16": {**F16, "max_relative_error": 0.5}},
            (
                "the float32 error was not recorded; float16 512×512 differs from the CPU by 0.5 (tolerance 0.01)",
                "",
            ),
        ),
    ],
)
def test_matmul(values: dict[str, Any], expected: tuple[str | None, str]) -> None:
    assert judge_matmul(values) == expected


TRAIN = {"losses": [2.3, 2.2, 2.0, 1.9, 1.8], "cpu_first_loss": 2.30001, "gradients_finite": True}


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        (
            {},
            (
                None,
                "5 Adam steps on {device}: loss 2.300 → 1.800, gradients finite, first loss matches the CPU (Δ 1e-05)",
            ),
        ),
        ({"losses": None}, ("the losses were not recorded", "")),
        ({"losses": []}, ("the losses were not recorded", "")),
        ({"losses": "2.3"}, ("the losses were not recorded", "")),
        ({"cpu_first_loss": None}, ("the losses were not recorded", "")),
        ({"cpu_first_loss": math.nan}, ("the losses were not recorded", "")),
        ({"losses": [2.3, math.nan]}, ("the loss is not finite: [2.3, nan]", "")),
        ({"losses": [2.3, "x"]}, ("the loss is not finite: [2.3, 'x']", "")),
        ({"gradients_finite": False}, ("a gradient is not finite", "")),
        ({"gradients_finite": None}, ("gradients unchecked", "")),
        ({"gradients_finite": 1}, ("gradients unchecked", "")),
        (
            {"losses": [2.3, 2.3]},
            ("the loss did not decrease over 2 steps: 2.3000 → 2.3000", ""),
        ),
        (
            {"losses": [2.3, 2.2, 2.4]},
            ("the loss did not decrease over 3 steps: 2.3000 → 2.4000", ""),
        ),
        # exactly at the tolerance still matches
        (
            {"losses": [0.002, 0.001], "cpu_first_loss": 0.0},
            (
                None,
                "2 Adam steps on {device}: loss 0.002 → 0.001, gradients finite, first loss matches the CPU (Δ 0.002)",
            ),
        ),
        (
            {"losses": [2.3, 2.4, 2.2]},
            (
                None,
                "3 Adam steps on {device}: loss 2.300 → 2.200, gradients finite, first loss matches the CPU (Δ 1e-05)",
            ),
        ),
        ({"losses": [2.31, 1.8]}, ("first loss 2.310000 differs from the CPU's 2.300010", "")),
        # |CPU loss| below 1: the tolerance is absolute, 2e-3
        (
            {"losses": [0.5019, 0.4], "cpu_first_loss": 0.5},
            (
                None,
                "2 Adam steps on {device}: loss 0.502 → 0.400, gradients finite, first loss matches the CPU (Δ 0.002)",
            ),
        ),
        ({"losses": [0.5021, 0.4], "cpu_first_loss": 0.5}, ("first loss 0.502100 differs from the CPU's 0.500000", "")),
        ({"losses": [0.4979, 0.4], "cpu_first_loss": 0.5}, ("first loss 0.497900 differs from the CPU's 0.500000", "")),
        # above 1: relative to |CPU loss|, whatever its sign
        (
            {"losses": [-2.995, -3.5], "cpu_first_loss": -3.0},
            (
                None,
                "2 Adam steps on {device}: loss -2.995 → -3.500, gradients finite, "
                "first loss matches the CPU (Δ 0.005)",
            ),
        ),
        (
            {"losses": [-2.993, -3.5], "cpu_first_loss": -3.0},
            ("first loss -2.993000 differs from the CPU's -3.000000", ""),
        ),
        (
            {"losses": [3.0, 3.0], "cpu_first_loss": 2.0, "gradients_finite": False},
            (
                "a gradient is not finite; the loss did not decrease over 2 steps: 3.0000 → 3.0000; "
                "first loss 3.000000 differs from the CPU's 2.000000",
                "",
            ),
        ),
    ],
)
def test_train(changes: dict[str, Any], expected: tuple[str | None, str]) -> None:
    assert judge_train({**TRAIN, **changes}) == expected


# ---- the smoke-test step checks, on the recorded M1 of test_smoke_checks ---------------------------

PY = "/Users/dev/.venvs/torch/bin/python"
REPORT_FIX = (
    f"{PY} -m pip install --upgrade torch",
    "mpscheck smoke-test --format markdown --output mpscheck-smoke.md",
)
# aten/src/ATen/mps/MPSAllocator.mm, setHighWatermarkRatio: TORCH_CHECK(..., "invalid high watermark ratio ", ratio)
HIGH_WATERMARK_ERROR = "invalid high watermark ratio 2.5"


def steps(*replace: SmokeStep, run: ProbeRun | None = None, **kwargs: Any) -> dict[str, Finding]:
    smoke = full_smoke(*replace, fallback=kwargs.pop("fallback", "1"))
    report = diagnose(m1_facts(smoke, run=run, **kwargs), command="smoke-test", require=Requirement.DEVICE)
    return {f.id: f for f in report.findings}


def ran(name: str, **values: Any) -> SmokeStep:
    return SmokeStep(name, "ran", 0.1, {**FULL_PASS_VALUES.get(name, {}), **values})


def dtypes(**rows: dict[str, Any]) -> SmokeStep:
    table = {"float32": {"result": "ran", "mismatches": 0}, **rows}
    return SmokeStep("dtypes", "ran", 0.1, {"dtypes": table})


def raised(error: str | None) -> dict[str, Any]:
    return {"result": "raised", "error": error, "error_type": "TypeError"}


OK = {"result": "ran", "mismatches": 0}


def test_every_step_passes_with_its_numbers_in_the_summary() -> None:
    found = steps()
    assert {i: f.status for i, f in found.items()} == dict.fromkeys(found, Status.PASS)
    assert found["smoke-allocate"].summary == "4096 float32 values survived the round trip to mps (0.10 s)"
    assert found["smoke-elementwise"].summary == (
        "2 ops on mps match the CPU (worst relative error 1e-07, tolerance 0.0001) (0.10 s)"
    )
    assert found["smoke-train"].summary == (
        "5 Adam steps on mps: loss 2.300 → 1.800, gradients finite, first loss matches the CPU (Δ 1e-05) (0.10 s)"
    )
    assert found["smoke-memory"].summary == (
        "synchronised (torch.mps.synchronize); a 64 MiB block counted: allocated 0 B → 64 MiB; "
        "recommended maximum 21.3 GiB"
    )
    assert found["smoke-fallback"].summary == (
        "PYTORCH_ENABLE_MPS_FALLBACK=1 was in effect in the workload's process (std::stoi reads 1)"
    )
    assert found["smoke-exit"].summary == "the workload process finished cleanly"


def test_a_step_without_a_time_says_untimed_and_a_failed_rule_names_the_step() -> None:
    found = steps(
        SmokeStep("allocate", "ran", None, {"elements": 8, "mismatches": 0}),
        ran("elementwise", max_relative_error={"add": 1.0}),
    )
    assert found["smoke-allocate"].summary == "8 float32 values survived the round trip to mps (untimed)"
    elementwise = found["smoke-elementwise"]
    assert elementwise.status is Status.FAIL
    assert elementwise.summary == "the elementwise step on mps: add differs from the CPU by 1 (tolerance 0.0001)"
    assert elementwise.fix is not None and elementwise.fix.commands == REPORT_FIX
    assert elementwise.fix.summary == (
        "Update torch (and macOS); if it persists, report it to PyTorch with this report attached."
    )


@pytest.mark.parametrize(
    ("seconds", "optimizer", "suffix"),
    [
        (0.5, None, "; torch.optim.Adam set up in 0.50 s"),
        (0.1, "torch.optim.Adam(foreach=True)", "; torch.optim.Adam(foreach=True) set up in 0.10 s"),
        (0.09, None, ""),
        (None, None, ""),
        ("slow", None, ""),
    ],
)
def test_train_names_a_slow_optimizer_setup(seconds: Any, optimizer: str | None, suffix: str) -> None:
    extra = {"optimizer_setup_seconds": seconds} | ({"optimizer": optimizer} if optimizer else {})
    train = steps(ran("train", **extra))["smoke-train"]
    assert train.status is Status.PASS
    assert train.summary == (
        "5 Adam steps on mps: loss 2.300 → 1.800, gradients finite, first loss matches the CPU (Δ 1e-05) (0.10 s)"
        + suffix
    )


def test_a_slow_setup_does_not_hide_a_failed_train_step() -> None:
    train = steps(ran("train", optimizer_setup_seconds=0.5, gradients_finite=False))["smoke-train"]
    assert (train.status, train.summary) == (Status.FAIL, "the train step on mps: a gradient is not finite")


DTYPE_ROWS = [
    # (rows beside float32, status, summary)
    ({"float16": OK}, "pass", "works on mps: float32, float16"),
    (
        {"float64": raised(rec.FLOAT64_ERROR)},
        "pass",
        "works on mps: float32; float64 unsupported as expected on mps (use float32)",
    ),
    ({"int64": {"result": "ran", "mismatches": 2}}, "fail", "wrong or missing results on mps: int64"),
    ({"int64": {"result": "ran"}}, "fail", "wrong or missing results on mps: int64"),
    (
        {"int64": {"result": "ran", "mismatches": 1}, "bool": {"result": "ran", "mismatches": 4}},
        "fail",
        "wrong or missing results on mps: int64, bool",
    ),
    (
        {
            "bfloat16": raised(
                "Trying to convert BFloat16 to the MPS backend but it does not have support for that dtype."
            )
        },
        "warn",
        "works on mps: float32; unsupported: bfloat16",
    ),
    ({"int64": "junk"}, "warn", "works on mps: float32; unsupported: int64"),
]


@pytest.mark.parametrize(("rows", "status", "summary"), DTYPE_ROWS, ids=[r[2] for r in DTYPE_ROWS])
def test_dtype_table(rows: dict[str, Any], status: str, summary: str) -> None:
    finding = steps(dtypes(**rows))["smoke-dtypes"]
    assert (finding.status.value, finding.summary) == (status, summary)


def test_dtype_table_float32_wrong_or_missing_fails() -> None:
    wrong = steps(SmokeStep("dtypes", "ran", 0.1, {"dtypes": {"float32": {"result": "ran", "mismatches": 1}}}))
    assert wrong["smoke-dtypes"].summary == "wrong or missing results on mps: float32"
    missing = steps(SmokeStep("dtypes", "ran", 0.1, {"dtypes": {"float32": raised("boom"), "int64": OK}}))
    assert missing["smoke-dtypes"].status is Status.FAIL
    assert missing["smoke-dtypes"].summary == "wrong or missing results on mps: float32"
    assert missing["smoke-dtypes"].details == ("float32: boom",)
    assert missing["smoke-dtypes"].fix is not None and missing["smoke-dtypes"].fix.commands == REPORT_FIX
    for empty in ({}, {"dtypes": {}}, {"dtypes": ["float32"]}):
        finding = steps(SmokeStep("dtypes", "ran", 0.1, empty))["smoke-dtypes"]
        assert (finding.status, finding.summary) == (Status.FAIL, "the dtype table was not recorded")
        assert finding.fix is not None and finding.fix.commands == REPORT_FIX


def test_dtypes_that_need_macos_14_are_explained_only_on_an_older_macos() -> None:
    rows = {
        "bfloat16": raised(rec.BF16_MACOS13_ERROR),
        "complex64": raised("complex boom"),
        "float64": raised(rec.FLOAT64_ERROR),
    }
    old = steps(dtypes(**rows), sw_vers=rec.SW_VERS_13_5, mac_ver="13.5")["smoke-dtypes"]
    assert old.status is Status.WARN
    assert old.summary == (
        "works on mps: float32; float64 unsupported as expected on mps (use float32); "
        "bfloat16, complex64 need macOS 14 (this is 13.5)"
    )
    assert old.fix is not None and old.fix.commands == ("softwareupdate --list",)
    assert old.fix.summary == "Upgrade macOS to 14 for bfloat16 and complex."
    assert old.details == (
        f"bfloat16: {rec.BF16_MACOS13_ERROR}",
        "complex64: complex boom",
        f"float64: {rec.FLOAT64_ERROR}",
    )
    new = steps(dtypes(**rows))["smoke-dtypes"]
    assert new.status is Status.WARN
    assert new.summary == (
        "works on mps: float32; float64 unsupported as expected on mps (use float32); unsupported: bfloat16, complex64"
    )
    assert new.fix is not None and new.fix.commands == (f"{PY} -m pip install --upgrade torch",)
    assert new.details == old.details
    assert new.fix.summary == "Use a supported dtype, or update torch."


def test_float64_is_expected_unsupported_on_mps_only() -> None:
    smoke = full_smoke(dtypes(float64=raised(rec.FLOAT64_ERROR)), device="cpu")
    facts_ = m1_facts(smoke, sw_vers=rec.SW_VERS_13_5, mac_ver="13.5")
    found = {f.id: f for f in diagnose(facts_, command="smoke-test").findings}
    assert found["smoke-dtypes"].status is Status.WARN
    assert found["smoke-dtypes"].summary == "works on cpu: float32; unsupported: float64"
    bf16 = full_smoke(dtypes(bfloat16=raised(rec.BF16_MACOS13_ERROR)), device="cpu")
    found = {
        f.id: f
        for f in diagnose(m1_facts(bf16, sw_vers=rec.SW_VERS_13_5, mac_ver="13.5"), command="smoke-test").findings
    }
    assert found["smoke-dtypes"].summary == "works on cpu: float32; unsupported: bfloat16"


MEMORY = FULL_PASS_VALUES["memory"]


@pytest.mark.parametrize(
    ("changes", "status", "summary"),
    [
        ({"readback": 0.0}, "fail", "the 64 MiB block read back 0.0, not 1.0"),
        ({"readback": None}, "fail", "the 64 MiB block read back None, not 1.0"),
        ({"readback": "1.0"}, "fail", "the 64 MiB block read back '1.0', not 1.0"),
        (
            {"allocated_before": None},
            "pass",
            "synchronised (torch.mps.synchronize); the mps allocator keeps no count",
        ),
        (
            {"allocated_after": None, "synchronize": None},
            "pass",
            "synchronised (nothing to synchronise); the mps allocator keeps no count",
        ),
        (
            {"allocated_before": 1024, "allocated_after": 32 * 1024**2},
            "fail",
            "the allocator did not count the 64 MiB block: 1 KiB → 32 MiB",
        ),
        (
            {"allocated_before": 1, "allocated_after": 64 * 1024**2},
            "fail",
            "the allocator did not count the 64 MiB block: 1 B → 64 MiB",
        ),
        (
            {"allocated_before": 1, "allocated_after": 64 * 1024**2 + 1, "total": 80 * 1024**3},
            "pass",
            "synchronised (torch.mps.synchronize); a 64 MiB block counted: allocated 1 B → 64 MiB; device total 80 GiB",
        ),
        (
            {"recommended_max": 0},
            "pass",
            "synchronised (torch.mps.synchronize); a 64 MiB block counted: allocated 0 B → 64 MiB",
        ),
    ],
)
def test_memory_step(changes: dict[str, Any], status: str, summary: str) -> None:
    values = {**MEMORY, **changes}
    if "total" in changes:  # a device that reports its total, not a recommended maximum (CUDA)
        del values["recommended_max"]
    finding = steps(SmokeStep("memory", "ran", 0.1, values))["smoke-memory"]
    assert (finding.status.value, finding.summary) == (status, summary)
    assert (finding.fix.commands if finding.fix else ()) == (REPORT_FIX if status == "fail" else ())


def test_memory_without_a_limit_and_without_a_block_size() -> None:
    values = {k: v for k, v in MEMORY.items() if k not in ("recommended_max", "block_bytes")}
    finding = steps(SmokeStep("memory", "ran", 0.1, values))["smoke-memory"]
    assert finding.summary == ("synchronised (torch.mps.synchronize); a 0 B block counted: allocated 0 B → 64 MiB")


@pytest.mark.parametrize(
    ("value", "status", "summary"),
    [
        ("2", "pass", "PYTORCH_ENABLE_MPS_FALLBACK=2 was in effect in the workload's process (std::stoi reads 2)"),
        (
            "0",
            "warn",
            "PYTORCH_ENABLE_MPS_FALLBACK='0' in the workload's process: the CPU fallback was not in effect "
            "(std::stoi reads 0)",
        ),
        (
            None,
            "warn",
            "PYTORCH_ENABLE_MPS_FALLBACK=None in the workload's process: the CPU fallback was not in effect (unset)",
        ),
        (
            1,
            "warn",
            "PYTORCH_ENABLE_MPS_FALLBACK=None in the workload's process: the CPU fallback was not in effect (unset)",
        ),
        (
            "on",
            "warn",
            "PYTORCH_ENABLE_MPS_FALLBACK='on' in the workload's process: the CPU fallback was not in effect "
            "(std::stoi throws std::invalid_argument on it while torch loads)",
        ),
    ],
)
def test_fallback_in_the_workload(value: Any, status: str, summary: str) -> None:
    finding = steps(SmokeStep("fallback", "ran", 0.0, {"value": value}))["smoke-fallback"]
    assert (finding.status.value, finding.summary) == (status, summary)
    if status == "warn":
        assert finding.fix is not None
        assert finding.fix.summary == "Set it before Python starts."
        assert finding.fix.commands == ("export PYTORCH_ENABLE_MPS_FALLBACK=1",)


@pytest.mark.parametrize(
    ("error", "summary", "fix"),
    [
        (
            rec.REAL_OOM,
            "the train step ran out of MPS memory: a model or batch too large for this Mac: torch's own tensors "
            "fill the cap (torch holds 17.36 GB, other allocations 613.56 MB, cap 18.13 GB, asked for 192.00 MB)",
            ("export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0",),  # the one reading of the numbers (checks/memory.py)
        ),
        (
            rec.VM_ALLOCATION_ERROR,
            "the train step cannot allocate on mps ('MPS allocated: 0 bytes'): a paravirtual GPU in a macOS VM, "
            "such as a hosted CI runner, where is_available() is True and nothing works",
            ("mpscheck doctor --require none",),
        ),
        (
            rec.FALLBACK_OFF_ERROR,
            "the train step hit an op with no MPS kernel while PYTORCH_ENABLE_MPS_FALLBACK is off",
            ("export PYTORCH_ENABLE_MPS_FALLBACK=1",),
        ),
        (
            HIGH_WATERMARK_ERROR,
            "the train step was refused by torch's MPS memory limits: invalid high watermark ratio",
            (
                "unset PYTORCH_MPS_HIGH_WATERMARK_RATIO PYTORCH_MPS_LOW_WATERMARK_RATIO",
                "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 PYTORCH_MPS_LOW_WATERMARK_RATIO=0.0",
            ),
        ),
        ("something new\nsecond line", "the train step raised on mps: something new", REPORT_FIX),
        (None, "the train step raised on mps: raised", REPORT_FIX),
    ],
)
def test_a_raised_step_is_explained_by_its_signature(error: str | None, summary: str, fix: tuple[str, ...]) -> None:
    train = steps(SmokeStep("train", "raised", 1.0, {}, error, "RuntimeError"))["smoke-train"]
    assert (train.status, train.summary) == (Status.FAIL, summary)
    assert train.fix is not None and train.fix.commands == fix
    line = (error or "raised").splitlines()[0]
    assert train.details == (f"RuntimeError: {line if len(line) <= 400 else line[:399] + '…'}",)


def test_a_raised_step_without_an_error_type() -> None:
    train = steps(SmokeStep("train", "raised", 1.0, {}, "boom", None))["smoke-train"]
    assert train.details == ("error: boom",)


def test_a_skipped_step_is_skipped_with_its_note() -> None:
    found = steps(
        SmokeStep("matmul", "skipped", None, {}, note="float16 needs a GPU"), SmokeStep("train", "skipped", None, {})
    )
    assert (found["smoke-matmul"].status, found["smoke-matmul"].summary) == (Status.SKIP, "float16 needs a GPU")
    assert (found["smoke-train"].status, found["smoke-train"].summary) == (Status.SKIP, "not applicable")


def test_the_workload_dying_after_every_step_fails_smoke_exit_only() -> None:
    run = ProbeRun(
        status="crashed", workload="full", returncode=-11, message="killed by SIGSEGV", stderr_tail="a\nlast words\n"
    )
    found = steps(run=run)
    assert [i for i, f in found.items() if f.status is not Status.PASS] == ["smoke-exit"]
    exit_ = found["smoke-exit"]
    assert exit_.summary == "the workload process did not finish cleanly: killed by SIGSEGV"
    assert exit_.details == ("last line on stderr: last words",)
    assert exit_.fix is not None and exit_.fix.commands == REPORT_FIX
    quiet = steps(run=ProbeRun(status="timeout", workload="full"))["smoke-exit"]
    assert quiet.summary == "the workload process did not finish cleanly: timeout" and quiet.details == ()
    timed = steps(run=ProbeRun(status="ok", workload="full", seconds=2.25))["smoke-exit"]
    assert timed.summary == "the workload process finished cleanly in 2.2 s"


def test_a_hang_during_a_step_fails_that_step_and_skips_the_later_ones() -> None:
    smoke = full_smoke()
    smoke.steps = smoke.steps[:1]
    run = ProbeRun(status="timeout", workload="full", running_stage="step:elementwise", message="no answer within 60 s")
    report = diagnose(m1_facts(smoke, run=run), command="smoke-test")
    found = {f.id: f for f in report.findings}
    assert found["smoke-allocate"].status is Status.PASS
    elementwise = found["smoke-elementwise"]
    assert (elementwise.status, elementwise.summary) == (
        Status.FAIL,
        "the elementwise step on mps did not finish: no answer within 60 s",
    )
    assert elementwise.details == ()
    assert found["smoke-matmul"].summary == "not run: the workload stopped during the elementwise step"
    not_a_step = ProbeRun(status="timeout", workload="full", running_stage="torch", message="no answer")
    found = {f.id: f for f in diagnose(m1_facts(smoke, run=not_a_step), command="smoke-test").findings}
    assert (found["smoke-elementwise"].status, found["smoke-elementwise"].summary) == (Status.SKIP, "not run")


def test_memory_limit_is_named_after_where_the_number_came_from() -> None:
    values = {**MEMORY, "recommended_max": None, "total": 80 * 1024**3}
    finding = steps(SmokeStep("memory", "ran", 0.1, values))["smoke-memory"]
    assert finding.summary.endswith("; device total 80 GiB")


# ---- the doctor's quick smoke -----------------------------------------------------------------------


def quick(*entries: SmokeStep, run: ProbeRun | None = None, device: str | None = "mps") -> Finding:
    smoke = full_smoke(device=device)
    smoke.steps = list(entries)
    facts_ = m1_facts(smoke, run=run or ProbeRun(status="ok", workload="quick"))
    return {f.id: f for f in diagnose(facts_).findings}["smoke"]


def test_quick_smoke_passes_with_every_step_named() -> None:
    finding = quick(ran("allocate"), SmokeStep("elementwise", "ran", None, FULL_PASS_VALUES["elementwise"]))
    assert (finding.status, finding.summary) == (
        Status.PASS,
        "float32 work on mps matches the CPU (allocate, elementwise; 0.10 s)",
    )
    unknown_step = quick(SmokeStep("warmup", "ran", 0.5, {}))
    # A step the doctor does not know confirms nothing: the quick smoke's own steps must report.
    assert unknown_step.summary == "not confirmed: the allocate, elementwise step(s) did not report"


def test_quick_smoke_reports_the_first_step_that_did_not_pass() -> None:
    finding = quick(ran("allocate", mismatches=2), ran("elementwise", max_relative_error={"add": 1.0}))
    assert (finding.status, finding.summary) == (
        Status.FAIL,
        "the allocate step on mps: 2 of 4096 values changed in the round trip to the device",
    )
    skipped = quick(SmokeStep("allocate", "skipped", None, {}, note="no room"), ran("elementwise"))
    assert (skipped.status, skipped.summary) == (Status.SKIP, "no room")


def test_quick_smoke_not_run_or_ended_badly() -> None:
    assert (quick().status, quick().summary) == (Status.SKIP, "no step of the workload reported")
    bad = quick(ran("allocate"), run=ProbeRun(status="bad-output", workload="quick", message="ended without reporting"))
    assert (bad.status, bad.summary) == (
        Status.FAIL,
        "the workload's steps passed, then the probe ended badly: ended without reporting",
    )
    assert bad.fix is not None and bad.fix.commands == REPORT_FIX
    died = quick(
        ran("allocate"),
        run=ProbeRun(status="crashed", workload="quick", running_stage="step:elementwise", message="killed by SIGABRT"),
    )
    assert (died.status, died.summary) == (
        Status.FAIL,
        "the elementwise step on mps did not finish: killed by SIGABRT (an abort inside Metal)",
    )
    on_cuda = quick(
        ran("allocate"),
        device="cuda",
        run=ProbeRun(status="crashed", workload="quick", running_stage="step:elementwise", message="killed"),
    )
    assert on_cuda.summary == "the elementwise step on cuda did not finish: killed"
    hung = quick(
        ran("allocate"),
        run=ProbeRun(status="timeout", workload="quick", running_stage="step:elementwise", message="no answer"),
    )
    assert hung.summary == "the elementwise step on mps did not finish: no answer"
    facts_ = m1_facts(full_smoke(), run=ProbeRun(status="ok", workload="quick"))
    facts_.target.smoke = None
    assert {f.id: f for f in diagnose(facts_).findings}["smoke"].summary == "not run: torch was not imported"
    facts_.target.run.message = "the interpreter exited"
    assert {f.id: f for f in diagnose(facts_).findings}["smoke"].summary == "not run: the interpreter exited"


# ---- smoke-test's device choice ----------------------------------------------------------------------


def device_finding(facts_: Any) -> Finding:
    return {f.id: f for f in diagnose(facts_, command="smoke-test").findings}["smoke-device"]


def test_mps_requested_but_not_available_names_the_doctors_root_cause() -> None:
    smoke = full_smoke()
    smoke.device, smoke.requested, smoke.reason, smoke.steps = None, "mps", "MPS was requested and is not usable", []
    facts_ = m1_facts(smoke, sw_vers=rec.SW_VERS_12_7_6, mac_ver="12.7.6")
    finding = device_finding(facts_)
    assert finding.status is Status.FAIL
    assert finding.summary.startswith("MPS was requested and is not usable: macOS 12.7.6 is older than macOS 13.0")
    assert finding.summary.endswith("[macos-version]")
    assert finding.fix is not None and finding.fix.commands[0] == "softwareupdate --list"
    facts_.target.torch.mps_available = False
    facts_.host.macos_version = "14.5"
    finding = device_finding(facts_)
    assert finding.summary.endswith("[mps-available]")


def test_gpu_without_any_device_on_a_mac_says_why_mps_was_refused_and_fixes_that() -> None:
    smoke = full_smoke()
    smoke.device, smoke.requested, smoke.reason, smoke.steps = None, "gpu", "no GPU", []
    finding = device_finding(m1_facts(smoke))
    assert (finding.status, finding.summary) == (
        Status.FAIL,
        "no GPU: mps not used: torch.backends.mps.is_available() is False; cuda not used: CUDA does not exist on macOS",
    )
    assert finding.fix is not None and finding.fix.commands == ("mpscheck doctor",)
    assert finding.details == ()  # no device ran, so none is ranked above it
    too_old = device_finding(m1_facts(smoke, sw_vers=rec.SW_VERS_12_7_6, mac_ver="12.7.6"))
    assert too_old.summary.startswith("no GPU: mps not used: macOS 12.7.6 is older than macOS 13.0")
    assert "[macos-version]; cuda not used: CUDA does not exist on macOS" in too_old.summary
    assert too_old.fix is not None and too_old.fix.commands[0] == "softwareupdate --list"
    smoke.requested, smoke.reason = "cuda", "--device cuda was requested and torch cannot use cuda here"
    cuda = device_finding(m1_facts(smoke))
    assert cuda.summary == "--device cuda was requested and torch cannot use cuda here: CUDA does not exist on macOS"
    assert cuda.fix == Remediation("Let mpscheck pick what works here.", ("mpscheck smoke-test --device auto",))


def test_cuda_requested_off_macos_without_a_device_gets_the_doctors_cuda_fix() -> None:
    smoke = quick_smoke(device=None)
    smoke.requested, smoke.reason = "cuda", "--device cuda was requested and torch cannot use cuda here"
    cpu_build = torch_facts("2.13.0+cpu", mps_built=False, available=False, mps_error=rec.LINUX_NOT_BUILT)
    finding = device_finding(_linux(cpu_build, smoke))
    assert finding.summary == f"{smoke.reason}: no CUDA device visible (a CPU-only torch build)"
    assert finding.fix is not None and finding.fix.commands == (
        "/opt/venv/bin/python -m pip install --force-reinstall --no-cache-dir torch",
        "nvidia-smi",
    )
    no_driver = device_finding(_linux(replace(cpu_build, cuda_built="12.8"), smoke))
    assert no_driver.summary == f"{smoke.reason}: no CUDA device visible (CUDA 12.8 build)"
    assert no_driver.fix is not None and no_driver.fix.commands == ("nvidia-smi",)
    unreported = device_finding(_linux(replace(cpu_build, cuda_available=None), smoke))  # the cuda check skips
    assert unreported.fix == Remediation("Let mpscheck pick what works here.", ("mpscheck smoke-test --device auto",))
    smoke.requested, smoke.reason = "gpu", "neither MPS nor CUDA is available"
    either = device_finding(_linux(replace(cpu_build, cuda_available=None), smoke))
    assert either.fix == Remediation("Let mpscheck pick what works here.", ("mpscheck smoke-test --device auto",))


def test_a_cpu_run_on_a_mac_warns_unless_the_cpu_was_chosen() -> None:
    cpu = full_smoke(device="cpu")
    cpu.reason = "forced"
    warned = device_finding(m1_facts(cpu))
    assert warned.status is Status.WARN
    assert warned.summary == (
        "ran on cpu: forced; mps not used: torch.backends.mps.is_available() is False; "
        "cuda not used: CUDA does not exist on macOS"
    )
    assert warned.fix is not None and warned.fix.commands == ("mpscheck doctor",)
    assert warned.fix.summary == "Run the doctor for the full diagnosis."
    cpu.requested = "cpu"
    chosen = device_finding(m1_facts(cpu))
    assert (chosen.status, chosen.summary) == (Status.PASS, "ran on cpu: forced")
    assert chosen.details == (
        "mps not used: torch.backends.mps.is_available() is False",
        "cuda not used: CUDA does not exist on macOS",
    )


def test_the_workload_that_never_started() -> None:
    facts_ = m1_facts(full_smoke(), run=ProbeRun(status="failed", workload="full", message="exited with status 1"))
    facts_.target.smoke = None
    finding = device_finding(facts_)
    assert (finding.status, finding.summary) == (Status.FAIL, "the workload did not start: exited with status 1")
    assert finding.fix is not None and finding.fix.commands == ("mpscheck doctor",)
    facts_.target.run.message = ""
    assert device_finding(facts_).summary == "the workload did not start: no device was chosen"
    facts_.target.interpreter = None
    blocked = device_finding(facts_)
    assert (blocked.status, blocked.blocked_by) == (Status.SKIP, "interpreter")


def test_step_checks_are_built_per_step() -> None:
    """The step checks registered from one factory each judge their own step."""
    from mpscheck.checks.registry import Context
    from mpscheck.checks.smoke import _step_check

    ctx = Context(m1_facts(full_smoke(ran("matmul", float32={"n": 8, "max_relative_error": 0.5}))))
    ctx.findings["smoke-device"] = Finding("smoke-device", "Device", Status.PASS, "ran on mps")
    matmul = _step_check("matmul")(ctx)
    assert (matmul.status, matmul.summary) == (
        Status.FAIL,
        "the matmul step on mps: float32 8×8 differs from the CPU by 0.5 (tolerance 0.001)",
    )
    allocate = _step_check("allocate")(ctx)
    assert (allocate.status, allocate.summary) == (
        Status.PASS,
        "4096 float32 values survived the round trip to mps (0.10 s)",
    )


def test_device_choice_on_linux() -> None:
    from tests.scenarios import scenarios

    cuda = next(s for s in scenarios() if s.name == "Linux with CUDA, --require gpu").facts
    cuda.target.smoke = full_smoke(device="cuda")
    cuda.target.smoke.reason = "MPS is not available and CUDA is"
    finding = device_finding(cuda)
    assert (finding.status, finding.summary) == (Status.PASS, "ran on cuda: MPS is not available and CUDA is")
    assert finding.details == ("mps not used: not macOS (Linux)",)
    assert cuda.target.torch is not None
    cuda.target.torch.cuda_available = False
    cuda.target.smoke.device = "cpu"
    cuda.target.smoke.reason = "neither"
    warned = device_finding(cuda)
    assert warned.summary == (
        "ran on cpu: neither; mps not used: not macOS (Linux); cuda not used: no CUDA device visible (CUDA 13.0 build)"
    )
    assert warned.fix is not None and warned.fix.summary == "See why no GPU is usable here."
    assert warned.fix.commands == ("mpscheck doctor",)
    cuda.target.smoke.requested = "mps"
    cuda.target.smoke.device = None
    cuda.target.smoke.reason = "MPS was requested"
    refused = device_finding(cuda)
    assert refused.summary == "MPS was requested: not macOS (Linux)"


def test_a_known_signature_without_smoke_wording_is_said_and_fixed_by_its_table_row() -> None:
    """Every row of the one table of known errors is recognised in a smoke step, with the row's cause and fix
    (it used to fall back to "raised" and the report-it fix unless the row carried a second name)."""
    train = steps(SmokeStep("train", "raised", 1.0, {}, rec.FLOAT64_ERROR, "TypeError"))["smoke-train"]
    assert train.summary == (
        "the train step raised on mps: a float64 (double) tensor reached MPS, which has no float64 "
        "(float64-unsupported)"
    )
    assert train.fix is not None and train.fix.summary.startswith("Use float32") and train.fix.commands != REPORT_FIX
    watermark = steps(SmokeStep("train", "raised", 1.0, {}, HIGH_WATERMARK_ERROR, "RuntimeError"))["smoke-train"]
    assert watermark.fix is not None and watermark.fix.summary.startswith("Unset both watermark variables")


def test_a_dtype_row_that_raised_is_not_working_whatever_else_it_holds() -> None:
    row = {"result": "raised", "error": "x", "mismatches": 0}
    finding = steps(dtypes(int64=row))["smoke-dtypes"]
    assert finding.summary == "works on mps: float32; unsupported: int64"


def test_macos_14_0_itself_has_bfloat16() -> None:
    smoke = full_smoke(dtypes(bfloat16=raised(rec.BF16_MACOS13_ERROR)))
    facts_ = m1_facts(smoke)
    facts_.host.macos_version = "14.0"
    found = {f.id: f for f in diagnose(facts_, command="smoke-test").findings}
    assert found["smoke-dtypes"].summary == "works on mps: float32; unsupported: bfloat16"
    facts_.host.macos_version = "13.7"
    found = {f.id: f for f in diagnose(facts_, command="smoke-test").findings}
    assert found["smoke-dtypes"].summary == "works on mps: float32; bfloat16 need macOS 14 (this is 13.7)"


def test_steps_judged_by_their_own_rule_still_honour_raised_and_skipped() -> None:
    found = steps(
        SmokeStep("dtypes", "raised", 0.1, {}, rec.VM_ALLOCATION_ERROR, "RuntimeError"),
        SmokeStep("memory", "skipped", None, {}, note="no allocator on cpu"),
        SmokeStep("fallback", "skipped", None, {}),
    )
    assert found["smoke-dtypes"].status is Status.FAIL
    assert found["smoke-dtypes"].summary.startswith("the dtypes step cannot allocate on mps ('MPS allocated: 0 bytes')")
    assert (found["smoke-memory"].status, found["smoke-memory"].summary) == (Status.SKIP, "no allocator on cpu")
    assert (found["smoke-fallback"].status, found["smoke-fallback"].summary) == (Status.SKIP, "not applicable")


def test_a_clean_run_is_not_a_death_whatever_stage_it_names() -> None:
    found = steps(run=ProbeRun(status="ok", workload="full", running_stage="step:matmul"))
    assert all(f.status is Status.PASS for f in found.values())


def test_gpu_requested_and_cpu_used_is_a_warning() -> None:
    cpu = full_smoke(device="cpu")
    cpu.requested, cpu.reason = "gpu", "no GPU"
    assert device_finding(m1_facts(cpu)).status is Status.WARN


def test_a_skipped_quick_step_without_a_note() -> None:
    finding = quick(SmokeStep("allocate", "skipped", None, {}))
    assert (finding.status, finding.summary) == (Status.SKIP, "not applicable")


def test_the_doctors_smoke_is_not_a_death_after_a_clean_exit() -> None:
    run = ProbeRun(status="ok", workload="quick", running_stage="step:elementwise")
    finding = quick(ran("allocate"), ran("elementwise"), run=run)
    assert (finding.status, finding.summary) == (
        Status.PASS,
        "float32 work on mps matches the CPU (allocate, elementwise; 0.20 s)",
    )


def test_the_macos_a_dtype_needs_is_read_from_the_op_limits_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """One home for "bfloat16 needs macOS 14": knowledge/op_limits.py; a table saying 15 says 15 here."""
    import mpscheck.checks.smoke as smoke_rules

    monkeypatch.setattr(smoke_rules, "dtype_macos_floors", lambda: {"bfloat16": (15, 0)})
    rows = {"bfloat16": raised(rec.BF16_MACOS13_ERROR)}
    found = steps(dtypes(**rows), sw_vers=rec.SW_VERS_14_5, mac_ver="14.5")["smoke-dtypes"]
    assert "bfloat16 need macOS 15 (this is 14.5)" in found.summary
