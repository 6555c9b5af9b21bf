"""Read a saved JSON report back into facts, so today's checks can judge it (``mpscheck explain``).

A saved report is foreign data: it may come from another mpscheck, or have been edited. Its facts
are type-checked here (facts.from_dict), so a corrupt report is a usage error (exit 2) that names
the place that is wrong; the checks read the free-form smoke values defensively themselves.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from mpscheck.facts import Facts, FactsError, from_dict
from mpscheck.model import REPORT_KIND, SCHEMA_VERSION, Requirement
from mpscheck.upgrade import upgrade_facts


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
        raw_facts = data.get("facts")
        if version < SCHEMA_VERSION and isinstance(raw_facts, dict):
            raw_facts = upgrade_facts(raw_facts)
        facts = from_dict(Facts, raw_facts)
        require = Requirement(data.get("require", "mps"))
    except (FactsError, ValueError, TypeError) as exc:
        raise ReportError(f"{path}: corrupt facts: {exc}") from exc
    command = str(data["command"]) if data.get("command") in ("doctor", "smoke-test", "bench") else "doctor"
    return SavedReport(facts, command, require, strict)
