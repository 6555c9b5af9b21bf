"""A workload step's outcome and the errors an input shows, pinned whole (checks/errors.py): a step
judged by its rule (passed with its time or untimed, failed with its problem, skipped with its note or
without), a step that raised (out of memory read by its numbers, an unknown error, no error text), a
step whose process died (an abort inside Metal only on mps, the last line on stderr), and the
error-text check: none known (counted), a warning alone, and the first error by the table's order
with every other known line as evidence.

The error texts are torch's own (tests/test_paste.py's out-of-memory message, the table's examples);
expected values are written out; every field of an Outcome is compared.
"""

from __future__ import annotations

from mpscheck.checks import REGISTRY, Context
from mpscheck.checks.errors import death_outcome, judged, raised_outcome
from mpscheck.checks.registry import Outcome
from mpscheck.facts import ProbeRun, SeenError, SmokeStep
from mpscheck.knowledge import errors as table
from mpscheck.model import Remediation, Status
from tests.test_bench import bench_facts
from tests.test_error_table import example
from tests.test_paste import OOM

TOO_LARGE = OOM.format(a="8.93 GB", o="120.39 MB", m="9.07 GB", r="25.00 MB")
TOO_LARGE_SAID = (
    "a model or batch too large for this Mac with 128.00 GiB: torch's own tensors fill the cap (torch holds 8.93 "
    "GB, other allocations 120.39 MB, cap 9.07 GB, asked for 25.00 MB; this Mac has 128.00 GiB)"
)
OOM_FIX = Remediation(
    "Use a smaller model, batch or resolution, or float16; lifting the cap with the variable below lets macOS "
    "swap (slow; may freeze the system).",
    ("export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0",),
)
FALLBACK = (
    "UserWarning: The operator 'aten::nonzero' is not currently supported on the MPS backend and will fall back "
    "to run on the CPU. This may have performance implications."
)
FALLBACK_SAID = (
    "aten::nonzero runs on the CPU (PYTORCH_ENABLE_MPS_FALLBACK is on): slower, but not a failure (op-fallback-warning)"
)


def context(run: ProbeRun | None = None) -> Context:
    return Context(facts=bench_facts(None, run))


def report_it(ctx: Context) -> Remediation:
    return Remediation(
        "Update torch (and macOS); if it persists, report it to PyTorch with this report attached.",
        (
            f"{ctx.python} -m pip install --upgrade torch",
            "mpscheck smoke-test --format markdown --output mpscheck-smoke.md",
        ),
    )


def rule(values: dict[str, object]) -> tuple[str | None, str]:
    return (str(values["problem"]) if "problem" in values else None), "{device} answered {x}"


# ---- a step judged by its rule ---------------------------------------------------------------------------


def test_a_step_that_ran_is_passed_with_its_time_or_failed_with_its_problem() -> None:
    ctx = context()
    assert judged(ctx, SmokeStep("add", "ran", 0.254), "mps", rule) == Outcome(
        Status.PASS,
        "mps answered {x} (0.25 s)",  # braces of a saved value are kept as they are
    )
    assert judged(ctx, SmokeStep("add", "ran", None), "cuda", rule) == Outcome(
        Status.PASS, "cuda answered {x} (untimed)"
    )
    assert judged(ctx, SmokeStep("add", "ran", 1.0, {"problem": "max error 0.5"}), "mps", rule) == Outcome(
        Status.FAIL, "the add step on mps: max error 0.5", (), report_it(ctx)
    )


def test_a_skipped_step_says_its_note_or_not_applicable() -> None:
    ctx = context()
    assert judged(ctx, SmokeStep("add", "skipped", note="needs macOS 14"), "mps", rule) == Outcome(
        Status.SKIP, "needs macOS 14"
    )
    assert judged(ctx, SmokeStep("add", "skipped"), "mps", rule) == Outcome(Status.SKIP, "not applicable")


def test_a_step_that_raised_is_judged_by_its_error() -> None:
    ctx = context()
    assert judged(ctx, SmokeStep("add", "raised", error=TOO_LARGE), "mps", rule) == Outcome(
        Status.FAIL, f"the add step ran out of MPS memory: {TOO_LARGE_SAID}", (f"error: {TOO_LARGE}",), OOM_FIX
    )
    assert raised_outcome(ctx, SmokeStep("add", "raised"), "mps") == Outcome(
        Status.FAIL, "the add step raised on mps: raised", ("error: raised",), report_it(ctx)
    )
    odd = SmokeStep("add", "raised", error="ValueError: odd\nsecond", error_type="ValueError")
    assert raised_outcome(ctx, odd, "cuda") == Outcome(
        Status.FAIL, "the add step raised on cuda: ValueError: odd", ("ValueError: ValueError: odd",), report_it(ctx)
    )


# ---- a step whose process died -------------------------------------------------------------------------------


def test_a_step_whose_process_died_names_an_abort_inside_metal_only_on_mps() -> None:
    crashed = ProbeRun(
        status="crashed", workload="quick", returncode=-6, stderr_tail="a\nlast words\n", message="killed by SIGABRT"
    )
    ctx = context(crashed)
    assert death_outcome(ctx, "add", "mps") == Outcome(
        Status.FAIL,
        "the add step on mps did not finish: killed by SIGABRT (an abort inside Metal)",
        ("last line on stderr: last words",),
        report_it(ctx),
    )
    assert death_outcome(ctx, "add", "cuda") == Outcome(
        Status.FAIL,
        "the add step on cuda did not finish: killed by SIGABRT",
        ("last line on stderr: last words",),
        report_it(ctx),
    )
    hung = context(ProbeRun(status="timeout", workload="quick", message="no answer within 60 s"))
    assert death_outcome(hung, "add", "mps") == Outcome(
        Status.FAIL, "the add step on mps did not finish: no answer within 60 s", (), report_it(hung)
    )


# ---- the errors an input shows -----------------------------------------------------------------------------------


def error_text(errors: list[SeenError]) -> Outcome:
    found = bench_facts(None)
    found.errors = errors
    return REGISTRY["error-text"].run(Context(facts=found))


def test_no_known_error_is_a_skip_that_counts_the_lines_shown() -> None:
    assert error_text([]) == Outcome(Status.SKIP, "0 error lines shown, none of them a known error")
    assert error_text([SeenError("boring", 1)]) == Outcome(
        Status.SKIP, "1 error line shown, none of them a known error"
    )
    two = [SeenError("boring", 1), SeenError("dull", 2)]
    assert error_text(two) == Outcome(Status.SKIP, "2 error lines shown, none of them a known error")


def test_a_warning_alone_is_a_warning_with_its_rows_fix() -> None:
    assert error_text([SeenError(FALLBACK, 4, "warning"), SeenError("boring", 5)]) == Outcome(
        Status.WARN,
        f"line 4: {FALLBACK_SAID}",
        (),
        Remediation(
            "Nothing is broken; for speed, upgrade torch if a newer release has an MPS kernel for this op.", ()
        ),
    )


def test_the_first_error_by_the_tables_order_is_the_finding_and_every_other_known_line_evidence() -> None:
    float64 = example(table.BY_ID["float64"])
    rows = [r.id for r in table.TABLE]
    assert rows.index("oom") < rows.index("float64")  # the out-of-memory row comes first in the table
    errors = [SeenError(float64, 2), SeenError(FALLBACK, 4, "warning"), SeenError(TOO_LARGE, 7), SeenError("x", 9)]
    assert error_text(errors) == Outcome(
        Status.FAIL,
        f"line 7: MPS ran out of memory: {TOO_LARGE_SAID} (out-of-memory)",
        (
            f"line 4: {FALLBACK_SAID}",
            "line 2: a float64 (double) tensor reached MPS, which has no float64 (float64-unsupported)",
        ),
        OOM_FIX,
    )


def test_an_error_outranks_a_warning_the_table_lists_before_it() -> None:
    float64 = example(table.BY_ID["float64"])
    rows = [r.id for r in table.TABLE]
    assert rows.index("op-fallback") < rows.index("float64")
    row = table.BY_ID["float64"]
    assert error_text([SeenError(FALLBACK, 1, "warning"), SeenError(float64, 2)]) == Outcome(
        Status.FAIL,
        "line 2: a float64 (double) tensor reached MPS, which has no float64 (float64-unsupported)",
        (f"line 1: {FALLBACK_SAID}",),
        Remediation(row.fix, tuple(table.fill(c, {"python": context().python}) for c in row.commands)),
    )


def test_a_raised_errors_evidence_is_its_first_line_cut_at_400_characters() -> None:
    ctx = context()
    whole = SmokeStep("add", "raised", error="E" * 400 + "\nnext", error_type="RuntimeError")
    assert raised_outcome(ctx, whole, "mps").details == ("RuntimeError: " + "E" * 400,)  # exactly the limit
    cut = SmokeStep("add", "raised", error="E" * 401, error_type="RuntimeError")
    assert raised_outcome(ctx, cut, "mps").details == ("RuntimeError: " + "E" * 399 + "…",)  # one past it
