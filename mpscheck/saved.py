"""Read a saved JSON report back into facts, so today's checks can judge it (``mpscheck explain``).

A saved report is foreign data: it may come from another mpscheck, or have been edited. Whatever
the checks will read is type-checked here, so a corrupt report is a usage error (exit 2) with the
place that is wrong, never a crash of a check (exit 3).
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

from mpscheck.facts import Facts, FactsError, from_dict
from mpscheck.model import REPORT_KIND, SCHEMA_VERSION, Requirement


class ReportError(ValueError):
    """The file is not a report mpscheck can read: a usage error (exit 2)."""


@dataclass(frozen=True)
class SavedReport:
    facts: Facts
    command: str
    require: Requirement
    strict: bool


# The values of a smoke step that ran (not failed or skipped) that the checks read, by shape:
# "number" (finite, not a bool), "str", "bool"; ("list", shape) non-empty; ("map", shape) any keys;
# a dict: these keys if present; ("or-none", shape); ("required", shape). Other keys are never read.
Shape = Union[str, tuple, dict]
_NUMBER_OR_NONE = ("or-none", "number")
_MATMUL = {"max_relative_error": "number", "error": ("or-none", "str")}
STEP_VALUES: dict[str, Shape] = {
    "elementwise": {"max_relative_error": ("map", "number")},
    "matmul": {"float32": _MATMUL, "float16": _MATMUL},
    "train": {
        "losses": ("required", ("list", "number")),
        "first_loss_difference": "number",
        "optimizer_setup_seconds": _NUMBER_OR_NONE,
    },
    "dtypes": {"dtypes": ("map", {"status": ("or-none", "str"), "error": ("or-none", "str")})},
    "memory": {key: _NUMBER_OR_NONE for key in ("allocated_before", "allocated_after", "recommended_max", "total")},
}


def load_report(path: str) -> SavedReport:
    """The report at *path*, or ``-`` for standard input."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"cannot read {path}: {exc}") from exc
    return parse_report(text, "standard input" if path == "-" else path)


def parse_report(text: str, path: str) -> SavedReport:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ReportError(f"{path} is not JSON ({exc}); save one with `mpscheck doctor --format json`") from exc
    if not isinstance(data, dict) or data.get("kind") != REPORT_KIND:
        raise ReportError(f'{path} is not an mpscheck report (no "kind": "{REPORT_KIND}")')
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
        facts = from_dict(Facts, data.get("facts"))
        require = Requirement(data.get("require", "mps"))
        for index, step in enumerate(facts.target.smoke.steps if facts.target.smoke else []):
            if step.name in STEP_VALUES and step.status not in ("fail", "skip"):
                _check_shape(STEP_VALUES[step.name], step.values, f"facts.target.smoke.steps[{index}].values")
    except (FactsError, ValueError, TypeError) as exc:
        raise ReportError(f"{path}: corrupt facts: {exc}") from exc
    command = str(data["command"]) if data.get("command") in ("doctor", "smoke-test") else "doctor"
    return SavedReport(facts, command, require, strict)


def _check_shape(shape: Shape, value: Any, where: str) -> None:
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            raise FactsError(f"{where}: expected an object")
        for key, inner in shape.items():
            if key in value:
                _check_shape(inner, value[key], f"{where}.{key}")
            elif isinstance(inner, tuple) and inner[0] == "required":
                raise FactsError(f"{where}: {key} is missing")
    elif isinstance(shape, tuple):
        kind, inner = shape
        if kind == "required":
            _check_shape(inner, value, where)
        elif kind == "or-none":
            if value is not None:
                _check_shape(inner, value, where)
        elif kind == "list":
            if not isinstance(value, list) or not value:
                raise FactsError(f"{where}: expected a non-empty list")
            for index, item in enumerate(value):
                _check_shape(inner, item, f"{where}[{index}]")
        elif kind == "map":
            if not isinstance(value, dict):
                raise FactsError(f"{where}: expected an object")
            for key, item in value.items():
                _check_shape(inner, item, f"{where}.{key}")
    elif not _is(shape, value):
        raise FactsError(f"{where}: expected {shape}, got {type(value).__name__}")


def _is(kind: str, value: Any) -> bool:
    if kind == "number":
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        return number and -(2**63) < value < 2**63 and (not isinstance(value, float) or math.isfinite(value))
    return isinstance(value, {"str": str, "bool": bool}[kind])
