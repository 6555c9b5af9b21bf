"""A saved JSON report, read back and upgraded from older schemas (an observer, like the probes).

Its shape is fixed by mpscheck/report.schema.json. ``--format json`` writes it (render/json_report.py); ``mpscheck
explain`` and the pytest plugin read it back (load_report, parse_report), so today's checks can
judge facts saved on another Mac. A saved report is foreign data: it may come from another
mpscheck, or have been edited; its facts are type-checked (facts.from_dict), so a corrupt report is
a usage error (exit 2) that names the place that is wrong, and a fact that is missing or malformed
where a default would pass is read as unknown (probes/saved_trust.py).

Schema 1 (mpscheck 0.1) saved smoke steps with the workload's own verdicts (status pass/fail, a
tolerance, "expected-unsupported"); schema 2 saves observations only and the checks judge them.
A v1 step keeps every number it had; a fact v1 never recorded is derived only where its old verdict
implies it exactly (a passed round trip had no mismatching value), and is otherwise left out, so
the check says it was not recorded instead of guessing.
"""

from __future__ import annotations

import copy
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mpscheck.facts import FACTS_SCHEMA_VERSION, Facts, FactsError, from_dict
from mpscheck.model import REPORT_KIND, SCHEMA_VERSION, Requirement
from mpscheck.probes.saved_trust import distrust


class ReportError(ValueError):
    """The file is not a report mpscheck can read: a usage error (exit 2)."""


@dataclass(frozen=True)
class SavedReport:
    facts: Facts
    command: str
    require: Requirement
    strict: bool


def load_report(path: str) -> SavedReport:
    """The report at *path*, or ``-`` for standard input."""
    from mpscheck.probes.explain_input import decode

    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except (OSError, ValueError, AttributeError) as exc:  # ValueError, AttributeError: stdin closed or absent
        raise ReportError(f"cannot read {path}: {exc}") from exc
    text = decode(data)  # a byte-order mark, or UTF-8 with bad bytes replaced: as explain reads
    return parse_report(text, "standard input" if path == "-" else path)


def parse_report(text: str, path: str) -> SavedReport:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ReportError(f"{path} is not JSON ({exc}); save one with `mpscheck doctor --format json`") from exc
    if not isinstance(data, dict) or data.get("kind") != REPORT_KIND:
        raise ReportError(f'{path} is not an mpscheck report (no "kind": "{REPORT_KIND}")')
    if too_deep(data):
        raise ReportError(f"{path}: nested deeper than {MAX_DEPTH} levels, which no mpscheck report is")
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= SCHEMA_VERSION:
        raise ReportError(
            f"{path} has schema version {version if isinstance(version, int) else repr(str(version)[:20])}; "
            f"this mpscheck reads 1 to {SCHEMA_VERSION}"
            + (": upgrade it" if isinstance(version, int) and version > SCHEMA_VERSION else "")
        )
    strict = data.get("strict", False)
    if not isinstance(strict, bool):
        raise ReportError(f'{path}: "strict" must be true or false, not {str(strict)[:20]!r}')
    try:
        raw_facts = data.get("facts")
        if version < SCHEMA_VERSION and isinstance(raw_facts, dict):
            raw_facts = upgrade_facts(raw_facts)
        facts = distrust(raw_facts, from_dict(Facts, raw_facts))
        require = Requirement(data.get("require", "mps"))
    except (FactsError, ValueError, TypeError) as exc:
        raise ReportError(f"{path}: corrupt facts: {exc}") from exc
    command = str(data["command"]) if data.get("command") in ("doctor", "smoke-test", "bench") else "doctor"
    return SavedReport(facts, command, require, strict)


MAX_DEPTH = 32  # a report nests about 8 deep; every reader after this one recurses, so deeper is refused


def too_deep(data: Any) -> bool:
    """Whether *data* nests lists or objects more than MAX_DEPTH deep (walked without recursion)."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        if isinstance(value, dict):
            stack += [(item, depth + 1) for item in value.values()]
        elif isinstance(value, list):
            stack += [(item, depth + 1) for item in value]
    return False


# ---- upgrading older schemas -------------------------------------------------------------------------


def upgrade_facts(facts: dict[str, Any]) -> dict[str, Any]:
    """Schema-1 facts rewritten in schema-2 form; unknown shapes pass through for the loader to refuse."""
    out = copy.deepcopy(facts)
    out["schema_version"] = FACTS_SCHEMA_VERSION
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
