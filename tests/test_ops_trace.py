"""The readers of what torch prints about CPU fallbacks, on outputs recorded in public threads
(tests/recorded_fallbacks.py), and on the profiler table's layout taken from torch's own format strings.
"""

from __future__ import annotations

from mpscheck.ops.trace import CPU_FALLBACK_STATS, TraceReader, parse_size, profile_value, read_trace, render_trace
from tests import recorded_fallbacks as rec


def test_the_fallback_warning_of_torch_2_0_names_the_op() -> None:
    summary = read_trace(rec.ROLL_WARNING_2_0)
    assert summary.warnings == {"aten::roll": 1}
    assert summary.not_implemented == [] and summary.table == []


def test_a_warning_inside_another_tools_line_is_still_found() -> None:
    assert read_trace(rec.BITWISE_AND_WARNING).warnings == {"aten::bitwise_and.Tensor_out": 1}


def test_warning_and_the_early_not_current_implemented_error() -> None:
    summary = read_trace(rec.INVOKEAI_WARNING_AND_ERROR)
    assert summary.warnings == {"aten::nonzero": 1}
    assert summary.not_implemented == ["aten::_index_put_impl_"]


def test_the_2_6_wording_of_the_missing_op_error() -> None:
    assert read_trace(rec.LOGSPACE_ERROR_2_7).not_implemented == ["aten::logspace.out"]


def test_a_kernel_that_falls_back_on_older_macos() -> None:
    summary = read_trace(rec.UPSAMPLE_MACOS_WARNING)
    assert summary.macos_fallbacks == {"passing scale factor to upsample ops": "13.0"}
    assert summary.fell_back


def test_the_operations_profiling_output_is_not_taken_for_fallbacks() -> None:
    summary = read_trace(rec.TINYGRAD_PROFILE_31)
    assert not summary.fell_back and summary.table == [] and summary.table_total_runs is None


def test_warn_always_counts_every_call() -> None:
    reader = TraceReader()
    for _ in range(3):
        reader.feed(rec.ROLL_WARNING_2_0.splitlines()[0])
    assert reader.summary.warnings == {"aten::roll": 3}


def _table_from_torch_format(rows: list[tuple[int, int, float, float, str, str]], total: str) -> str:
    """The CPU-fallback table laid out with the format strings of MPSProfiler.mm
    (logCPUFallbackProfilingStats, pytorch/pytorch main), translated from fmt to Python's format spec.
    NOT a recorded output: no public thread shows this table (see recorded_fallbacks.py)."""
    runs = sum(r[1] for r in rows)
    ms = sum(r[3] for r in rows)
    title = f" CPU Fallback Profiling: Total {runs} Runs, {ms:.2f} ms, {total} Copies "
    text = "\n{:-^150}\n{:^5}|{:^7}|{:^14}|{:^15}|{:^15}| {}\n{:-^150}\n".format(
        title, "ID", "#Runs", "Mean CPU(ms)", "Total CPU(ms)", "Copy Overhead", "Operation Name", ""
    )
    for ident, count, mean, total_ms, size, op in rows:
        text += "{:^6}{:^8}{:^15}{:^16}{:^16} {}\n".format(ident, count, f"{mean:.3f}", f"{total_ms:.3f}", size, op)
    return text


def test_the_fallback_statistics_table_in_torchs_layout() -> None:
    text = _table_from_torch_format(
        [(2, 40, 0.250, 10.000, "1.50 MB", "aten::roll"), (1, 3, 0.100, 0.300, "24 bytes", "aten::_linalg_svd")],
        "1.50 MB",
    )
    summary = read_trace("script output\n" + text + "after the table\n")
    assert [(r.op, r.runs, r.total_cpu_ms, r.copy_bytes) for r in summary.table] == [
        ("aten::roll", 40, 10.0, 1572864),
        ("aten::_linalg_svd", 3, 0.3, 24),
    ]
    assert (summary.table_total_runs, summary.table_total_ms, summary.table_total_bytes) == (43, 10.3, 1572864)
    shown = render_trace(summary)
    assert "aten::roll: 40 call(s), 10.000 ms CPU, 1.50 MB copied" in shown


def test_the_profilers_empty_message() -> None:
    summary = read_trace("There are no CPU Fallbacks logged for profiling\n")
    assert summary.table_says_none and not summary.fell_back
    assert "No CPU fallbacks" in render_trace(summary)


def test_profile_value_adds_the_fallback_stats_bit_to_what_the_user_set() -> None:
    assert CPU_FALLBACK_STATS == 64  # MPSProfiler.h LogOptions::CPU_FALLBACK_STATS = (1 << 6)
    assert profile_value(None) == "64"
    assert profile_value("1") == "65"
    assert profile_value("0x40") == "64"  # torch parses it with strtol(..., 0)
    assert profile_value("junk") == "64"


def test_sizes_as_the_mps_allocator_formats_them() -> None:
    assert parse_size("24 bytes") == 24
    assert parse_size("2.00 KB") == 2048
    assert parse_size("64.00 MB") == 64 * 1024**2
    assert parse_size("lots") is None
