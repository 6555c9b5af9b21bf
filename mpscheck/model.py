"""The vocabulary of a diagnosis: statuses, findings with their fixes, the report, exit codes.

Checks produce Findings; the policy turns them into a Verdict; renderers print a Report. Nothing
here touches the machine, so a saved report can be rebuilt and judged anywhere.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # an annotation only: `mpscheck --help` does not load the facts' classes
    from mpscheck.facts import Facts

SCHEMA_VERSION = 2  # 2: smoke steps hold observations only (v1 held their own verdicts)
REPORT_KIND = "mpscheck-report"


class ExitCode(enum.IntEnum):
    """What a CI pipeline may rely on; documented in the README and docs/ci.md."""

    READY = 0
    PROBLEMS = 1
    USAGE = 2
    INTERNAL = 3


class Status(str, enum.Enum):
    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"
    SKIP = "skip"
    CRASH = "crash"  # the check itself raised: an mpscheck bug


class Requirement(str, enum.Enum):
    """What must work for a run to count as ready (``--require``)."""

    MPS = "mps"
    GPU = "gpu"
    NONE = "none"
    DEVICE = "device"  # smoke-test's default: the workload passed on whichever device ran


@dataclass(frozen=True)
class Remediation:
    """One imperative sentence plus the exact commands, kept as data so every format can show them."""

    summary: str
    commands: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"summary": self.summary, "commands": list(self.commands)}


@dataclass(frozen=True)
class Finding:
    """A check's judgement: a status, a one-line summary with the observed value, evidence, a fix."""

    id: str
    title: str
    status: Status
    summary: str
    details: tuple[str, ...] = ()
    fix: Remediation | None = None
    blocked_by: str | None = None  # a skip caused by this upstream failure

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "status": self.status.value,
            "summary": self.summary,
            "details": list(self.details),
            "fix": self.fix.to_dict() if self.fix else None,
            "blocked_by": self.blocked_by,
        }


@dataclass(frozen=True)
class Verdict:
    """What the policy concluded: the exit code, which findings decided it, and a closing line."""

    exit_code: ExitCode
    ready: bool
    blocking: tuple[str, ...]
    headline: str
    not_counted: tuple[str, ...] = ()  # problems on a path this requirement does not take (cuda for mps)


@dataclass
class Report:
    """Facts, the findings drawn from them, and the verdict: everything a renderer needs."""

    command: str  # "doctor" or "smoke-test"
    facts: Facts
    findings: list[Finding]
    verdict: Verdict
    require: Requirement
    strict: bool

    def counts(self) -> dict[str, int]:
        out = {s.value: 0 for s in Status}
        for finding in self.findings:
            out[finding.status.value] += 1
        return out
