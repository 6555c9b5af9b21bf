"""Judging the workload that ran on the device: the doctor's quick smoke, and each smoke-test step.

The workload (probes/agent/workload.py) only observes: errors against the CPU, mismatch counts, losses,
torch's exception text. Every tolerance and every "expected unsupported" is decided here, so
`mpscheck explain` re-judges a saved report from its numbers. A known error signature becomes its
cause and fix.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from mpscheck.checks.environment import FALLBACK, export_fix, read_fallback
from mpscheck.checks.errors import death_outcome, died_during, judged, raised_outcome, report_fix, step
from mpscheck.checks.registry import SMOKE, Context, Outcome, check, failed, fix, passed, skipped, warned
from mpscheck.checks.system import cuda_usable
from mpscheck.checks.wording import first_line, plural, size
from mpscheck.facts import SmokeStep
from mpscheck.knowledge.op_limits import dtype_macos_floors
from mpscheck.knowledge.versions import at_least, parse_version, show
from mpscheck.model import Remediation, Status

MPS_PREREQUISITES = ("platform", "chip", "macos-version", "python-arch", "torch-import", "mps-built", "mps-available")

QUICK_STEPS = ("allocate", "elementwise")  # what the doctor's smoke runs (probes/agent/workload.py)
# Largest error relative to the reference's magnitude that still counts as right.
ELEMENTWISE_TOLERANCE = 1e-4
MATMUL_TOLERANCE = {"float32": 1e-3, "float16": 1e-2}
TRAIN_FIRST_LOSS_TOLERANCE = 2e-3  # relative to max(1, |CPU loss|)
# Raised on mps by design (../shared/mps-facts.md 4): "MPS framework doesn't support float64".
UNSUPPORTED_ON_MPS = ("float64",)


# ---- the rules for each step's observations: (problem or None, one-line description) ------------


def _number(value: Any) -> float | None:
    """A finite number from saved values, or None: a report may hold anything."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:  # an int beyond any float: 10**400
        return None
    return number if math.isfinite(number) else None


def judge_allocate(v: dict[str, Any]) -> tuple[str | None, str]:
    mismatches = v.get("mismatches")
    if not isinstance(mismatches, int) or isinstance(mismatches, bool):
        return "the round trip's mismatch count was not recorded", "unknown"
    if mismatches:
        return f"{mismatches} of {v.get('elements')} values changed in the round trip to the device", ""
    return None, f"{v.get('elements')} float32 values survived the round trip to {{device}}"


def judge_elementwise(v: dict[str, Any]) -> tuple[str | None, str]:
    errors = v.get("max_relative_error")
    numbers = {op: _number(e) for op, e in errors.items()} if isinstance(errors, dict) else {}
    if not numbers or any(e is None for e in numbers.values()):
        return "the elementwise errors were not recorded as numbers", ""
    worst = max(numbers, key=lambda op: numbers[op] or 0.0)
    error = numbers[worst] or 0.0
    if error > ELEMENTWISE_TOLERANCE:
        return f"{worst} differs from the CPU by {error:.3g} (tolerance {ELEMENTWISE_TOLERANCE:g})", ""
    return None, (
        f"{plural(len(numbers), 'op')} on {{device}} {'matches' if len(numbers) == 1 else 'match'} the CPU "
        f"(worst relative error {error:.2g}, "
        f"tolerance {ELEMENTWISE_TOLERANCE:g})"
    )


def judge_matmul(v: dict[str, Any]) -> tuple[str | None, str]:
    f32, f16 = v.get("float32"), v.get("float16")
    problems, parts = [], []
    for name, row in (("float32", f32), ("float16", f16)):
        if not isinstance(row, dict):
            if name == "float32":
                problems.append("the float32 result was not recorded")
            continue
        error = _number(row.get("max_relative_error"))
        if error is None:
            if name == "float32":
                problems.append("the float32 error was not recorded")
            else:
                parts.append(f"float16 raised: {first_line(str(row.get('error')))}")
            continue
        n = row.get("n")
        if error > MATMUL_TOLERANCE[name]:
            limit = MATMUL_TOLERANCE[name]
            problems.append(f"{name} {n}×{n} differs from the CPU by {error:.3g} (tolerance {limit:g})")
        gflops = _number(row.get("gflops"))
        rate = f", {gflops:.0f} GFLOP/s" if gflops and name == "float32" else ""
        parts.append(f"{name} {n}×{n} error {error:.2g}{rate}")
    if problems:
        return "; ".join(problems), ""
    return None, "matmul on {device} matches the CPU: " + "; ".join(parts)


def judge_train(v: dict[str, Any]) -> tuple[str | None, str]:
    raw = v.get("losses")
    losses = [_number(x) for x in raw] if isinstance(raw, list) else []
    cpu = _number(v.get("cpu_first_loss"))
    if not losses or cpu is None:
        return "the losses were not recorded", ""
    if any(x is None for x in losses):
        return f"the loss is not finite: {raw}", ""
    finite = [x for x in losses if x is not None]
    problems = []
    if v.get("gradients_finite") is not True:
        problems.append("a gradient is not finite" if v.get("gradients_finite") is False else "gradients unchecked")
    if not finite[-1] < finite[0]:
        problems.append(f"the loss did not decrease over {len(finite)} steps: {finite[0]:.4f} → {finite[-1]:.4f}")
    difference = abs(finite[0] - cpu)
    if difference > TRAIN_FIRST_LOSS_TOLERANCE * max(1.0, abs(cpu)):
        problems.append(f"first loss {finite[0]:.6f} differs from the CPU's {cpu:.6f}")
    if problems:
        return "; ".join(problems), ""
    return None, (
        f"{len(finite)} Adam steps on {{device}}: loss {finite[0]:.3f} → {finite[-1]:.3f}, gradients finite, "
        f"first loss matches the CPU (Δ {difference:.1g})"
    )


JUDGES: dict[str, Callable[[dict[str, Any]], tuple[str | None, str]]] = {
    "allocate": judge_allocate,
    "elementwise": judge_elementwise,
    "matmul": judge_matmul,
    "train": judge_train,
}


# ---- the doctor's quick smoke -------------------------------------------------------------------


@check("smoke", "Smoke test", needs=("torch-import", "mps-available"))
def smoke(ctx: Context) -> Outcome:
    run = ctx.facts.target.run
    if run.workload == "none":
        return skipped("not run (--no-smoke)")
    result = ctx.smoke
    if result is None:
        return skipped(f"not run: {run.message or 'torch was not imported'}")
    if result.device is None:
        return skipped(f"no GPU to test: {result.reason}")
    if (dead := died_during(ctx)) is not None:
        return death_outcome(ctx, dead, result.device)
    for entry in result.steps:
        outcome = judged(ctx, entry, result.device, JUDGES.get(entry.name, lambda v: (None, "ran on {device}")))
        if outcome.status.value != "pass":
            return outcome
    if not result.steps:
        return skipped("no step of the workload reported")
    if run.status != "ok":
        return failed(f"the workload's steps passed, then the probe ended badly: {run.message}", report_fix(ctx))
    missing = [name for name in QUICK_STEPS if name not in {s.name for s in result.steps}]
    if missing:  # every quick step must have reported: a missing one confirms nothing
        return skipped(f"not confirmed: the {', '.join(missing)} step(s) did not report")
    took = sum(s.seconds or 0 for s in result.steps)
    names = ", ".join(s.name for s in result.steps)
    return passed(f"float32 work on {result.device} matches the CPU ({names}; {took:.2f} s)")


# ---- mpscheck smoke-test: the device choice, then one check per workload step --------------------


def mps_reason(ctx: Context) -> str:
    """Why MPS was not used: the doctor's first failing prerequisite, in its own words."""
    if ctx.off_macos:
        return f"not macOS ({ctx.host.system})"
    root = ctx.upstream_problem(*MPS_PREREQUISITES)
    if root:
        return f"{ctx.findings[root].summary} [{root}]"
    return "torch.backends.mps.is_available() is False"


@check("smoke-device", "Device", suite=SMOKE)
def smoke_device(ctx: Context) -> Outcome:
    result = ctx.smoke
    if result is None:
        if upstream := ctx.upstream_problem("torch-import"):  # or the interpreter, torch-import's own root
            return ctx.blocked(upstream)
        return failed(
            f"the workload did not start: {ctx.facts.target.run.message or 'no device was chosen'}",
            fix("Check the interpreter with the doctor.", "mpscheck doctor"),
        )
    if result.device is None:  # no device ran, so none is ranked above it
        why, remedy = device_refused(ctx, result.requested, "smoke-test")
        return failed(f"{result.reason}: {why}", remedy)
    better = _why_not_better(ctx, result.device)
    ran = f"ran on {result.device}: {result.reason}"
    if result.requested in ("auto", "gpu") and result.device == "cpu":
        remedy = _mps_fix(ctx) if ctx.on_macos else fix("See why no GPU is usable here.", "mpscheck doctor")
        return warned(f"{ran}; " + "; ".join(better), remedy)
    return passed(ran, *better)


def device_refused(ctx: Context, requested: str, command: str) -> tuple[str, Remediation]:
    """Why the requested device (mps, cuda, or gpu: either) could not run *command*'s workload, and the fix."""
    if requested == "mps":
        return mps_reason(ctx), _mps_fix(ctx)
    if requested == "gpu":  # both were refused: say why for each, and fix the one this OS can have
        why = f"mps not used: {mps_reason(ctx)}; cuda not used: {_cuda_reason(ctx)}"
        return why, _mps_fix(ctx) if ctx.on_macos else _cuda_fix(ctx, command)
    return _cuda_reason(ctx), _cuda_fix(ctx, command)


def _why_not_better(ctx: Context, device: str | None) -> tuple[str, ...]:
    order = ["mps", "cuda", "cpu"]
    better = order[: order.index(device)] if device in order else []
    reasons = {"mps": f"mps not used: {mps_reason(ctx)}"}
    if ctx.on_macos or not cuda_usable(ctx):
        reasons["cuda"] = f"cuda not used: {_cuda_reason(ctx)}"
    return tuple(reasons[d] for d in better if d in reasons)


def _cuda_reason(ctx: Context) -> str:
    if ctx.on_macos:
        return "CUDA does not exist on macOS"
    torch = ctx.torch
    built = f"CUDA {torch.cuda_built} build" if torch and torch.cuda_built else "a CPU-only torch build"
    return f"no CUDA device visible ({built})"


def _cuda_fix(ctx: Context, command: str) -> Remediation:
    """The doctor's fix for CUDA where it found CUDA unusable; else (macOS, CUDA not determined) auto."""
    cuda = ctx.findings.get("cuda")  # skipped on macOS, where CUDA does not exist
    if cuda is not None and cuda.status is Status.FAIL and cuda.fix:
        return cuda.fix
    return fix("Let mpscheck pick what works here.", f"mpscheck {command} --device auto")


def _mps_fix(ctx: Context) -> Remediation:
    root = ctx.upstream_problem(*MPS_PREREQUISITES)
    remedy = ctx.findings[root].fix if root else None
    return remedy or fix("Run the doctor for the full diagnosis.", "mpscheck doctor")


def judge_step(ctx: Context, name: str, rule: Callable[[SmokeStep, str], Outcome]) -> Outcome:
    """A smoke-test step check: blocked, not run, died, raised, or judged by *rule*."""
    if upstream := ctx.upstream_problem("smoke-device"):
        return ctx.blocked(upstream)
    result = ctx.smoke
    if result is None or result.device is None:
        return skipped("no device ran the workload")
    entry = step(ctx, name)
    if entry is None:
        dead = died_during(ctx)
        if dead == name:
            return death_outcome(ctx, name, result.device)
        return skipped(f"not run: the workload stopped during the {dead} step" if dead else "not run")
    if entry.outcome == "raised":
        return raised_outcome(ctx, entry, result.device)
    if entry.outcome == "skipped":
        return skipped(entry.note or "not applicable")
    return rule(entry, result.device)


def _step_check(name: str) -> Callable[[Context], Outcome]:
    def run(ctx: Context) -> Outcome:
        return judge_step(ctx, name, lambda entry, device: judged(ctx, entry, device, JUDGES[name]))

    return run


check("smoke-allocate", "Allocate and copy", suite=SMOKE)(_step_check("allocate"))
check("smoke-elementwise", "Elementwise and reductions", suite=SMOKE)(_step_check("elementwise"))
check("smoke-matmul", "Matrix multiply", suite=SMOKE)(_step_check("matmul"))


@check("smoke-train", "Training step", suite=SMOKE)
def smoke_train(ctx: Context) -> Outcome:
    def rule(entry: SmokeStep, device: str) -> Outcome:
        outcome = judged(ctx, entry, device, judge_train)
        setup = _number(entry.values.get("optimizer_setup_seconds")) or 0.0
        if outcome.status.value == "pass" and setup >= 0.1:
            optimizer = entry.values.get("optimizer") or "torch.optim.Adam"
            return passed(outcome.summary + f"; {optimizer} set up in {setup:.2f} s")
        return outcome

    return judge_step(ctx, "train", rule)


@check("smoke-dtypes", "dtype support", suite=SMOKE)
def smoke_dtypes(ctx: Context) -> Outcome:
    return judge_step(ctx, "dtypes", lambda s, d: _dtype_outcome(ctx, s, d))


def _dtype_outcome(ctx: Context, entry: SmokeStep, device: str) -> Outcome:
    table = entry.values.get("dtypes")
    if not isinstance(table, dict) or not table:
        return failed("the dtype table was not recorded", report_fix(ctx))
    rows = {n: (r if isinstance(r, dict) else {}) for n, r in table.items()}
    works = [n for n, r in rows.items() if r.get("result") == "ran" and r.get("mismatches") == 0]
    wrong = [n for n, r in rows.items() if r.get("result") == "ran" and r.get("mismatches") != 0]
    raised = [n for n, r in rows.items() if r.get("result") != "ran"]
    macos = parse_version(ctx.host.macos_version)
    floors = dtype_macos_floors()  # knowledge/op_limits.py: bfloat16 and complex need macOS 14 on MPS
    expected = [n for n in raised if device == "mps" and n in UNSUPPORTED_ON_MPS]
    explained = [
        n for n in raised if device == "mps" and macos is not None and n in floors and not at_least(macos, floors[n])
    ]
    unexplained = [n for n in raised if n not in expected and n not in explained]
    details = [f"{n}: {first_line(str(rows[n].get('error')))}" for n in raised]
    if wrong or "float32" not in works:
        broken = wrong + ([] if "float32" in works or "float32" in wrong else ["float32"])
        return failed(f"wrong or missing results on {device}: {', '.join(broken)}", report_fix(ctx), *details)
    parts = [f"works on {device}: {', '.join(works)}"]
    if expected:
        parts.append(f"{', '.join(expected)} unsupported as expected on mps (use float32)")
    needed = show(max((floors[n] for n in explained), default=(0,))).removesuffix(".0")
    if explained:
        parts.append(f"{', '.join(explained)} need macOS {needed} (this is {ctx.host.macos_version})")
    if unexplained:
        return warned(
            "; ".join([*parts, f"unsupported: {', '.join(unexplained)}"]),
            fix("Use a supported dtype, or update torch.", ctx.install("torch", upgrade=True)),
            *details,
        )
    if explained:
        return warned(
            "; ".join(parts),
            fix(f"Upgrade macOS to {needed} for bfloat16 and complex.", "softwareupdate --list"),
            *details,
        )
    return passed("; ".join(parts), *details)


@check("smoke-memory", "Synchronise and memory", suite=SMOKE)
def smoke_memory(ctx: Context) -> Outcome:
    def rule(s: SmokeStep, device: str) -> Outcome:
        v = s.values
        synced = v.get("synchronize") or "nothing to synchronise"
        block = _number(v.get("block_bytes")) or 0.0
        if _number(v.get("readback")) != 1.0:
            return failed(f"the {size(int(block))} block read back {v.get('readback')!r}, not 1.0", report_fix(ctx))
        before, after = _number(v.get("allocated_before")), _number(v.get("allocated_after"))
        if before is None or after is None:
            return passed(f"synchronised ({synced}); the {device} allocator keeps no count")
        if after - before < block:
            return failed(
                f"the allocator did not count the {size(int(block))} block: {size(int(before))} → {size(int(after))}",
                report_fix(ctx),
            )
        recommended, total = _number(v.get("recommended_max")), _number(v.get("total"))
        limit = recommended or total
        limit_text = f"; {'recommended maximum' if recommended else 'device total'} {size(int(limit))}" if limit else ""
        return passed(
            f"synchronised ({synced}); a {size(int(block))} block counted: allocated {size(int(before))} → "
            f"{size(int(after))}{limit_text}"
        )

    return judge_step(ctx, "memory", rule)


@check("smoke-fallback", "CPU fallback in the workload", suite=SMOKE)
def smoke_fallback(ctx: Context) -> Outcome:
    def rule(s: SmokeStep, device: str) -> Outcome:
        value = s.values.get("value")
        value = value if isinstance(value, str) else None
        reading = read_fallback(value, ctx.torch.version if ctx.torch else None)
        if reading.enabled:
            return passed(f"{FALLBACK}={value} was in effect in the workload's process ({reading.how})")
        return warned(
            f"{FALLBACK}={value!r} in the workload's process: the CPU fallback was not in effect ({reading.how})",
            export_fix(ctx, "Set it before Python starts.", FALLBACK, "1"),
        )

    return judge_step(ctx, "fallback", rule)


@check("smoke-exit", "Workload process", suite=SMOKE)
def smoke_exit(ctx: Context) -> Outcome:
    """The probe completed: its end record arrived and it exited 0. Without that, nothing is proven."""
    run = ctx.facts.target.run
    if run.status == "ok":
        took = f" in {run.seconds:.1f} s" if run.seconds is not None else ""
        return passed(f"the workload process finished cleanly{took}")
    if upstream := ctx.upstream_problem("interpreter"):
        return ctx.blocked(upstream)
    tail = run.stderr_tail.strip().splitlines()
    return failed(
        f"the workload process did not finish cleanly: {run.message or run.status}",
        report_fix(ctx),
        *([f"last line on stderr: {first_line(tail[-1])}"] if tail else []),
    )
