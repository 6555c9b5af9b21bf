"""What a judgement of a paste gives back: the causes, each with the paste's lines as evidence, and the
diagnosis (root cause first, the rest, the doctor's findings on the paste's facts, the exit code).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from mpscheck.facts import Facts
from mpscheck.model import ExitCode, Finding, Remediation, Status
from mpscheck.probes.paste.model import Observation


@dataclass(frozen=True)
class Evidence:
    line: int
    text: str


@dataclass(frozen=True)
class Cause:
    id: str
    summary: str
    fix: Remediation | None
    evidence: tuple[Evidence, ...] = ()
    source: str = ""
    notes: tuple[str, ...] = ()
    variant: str | None = None  # which kind of this cause: out-of-memory's vm-cap, too-large, other-processes...

    def __post_init__(self) -> None:
        """Evidence in the paste's order, each line once."""
        unique = {e.line: e for e in self.evidence}
        object.__setattr__(self, "evidence", tuple(unique[n] for n in sorted(unique)))


@dataclass
class Diagnosis:
    """A paste's root cause first, then the other causes and the doctor's findings it supports."""

    kinds: list[str]
    cause: Cause
    others: list[Cause] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    facts: Facts = field(default_factory=Facts)
    exit_code: ExitCode = ExitCode.PROBLEMS
    status: Status | None = Status.FAIL  # the root cause's: pass, warn (a performance note), fail; None: unread
    next_step: str | None = None


def evidence_of(observations: Iterable[Observation]) -> tuple[Evidence, ...]:
    seen: dict[int, Evidence] = {}
    for obs in observations:
        if obs.command is not None:
            seen.setdefault(obs.command, Evidence(obs.command, obs.command_text))
        seen.setdefault(obs.line, Evidence(obs.line, obs.text))
    return tuple(seen[n] for n in sorted(seen))
