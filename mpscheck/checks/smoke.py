"""Checks of the workload that ran on the device: the doctor's quick smoke, and each smoke-test step.

The steps themselves run in probes/workload.py; here their outcomes and torch's error texts are
judged, and a known failure signature becomes its cause and fix.
"""

from __future__ import annotations

from typing import Callable

from mpscheck.checks.environment import FALLBACK, export_fix
from mpscheck.checks.registry import SMOKE, Context, Outcome, check, failed, fix, passed, skipped, warned
from mpscheck.checks.signatures import recognise
from mpscheck.checks.system import cuda_usable
from mpscheck.checks.wording import first_line, size
from mpscheck.facts import SmokeStep
from mpscheck.model import Remediation, Requirement
from mpscheck.versions import at_least, parse_version

MPS_PREREQUISITES = ("platform", "chip", "macos-version", "python-arch", "torch-import", "mps-built", "mps-available")


def step(ctx: Context, name: str) -> SmokeStep | None:
    smoke = ctx.smoke
    return next((s for s in smoke.steps if s.name == name), None) if smoke else None


def died_during(ctx: Context) -> str | None:
    """The step the workload process was in when it hung or died, if it did."""
    run = ctx.facts.target.run
    if run.status != "ok" and run.running_stage and run.running_stage.startswith("step:"):
        return run.running_stage.split(":", 1)[1]
    return None


def death_outcome(ctx: Context, name: str, device: str) -> Outcome:
    run = ctx.facts.target.run
    inside = " (an abort inside Metal)" if device == "mps" and run.status == "crashed" else ""
    return failed(
        f"the {name} step on {device} did not finish: {run.message}{inside}",
        fix(
            "Update torch (and macOS); if it persists, report it to PyTorch with this report attached.",
            ctx.pip_install("torch", flags="--upgrade"),
            "mpscheck smoke-test --format markdown --output mpscheck-smoke.md",
        ),
        *(
            [f"last line on stderr: {first_line(run.stderr_tail.strip().splitlines()[-1])}"]
            if run.stderr_tail.strip()
            else []
        ),
    )


def failure_outcome(ctx: Context, result: SmokeStep, device: str) -> Outcome:
    """A failed step, explained by its error's known signature where there is one."""
    error = result.error or "failed"
    signature = recognise(error)
    evidence = (f"{result.error_type or 'error'}: {first_line(error, 400)}",)
    cause = signature.cause if signature else None
    if cause == "virtual-gpu":
        return failed(
            f"the {result.name} step cannot allocate on {device} ('MPS allocated: 0 bytes'): a paravirtual GPU in a "
            "macOS VM, such as a hosted CI runner, where is_available() is True and nothing works",
            fix(
                "Use a physical Mac for MPS work; in hosted CI, report without requiring MPS.",
                "mpscheck doctor --require none",
            ),
            *evidence,
        )
    if cause == "out-of-memory":
        return failed(
            f"the {result.name} step ran out of MPS memory ({signature.detail})",  # type: ignore[union-attr]
            fix(
                "Free unified memory (quit other apps, smaller batches); lifting the limit risks freezing the system.",
                "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0",
            ),
            *evidence,
        )
    if cause == "fallback-off":
        return failed(
            f"the {result.name} step hit an op with no MPS kernel while {FALLBACK} is off",
            export_fix(ctx, "Enable the CPU fallback before Python starts.", FALLBACK, "1"),
            *evidence,
        )
    if cause == "watermark":
        return failed(
            f"torch rejected the MPS memory limits: {signature.detail}",  # type: ignore[union-attr]
            fix(
                "Unset the watermark variables.",
                "unset PYTORCH_MPS_HIGH_WATERMARK_RATIO PYTORCH_MPS_LOW_WATERMARK_RATIO",
            ),
            *evidence,
        )
    return failed(
        f"the {result.name} step failed on {device}: {first_line(error)}",
        fix(
            "Update torch; if it persists, report it to PyTorch with this report attached.",
            ctx.pip_install("torch", flags="--upgrade"),
            "mpscheck smoke-test --format markdown --output mpscheck-smoke.md",
        ),
        *evidence,
    )


@check("smoke", "Smoke test")
def smoke(ctx: Context) -> Outcome:
    if ctx.facts.target.run.workload == "none":
        return skipped("not run (--no-smoke)")
    if upstream := ctx.upstream_problem(*(("mps-available",) if ctx.on_macos else ("platform", "torch-import"))):
        return ctx.blocked(upstream)
    result = ctx.smoke
    if result is None:
        return skipped(f"not run: {ctx.facts.target.run.message or 'torch was not imported'}")
    if result.device is None:
        return skipped(f"no GPU to test: {result.reason}")
    if (dead := died_during(ctx)) is not None:
        return death_outcome(ctx, dead, result.device)
    for entry in result.steps:
        if entry.status == "fail":
            return failure_outcome(ctx, entry, result.device)
    took = sum(s.seconds or 0 for s in result.steps)
    names = ", ".join(s.name for s in result.steps)
    return passed(f"float32 work on {result.device} matches the CPU ({names}; {took:.2f} s)")


# ---- mpscheck smoke-test: the device choice, then one check per workload step -------------------


def mps_reason(ctx: Context) -> str:
    """Why MPS was not used: the doctor's first failing prerequisite, in its own words."""
    if not ctx.on_macos:
        return f"not macOS ({ctx.host.system})"
    root = ctx.upstream_problem(*MPS_PREREQUISITES)
    if root:
        return f"{ctx.findings[root].summary} [{root}]"
    return "torch.backends.mps.is_available() is False"


@check("smoke-device", "Device", suite=SMOKE)
def smoke_device(ctx: Context) -> Outcome:
    result = ctx.smoke
    if result is None:
        if upstream := ctx.upstream_problem("interpreter", "torch-import"):
            return ctx.blocked(upstream)
        return failed(
            f"the workload did not start: {ctx.facts.target.run.message}",
            fix("Check the interpreter with the doctor.", "mpscheck doctor"),
        )
    better = _why_not_better(ctx, result.device)
    if result.device is None:
        if result.requested == "mps":
            return failed(f"{result.reason}: {mps_reason(ctx)}", _mps_fix(ctx), *better)
        auto = fix("Let mpscheck pick what works here.", "mpscheck smoke-test --device auto")
        return failed(f"{result.reason}: {_cuda_reason(ctx)}", auto, *better)
    ran = f"ran on {result.device}: {result.reason}"
    if ctx.require is Requirement.MPS and result.device != "mps":
        return failed(f"{ran}, but MPS is required", _mps_fix(ctx), *better)
    if ctx.require is Requirement.GPU and result.device == "cpu":
        return failed(f"{ran}, but a GPU is required", _mps_fix(ctx), *better)
    if result.requested in ("auto", "gpu") and result.device == "cpu":
        return warned(f"{ran}; " + "; ".join(better), fix("See why no GPU is usable here.", "mpscheck doctor"))
    return passed(ran, *better)


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


def _mps_fix(ctx: Context) -> Remediation:
    root = ctx.upstream_problem(*MPS_PREREQUISITES)
    remedy = ctx.findings[root].fix if root else None
    return remedy or fix("Run the doctor for the full diagnosis.", "mpscheck doctor")


def judge_step(ctx: Context, name: str, describe: Callable[[SmokeStep, str], Outcome]) -> Outcome:
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
    if entry.status == "fail":
        return failure_outcome(ctx, entry, result.device)
    if entry.status == "skip":
        return skipped(entry.note or "not applicable")
    return describe(entry, result.device)


def _took(entry: SmokeStep) -> str:
    return f"{entry.seconds:.2f} s" if entry.seconds is not None else "untimed"


@check("smoke-allocate", "Allocate and copy", suite=SMOKE)
def smoke_allocate(ctx: Context) -> Outcome:
    return judge_step(
        ctx,
        "allocate",
        lambda s, d: passed(f"{s.values.get('elements')} float32 values survived the round trip to {d} ({_took(s)})"),
    )


@check("smoke-elementwise", "Elementwise and reductions", suite=SMOKE)
def smoke_elementwise(ctx: Context) -> Outcome:
    def describe(s: SmokeStep, device: str) -> Outcome:
        errors = s.values.get("max_relative_error", {})
        worst = max(errors.values()) if errors else 0.0
        return passed(
            f"{len(errors)} ops on {device} match the CPU (worst relative error {worst:.2g}, "
            f"tolerance {s.values.get('tolerance')}; {_took(s)})"
        )

    return judge_step(ctx, "elementwise", describe)


@check("smoke-matmul", "Matrix multiply", suite=SMOKE)
def smoke_matmul(ctx: Context) -> Outcome:
    def describe(s: SmokeStep, device: str) -> Outcome:
        f32 = s.values.get("float32", {})
        f16 = s.values.get("float16", {})
        half = (
            f"; float16 {f16.get('n')}² error {f16.get('max_relative_error', 0):.2g}"
            if "gflops" in f16
            else f"; float16 failed: {first_line(f16.get('error'))}"
            if f16
            else ""
        )
        return passed(
            f"{f32.get('n')}×{f32.get('n')} float32 on {device} matches the CPU (error "
            f"{f32.get('max_relative_error', 0):.2g}), {f32.get('gflops')} GFLOP/s{half} ({_took(s)})"
        )

    return judge_step(ctx, "matmul", describe)


@check("smoke-train", "Training step", suite=SMOKE)
def smoke_train(ctx: Context) -> Outcome:
    def describe(s: SmokeStep, device: str) -> Outcome:
        losses = s.values.get("losses", [])
        setup = s.values.get("optimizer_setup_seconds") or 0.0
        of_which = f", of which {setup:.2f} s torch.optim's one-time setup" if setup >= 0.1 else ""
        return passed(
            f"{s.values.get('steps')} Adam steps on {device}: loss {losses[0]:.3f} → {losses[-1]:.3f}, "
            f"gradients finite, first loss matches the CPU (Δ {s.values.get('first_loss_difference', 0):.1g}; "
            f"{_took(s)}{of_which})"
        )

    return judge_step(ctx, "train", describe)


@check("smoke-dtypes", "dtype support", suite=SMOKE)
def smoke_dtypes(ctx: Context) -> Outcome:
    return judge_step(ctx, "dtypes", lambda s, d: _dtype_outcome(ctx, s, d))


def _dtype_outcome(ctx: Context, entry: SmokeStep, device: str) -> Outcome:
    table = entry.values.get("dtypes", {})
    works = [n for n, row in table.items() if row.get("status") == "pass"]
    expected = [n for n, row in table.items() if row.get("status") == "expected-unsupported"]
    missing = [n for n, row in table.items() if row.get("status") == "unsupported"]
    macos = parse_version(ctx.host.macos_version)
    old_macos = device == "mps" and macos is not None and not at_least(macos, (14, 0))
    explained = [n for n in missing if old_macos and n in ("bfloat16", "complex64")]
    unexplained = [n for n in missing if n not in explained]
    parts = [f"works on {device}: {', '.join(works)}"]
    if expected:
        parts.append(f"{', '.join(expected)} unsupported as expected on mps (use float32)")
    if explained:
        parts.append(f"{', '.join(explained)} need macOS 14 (this is {ctx.host.macos_version})")
    details = [f"{n}: {first_line(table[n].get('error'))}" for n in (*expected, *missing)]
    if unexplained:
        return warned(
            "; ".join([*parts, f"unsupported: {', '.join(unexplained)}"]),
            fix("Use a supported dtype, or update torch.", ctx.pip_install("torch", flags="--upgrade")),
            *details,
        )
    if explained:
        return warned(
            "; ".join(parts), fix("Upgrade macOS to 14 for bfloat16 and complex.", "softwareupdate --list"), *details
        )
    return passed("; ".join(parts), *details)


@check("smoke-memory", "Synchronise and memory", suite=SMOKE)
def smoke_memory(ctx: Context) -> Outcome:
    def describe(s: SmokeStep, device: str) -> Outcome:
        v = s.values
        synced = v.get("synchronize") or "nothing to synchronise"
        if v.get("allocated_after") is None:
            return passed(f"synchronised ({synced}); the {device} allocator keeps no count ({_took(s)})")
        limit = v.get("recommended_max") or v.get("total")
        limit_text = (
            f"; {'recommended maximum' if 'recommended_max' in v else 'device total'} {size(limit)}" if limit else ""
        )
        return passed(
            f"synchronised ({synced}); a 64 MiB block counted: allocated {size(v.get('allocated_before'))} → "
            f"{size(v.get('allocated_after'))}{limit_text} ({_took(s)})"
        )

    return judge_step(ctx, "memory", describe)


@check("smoke-fallback", "CPU fallback in the workload", suite=SMOKE)
def smoke_fallback(ctx: Context) -> Outcome:
    def describe(s: SmokeStep, device: str) -> Outcome:
        value, in_effect = s.values.get(FALLBACK), s.values.get("in_effect")
        if in_effect:
            return passed(f"{FALLBACK}={value} was in effect in the workload's process")
        return warned(
            f"{FALLBACK}={value!r} in the workload's process: the CPU fallback was not in effect",
            export_fix(ctx, "Set it before Python starts.", FALLBACK, "1"),
        )

    return judge_step(ctx, "fallback", describe)
