"""The vocabulary of a diagnosis: statuses, findings with their fixes, the report, exit codes.

Checks produce Findings; the policy turns them into a Verdict; renderers print a Report. Nothing
here touches the machine, so a saved report can be rebuilt and judged anywhere.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # an annotation only: `mpscheck --help` does not load the facts' classes
    from mpscheck.facts import Facts

if TYPE_CHECKING:
    from mpscheck.checks.bench import BenchSummary

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


class Mark(str, enum.Enum):
    """How every format shows a finding under this verdict: its status, except that a problem on a path
    the requirement does not take is ``not-counted``, and a finding that blocks readiness (a required
    check that did not pass, a warning under --strict) is ``fail``. One rule, so every format agrees."""

    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"
    SKIP = "skip"
    CRASH = "crash"
    NOT_COUNTED = "not-counted"


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
    cause: str | None = None  # the cause id of this finding where it is not its check's own (explain's judge)

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
    # Command lines that repeat this run: no fix shown advises them. Not part of what was decided.
    this_run: tuple[str, ...] = field(default=(), compare=False)


@dataclass
class Report:
    """Facts, the findings drawn from them, and the verdict: everything a renderer needs."""

    command: str  # "doctor" or "smoke-test"
    facts: Facts
    findings: list[Finding]
    verdict: Verdict
    require: Requirement
    strict: bool
    bench: BenchSummary | None = None  # mpscheck bench: the figures its checks decided, for the renderers

    def mark(self, finding: Finding) -> Mark:
        """How *finding* is shown in every format (text, json, markdown, github, junit, step summary)."""
        if finding.status is Status.CRASH:
            return Mark.CRASH
        if finding.id in self.verdict.not_counted:
            return Mark.NOT_COUNTED
        if finding.id in self.verdict.blocking:
            return Mark.FAIL
        return Mark(finding.status.value)

    def counts(self) -> dict[str, int]:
        """The findings shown, per mark: the same figures in every format."""
        out = {m.value: 0 for m in Mark}
        for finding in self.findings:
            out[self.mark(finding).value] += 1
        return out

    def advice(self, finding: Finding) -> Remediation | None:
        """The fix every format shows for *finding*: its own, less any command that repeats this run."""
        fix = finding.fix
        if fix is None or not set(fix.commands) & set(self.verdict.this_run):
            return fix
        return Remediation(fix.summary, tuple(c for c in fix.commands if c not in self.verdict.this_run))

    def fixes(self) -> list[Finding]:
        """The findings whose fix every format prints: the problems that count under this verdict."""
        shown = (Mark.WARN, Mark.FAIL, Mark.CRASH)
        return [f for f in self.findings if f.fix and self.mark(f) in shown]
