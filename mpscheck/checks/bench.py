"""Checks of `mpscheck bench`: was each workload's answer right, and how fast against the chip's limit.

The target only measured (probes/agent/bench.py); here lie the judgements: the tolerances
against the CPU (a fast wrong answer is a failure), the % of the published peak (knowledge/peaks),
and the speedup over the CPU. ``summarise`` gives renderers the same figures the checks state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from mpscheck.checks.registry import BENCH, Context, Outcome, check, failed, fix, passed, skipped, warned
from mpscheck.checks.smoke import device_refused
from mpscheck.checks.wording import first_line, size
from mpscheck.facts import BenchFacts, BenchNumerics, BenchTiming, Facts
from mpscheck.knowledge.peaks import ChipPeak, match_chip
from mpscheck.model import Remediation

MATMUL_DTYPES = ("float32", "float16", "bfloat16")
MODELS = {"resnet50": "ResNet-50", "bert-base": "BERT-base", "vgg16": "VGG16"}
# Largest ||device - reference|| / ||reference|| that still counts as the right answer. Matmul is
# against float64 on the CPU from the same rounded inputs: float32 lands near 1e-7, TF32 near 3e-4,
# float16 near 3e-4 and bfloat16 near 2e-3; a wrong kernel lands near 1.
MATMUL_TOLERANCE = {"float32": 2e-3, "float16": 1e-2, "bfloat16": 3e-2}
# Training: one step from the same weights and data on the device and on the CPU, in float32, with
# BatchNorm on running statistics (well conditioned: float32 on the CPU is within 1e-6 of float64
# there), then the loss in train mode. cuDNN may use TF32 for convolutions by default (about 1e-3).
TRAIN_TOLERANCE = {"loss": 1e-2, "gradients": 1e-2, "update": 2e-2, "train_loss": 1e-2}


def bench_facts(facts: Facts) -> BenchFacts | None:
    return facts.target.bench


def numerics_of(bench: BenchFacts, name: str) -> BenchNumerics | None:
    return next((n for n in bench.numerics if n.name == name), None)


def timing_of(bench: BenchFacts, name: str, device: str) -> BenchTiming | None:
    return next((t for t in bench.timings if t.name == name and t.device == device), None)


def chip_of(facts: Facts) -> tuple[str | None, int | None]:
    """The device's name and GPU core count, from the bench, else torch's and the host's facts."""
    bench, torch, host = facts.target.bench, facts.target.torch, facts.host
    if bench is None or bench.device not in ("mps", "cuda"):
        return None, None
    if bench.device == "cuda":
        return bench.device_name, None  # rows for CUDA chips do not depend on a core count
    name = bench.device_name or (torch.mps_device_name if torch else None) or host.cpu_brand
    cores = bench.core_count or (torch.mps_core_count if torch else None) or host.gpu_cores
    return name, cores


def peak_of(facts: Facts) -> ChipPeak | None:
    return match_chip(*chip_of(facts))


def percent(value: float | None, peak: float | None) -> float | None:
    if value is None or peak is None or peak <= 0:
        return None
    return 100.0 * value / peak


def speedup(device: BenchTiming | None, cpu: BenchTiming | None) -> float | None:
    if not device or not cpu or device.value is None or not cpu.value:
        return None
    return device.value / cpu.value


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def numerics_problem(entry: BenchNumerics, tolerances: dict[str, float]) -> str | None:
    """What is wrong with a measured answer, or None when every error is within its tolerance."""
    if entry.status == "error":
        return f"the check on {entry.device} raised {entry.error_type}: {first_line(entry.error)}"
    if entry.status == "reference":  # the CPU is the reference: its step must at least stay finite
        return None if entry.values.get("finite") is True else "the training step on the CPU is not finite"
    problems = []
    for key, limit in tolerances.items():
        value = entry.errors.get(key)
        if value is None:
            problems.append(f"{key}: not measured")
        elif not _finite(value):
            problems.append(f"{key} is not finite ({value})")
        elif value > limit:
            problems.append(f"{key} differs from the CPU by {value:.3g} (tolerance {limit:g})")
    return "; ".join(problems) or None


# ---- rows: the figures, as the checks judge them and renderers show them ------------------------


@dataclass(frozen=True)
class BenchRow:
    name: str  # matmul-float32 | copy | resnet50 | bert-base | vgg16
    label: str
    value: float | None
    unit: str
    peak: float | None  # the published limit it is compared with
    percent_of_peak: float | None
    cpu_value: float | None
    speedup: float | None
    batch: int | None
    cpu_batch: int | None
    peak_memory_bytes: int | None
    right: bool | None  # the numerics check: True within tolerance, False wrong, None not measured


def summarise(facts: Facts) -> list[BenchRow]:
    bench = facts.target.bench
    if bench is None or bench.device is None:
        return []
    peak = peak_of(facts)
    rows = []
    for dtype in MATMUL_DTYPES:
        name = f"matmul-{dtype}"
        limit = peak.tflops(dtype) if peak else None
        rows.append(_row(bench, name, f"matmul {dtype}", limit, {"output": MATMUL_TOLERANCE[dtype]}))
    bandwidth = peak.memory_bandwidth_gbs if peak else None
    rows.append(_row(bench, "copy", "copy (read+write)", bandwidth, {"mismatched_elements": 0}))
    for name, label in MODELS.items():
        rows.append(_row(bench, name, f"{label} training", None, TRAIN_TOLERANCE))
    return rows


@dataclass(frozen=True)
class BenchSummary:
    """What the bench checks decided, carried by the report so that every renderer prints it as is."""

    rows: tuple[BenchRow, ...]
    peak: ChipPeak | None
    chip: str | None
    cores: int | None

    def by_name(self) -> dict[str, BenchRow]:
        return {row.name: row for row in self.rows}


def bench_summary(facts: Facts) -> BenchSummary:
    name, cores = chip_of(facts)
    return BenchSummary(tuple(summarise(facts)), peak_of(facts), name, cores)


def _row(bench: BenchFacts, name: str, label: str, peak: float | None, tolerances: dict[str, float]) -> BenchRow:
    timing = timing_of(bench, name, bench.device or "")
    baseline = timing_of(bench, name, "cpu") if bench.device != "cpu" and name in MODELS else None
    entry = numerics_of(bench, name)
    right = None
    if entry is not None and entry.status != "unsupported":
        right = numerics_problem(entry, tolerances) is None
    value = timing.value if timing and timing.status == "ok" else None
    return BenchRow(
        name=name,
        label=label,
        value=value,
        unit=timing.unit if timing else "",
        peak=peak,
        percent_of_peak=percent(value, peak),
        cpu_value=baseline.value if baseline and baseline.status == "ok" else None,
        speedup=speedup(timing, baseline) if baseline and baseline.status == "ok" and value else None,
        batch=timing.size.get("batch") if timing else None,
        cpu_batch=baseline.size.get("batch") if baseline else None,
        peak_memory_bytes=timing.peak_memory_bytes if timing else None,
        right=right,
    )


# ---- the checks -----------------------------------------------------------------------------------


def stopped_in(ctx: Context) -> str | None:
    """The workload whose stage was running when the bench process hung or died, if one was."""
    run = ctx.facts.target.run
    stage = run.running_stage or ""
    if run.status == "ok" or not stage.startswith(("bench:numerics:", "bench:time:")):
        return None
    return stage.split(":")[2]


def report_fix(ctx: Context) -> Remediation:
    return fix(
        "Update torch; if it persists, report it to PyTorch with this report attached.",
        ctx.install("torch", upgrade=True),
        "mpscheck bench --format json --output mpscheck-bench.json",
    )


@check("bench-device", "Bench device", suite=BENCH)
def bench_device(ctx: Context) -> Outcome:
    bench, run = ctx.facts.target.bench, ctx.facts.target.run
    if bench is None:  # a failure, never a skip: a bench that did not run has measured nothing
        if root := ctx.upstream_problem("torch-import"):  # or the interpreter, torch-import's own root cause
            cause = ctx.findings[root]
            remedy = cause.fix or fix("See the full diagnosis.", "mpscheck doctor")
            return failed(f"the bench did not run: {cause.summary} [{root}]", remedy)
        return failed(f"the bench did not start: {run.message}", fix("Check the interpreter.", "mpscheck doctor"))
    if run.status != "ok" and stopped_in(ctx) is None:
        where = f" (last stage: {run.running_stage})" if run.running_stage else ""
        return failed(f"the bench process failed: {run.message}{where}", report_fix(ctx))
    if bench.device is None:
        why, remedy = device_refused(ctx, bench.requested, "bench")
        return failed(f"no device to bench: {bench.reason}: {why}", remedy)
    name, cores = chip_of(ctx.facts)
    chip = f" ({name}{f', {cores} GPU cores' if cores and bench.device == 'mps' else ''})" if name else ""
    peak = peak_of(ctx.facts)
    known = f"; published peaks: {peak.chip}" if peak else "; no published peak for this chip: no % of peak"
    ran = f"ran on {bench.device}{chip}: {bench.reason}; {bench.mode} sizes"
    if bench.device == "cpu" and bench.requested == "auto":
        return warned(f"{ran}; no GPU, so no speedup to measure", fix("See why no GPU is usable.", "mpscheck doctor"))
    return passed(ran + (known if bench.device != "cpu" else ""))


def judge(ctx: Context, names: tuple[str, ...], tolerances: dict[str, dict[str, float]]) -> Outcome:
    """The shared flow: device first, then each workload's answer, then its timing."""
    if upstream := ctx.upstream_problem("bench-device"):
        return ctx.blocked(upstream)
    bench = ctx.facts.target.bench
    if bench is None or bench.device is None:
        return skipped("no device ran the bench")
    dead = stopped_in(ctx)
    if dead in names:
        run = ctx.facts.target.run
        tail = run.stderr_tail.strip().splitlines()
        evidence = [f"last line on stderr: {first_line(tail[-1])}"] if tail else []
        return failed(f"{dead} on {bench.device} did not finish: {run.message}", report_fix(ctx), *evidence)
    problems: list[str] = []
    missing: list[str] = []
    unsupported: dict[str, str] = {}  # a half dtype the device refused: reported, not failed
    for name in names:
        entry = numerics_of(bench, name)
        if entry is None:
            missing.append(name)
        elif entry.status == "unsupported" and name != "matmul-float32":
            unsupported[name] = f"{name.split('-', 1)[1]} ({first_line(entry.error, 120)})"
        elif entry.status == "unsupported":
            problems.append(f"{name}: float32 raised on {bench.device}: {first_line(entry.error)}")
        elif problem := numerics_problem(entry, tolerances[name]):
            problems.append(f"{name}: {problem}")
    if problems:
        return failed(f"wrong answer on {bench.device}: {'; '.join(problems)}", report_fix(ctx))
    if missing:
        if dead:
            return skipped(f"not run: the bench stopped during {dead}")
        return failed(f"no numerics reported for {', '.join(missing)}", report_fix(ctx))
    return describe(ctx, bench, names, unsupported)


def describe(ctx: Context, bench: BenchFacts, names: tuple[str, ...], unsupported: dict[str, str]) -> Outcome:
    rows = {row.name: row for row in summarise(ctx.facts)}
    parts, errors = [], []
    for name in names:
        if name in unsupported:
            continue
        timing = timing_of(bench, name, bench.device or "")
        if timing is None and (dead := stopped_in(ctx)):
            return skipped(f"not timed: the bench stopped during {dead}")
        if timing is None or timing.status != "ok":
            why = first_line(timing.error, 200) if timing else "not measured"
            errors.append(f"{name}: {why}")
            continue
        parts.append(figure(rows[name]))
    note = f"; unsupported on {bench.device}: {', '.join(unsupported.values())}" if unsupported else ""
    checked = "matches the CPU" if bench.device != "cpu" else "on the CPU, the reference itself"
    if errors:
        return warned(
            f"{checked}, but timing failed: {'; '.join(errors)}",
            fix("Free memory or use smaller batches.", "mpscheck bench --quick"),
        )
    return passed(f"{'; '.join(parts)} ({checked}){note}")


def figure(row: BenchRow) -> str:
    text = f"{row.label} {_number(row.value)} {row.unit}"
    if row.percent_of_peak is not None:
        text += f" ({row.percent_of_peak:.0f}% of the published {_number(row.peak)})"
    if row.batch is not None:
        text += f" at batch {row.batch}"
    if row.speedup is not None:
        text += f", {row.speedup:.1f}× the CPU ({_number(row.cpu_value)} at batch {row.cpu_batch})"
    if row.peak_memory_bytes:
        text += f", peak memory {size(row.peak_memory_bytes)}"
    return text


def _number(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{value:.3g}" if value < 100 else f"{value:,.0f}"


@check("bench-matmul", "Matrix multiply throughput", suite=BENCH)
def bench_matmul(ctx: Context) -> Outcome:
    names = tuple(f"matmul-{d}" for d in MATMUL_DTYPES)
    return judge(ctx, names, {f"matmul-{d}": {"output": MATMUL_TOLERANCE[d]} for d in MATMUL_DTYPES})


@check("bench-copy", "Memory bandwidth", suite=BENCH)
def bench_copy(ctx: Context) -> Outcome:
    return judge(ctx, ("copy",), {"copy": {"mismatched_elements": 0}})


@check("bench-resnet50", "ResNet-50 training", suite=BENCH)
def bench_resnet50(ctx: Context) -> Outcome:
    return judge(ctx, ("resnet50",), {"resnet50": TRAIN_TOLERANCE})


@check("bench-bert-base", "BERT-base training", suite=BENCH)
def bench_bert(ctx: Context) -> Outcome:
    return judge(ctx, ("bert-base",), {"bert-base": TRAIN_TOLERANCE})


@check("bench-vgg16", "VGG16 training", suite=BENCH)
def bench_vgg16(ctx: Context) -> Outcome:
    return judge(ctx, ("vgg16",), {"vgg16": TRAIN_TOLERANCE})
