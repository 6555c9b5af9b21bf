"""The check registry, the context a check reads, and the outcome helpers checks return.

A check is a small pure function over facts, registered in order (cause before effect) with
``@check``. It returns an Outcome; the runner in diagnose.py turns it into a Finding. A check whose
prerequisite failed returns ``ctx.blocked(...)``: a skip that names the upstream id, so one root
cause shows as one failure.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Callable

from mpscheck.facts import Facts, HostFacts, InterpreterFacts, SmokeFacts, TorchFacts
from mpscheck.model import Finding, Remediation, Requirement, Status

DOCTOR = "doctor"
SMOKE = "smoke-test"


@dataclass(frozen=True)
class Outcome:
    status: Status
    summary: str
    details: tuple[str, ...] = ()
    fix: Remediation | None = None
    blocked_by: str | None = None  # set on a skip caused by an upstream failure


def passed(summary: str, *details: str) -> Outcome:
    return Outcome(Status.PASS, summary, tuple(details))


def warned(summary: str, fix: Remediation, *details: str) -> Outcome:
    return Outcome(Status.WARN, summary, tuple(details), fix)


def failed(summary: str, fix: Remediation, *details: str) -> Outcome:
    return Outcome(Status.FAIL, summary, tuple(details), fix)


def skipped(summary: str, *details: str) -> Outcome:
    return Outcome(Status.SKIP, summary, tuple(details))


def fix(summary: str, *commands: str) -> Remediation:
    return Remediation(summary, tuple(commands))


@dataclass
class Context:
    """What a check may read: the facts, the policy, and the findings of the checks before it."""

    facts: Facts
    require: Requirement = Requirement.MPS
    findings: dict[str, Finding] = field(default_factory=dict)
    roots: dict[str, str] = field(default_factory=dict)  # skipped id -> the failure that caused it

    @property
    def host(self) -> HostFacts:
        return self.facts.host

    @property
    def interpreter(self) -> InterpreterFacts | None:
        return self.facts.target.interpreter

    @property
    def torch(self) -> TorchFacts | None:
        return self.facts.target.torch

    @property
    def smoke(self) -> SmokeFacts | None:
        return self.facts.target.smoke

    @property
    def on_macos(self) -> bool:
        return self.host.system == "Darwin"

    @property
    def env(self) -> dict[str, str]:
        return self.interpreter.env if self.interpreter else {}

    @property
    def python(self) -> str:
        """The probed interpreter, quoted for a shell: remediation commands name it exactly."""
        path = self.interpreter.executable if self.interpreter else self.facts.target.requested
        return shlex.quote(path or "python3")

    def pip_install(self, *specs: str, flags: str = "") -> str:
        quoted = " ".join(shlex.quote(spec) for spec in specs)
        return f"{self.python} -m pip install {flags + ' ' if flags else ''}{quoted}"

    def status(self, check_id: str) -> Status | None:
        finding = self.findings.get(check_id)
        return finding.status if finding else None

    def upstream_problem(self, *check_ids: str) -> str | None:
        """The root cause among *check_ids*: one that failed or crashed, or was skipped because of one."""
        for check_id in check_ids:
            if self.status(check_id) in (Status.FAIL, Status.CRASH):
                return check_id
            if check_id in self.roots:
                return self.roots[check_id]
        return None

    def off_macos(self) -> Outcome | None:
        """The skip for a macOS-only check on another OS, or None on macOS."""
        if self.on_macos:
            return None
        if self.upstream_problem("platform"):
            return self.blocked("platform")
        return skipped(f"not macOS ({self.host.system or 'unknown OS'}): MPS does not apply")

    def blocked(self, upstream: str) -> Outcome:
        root = self.roots.get(upstream, upstream)
        return Outcome(Status.SKIP, f"skipped because {root} failed", blocked_by=root)


CheckFunction = Callable[[Context], Outcome]


@dataclass(frozen=True)
class Check:
    id: str
    title: str
    suite: str
    run: CheckFunction


REGISTRY: list[Check] = []


def check(check_id: str, title: str, suite: str = DOCTOR) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check; the order of registration is the order of the report."""

    def register(function: CheckFunction) -> CheckFunction:
        if any(existing.id == check_id for existing in REGISTRY):
            raise ValueError(f"duplicate check id {check_id}")
        REGISTRY.append(Check(check_id, title, suite, function))
        return function

    return register
