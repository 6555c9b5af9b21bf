"""The check registry, the context a check reads, and the outcome helpers checks return.

A check is a small pure function over facts, registered with ``@check``. Its prerequisites are
declared, not coded: ``where="macos"`` makes the runner skip it off macOS (``"elsewhere"``: on
macOS), and ``needs=(...)`` makes the runner skip it, naming the root cause, when a prerequisite
failed. So a check body holds only its rule, and one root cause shows as one failure. A check
never reads the policy: its status depends on the facts alone (``--require`` is judged in policy.py).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Callable

from mpscheck.checks.installing import install_command
from mpscheck.facts import Facts, HostFacts, InterpreterFacts, SmokeFacts, TorchFacts
from mpscheck.model import Finding, Remediation, Status

DOCTOR = "doctor"
SMOKE = "smoke-test"
BENCH = "bench"
INPUT = "input"  # checks of what an input's text shows (a paste's errors): run when the facts hold such text


@dataclass(frozen=True)
class Outcome:
    status: Status
    summary: str
    details: tuple[str, ...] = ()
    fix: Remediation | None = None
    blocked_by: str | None = None  # set on a skip caused by an upstream failure
    # the cause id this outcome stands for where it is not the check's own (a torch bug the macOS check sees)
    cause: str | None = None


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
    """What a check may read: the facts, and the findings of the checks before it."""

    facts: Facts
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
    def off_macos(self) -> bool:
        """Known not to be macOS; an unknown OS (a paste that does not say) is not 'off macOS'."""
        return bool(self.host.system) and self.host.system != "Darwin"

    @property
    def env(self) -> dict[str, str]:
        return (self.interpreter.env if self.interpreter else None) or {}

    @property
    def python(self) -> str:
        """The probed interpreter, quoted for a shell: remediation commands name it exactly."""
        path = self.interpreter.executable if self.interpreter else self.facts.target.requested
        return shlex.quote(path or "python3")

    def install(self, *specs: str, upgrade: bool = False, reinstall: bool = False, index_url: str | None = None) -> str:
        """The install command that fits this interpreter's setup (pip, uv, a fresh venv)."""
        return install_command(
            self.interpreter, self.python, *specs, upgrade=upgrade, reinstall=reinstall, index_url=index_url
        )

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
    where: str = "anywhere"  # "macos": skipped off macOS; "elsewhere": skipped on macOS
    needs: tuple[str, ...] = ()  # the runner skips this check, naming the root cause, when one of these failed
    # What explain needs to judge it from text: the facts it reads (its finding on a paste is kept only
    # when the paste shows them all; none: not judged from text), and the cause id its failure stands
    # for (docs/causes.md; None: "doctor-check-failed", naming this check).
    reads: tuple[str, ...] = ()
    cause: str | None = None


REGISTRY: dict[str, Check] = {}


def check(
    check_id: str,
    title: str,
    suite: str = DOCTOR,
    *,
    where: str = "anywhere",
    needs: tuple[str, ...] = (),
    reads: tuple[str, ...] = (),
    cause: str | None = None,
) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check; its place in the report comes from checks.ORDER, not from import order."""

    def register(function: CheckFunction) -> CheckFunction:
        if check_id in REGISTRY:
            raise ValueError(f"duplicate check id {check_id}")
        if where not in ("anywhere", "macos", "elsewhere"):
            raise ValueError(f"{check_id}: where={where!r}")
        REGISTRY[check_id] = Check(check_id, title, suite, function, where, needs, reads, cause)
        return function

    return register
