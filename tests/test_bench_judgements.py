"""Every bench finding and figure row on a table of bench runs, compared whole with tests/golden/bench.txt.

test_bench.py names the status and the words that matter in each situation; this file holds the
rest of what a user reads from `mpscheck bench`: each finding's summary, evidence and fix, and
each row of figures the renderers draw (value, % of peak, speedup, batch sizes, memory), for the
cases the bench judgements tell apart: the answer right or wrong (past a tolerance, not finite, not
measured, raised), a half dtype refused, a timing that failed, a probe that hung or died inside a
workload or outside one, no device, the CPU alone, and where the chip's name and GPU core count
come from on a Mac when one of the sources is unknown. A changed rule, threshold or wording shows
as a diff; `pytest --update-golden` rewrites the file when the change is meant.

The figures are test inputs for the checks' arithmetic, not claimed measurements (see test_bench).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator

import pytest

from mpscheck.checks import REGISTRY, Context
from mpscheck.checks.bench import chip_of, numerics_problem, percent, speedup, summarise
from mpscheck.checks.diagnose import diagnose
from mpscheck.facts import BenchFacts, BenchNumerics, BenchTiming, Facts, ProbeRun
from mpscheck.model import Finding, Remediation, Requirement, Status
from tests import recorded as rec
from tests.scenarios import PHYSICAL, facts, interpreter, mac_host, torch_facts
from tests.test_bench import MODELS, bench_facts, observed
from tests.test_findings_golden import describe

# Inputs in the range of an Apple GPU (TFLOP/s, GB/s, samples/s), for the arithmetic only.
APPLE_M1_INPUTS = {"matmul-float32": 2.1, "matmul-float16": 2.0, "matmul-bfloat16": 1.0, "copy": 58.0}
APPLE_M1_INPUTS.update({"resnet50": 40.0, "bert-base": 12.0, "vgg16": 9.0})
APPLE_MAX_INPUTS = {"matmul-float32": 10.0, "matmul-float16": 12.0, "matmul-bfloat16": 9.0, "copy": 350.0}
APPLE_MAX_INPUTS.update({"resnet50": 180.0, "bert-base": 60.0, "vgg16": 45.0})
M3_MAX_NO_PROFILER = {**rec.SYSCTL_M3_MAX, **PHYSICAL}  # system_profiler not recorded: GPU cores unknown


def on_a_mac(
    bench: BenchFacts,
    sysctl: dict[str, str],
    displays: str | None,
    *,
    torch_name: str | None = None,
    torch_cores: int | None = None,
    torch: bool = True,
    macos: str = rec.SW_VERS_15_6,
) -> Facts:
    """A Mac whose bench ran on MPS; the chip's name and cores may come from the bench, torch or the host."""
    host = mac_host(sysctl, macos, displays)
    interp = interpreter(mac_ver=host.macos_version or "")
    torch_ = torch_facts("2.9.0", mps_device_name=torch_name, mps_core_count=torch_cores) if torch else None
    found = facts(host, interp, torch_, None, ProbeRun(status="ok", workload="bench", returncode=0, seconds=90.0))
    found.target.bench = bench
    return found


def on_mps(name: str | None = None, cores: int | None = None, **changes) -> BenchFacts:
    bench = observed(device="mps", name=name, **changes)
    bench.core_count, bench.reason = cores, "MPS is available"
    return bench


def died(stage: str | None, status: str = "timeout", stderr: str = "") -> ProbeRun:
    return ProbeRun(
        status=status,
        workload="bench",
        returncode=None if status == "timeout" else -6,
        running_stage=stage,
        stderr_tail=stderr,
        message=f"no answer within 900 s during the {stage} stage" if status == "timeout" else "killed by SIGABRT",
    )


def without(bench: BenchFacts, *, numerics: tuple[str, ...] = (), timings: tuple[str, ...] = ()) -> BenchFacts:
    bench = copy.deepcopy(bench)
    bench.numerics = [n for n in bench.numerics if n.name not in numerics]
    bench.timings = [t for t in bench.timings if t.name not in timings]
    return bench


def with_numerics(bench: BenchFacts, name: str, **changes) -> BenchFacts:
    bench = copy.deepcopy(bench)
    bench.numerics = [dataclasses.replace(n, **changes) if n.name == name else n for n in bench.numerics]
    return bench


def no_torch() -> Facts:
    found = bench_facts(None, ProbeRun(status="ok", workload="bench", returncode=0, seconds=1.0))
    found.target.torch = torch_facts(installed=False, version=None, mps_built=None, available=None)
    return found


def no_interpreter() -> Facts:
    run = ProbeRun(status="not-found", workload="bench", message="/opt/venv/bin/python: no such file")
    found = bench_facts(None, run)
    found.target.interpreter = found.target.torch = None
    return found


def bench_runs() -> Iterator[tuple[str, Facts]]:
    yield "healthy H100", bench_facts(observed())
    wrong = {"resnet50": {"loss": 1e-6, "gradients": 0.9, "update": 1e-6, "train_loss": 1e-6}}
    yield "fast wrong gradients", bench_facts(observed(errors=wrong, values={"resnet50": 99999.0}))
    past = {"matmul-float16": {"output": 0.02}, "matmul-bfloat16": {"output": 0.3}, "vgg16": {"loss": "inf"}}
    past["copy"] = {"mismatched_elements": 1}
    title = "both half dtypes past their tolerance, a loss not finite, one copied element wrong"
    yield title, bench_facts(observed(errors=past))
    illegal = "CUDA error: an illegal memory access was encountered\n(more)"
    raised = with_numerics(observed(), "bert-base", status="error", error=illegal, error_type="RuntimeError")
    yield "the numerics check itself raised", bench_facts(raised)
    yield "unknown chip", bench_facts(observed(name="NVIDIA Quadro RTX 8000"))
    yield "float16 unsupported", bench_facts(observed(unsupported=("matmul-float16",)))
    yield "both half dtypes unsupported", bench_facts(observed(unsupported=("matmul-float16", "matmul-bfloat16")))
    yield "float32 unsupported is wrong", bench_facts(observed(unsupported=("matmul-float32",)))
    oom = "CUDA out of memory. Tried to allocate 392.00 MiB\nsecond line"
    failed = {"matmul-float16": oom, "matmul-bfloat16": oom, "vgg16": oom, "bert-base": "RuntimeError: boom"}
    yield "four timings failed", bench_facts(observed(timing_errors=failed))
    yield "a timing missing from a complete run", bench_facts(without(observed(), timings=("copy",)))
    lost = without(observed(), numerics=("copy", "matmul-float16", "matmul-bfloat16"))
    yield "numerics missing from a complete run", bench_facts(lost)
    hung = without(observed(), timings=MODELS)
    stderr = "Warning: first\nWarning: second\nlast words of the bench\n"
    yield "hung timing resnet50", bench_facts(hung, died("bench:time:resnet50", stderr=stderr))
    stopped = without(observed(), numerics=("copy", *MODELS), timings=("copy", *MODELS))
    yield "abort in the copy numerics", bench_facts(stopped, died("bench:numerics:copy", status="crashed"))
    yield "died while importing torch", bench_facts(observed(), died("torch", status="crashed"))
    yield "died with no stage", bench_facts(observed(), died(None, status="crashed"))
    yield "no bench facts, junk output", bench_facts(None, ProbeRun(status="bad-output", message="printed 'hello'"))
    yield "no bench facts, torch not installed", no_torch()
    yield "no bench facts, no interpreter", no_interpreter()
    no_device = observed()
    no_device.device, no_device.requested = None, "mps"
    no_device.reason = "--device mps was requested and torch cannot use mps here"  # the agent's pick_device
    yield "no device for --device mps", bench_facts(no_device)
    too_old = on_a_mac(copy.deepcopy(no_device), rec.SYSCTL_M1, rec.DISPLAYS_M1, macos=rec.SW_VERS_12_7_6)
    assert too_old.target.torch is not None
    too_old.target.torch.mps_available = False
    yield "--device mps on a Mac whose macOS is too old for its torch", too_old
    cuda_on_a_mac = copy.deepcopy(too_old)
    assert cuda_on_a_mac.target.bench is not None
    cuda_on_a_mac.target.bench.requested = "cuda"
    cuda_on_a_mac.target.bench.reason = "--device cuda was requested and torch cannot use cuda here"
    yield "--device cuda on a Mac", cuda_on_a_mac
    neither = copy.deepcopy(no_device)
    neither.requested, neither.reason = "gpu", "neither MPS nor CUDA is available"
    no_cuda = bench_facts(neither)
    assert no_cuda.target.torch is not None
    no_cuda.target.torch = dataclasses.replace(no_cuda.target.torch, cuda_available=False, cuda_devices=[])
    yield "--device gpu on a Linux box whose CUDA build sees no GPU", no_cuda
    cpu = observed(device="cpu", name=None)
    for entry in cpu.numerics:
        if entry.name in MODELS:
            entry.status, entry.errors, entry.values = "reference", {}, {"finite": entry.name != "bert-base"}
    cpu.reason = "neither MPS nor CUDA is available"
    yield "the CPU alone, bert-base not finite", bench_facts(cpu)
    asked = copy.deepcopy(cpu)
    asked.requested, asked.reason = "cpu", "--device cpu"
    asked.numerics = [dataclasses.replace(n, values={"finite": True}) if n.name in MODELS else n for n in cpu.numerics]
    yield "the CPU asked for", bench_facts(asked)
    m1 = on_mps(values=APPLE_M1_INPUTS, unsupported=("matmul-bfloat16",), timing_errors={"vgg16": rec.REAL_OOM})
    m1 = with_numerics(m1, "matmul-bfloat16", error=rec.BF16_MACOS13_ERROR)
    title = "M1 on macOS 13.5, name from torch, 7 GPU cores from the host; bfloat16 refused, VGG16 out of memory"
    yield title, on_a_mac(m1, rec.SYSCTL_M1, rec.DISPLAYS_M1, torch_name="Apple M1", macos=rec.SW_VERS_13_5)
    m3 = on_mps("Apple M3 Max", 30, values=APPLE_MAX_INPUTS, unsupported=("matmul-bfloat16",))
    yield "M3 Max, name and cores from the bench, host cores unknown", on_a_mac(m3, M3_MAX_NO_PROFILER, None)
    sysctl = {k: v for k, v in M3_MAX_NO_PROFILER.items() if k != "machdep.cpu.brand_string"}
    from_torch = on_mps(values=APPLE_MAX_INPUTS)
    title = "M3 Max, name and cores from torch, host brand and cores unknown"
    yield title, on_a_mac(from_torch, sysctl, None, torch_name="Apple M3 Max", torch_cores=40)
    title = "M3 Max, a saved report without torch facts: name and cores from the host"
    yield title, on_a_mac(on_mps(values=APPLE_MAX_INPUTS), M3_MAX_NO_PROFILER, rec.DISPLAYS_M3_MAX, torch=False)
    m2_max = {**rec.SYSCTL_M2_MAX, **PHYSICAL}
    title = "M2 Max, GPU cores unknown everywhere: the row without a core count"
    yield title, on_a_mac(on_mps(values=APPLE_MAX_INPUTS), m2_max, None, torch_name="Apple M2 Max")


def rows(facts_: Facts) -> str:
    return "".join(
        f"  row {r.name}: {r.label!r} {r.value} {r.unit!r}, peak {r.peak} ({r.percent_of_peak}), cpu {r.cpu_value} "
        f"x{r.speedup}, batch {r.batch}/{r.cpu_batch}, memory {r.peak_memory_bytes}, right {r.right}\n"
        for r in summarise(facts_)
    )


def build() -> str:
    blocks = []
    for title, found in bench_runs():
        report = diagnose(found, command="bench", require=Requirement.DEVICE)
        blocks.append(describe(title, report) + f"  chip: {chip_of(found)}\n" + rows(found))
    return "\n".join(blocks)


def test_every_bench_finding_and_row_on_every_bench_run(golden) -> None:
    golden("bench.txt", build())


def test_every_bench_failure_and_warning_comes_with_a_command_to_type() -> None:
    for title, found in bench_runs():
        for finding in diagnose(found, command="bench", require=Requirement.DEVICE).findings:
            if finding.status in (Status.FAIL, Status.WARN):
                assert finding.fix and finding.fix.commands, f"{title}: {finding.id} has no command"


def test_a_root_cause_without_a_fix_still_leaves_the_bench_one() -> None:
    """Every failing check names a command today (tested above); the bench does not rely on it."""
    ctx = Context(facts=bench_facts(None))
    ctx.findings["torch-import"] = Finding("torch-import", "torch", Status.FAIL, "torch failed to import")
    outcome = REGISTRY["bench-device"].run(ctx)
    assert (outcome.status, outcome.summary) == (
        Status.FAIL,
        "the bench did not run: torch failed to import [torch-import]",
    )
    assert outcome.fix == Remediation("See the full diagnosis.", ("mpscheck doctor",))


def test_a_long_refusal_is_cut_to_one_short_line_in_the_summary() -> None:
    bench = with_numerics(observed(unsupported=("matmul-float16",)), "matmul-float16", error="E" * 300 + "\nnext")
    found = {f.id: f for f in diagnose(bench_facts(bench), command="bench").findings}
    assert found["bench-matmul"].summary.endswith(f"; unsupported on cuda: float16 ({'E' * 119}…)")


# ---- the arithmetic, at its edges -----------------------------------------------------------------


def test_percent_of_peak_needs_a_value_and_a_positive_peak() -> None:
    assert percent(0.5, 1.0) == pytest.approx(50.0)
    assert percent(3.0, 0.5) == pytest.approx(600.0)
    assert percent(1.0, 0.0) is None and percent(1.0, -1.0) is None  # a bad table row divides nothing
    assert percent(None, 10.0) is None and percent(1.0, None) is None


def timing(value: float | None, device: str = "cuda") -> BenchTiming:
    return BenchTiming("resnet50", device, "ok", value, "samples/s")


def test_a_speedup_needs_both_sides_measured_and_a_cpu_above_zero() -> None:
    assert speedup(timing(100.0), timing(4.0, "cpu")) == pytest.approx(25.0)
    assert speedup(None, timing(4.0, "cpu")) is None and speedup(timing(100.0), None) is None
    assert speedup(timing(None), timing(4.0, "cpu")) is None
    assert speedup(timing(100.0), timing(0.0, "cpu")) is None and speedup(timing(100.0), timing(None, "cpu")) is None


def test_a_numerics_problem_names_each_error_against_its_tolerance() -> None:
    entry = BenchNumerics("copy", "mps", "ok", {"mismatched_elements": 0})
    assert numerics_problem(entry, {"mismatched_elements": 0}) is None
    entry.errors["mismatched_elements"] = 1
    assert (
        numerics_problem(entry, {"mismatched_elements": 0})
        == "mismatched_elements differs from the CPU by 1 (tolerance 0)"
    )
    two = BenchNumerics("vgg16", "mps", "ok", {"loss": float("nan"), "gradients": True})
    assert numerics_problem(two, {"loss": 1e-2, "gradients": 1e-2, "update": 1e-2}) == (
        "loss is not finite (nan); gradients is not finite (True); update: not measured"
    )
    raised = BenchNumerics(
        "bert-base", "mps", "error", error="MPS backend out of memory\nmore", error_type="RuntimeError"
    )
    assert numerics_problem(raised, {}) == "the check on mps raised RuntimeError: MPS backend out of memory"
    reference = BenchNumerics("bert-base", "cpu", "reference", values={"finite": 1})
    assert numerics_problem(reference, {}) == "the training step on the CPU is not finite"  # only True is finite
