"""Read what torch prints on a Mac about ops that fell back to the CPU, line by line as it arrives.

Three kinds of text, each quoted from torch's source (pytorch/pytorch, read with the look-up tools):

- the fallback warning, ``aten/src/ATen/mps/MPSFallback.mm``: "The operator '<op>' is not currently
  supported on the MPS backend and will fall back to run on the CPU. This may have performance
  implications." (once per process unless ``torch.set_warn_always(True)``, which ``run --trace`` sets);
- the error without PYTORCH_ENABLE_MPS_FALLBACK: "The operator '<op>' is not currently implemented
  for the MPS device." (early nightlies: "not current implemented");
- per-op macOS fallbacks inside a kernel: "MPS: <what> is supported natively starting from macOS
  <v>. Falling back on CPU.";
- the CPU-fallback statistics table that ``PYTORCH_MPS_LOG_PROFILE_INFO`` with the CPU_FALLBACK_STATS
  bit prints at exit (``aten/src/ATen/mps/MPSProfiler.mm``, logCPUFallbackProfilingStats): a title
  "CPU Fallback Profiling: Total N Runs, T ms, SIZE Copies" and one row per op with ID, #Runs,
  Mean CPU(ms), Total CPU(ms), Copy Overhead and the op name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# MPSProfiler.h, enum LogOptions: CPU_FALLBACK_STATS = (1 << 6) prints the table when the process
# ends (and on SIGINT). Present since the MPSProfiler landed (pytorch/pytorch#100635, torch 2.1).
CPU_FALLBACK_STATS = 1 << 6
PROFILE_ENV = "PYTORCH_MPS_LOG_PROFILE_INFO"

FALLBACK_WARNING = re.compile(
    r"The operator '(?P<op>[^']+)' is not currently supported on the MPS backend and will fall back to run on the CPU"
)
NOT_IMPLEMENTED = re.compile(r"The operator '(?P<op>[^']+)' is not current(?:ly)? implemented for the MPS device")
MACOS_FALLBACK = re.compile(
    r"MPS: (?P<what>.{1,200}?) (?:is|are) supported natively starting from mac ?OS (?P<macos>[\d.]+?)\.? "
    r"Falling back on CPU"
)
TABLE_TITLE = re.compile(
    r"CPU Fallback Profiling: Total (?P<runs>\d+) Runs, (?P<ms>[\d.]+) ms, (?P<size>[\d.]+ ?[A-Za-z]+) Copies"
)
TABLE_ROW = re.compile(
    r"^\s*(?P<id>\d+)\s+(?P<runs>\d+)\s+(?P<mean>\d+\.\d+)\s+(?P<total>\d+\.\d+)\s+"
    r"(?P<size>\d+(?:\.\d+)? ?(?:bytes|[KMG]i?B))\s+(?P<op>\S+)\s*$"
)
NO_FALLBACKS = "There are no CPU Fallbacks logged for profiling"


def profile_value(existing: str | None) -> str:
    """The PYTORCH_MPS_LOG_PROFILE_INFO value with the fallback-stats bit added to what the user set."""
    current = 0
    if existing:
        try:
            current = int(existing.strip(), 0)  # torch reads it with strtol(..., 0): 0x.. and 0.. work too
        except ValueError:
            current = 0
    return str(current | CPU_FALLBACK_STATS)


def parse_size(text: str) -> int | None:
    """'1.00 MB' -> 1048576; '24 bytes' -> 24 (MPSAllocator format_size): knowledge/sizes.py reads it."""
    from mpscheck.knowledge.sizes import size_bytes

    return size_bytes(text)


@dataclass
class FallbackRow:
    """One op's line of the profiler table."""

    op: str
    runs: int
    mean_cpu_ms: float
    total_cpu_ms: float
    copy_bytes: int | None


@dataclass
class TraceSummary:
    """What a run printed about CPU fallbacks; empty fields mean torch printed nothing of that kind."""

    warnings: dict[str, int] = field(default_factory=dict)  # op -> times the fallback warning fired
    not_implemented: list[str] = field(default_factory=list)
    macos_fallbacks: dict[str, str] = field(default_factory=dict)  # what -> macOS that runs it natively
    table: list[FallbackRow] = field(default_factory=list)
    table_total_runs: int | None = None
    table_total_ms: float | None = None
    table_total_bytes: int | None = None
    table_says_none: bool = False

    @property
    def fell_back(self) -> bool:
        return bool(self.warnings or self.table or self.not_implemented or self.macos_fallbacks)

    def to_dict(self) -> dict[str, Any]:
        return {
            "warnings": dict(self.warnings),
            "not_implemented": list(self.not_implemented),
            "macos_fallbacks": dict(self.macos_fallbacks),
            "table": [row.__dict__ for row in self.table],
            "table_total_runs": self.table_total_runs,
            "table_total_ms": self.table_total_ms,
            "table_total_bytes": self.table_total_bytes,
            "table_says_none": self.table_says_none,
        }


class TraceReader:
    """Feed it the child's stderr one line at a time; read ``summary`` at the end."""

    def __init__(self) -> None:
        self.summary = TraceSummary()
        self._in_table = False

    def feed(self, line: str) -> None:
        s = self.summary
        for match in FALLBACK_WARNING.finditer(line):
            s.warnings[match.group("op")] = s.warnings.get(match.group("op"), 0) + 1
        for match in NOT_IMPLEMENTED.finditer(line):
            if match.group("op") not in s.not_implemented:
                s.not_implemented.append(match.group("op"))
        for match in MACOS_FALLBACK.finditer(line):
            s.macos_fallbacks[match.group("what")] = match.group("macos")
        if NO_FALLBACKS in line:
            s.table_says_none = True
        title = TABLE_TITLE.search(line)
        if title:
            self._in_table = True
            s.table_total_runs = int(title.group("runs"))
            s.table_total_ms = float(title.group("ms"))
            s.table_total_bytes = parse_size(title.group("size"))
            return
        if self._in_table:
            row = TABLE_ROW.match(line)
            if row:
                s.table.append(
                    FallbackRow(
                        op=row.group("op"),
                        runs=int(row.group("runs")),
                        mean_cpu_ms=float(row.group("mean")),
                        total_cpu_ms=float(row.group("total")),
                        copy_bytes=parse_size(row.group("size")),
                    )
                )
            elif line.strip() and not set(line.strip()) <= {"-"} and "#Runs" not in line:
                self._in_table = False  # the table ended: another table or the process's own output


def read_trace(text: str) -> TraceSummary:
    reader = TraceReader()
    for line in text.splitlines():
        reader.feed(line)
    return reader.summary


def render_trace(summary: TraceSummary) -> str:
    """The end-of-run summary ``run --trace`` prints on a Mac."""
    lines = []
    if summary.table:
        lines.append(
            f"CPU fallbacks (torch's MPS profiler): {summary.table_total_runs} run(s), "
            f"{summary.table_total_ms} ms on the CPU, {_size(summary.table_total_bytes)} copied"
        )
        for row in summary.table:
            lines.append(
                f"  {row.op}: {row.runs} call(s), {row.total_cpu_ms:.3f} ms CPU, {_size(row.copy_bytes)} copied"
            )
    elif summary.warnings:
        lines.append("CPU fallbacks (torch's warnings; the profiler printed no table):")
        lines += [f"  {op}: {count} call(s)" for op, count in summary.warnings.items()]
    for op in summary.not_implemented:
        lines.append(f"  {op}: not implemented for MPS (raised; set PYTORCH_ENABLE_MPS_FALLBACK=1 or use --fallback)")
    for what, macos in summary.macos_fallbacks.items():
        lines.append(f"  {what}: ran on the CPU; native on MPS from macOS {macos}")
    if not lines:
        lines.append(
            "No CPU fallbacks: torch printed none"
            + (" (its profiler: 'There are no CPU Fallbacks logged for profiling')" if summary.table_says_none else "")
        )
    return "\n".join(lines) + "\n"


def _size(value: int | None) -> str:
    if value is None:
        return "an unknown number of bytes"
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if value >= scale:
            return f"{value / scale:.2f} {unit}"
    return f"{value} bytes"
