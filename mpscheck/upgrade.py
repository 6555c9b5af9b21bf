"""Reading reports saved by older mpscheck versions: derive what they lack, say what they cannot give.

Schema 1 (mpscheck 0.1) saved smoke steps with the workload's own verdicts (status pass/fail, a
tolerance, "expected-unsupported"); schema 2 saves observations only and the checks judge them.
A v1 step keeps every number it had; a fact v1 never recorded is derived only where its old verdict
implies it exactly (a passed round trip had no mismatching value), and is otherwise left out, so
the check says it was not recorded instead of guessing.
"""

from __future__ import annotations

import copy
from typing import Any


def upgrade_facts(facts: dict[str, Any]) -> dict[str, Any]:
    """Schema-1 facts rewritten in schema-2 form; unknown shapes pass through for the loader to refuse."""
    out = copy.deepcopy(facts)
    target = out.get("target")
    smoke = target.get("smoke") if isinstance(target, dict) else None
    if isinstance(smoke, dict) and isinstance(smoke.get("steps"), list):
        smoke["steps"] = [_step(s) if isinstance(s, dict) else s for s in smoke["steps"]]
    return out


def _step(step: dict[str, Any]) -> dict[str, Any]:
    status = step.pop("status", None)
    raw = step.get("values")
    values: dict[str, Any] = raw if isinstance(raw, dict) else {}
    if status == "skip":
        step["outcome"] = "skipped"
    elif status == "fail" and step.get("error_type"):
        step["outcome"] = "raised"
    else:
        step["outcome"] = "ran"
    passed = status == "pass"
    name = step.get("name")
    if name == "allocate" and passed:
        values.setdefault("mismatches", 0)  # v1 passed only when torch.equal held
    elif name == "memory" and passed:
        values.setdefault("readback", 1.0)  # v1 passed only when the block read back 1.0
    elif name == "fallback":
        values.setdefault("value", values.get("PYTORCH_ENABLE_MPS_FALLBACK"))
    elif name == "dtypes" and isinstance(values.get("dtypes"), dict):
        values["dtypes"] = {n: _dtype_row(r) for n, r in values["dtypes"].items()}
    step["values"] = values
    return step


def _dtype_row(row: Any) -> Any:
    if not isinstance(row, dict):
        return row
    status = row.get("status")
    if status == "pass":
        return {"result": "ran", "mismatches": 0}
    if status in ("unsupported", "expected-unsupported"):
        return {"result": "raised", "error": row.get("error"), "error_type": row.get("error_type")}
    return {"result": "ran", "error": row.get("error")}  # v1 "wrong values": how many was not recorded
