"""Dtype limits of MPS kernels, as rows of "torch raises this text when this op gets these dtypes,
in these releases": the shape of the generated table of every torch MPS message with its releases
and guarded condition (knowledge/messages.py, being built on branch feat/torch-messages). Until that
table lands, the rows below are written by hand, each with its sources: the text's releases are read
from the macOS arm64 wheels (the strings of torch/lib/libtorch_cpu.dylib, release by release) and the
guarded condition from the source at a release (TORCH_CHECK in aten/src/ATen/native/mps/...).

``as_limits(rows)`` turns rows into the OpLimit rows that knowledge/op_limits.py's ``limits_for``
reads, so a generated table feeds the same lookup: pass its rows instead of ``ROWS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from mpscheck.knowledge.op_limits import OpLimit, Version

INTEGERS = frozenset({"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"})
COMPLEX = frozenset({"complex32", "complex64", "complex128"})


@dataclass(frozen=True)
class MessageRow:
    """One text torch raises, the ops and dtypes its check refuses, and the releases that raise it."""

    text: str
    ops: frozenset[str]
    dtypes: frozenset[str]
    torch_from: Version
    torch_below: Version  # the first release whose check lets these dtypes through
    fix: str
    source: str


_MATMUL_CHECK = (
    "TORCH_CHECK(self.scalar_type() == ScalarType::Double || ... Float || ... Half, '{text}') in "
    "aten/src/ATen/native/mps/operations/LinearAlgebra.mm; complex allowed by supportedFloatingOrComplexType "
    "from PR pytorch/pytorch#127241 (merged 2024-05-28, torch 2.4; fixes issue #127178)"
)


def _matmul(name: str, ops: frozenset[str], text: str, strings: str, below: Version) -> tuple[MessageRow, ...]:
    wheels = f"the text is in the libtorch_cpu.dylib strings of the macOS arm64 wheels {strings}"
    return (
        MessageRow(
            text, ops, COMPLEX, (2, 0), (2, 4),
            f"upgrade to torch>=2.4 (complex {name} on MPS, with macOS 14), or run the complex {name} on the CPU",
            f"{wheels}; {_MATMUL_CHECK.format(text=text)}",
        ),
        MessageRow(
            text, ops, INTEGERS, (2, 0), below,
            f"cast to float32 before the {name} (x.float()), or upgrade to torch>={below[0]}.{below[1]}",
            f"{wheels} (not from {below[0]}.{below[1]}.0 on); {_MATMUL_CHECK.format(text=text)}",
        ),
    )  # fmt: skip


def _int64_unary(op: str, strings: str, below: Version) -> MessageRow:
    text = f"MPS does not support {op} op with int64 input"
    return MessageRow(
        text, frozenset({f"aten::{op}"}), frozenset({"int64"}), (2, 0), below,
        f"cast to float32 before the {op} (x.float()), or upgrade to torch>={below[0]}.{below[1]}",
        f"the text is in the libtorch_cpu.dylib strings of the macOS arm64 wheels {strings} (not from "
        f"{below[0]}.{below[1]}.0 on); TORCH_CHECK(self.scalar_type() != ScalarType::Long, '{text}') in "
        f"TORCH_IMPL_FUNC({op}_out_mps), aten/src/ATen/native/mps/operations/UnaryOps.mm",
    )  # fmt: skip


ROWS: tuple[MessageRow, ...] = (
    _int64_unary("log1p", "2.0.0-2.7.1", (2, 8)),
    _int64_unary("sigmoid", "2.0.0-2.7.1", (2, 8)),
    *_matmul("mm", frozenset({"aten::mm"}), "MPS device does not support mm for non-float inputs", "2.0.0-2.6.0",
             (2, 7)),
    *_matmul("bmm", frozenset({"aten::bmm"}), "MPS device does not support bmm for non-float inputs", "2.0.0-2.6.0",
             (2, 7)),
    *_matmul("addmm", frozenset({"aten::addmm"}), "MPS device does not support addmm for non-float input",
             "2.0.0-2.8.0", (2, 9)),
    *_matmul("baddbmm", frozenset({"aten::baddbmm", "aten::addbmm"}),
             "MPS device does not support addbmm or baddbmm for non-float inputs", "2.0.0-2.10.0", (2, 11)),
)  # fmt: skip


def as_limits(rows: tuple[MessageRow, ...] = ROWS) -> tuple[OpLimit, ...]:
    """The rows as OpLimits (dtype-unsupported whatever the macOS), for op_limits.limits_for."""
    return tuple(
        OpLimit(
            f"message:{row.text}:{'+'.join(sorted(row.dtypes))[:40]}", row.dtypes, row.ops, row.torch_from,
            row.torch_below, None, f"torch raises '{row.text}' for {_kind(row.dtypes)} inputs",
            row.fix, row.source,
        )
        for row in rows
    )  # fmt: skip


def _kind(dtypes: frozenset[str]) -> str:
    if dtypes <= COMPLEX:
        return "complex"
    if dtypes <= INTEGERS:
        return "integer and bool"
    return ", ".join(sorted(dtypes))
