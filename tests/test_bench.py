"""mpscheck bench: the real workload on this CPU through the subprocess, and the judgements on
observations written as data (wrong answers, % of peak, unknown chips, a probe that dies).

The observation values below are test inputs for the checks' arithmetic, not claimed measurements;
device names are as torch reports them (the H100's from the device machine, see tests/scenarios.py).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from mpscheck.checks import checks_for
from mpscheck.checks.bench import BENCH, MATMUL_TOLERANCE, summarise
from mpscheck.checks.diagnose import diagnose
from mpscheck.facts import BenchFacts, BenchNumerics, BenchTiming, CudaDevice, Facts, ProbeRun
from mpscheck.knowledge.peaks import load_peaks, match_chip
from mpscheck.model import ExitCode, Status
from mpscheck.render import renderer
from mpscheck.render.bench import COLUMNS, markdown_row
from tests.conftest import PYTHON
from tests.scenarios import _linux, torch_facts
from tests.test_cli import invoke
from tests.test_renderers import validate

ROOT = Path(__file__).resolve().parent.parent
H100_NAME = "NVIDIA H100 80GB HBM3"
MATMULS = ("matmul-float32", "matmul-float16", "matmul-bfloat16")
MODELS = ("resnet50", "bert-base", "vgg16")


def observed(
    device: str = "cuda",
    name: str | None = H100_NAME,
    errors: dict[str, dict[str, Any]] | None = None,
    values: dict[str, float] | None = None,
    timing_errors: dict[str, str] | None = None,
    unsupported: tuple[str, ...] = (),
) -> BenchFacts:
    """A bench run as the agent would report it, with every answer right unless told otherwise."""
    errors, values, timing_errors = errors or {}, values or {}, timing_errors or {}
    numerics = []
    for n in (*MATMULS, "copy", *MODELS):
        default = (
            {"output": 1e-6} if n in MATMULS else {"mismatched_elements": 0} if n == "copy" else
            {"loss": 1e-6, "gradients": 1e-4, "update": 1e-4, "train_loss": 1e-6}
        )  # fmt: skip
        status = "unsupported" if n in unsupported else "ok"
        error = "RuntimeError: not supported" if n in unsupported else None
        numerics.append(BenchNumerics(n, device, status, errors.get(n, default), {}, {}, error))
    defaults = {"matmul-float32": 50.0, "matmul-float16": 700.0, "matmul-bfloat16": 791.6, "copy": 2680.0}
    defaults.update({"resnet50": 1500.0, "bert-base": 600.0, "vgg16": 800.0})
    defaults.update(values)
    units = {"copy": "GB/s", **{m: "samples/s" for m in MODELS}}
    timings = []
    for n, value in defaults.items():
        if n in unsupported:
            continue
        failed = n in timing_errors
        size = {"batch": 128} if n in MODELS else {}
        timings.append(
            BenchTiming(
                name=n,
                device=device,
                status="error" if failed else "ok",
                value=None if failed else value,
                unit=units.get(n, "TFLOP/s"),
                size=size,
                error=timing_errors.get(n),
                peak_memory_bytes=5 * 1024**3 if n in MODELS else None,
            )
        )
        if n in MODELS and device != "cpu":
            timings.append(BenchTiming(n, "cpu", "ok", value / 50, "samples/s", size={"batch": 4}))
    return BenchFacts("auto", device, "MPS is not available and CUDA is", "full", name, 132, {}, numerics, timings)


def bench_facts(bench: BenchFacts | None, run: ProbeRun | None = None) -> Facts:
    torch = torch_facts(
        "2.11.0", available=False, cuda_built="13.0", cuda_available=True, cuda_devices=[CudaDevice(H100_NAME)]
    )
    facts = _linux(torch, None)
    facts.target.bench = bench
    facts.target.run = run or ProbeRun(status="ok", workload="bench", returncode=0, seconds=60.0)
    return facts


def judged(facts: Facts):
    report = diagnose(facts, command=BENCH)
    return report, {f.id: f for f in report.findings}


# ---- the real workload, on this machine's CPU, through the subprocess ---------------------------


def test_bench_runs_for_real_on_cpu_and_every_format_renders_it(real_torch, tmp_path) -> None:
    saved = tmp_path / "bench.json"
    args = ("--size", "tiny", "--device", "cpu", "--python", PYTHON, "--format", "json", "-o", str(saved))
    result = invoke("bench", *args)
    assert result.exit_code == 0, result.output
    document = json.loads(saved.read_text())
    validate(document)
    bench = document["facts"]["target"]["bench"]
    assert bench["device"] == "cpu" and bench["mode"] == "tiny"
    assert sorted(n["name"] for n in bench["numerics"]) == sorted([*MATMULS, "copy", *MODELS])
    statuses = {n["name"]: n["status"] for n in bench["numerics"]}
    assert statuses == {**dict.fromkeys([*MATMULS, "copy"], "ok"), **dict.fromkeys(MODELS, "reference")}
    timings = {t["name"]: t for t in bench["timings"]}
    assert set(timings) == {*MATMULS, "copy", *MODELS} and len(bench["timings"]) == 7  # no baseline on cpu
    assert all(t["status"] == "ok" and t["value"] > 0 and len(t["sample_seconds"]) >= 1 for t in timings.values())
    assert set(document["bench"]["models"]) == set(MODELS)
    assert {f["id"]: f["status"] for f in document["findings"]} == {
        "bench-device": "pass",
        "bench-matmul": "pass",
        "bench-copy": "pass",
        "bench-resnet50": "pass",
        "bench-bert-base": "pass",
        "bench-vgg16": "pass",
    }
    # explain re-judges the saved bench report and prints it in the other formats
    text = invoke("explain", str(saved))
    assert text.exit_code == 0 and "Figures on cpu" in text.output and "ResNet-50 training" in text.output
    markdown = invoke("explain", str(saved), "--format", "markdown")
    assert markdown.exit_code == 0 and "| Chip | GPU cores |" in markdown.output


# ---- judgements on recorded observations ---------------------------------------------------------


def test_a_healthy_h100_run_passes_with_percent_of_peak_and_speedups() -> None:
    report, found = judged(bench_facts(observed()))
    assert report.verdict.exit_code is ExitCode.READY
    assert all(f.status is Status.PASS for f in found.values())
    # 791.6 / 989.5 (NVIDIA's 1,979 with sparsity, halved) = 80%; 50 / 67 = 75%; 2680 / 3350 = 80%
    assert "matmul bfloat16 792 TFLOP/s (80% of the published 990)" in found["bench-matmul"].summary
    assert "matmul float32 50 TFLOP/s (75% of the published 67)" in found["bench-matmul"].summary
    assert "(80% of the published 3,350)" in found["bench-copy"].summary
    assert "50.0× the CPU" in found["bench-resnet50"].summary
    rows = {r.name: r for r in summarise(report.facts)}
    assert rows["matmul-bfloat16"].percent_of_peak == pytest.approx(100 * 791.6 / 989.5)
    assert rows["vgg16"].speedup == pytest.approx(50.0)


def test_a_fast_wrong_answer_is_a_failure_whatever_its_speed() -> None:
    wrong = {"resnet50": {"loss": 1e-6, "gradients": 0.9, "update": 1e-6, "train_loss": 1e-6}}
    report, found = judged(bench_facts(observed(errors=wrong, values={"resnet50": 99999.0})))
    assert found["bench-resnet50"].status is Status.FAIL
    assert "gradients differs from the CPU by 0.9 (tolerance 0.01)" in found["bench-resnet50"].summary
    assert report.verdict.exit_code is ExitCode.PROBLEMS and report.verdict.blocking == ("bench-resnet50",)
    assert "✗ wrong" in markdown_row(report)


def test_a_non_finite_answer_fails_and_a_matmul_past_its_tolerance_fails() -> None:
    bad = {"matmul-bfloat16": {"output": MATMUL_TOLERANCE["bfloat16"] * 10}, "vgg16": {"loss": "inf"}}
    _, found = judged(bench_facts(observed(errors=bad)))
    assert found["bench-matmul"].status is Status.FAIL and "matmul-bfloat16" in found["bench-matmul"].summary
    assert found["bench-vgg16"].status is Status.FAIL and "loss is not finite (inf)" in found["bench-vgg16"].summary
    assert "gradients: not measured" in found["bench-vgg16"].summary


def test_an_unknown_chip_gets_figures_but_no_percentage() -> None:
    report, found = judged(bench_facts(observed(name="NVIDIA Quadro RTX 8000")))
    assert found["bench-device"].status is Status.PASS and "no published peak" in found["bench-device"].summary
    assert "% of" not in found["bench-matmul"].summary and "792 TFLOP/s" in found["bench-matmul"].summary
    assert all(r.percent_of_peak is None for r in summarise(report.facts))
    assert json.loads(renderer("json")(report, False))["bench"]["peak_source"] is None


def test_apple_rows_match_by_name_and_gpu_core_count() -> None:
    # torch.backends.mps.get_name() gives the chip name, get_core_count() the GPU cores.
    assert match_chip("Apple M1 Ultra", 64).fp32_tflops == 21  # type: ignore[union-attr]
    cut_down = match_chip("Apple M1 Ultra", 48)
    assert cut_down is not None and cut_down.fp32_tflops is None and cut_down.memory_bandwidth_gbs == 800
    assert match_chip("Apple M1", None) is None  # the 2.6 TFLOPS are for the 8-core GPU only
    assert match_chip("Apple M1 Pro", 16).memory_bandwidth_gbs == 200  # type: ignore[union-attr]
    assert match_chip("Apple M1", 8).chip == "Apple M1"  # type: ignore[union-attr]
    assert match_chip("Apple M9 Hyper", 99) is None and match_chip(None) is None
    assert match_chip("NVIDIA H100 PCIe").chip == "NVIDIA H100 PCIe"  # type: ignore[union-attr]


def test_every_peak_row_cites_a_source_and_states_only_numbers_or_null() -> None:
    for row in load_peaks():
        assert row.sources and all(s.startswith("https://") for s in row.sources), row.chip
        figures = (row.fp32_tflops, row.fp16_tflops, row.bf16_tflops, row.memory_bandwidth_gbs)
        assert any(f is not None for f in figures), f"{row.chip} has no figure at all"
        assert all(f is None or (isinstance(f, (int, float)) and f > 0) for f in figures)
        for pattern in row.match:
            re.compile(pattern)


def test_an_unsupported_half_dtype_is_reported_not_failed() -> None:
    _, found = judged(bench_facts(observed(unsupported=("matmul-bfloat16",))))
    assert found["bench-matmul"].status is Status.PASS
    assert "unsupported on cuda: bfloat16" in found["bench-matmul"].summary


def test_a_timing_that_ran_out_of_memory_warns_after_a_right_answer() -> None:
    oom = {"vgg16": "CUDA out of memory. Tried to allocate 392.00 MiB"}
    report, found = judged(bench_facts(observed(timing_errors=oom)))
    assert found["bench-vgg16"].status is Status.WARN and "out of memory" in found["bench-vgg16"].summary
    assert found["bench-vgg16"].fix is not None and "mpscheck bench --quick" in found["bench-vgg16"].fix.commands
    assert report.verdict.exit_code is ExitCode.READY


def test_a_bench_that_hung_fails_the_workload_it_was_in_and_skips_the_rest() -> None:
    bench = observed()
    bench.timings = [t for t in bench.timings if t.name in (*MATMULS, "copy")]  # it got no further
    run = ProbeRun(
        status="timeout",
        workload="bench",
        running_stage="bench:time:resnet50",
        message="no answer within 900 s during the bench:time:resnet50 stage",
    )
    report, found = judged(bench_facts(bench, run))
    assert found["bench-resnet50"].status is Status.FAIL and "did not finish" in found["bench-resnet50"].summary
    assert found["bench-matmul"].status is Status.PASS
    assert found["bench-vgg16"].status is Status.SKIP and "stopped during resnet50" in found["bench-vgg16"].summary
    assert report.verdict.exit_code is ExitCode.PROBLEMS


def test_no_bench_facts_is_a_failure_never_a_pass() -> None:
    run = ProbeRun(status="bad-output", workload="bench", message="printed output mpscheck cannot read: 'hello'")
    report, found = judged(bench_facts(None, run))
    assert found["bench-device"].status is Status.FAIL
    assert all(found[i].status is Status.SKIP for i in found if i != "bench-device")
    assert report.verdict.exit_code is ExitCode.PROBLEMS


def test_on_the_cpu_a_training_step_that_is_not_finite_fails() -> None:
    bench = observed(device="cpu", name=None)
    for entry in bench.numerics:
        if entry.name in MODELS:
            entry.status, entry.errors, entry.values = "reference", {}, {"finite": entry.name != "bert-base"}
    _, found = judged(bench_facts(bench))
    assert found["bench-resnet50"].status is Status.PASS and "the reference itself" in found["bench-resnet50"].summary
    assert found["bench-bert-base"].status is Status.FAIL and "not finite" in found["bench-bert-base"].summary


def test_the_cpu_alone_warns_when_auto_found_no_gpu() -> None:
    bench = observed(device="cpu", name=None)
    bench.reason = "neither MPS nor CUDA is available"
    report, found = judged(bench_facts(bench))
    assert found["bench-device"].status is Status.WARN
    assert report.verdict.exit_code is ExitCode.READY
    assert all(r.speedup is None for r in summarise(report.facts))


# ---- renderers -----------------------------------------------------------------------------------


def test_renderers_show_the_table_the_chart_one_markdown_row_and_json_model_names() -> None:
    report, _ = judged(bench_facts(observed()))
    text = renderer("text")(report, False)
    assert "Figures on cuda" in text and "Training speedup over the CPU" in text
    bars = [line for line in text.splitlines() if "█" in line]
    assert len(bars) == 3 and all(line.rstrip().endswith("50.0×") for line in bars)
    markdown = renderer("markdown")(report, False)
    header, rule, row = markdown_row(report).splitlines()
    assert header.count("|") == rule.count("|") == row.count("|") == len(COLUMNS) + 1
    assert row.startswith(f"| {H100_NAME} | – | 2.11.0 | cuda | 50 (75%) |") and "(50.0×)" in row
    assert markdown_row(report) in markdown
    document = json.loads(renderer("json")(report, False))
    validate(document)
    assert list(document["bench"]["models"]) == ["resnet50", "bert-base", "vgg16"]
    assert document["bench"]["matmul"]["bfloat16"]["percent_of_peak"] == pytest.approx(100 * 791.6 / 989.5)


def test_explain_rejudges_a_saved_bench_report(tmp_path) -> None:
    report, _ = judged(bench_facts(observed()))
    document = json.loads(renderer("json")(report, False))
    wrong = copy.deepcopy(document)
    numerics = wrong["facts"]["target"]["bench"]["numerics"]
    next(n for n in numerics if n["name"] == "bert-base")["errors"]["loss"] = 0.5
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(wrong))
    result = invoke("explain", str(path), "--format", "json")
    assert result.exit_code == 1
    statuses = {f["id"]: f["status"] for f in json.loads(result.output)["findings"]}
    assert statuses["bench-bert-base"] == "fail" and statuses["bench-resnet50"] == "pass"


# ---- the command line ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bench", "--device", "tpu"], "'tpu' is not one of"),
        (["bench", "--timeout", "0"], "must be a number of seconds above 0"),
        (["bench", "--format", "junit"], "'junit' is not one of"),
        (["bench", "--python", "/nonexistent/python3"], "no such file"),
    ],
)
def test_bench_usage_errors_exit_2(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_a_hanging_interpreter_is_a_timeout_finding_and_exit_1(make_python) -> None:
    result = invoke("bench", "--python", make_python("sleep 30"), "--timeout", "1", "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.output)
    device = next(f for f in document["findings"] if f["id"] == "bench-device")
    assert device["status"] == "fail" and "no answer within 1 s" in device["summary"]


def test_bench_device_gpu_on_a_cpu_only_machine_fails_without_measuring(real_torch) -> None:
    result = invoke("bench", "--device", "gpu", "--size", "tiny", "--python", PYTHON, "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.output)
    assert document["facts"]["target"]["bench"]["timings"] == []
    device = next(f for f in document["findings"] if f["id"] == "bench-device")
    assert (device["status"], device["summary"]) == (
        "fail",
        "no device to bench: neither MPS nor CUDA is available: mps not used: not macOS (Linux); "
        "cuda not used: no CUDA device visible (a CPU-only torch build)",
    )
    assert device["fix"]["commands"][-1] == "nvidia-smi"  # the doctor's fix for CUDA on this CPU-only build


def test_junk_output_is_a_failure_and_exit_1(make_python) -> None:
    result = invoke("bench", "--python", make_python("echo hello"), "--format", "json")
    assert result.exit_code == 1
    device = next(f for f in json.loads(result.output)["findings"] if f["id"] == "bench-device")
    assert device["status"] == "fail"


def test_every_bench_check_has_a_docs_section() -> None:
    documented = re.findall(r"^### `([a-z0-9-]+)`$", (ROOT / "docs" / "bench.md").read_text(), re.MULTILINE)
    assert documented == [c.id for c in checks_for(BENCH)]


# ---- the real H100 run (tests/golden/bench_h100.json) ---------------------------------------------
# Recorded on the project's device machine on 2026-11-22 (NVIDIA H100 80GB HBM3, torch 2.11.0+cu130):
# `mpscheck bench --format json --output full.json` from this branch; bench_h100.txt is
# `mpscheck explain full.json` there, the README's sample.


def test_the_recorded_h100_run_rejudges_to_the_readme_sample() -> None:
    golden = ROOT / "tests" / "golden"
    result = invoke("explain", str(golden / "bench_h100.json"))
    assert result.exit_code == 0
    assert result.output == (golden / "bench_h100.txt").read_text()
    assert (golden / "bench_h100.txt").read_text().rstrip("\n") in (ROOT / "README.md").read_text()


def test_the_recorded_h100_run_in_figures() -> None:
    """The recorded report (schema 1, as saved then) re-judged today: a valid current report."""
    result = invoke("explain", str(ROOT / "tests" / "golden" / "bench_h100.json"), "--format", "json")
    document = json.loads(result.output)
    validate(document)
    summary = document["bench"]
    assert summary["chip"] == H100_NAME and summary["peak_source"]["chip"] == "NVIDIA H100 SXM"
    bf16 = summary["matmul"]["bfloat16"]
    assert bf16["percent_of_peak"] == pytest.approx(100 * bf16["value"] / 989.5)
    assert all(model["speedup"] > 10 and model["matches_cpu"] for model in summary["models"].values())
    numerics = document["facts"]["target"]["bench"]["numerics"]
    assert max(n["errors"]["gradients"] for n in numerics if "gradients" in n["errors"]) < 1e-5


def test_the_bench_workload_is_python_38_and_stdlib_plus_torch() -> None:
    """It runs inside the target interpreter, which may be Python 3.8 and has no mpscheck: its modules
    import the standard library, torch and the agent's own modules (relatively), nothing else."""
    import ast
    import sys

    agent = ROOT / "mpscheck" / "probes" / "agent"
    for path in sorted(agent.glob("bench*.py")):
        tree = ast.parse(path.read_text(), feature_version=(3, 8))
        imported, siblings = set(), set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level:
                siblings |= {node.module} if node.module else {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                imported.add((node.module or "").split(".")[0])
        assert imported - {"__future__"} <= set(sys.stdlib_module_names) | {"torch"}, (path.name, imported)
        assert all((agent / f"{name}.py").is_file() for name in siblings), (path.name, siblings)


def test_the_docs_peak_table_is_the_json_table() -> None:
    def cell(value: float | None) -> str:
        return "–" if value is None else f"{value:g}"

    docs = (ROOT / "docs" / "bench.md").read_text()
    for row in load_peaks():
        line = (
            f"| {row.chip} | {row.gpu_cores or 'any'} | {cell(row.fp32_tflops)} | {cell(row.fp16_tflops)} | "
            f"{cell(row.bf16_tflops)} | {cell(row.memory_bandwidth_gbs)} |"
        )
        assert line in docs, line


def test_device_results_reach_float64_only_on_the_cpu() -> None:
    """MPS has no float64 (torch's text: tests/recorded.py FLOAT64_ERROR): move results to the CPU first."""
    source = (ROOT / "mpscheck" / "probes" / "agent" / "bench_numerics.py").read_text()
    assert ".double().cpu()" not in source and ".cpu().double()" in source


def test_renderers_print_the_figures_the_checks_decided_and_recompute_nothing() -> None:
    """render/bench reads report.bench (what checks/bench decided); a stand-in summary is printed as is."""
    import dataclasses

    report, _ = judged(bench_facts(observed()))
    assert report.bench is not None and report.bench.rows == tuple(summarise(report.facts))
    rows = tuple(dataclasses.replace(r, speedup=123.0) if r.name == "vgg16" else r for r in report.bench.rows)
    report.bench = dataclasses.replace(report.bench, rows=rows, chip="stand-in chip")
    document = json.loads(renderer("json")(report, False))
    assert document["bench"]["models"]["vgg16"]["speedup"] == 123.0 and document["bench"]["chip"] == "stand-in chip"
    assert "(123.0×)" in markdown_row(report) and "123.0×" in renderer("text")(report, False)
