"""mpscheck bench's figures in every format: a rich table and a bar chart of the speedups, a JSON
summary beside the raw facts, and one Markdown table row for a community results thread.

The figures and their judgement come from checks/bench.py, carried by the report (``report.bench``);
nothing is computed or decided here.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from mpscheck.checks.bench import MODELS, BenchRow, BenchSummary
from mpscheck.checks.wording import size
from mpscheck.model import Report

BAR_WIDTH = 40


def _num(value: float | None, digits: int = 3) -> str:
    if value is None:
        return "–"
    return f"{value:.{digits}g}" if value < 100 else f"{value:,.0f}"


def _answer(row: BenchRow) -> Text:
    if row.right is None:
        return Text("–", style="dim")
    return Text("right", style="green") if row.right else Text("WRONG", style="bold red")


def _summary(report: Report) -> BenchSummary:
    return report.bench or BenchSummary((), None, None, None)


def figures_table(report: Report) -> Table:
    bench = report.facts.target.bench
    device = bench.device if bench else "?"
    table = Table(title=f"Figures on {device} (@ batch)", title_justify="left", show_edge=False, pad_edge=False)
    baseline = device != "cpu"  # on the CPU itself there is no baseline to divide by
    columns = [("workload", "left"), ("vs CPU", "center"), (device or "device", "right"), ("% of peak", "right")]
    if baseline:
        columns += [("cpu", "right"), ("speedup", "right"), ("memory", "right")]
    for column, justify in columns:
        table.add_column(column, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for row in _summary(report).rows:
        batch = f" @{row.batch}" if row.batch else ""
        cpu_batch = f" @{row.cpu_batch}" if row.cpu_batch else ""
        cells: list[Text | str] = [
            row.label,
            _answer(row),
            f"{_num(row.value)} {row.unit}{batch}" if row.value is not None else "–",
            f"{row.percent_of_peak:.0f}%" if row.percent_of_peak is not None else "–",
        ]
        if baseline:
            cells += [
                f"{_num(row.cpu_value)}{cpu_batch}" if row.cpu_value is not None else "–",
                f"{row.speedup:.1f}×" if row.speedup is not None else "–",
                size(row.peak_memory_bytes) if row.peak_memory_bytes else "–",
            ]
        table.add_row(*cells)
    return table


def speedup_chart(report: Report) -> Table | None:
    """Horizontal bars of the device's training speedup over the CPU, scaled to the largest."""
    rows = [r for r in _summary(report).rows if r.name in MODELS and r.speedup is not None]
    if not rows:
        return None
    largest = max(r.speedup or 0.0 for r in rows) or 1.0
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, justify="right")
    for row in rows:
        length = max(1, round(BAR_WIDTH * (row.speedup or 0.0) / largest))
        grid.add_row(MODELS[row.name], Text("█" * length, style="cyan"), f"{row.speedup:.1f}×")
    return grid


def print_bench(report: Report, console: Console) -> None:
    summary = _summary(report)
    if not summary.rows:
        return
    console.print()
    console.print(figures_table(report))
    chart = speedup_chart(report)
    if chart is not None:
        console.print()
        console.print(Text("Training speedup over the CPU (samples/s ÷ samples/s)", style="bold"))
        console.print(chart)
    peak = summary.peak
    console.print()
    if peak:
        console.print(Text(f"Peaks: {peak.chip}, from {', '.join(peak.sources)}", style="dim"), soft_wrap=True)
    else:
        console.print(Text(f"No published peak for {summary.chip or 'this device'}: no % of peak.", style="dim"))
    console.print(Text("Copy GB/s counts each byte read and each byte written.", style="dim"))


# ---- JSON ----------------------------------------------------------------------------------------


def json_summary(report: Report) -> dict[str, Any]:
    """The derived figures; the raw measurements stay in facts.target.bench."""
    bench = report.facts.target.bench
    summary = _summary(report)
    peak, name, cores, rows = summary.peak, summary.chip, summary.cores, summary.by_name()

    def figures(row: BenchRow) -> dict[str, Any]:
        out: dict[str, Any] = {"value": row.value, "unit": row.unit, "matches_cpu": row.right}
        if row.name in MODELS:
            out.update(
                {
                    "batch": row.batch,
                    "cpu_samples_per_s": row.cpu_value,
                    "cpu_batch": row.cpu_batch,
                    "speedup": row.speedup,
                    "peak_memory_bytes": row.peak_memory_bytes,
                }
            )
        else:
            out.update({"peak": row.peak, "percent_of_peak": row.percent_of_peak})
        return out

    return {
        "device": bench.device if bench else None,
        "mode": bench.mode if bench else None,
        "chip": name,
        "gpu_cores": cores,
        "peak_source": {"chip": peak.chip, "sources": list(peak.sources)} if peak else None,
        "matmul": {n.split("-", 1)[1]: figures(r) for n, r in rows.items() if n.startswith("matmul-")},
        "copy": figures(rows["copy"]) if "copy" in rows else None,
        "models": {n: figures(rows[n]) for n in MODELS if n in rows},
    }


# ---- Markdown: one row of a community results thread ---------------------------------------------

COLUMNS = (
    "Chip",
    "GPU cores",
    "torch",
    "Device",
    "FP32 TFLOP/s",
    "FP16 TFLOP/s",
    "BF16 TFLOP/s",
    "Copy GB/s",
    "ResNet-50 samples/s (× CPU)",
    "BERT-base samples/s (× CPU)",
    "VGG16 samples/s (× CPU)",
    "Sizes",
    "mpscheck",
)


def markdown_row(report: Report) -> str:
    """A header, its rule and one row: paste the last line under an existing thread's table."""
    facts = report.facts
    bench = facts.target.bench
    summary = _summary(report)
    rows, name, cores = summary.by_name(), summary.chip, summary.cores

    def throughput(key: str) -> str:
        row = rows.get(key)
        if row is None or row.value is None:
            return "–"
        mark = "" if row.right is not False else " ✗ wrong"
        pct = f" ({row.percent_of_peak:.0f}%)" if row.percent_of_peak is not None else ""
        return f"{_num(row.value)}{pct}{mark}"

    def model(key: str) -> str:
        row = rows.get(key)
        if row is None or row.value is None:
            return "–"
        mark = "" if row.right is not False else " ✗ wrong"
        times = f" ({row.speedup:.1f}×)" if row.speedup is not None else ""
        return f"{_num(row.value)} @{row.batch}{times}{mark}"

    torch = facts.target.torch
    cells = [
        name or (facts.host.cpu_brand or "CPU"),
        str(cores) if cores else "–",
        (torch.version if torch and torch.version else "–"),
        bench.device if bench and bench.device else "–",
        throughput("matmul-float32"),
        throughput("matmul-float16"),
        throughput("matmul-bfloat16"),
        throughput("copy"),
        model("resnet50"),
        model("bert-base"),
        model("vgg16"),
        bench.mode if bench else "–",
        facts.mpscheck_version or "–",
    ]
    line = "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
    return "\n".join(["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS), line])
