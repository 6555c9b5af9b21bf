"""The op coverage table as the judgement asks it: since which torch release an op has an MPS (or a
SparseMPS) kernel. Backed by mpscheck.knowledge.ops when this mpscheck has it; tests use stand-ins.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol


class OpCoverage(Protocol):
    """What the judgement asks of the op coverage table (mpscheck.knowledge.ops, or a stand-in in tests)."""

    def first_mps_release(self, op: str) -> str | None:
        """The first torch release with an MPS kernel for *op*; None if none or if the op is unknown."""

    def knows(self, op: str) -> bool:
        """Whether the table lists *op* at all (so None above means 'no kernel in any release')."""

    def first_sparse_release(self, op: str) -> str | None:
        """The first torch release with a SparseMPS kernel for *op*, or None."""

    def oldest(self) -> str | None:
        """The oldest release the table covers: 'since' that release means 'in every release it covers'."""


class KnowledgeOps:
    """mpscheck.knowledge.ops behind OpCoverage; every spelling of the op is tried, errors count as unknown."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def first_mps_release(self, op: str) -> str | None:
        for name in op_names(op):
            try:
                found = self.module.first_mps_release(name)
            except Exception:  # a table problem must not cost the diagnosis
                return None
            if found:
                return str(found)
        return None

    def knows(self, op: str) -> bool:
        try:
            latest = self.module.known_releases()[-1]
            return any(self.module.op_kind(name, latest) is not None for name in op_names(op))
        except Exception:
            return False

    def first_sparse_release(self, op: str) -> str | None:
        try:
            for release in self.module.known_releases():
                if any(self.module.op_kind(name, release) == "sparse-mps" for name in op_names(op)):
                    return str(release)
        except Exception:
            return None
        return None

    def oldest(self) -> str | None:
        try:
            return str(self.module.known_releases()[0])
        except Exception:
            return None


def knowledge_ops() -> OpCoverage | None:
    """The op coverage table when this mpscheck has it (mpscheck/knowledge/ops.py), else None."""
    try:
        module = importlib.import_module("mpscheck.knowledge.ops")
    except ImportError:
        return None
    return KnowledgeOps(module)


def op_names(op: str) -> list[str]:
    """'aten::sgn.out' -> the spellings a table may use: 'aten::sgn.out', 'aten::sgn', 'sgn.out', 'sgn'."""
    bare = op.removeprefix("aten::")
    base = bare.split(".")[0]
    return list(dict.fromkeys([op, f"aten::{base}", bare, base]))
