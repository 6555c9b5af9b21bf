"""Read a saved JSON report back into facts, so today's checks can judge it (``mpscheck explain``)."""

from __future__ import annotations

import json
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
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"cannot read {path}: {exc}") from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ReportError(f"{path} is not JSON ({exc}); save one with `mpscheck doctor --format json`") from exc
    if not isinstance(data, dict) or data.get("kind") != REPORT_KIND:
        raise ReportError(f'{path} is not an mpscheck report (no "kind": "{REPORT_KIND}")')
    version = data.get("schema_version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise ReportError(
            f"{path} has schema version {version!r}; this mpscheck reads up to {SCHEMA_VERSION}: upgrade it"
        )
    try:
        raw_facts = data.get("facts")
        if version < SCHEMA_VERSION and isinstance(raw_facts, dict):
            raw_facts = upgrade_facts(raw_facts)
        facts = from_dict(Facts, raw_facts)
        require = Requirement(data.get("require", "mps"))
    except (FactsError, ValueError) as exc:
        raise ReportError(f"{path}: corrupt facts: {exc}") from exc
    command = str(data["command"]) if data.get("command") in ("doctor", "smoke-test") else "doctor"
    return SavedReport(facts, command, require, bool(data.get("strict", False)))
