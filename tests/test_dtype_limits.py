"""Dtype limits as message rows (knowledge/dtype_limits.py), flagged on recorded dtypes."""

from __future__ import annotations

import pytest

from mpscheck.knowledge import ops as real_table
from mpscheck.knowledge.dtype_limits import COMPLEX, ROWS, MessageRow, as_limits
from mpscheck.knowledge.op_limits import limits_for
from mpscheck.ops.prediction import predict
from mpscheck.ops.recording import OpUse, Recording


def _status(op: str, dtype: str, release: str, macos: tuple[int, ...] = (14, 0)) -> tuple[str, str | None]:
    judged = predict(Recording(ops=[OpUse(op, 1, (dtype,), ("cpu",))]), real_table, release, macos).ops[0]
    return judged.status, judged.fix


@pytest.mark.parametrize(
    ("op", "dtype", "release", "status"),
    [
        # Issue 19 item 3: users got "MPS device does not support mm for non-float inputs" under 2.2.
        ("aten::mm", "complex64", "2.2.0", "dtype-unsupported"),
        ("aten::mm", "complex64", "2.4.0", "mps"),  # PR #127241 (2.4)
        ("aten::bmm", "complex64", "2.3.1", "dtype-unsupported"),
        ("aten::mm", "int64", "2.6.0", "dtype-unsupported"),  # the text is in the 2.0.0-2.6.0 wheels
        ("aten::mm", "int64", "2.7.0", "mps"),
        ("aten::addmm", "int32", "2.8.0", "dtype-unsupported"),
        ("aten::addmm", "int32", "2.9.0", "mps"),
        ("aten::mm", "float32", "2.2.0", "mps"),
        ("aten::log1p", "int64", "2.7.1", "dtype-unsupported"),  # UnaryOps.mm; the text is in 2.0.0-2.7.1
        ("aten::sigmoid", "int64", "2.0.0", "dtype-unsupported"),
        ("aten::sigmoid", "int64", "2.8.0", "mps"),
        ("aten::sigmoid", "int32", "2.0.0", "mps"),
    ],
)
def test_matmul_dtype_limits_per_release(op: str, dtype: str, release: str, status: str) -> None:
    assert _status(op, dtype, release)[0] == status


def test_the_fix_names_the_release_or_the_cast() -> None:
    assert "torch>=2.4" in (_status("aten::mm", "complex64", "2.2.0")[1] or "")
    assert "cast to float32" in (_status("aten::mm", "int64", "2.2.0")[1] or "")
    # On macOS 13, complex mm in 2.4 is gated by the complex-types-need-macOS-14 rule instead.
    assert _status("aten::mm", "complex64", "2.4.0", (13, 0))[0] == "macos-gated"


def test_every_row_cites_the_wheels_and_the_source() -> None:
    for row in ROWS:
        assert "wheels" in row.source and ".mm" in row.source and row.torch_from < row.torch_below
        assert row.text in row.source  # the condition quoted with the very text


def test_another_message_table_feeds_the_same_lookup() -> None:
    row = MessageRow("made-up text", frozenset({"aten::roll"}), COMPLEX, (2, 0), (2, 5), "fix", "source")
    found = limits_for("aten::roll", ("complex64",), (2, 1), extra=as_limits((row,)))
    assert [limit.fix for limit in found] == ["fix"]
    later = limits_for("aten::roll", ("complex64",), (2, 5), extra=as_limits((row,)))
    assert "fix" not in [limit.fix for limit in later]  # (2.5 has the complex-needs-macOS-14 row instead)
