"""Small helpers of the checks pinned on every branch (checks/bench.py, signatures.py, policy.py): how a
bench figure is written (no value, below 100 with three significant digits, 100 and over grouped by
thousands) and a whole row's line; what a signature without a row of the table says; the detail each row
quotes, with and without what the error named; and the verdict on a paste for every status, requirement
and --strict; the newest torch here, the frameworks' answers and a step check, each without what they need.

Expected values are written out; the verdict table is the rule of decide_text's docstring, written
again here with plain code.
"""

from __future__ import annotations

import pytest

from mpscheck.checks import Context
from mpscheck.checks.bench import BenchRow, BenchSummary, _number, figure
from mpscheck.checks.frameworks import verdicts
from mpscheck.checks.policy import decide_text
from mpscheck.checks.registry import Outcome
from mpscheck.checks.signatures import Signature, _detail
from mpscheck.checks.silent import _newest_here
from mpscheck.checks.smoke import judge_step
from mpscheck.knowledge import releases
from mpscheck.model import ExitCode, Requirement, Status
from tests import recorded as rec
from tests.scenarios import PHYSICAL, facts, interpreter, mac_host, quick_smoke, torch_facts


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (None, "?"),
        (0.0, "0"),
        (0.012345, "0.0123"),
        (99.94, "99.9"),  # below 100: three significant digits
        (99.96, "100"),
        (100.0, "100"),  # exactly 100: grouped, no decimals
        (1234.6, "1,235"),
        (1e6, "1,000,000"),
    ],
)
def test_a_bench_figure_is_written_by_its_size(value: float | None, written: str) -> None:
    assert _number(value) == written


def row(**changes: object) -> BenchRow:
    fields: dict[str, object] = {
        "name": "resnet50",
        "label": "ResNet-50 training",
        "value": 1500.0,
        "unit": "samples/s",
        "peak": 2000.0,
        "percent_of_peak": 75.0,
        "cpu_value": 40.0,
        "speedup": 37.5,
        "batch": 128,
        "cpu_batch": 64,
        "peak_memory_bytes": 3 * 1024**3,
        "right": True,
    }
    fields.update(changes)
    return BenchRow(**fields)  # type: ignore[arg-type]


def test_a_bench_rows_line_says_each_figure_it_has() -> None:
    assert figure(row()) == (
        "ResNet-50 training 1,500 samples/s (75% of the published 2,000) at batch 128, 37.5× the CPU (40 at batch "
        "64), peak memory 3 GiB"
    )
    bare = row(value=None, percent_of_peak=None, batch=None, speedup=None, peak_memory_bytes=None)
    assert figure(bare) == "ResNet-50 training ? samples/s"
    assert figure(row(peak_memory_bytes=0, speedup=None, batch=None)) == (
        "ResNet-50 training 1,500 samples/s (75% of the published 2,000)"
    )


def test_a_bench_summary_finds_each_row_by_its_name() -> None:
    first, second = row(), row(name="copy", label="copy")
    summary = BenchSummary((first, second), None, None, None)
    assert summary.by_name() == {"resnet50": first, "copy": second}
    assert BenchSummary((), None, None, None).by_name() == {}


# ---- signatures ----------------------------------------------------------------------------------------------


def test_a_signature_without_a_row_is_its_cause_and_has_no_fix() -> None:
    bare = Signature("out-of-memory")
    assert (bare.kind, bare.summary("python3"), bare.remedy("python3")) == ("out-of-memory", "out-of-memory", None)
    assert bare.values("python3") == {"python": "python3", "package": "torch"}
    named = Signature("x", groups=(("op", "aten::mm"),))
    assert named.values("py", "torchvision") == {"python": "py", "package": "torchvision", "op": "aten::mm"}


@pytest.mark.parametrize(
    ("row_id", "groups", "detail"),
    [
        ("oom", {"allocated": "1.02 GB", "other": "0 bytes"}, "MPS allocated 1.02 GB, other allocations 0 bytes"),
        ("oom", {}, "MPS allocated ?, other allocations ?"),
        ("wrong-arch-dylib", {"have": "x86_64", "need": "arm64"}, "have x86_64, need arm64"),
        ("wrong-arch-dylib", {}, "have ?, need ?"),
        ("watermark", {"which": "low"}, "invalid low watermark ratio"),
        ("watermark", {}, "invalid high watermark ratio"),
        ("no-metal-device", {}, "the whole match"),
        ("float64", {"op": "aten::mm"}, ""),
    ],
)
def test_each_row_quotes_its_own_detail(row_id: str, groups: dict[str, str], detail: str) -> None:
    assert _detail(row_id, groups, "the whole match") == detail


# ---- the verdict on a paste ------------------------------------------------------------------------------------


def expected_exit(status: Status | None, require: Requirement, strict: bool) -> ExitCode:
    if status is None:
        return ExitCode.USAGE  # nothing could be read
    if status is Status.CRASH:
        return ExitCode.INTERNAL
    if require is Requirement.NONE:
        return ExitCode.READY
    if status is Status.PASS or (status is Status.WARN and not strict):
        return ExitCode.READY
    return ExitCode.PROBLEMS


@pytest.mark.parametrize("status", [None, *Status])
@pytest.mark.parametrize("require", list(Requirement))
@pytest.mark.parametrize("strict", [False, True])
def test_the_verdict_on_a_paste_for_every_status_requirement_and_strictness(
    status: Status | None, require: Requirement, strict: bool
) -> None:
    assert decide_text(status, require=require, strict=strict) == expected_exit(status, require, strict)


# ---- what is not known stays not known ---------------------------------------------------------------------


def test_the_newest_torch_here_needs_both_the_python_and_the_macos() -> None:
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_14_5)
    known = facts(host, interpreter(), torch_facts())
    assert _newest_here(Context(facts=known)) == releases.newest_with_mps("3.11.9", "14.5")
    assert _newest_here(Context(facts=known)) is not None
    assert _newest_here(Context(facts=facts(host, None, torch_facts()))) is None
    assert _newest_here(Context(facts=facts(host, interpreter(version=""), torch_facts()))) is None
    no_macos = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, None)
    assert _newest_here(Context(facts=facts(no_macos, interpreter(), torch_facts()))) is None


def test_no_interpreter_or_no_torch_gives_no_frameworks_answer() -> None:
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_14_5)
    lightning = {"lightning": "2.4.0"}
    assert verdicts(Context(facts=facts(host, None, torch_facts()))) == {}
    assert verdicts(Context(facts=facts(host, interpreter(packages=lightning), None))) == {}
    assert verdicts(Context(facts=facts(host, interpreter(packages=lightning), torch_facts()))) == {"lightning": True}


def test_a_step_check_without_a_device_that_ran_is_skipped() -> None:
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_14_5)
    for smoke in (None, quick_smoke(None)):
        ctx = Context(facts=facts(host, interpreter(), torch_facts(), smoke))
        assert judge_step(ctx, "allocate", lambda entry, device: Outcome(Status.PASS, "ran")) == Outcome(
            Status.SKIP, "no device ran the workload"
        )
