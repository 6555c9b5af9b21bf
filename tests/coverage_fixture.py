"""A small op coverage table in the exact JSON format of mpscheck/knowledge/op_coverage.json, with
the same five functions as mpscheck/knowledge/ops.py, for tests of rules that need a chosen history.
"""

from __future__ import annotations

from typing import Any

from mpscheck.knowledge.versions import parse_version


class FixtureTable:
    def __init__(self, data: dict[str, Any]) -> None:
        assert data["format"] == 1
        self.data = data

    def known_releases(self) -> list[str]:
        return list(self.data["releases"])

    def _at(self, history: list[list[Any]], release: str) -> Any:
        wanted = parse_version(release) or ()
        value = None
        for start, item in history:
            if (parse_version(start) or ()) <= wanted:
                value = item
        return value

    def op_kind(self, name: str, release: str) -> str | None:
        entry = self.data["ops"].get(name)
        if entry is None:
            return None
        return self._at(entry["history"], release) or "absent"

    def first_mps_release(self, name: str) -> str | None:
        entry = self.data["ops"].get(name)
        for release, kind in (entry or {}).get("history", []):
            if kind in ("mps", "sparse-mps"):
                return release
        return None

    def warning_name(self, name: str) -> str:
        entry = self.data["ops"].get(name) or {}
        return entry.get("delegate", name)

    def cpu_always(self, release: str) -> frozenset[str]:
        return frozenset(self._at(self.data["cpu_always"]["history"], release) or ())

    def python_mps(self, release: str) -> frozenset[str]:
        return frozenset(self._at(self.data.get("python_mps", {}).get("history", []), release) or ())


SMALL_TABLE = {
    "format": 1,
    "releases": ["2.0.0", "2.1.0", "2.2.0"],
    "ops": {
        "aten::roll": {"history": [["2.0.0", "none"], ["2.1.0", "mps"]]},
        "aten::add.Tensor": {"history": [["2.0.0", "mps"]], "delegate": "aten::add.out"},
        "aten::add_.Tensor": {"history": [["2.0.0", "mps"]], "delegate": "aten::add.out"},
        "aten::add.out": {"history": [["2.0.0", "mps"]]},
        "aten::linalg_svd": {"history": [["2.0.0", "composite-implicit"]]},
        "aten::_linalg_svd": {"history": [["2.0.0", "mps"]]},
        "aten::cumsum": {"history": [["2.0.0", "mps"]]},
        "aten::mm": {"history": [["2.0.0", "mps"]]},
        "aten::scaled_dot_product_attention": {"history": [["2.0.0", "composite-implicit"]]},
        "aten::_sparse_coo_tensor_with_dims_and_tensors": {"history": [["2.0.0", "none"], ["2.2.0", "sparse-mps"]]},
        "aten::new_op": {"history": [["2.2.0", "mps"]]},
        "aten::native_group_norm": {"history": [["2.0.0", "none"]]},
    },
    "cpu_always": {
        "history": [["2.0.0", ["aten::_linalg_svd"]], ["2.2.0", []]],
        "source": "fixture",
    },
    "python_mps": {"history": [["2.1.0", ["aten::native_group_norm"]]], "source": "fixture"},
    "sources": {},
}
