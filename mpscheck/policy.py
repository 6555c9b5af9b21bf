"""From findings to the verdict and exit code that CI relies on. Renderers only print this.

--require mps|gpu|none shapes the findings (a Linux leg with --require gpu and CUDA passes
platform); here a fail, or with --strict a warning, blocks; none blocks nothing; a crash is ours.
"""

from __future__ import annotations

from typing import Sequence

from mpscheck.model import ExitCode, Finding, Requirement, Status, Verdict

WHAT_MUST_WORK = {
    Requirement.MPS: "MPS",
    Requirement.GPU: "a GPU (MPS or CUDA)",
    Requirement.NONE: "nothing (report only)",
    Requirement.DEVICE: "the workload on the device that ran",
}


def decide(findings: Sequence[Finding], require: Requirement, strict: bool, command: str) -> Verdict:
    crashed = tuple(f.id for f in findings if f.status is Status.CRASH)
    blocking_statuses = {Status.FAIL, Status.WARN} if strict else {Status.FAIL}
    problems = tuple(f.id for f in findings if f.status in blocking_statuses)
    warnings = sum(f.status is Status.WARN for f in findings)
    if crashed:
        return Verdict(
            ExitCode.INTERNAL, False, crashed, f"mpscheck itself failed in {', '.join(crashed)}: please report this bug"
        )
    if require is Requirement.NONE:
        found = f"{len(problems)} problem(s): {', '.join(problems)}" if problems else "no problems"
        return Verdict(ExitCode.READY, not problems, (), f"Report only (--require none): {found}")
    if problems:
        return Verdict(
            ExitCode.PROBLEMS, False, problems, f"Not ready: {WHAT_MUST_WORK[require]} failed: {', '.join(problems)}"
        )
    subject = "MPS is ready" if require is Requirement.MPS else f"Ready: {WHAT_MUST_WORK[require]} works"
    if command == "smoke-test" and require is Requirement.DEVICE:
        subject = "Ready: the workload passed"
    if command == "bench":
        subject = "Bench done: every measured workload matched the CPU"
    tail = f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else ""
    return Verdict(ExitCode.READY, True, (), subject + tail)
