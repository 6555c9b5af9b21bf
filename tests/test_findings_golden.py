"""Every finding and verdict on every recorded fact set, compared whole with tests/golden/findings.txt.

The scenario tests name the statuses and a few words each situation is about; this one holds the
rest: each finding's status, summary, details, fix and root cause, and the verdict with its
blocking ids, for the doctor and smoke-test on the scenarios, the probe outcomes of the readiness
table and the smoke runs of test_smoke_checks. A changed rule, threshold or command shows as a
diff to review; `pytest --update-golden` rewrites the file when the change is meant.
"""

from __future__ import annotations

from collections.abc import Iterator

from mpscheck.checks.diagnose import diagnose
from mpscheck.facts import Facts, ProbeRun, SmokeStep
from mpscheck.model import Report, Requirement, Status
from tests import recorded as rec
from tests.scenarios import scenarios
from tests.test_readiness import COMMANDS, OUTCOMES, outcome
from tests.test_smoke_checks import full_smoke, m1_facts, mps_dtypes


def describe(title: str, report: Report) -> str:
    """A report as reviewable lines: one block per finding, then the verdict."""
    verdict = report.verdict
    lines = [
        f"== {title} [{report.command}, --require {report.require.value}{', --strict' if report.strict else ''}]",
        f"verdict: exit {int(verdict.exit_code)}, ready {verdict.ready}, blocking {list(verdict.blocking)}",
        f"  {verdict.headline}",
    ]
    for finding in report.findings:
        lines.append(f"{finding.id} [{finding.status.value}] {finding.summary}")
        lines.extend(f"    detail: {detail}" for detail in finding.details)
        if finding.fix:
            lines.append(f"    fix: {finding.fix.summary}")
            lines.extend(f"    $ {command}" for command in finding.fix.commands)
        if finding.blocked_by:
            lines.append(f"    blocked by: {finding.blocked_by}")
    return "\n".join(lines) + "\n"


def smoke_runs() -> Iterator[tuple[str, Facts]]:
    """The smoke-test fact sets of test_smoke_checks, and a few more steps that raised or died."""
    yield "healthy M1, full smoke", m1_facts(full_smoke())
    yield (
        "bfloat16 on macOS 13.5",
        m1_facts(full_smoke(mps_dtypes(rec.BF16_MACOS13_ERROR)), sw_vers=rec.SW_VERS_13_5, mac_ver="13.5"),
    )
    yield (
        "VM allocation",
        m1_facts(full_smoke(SmokeStep("allocate", "raised", 0.3, {}, rec.VM_ALLOCATION_ERROR, "RuntimeError"))),
    )
    yield (
        "real out of memory in train",
        m1_facts(full_smoke(SmokeStep("train", "raised", 3.0, {}, rec.REAL_OOM, "RuntimeError"))),
    )
    yield (
        "fallback off, missing kernel",
        m1_facts(
            full_smoke(
                SmokeStep("train", "raised", 1.0, {}, rec.FALLBACK_OFF_ERROR, "NotImplementedError"), fallback=None
            ),
            env={},
        ),
    )
    crashed = full_smoke()
    crashed.steps = crashed.steps[:2]
    run = ProbeRun(
        status="crashed",
        workload="full",
        returncode=-6,
        running_stage="step:matmul",
        message="killed by SIGABRT during the step:matmul stage",
        stderr_tail="first line\n(the crashed process's last words)\n",
    )
    yield "abort inside Metal during matmul", m1_facts(crashed, run=run)


def reports() -> Iterator[tuple[str, Report]]:
    """Every report the golden file holds, with its title."""
    for scenario in scenarios():
        require = Requirement(scenario.require)
        yield scenario.name, diagnose(scenario.facts, require=require)
        smoke_require = Requirement.DEVICE if require is Requirement.NONE else require
        yield scenario.name, diagnose(scenario.facts, command="smoke-test", require=smoke_require)
    for name in OUTCOMES:
        for command, (workload, _) in COMMANDS.items():
            require = Requirement.MPS if command == "doctor" else Requirement.DEVICE
            report = diagnose(outcome(name, workload), command=command, require=require, strict=True)
            yield f"probe outcome: {name}", report
    for title, facts in smoke_runs():
        yield title, diagnose(facts, command="smoke-test", require=Requirement.MPS)


def build() -> str:
    return "\n".join(describe(title, report) for title, report in reports())


def test_every_finding_on_every_recorded_fact_set(golden) -> None:
    golden("findings.txt", build())


def test_every_problem_comes_with_a_command_to_type() -> None:
    """A failure, warning or crash always says what to type; checks that quote a root cause's fix rely on it."""
    for title, report in reports():
        for finding in report.findings:
            if finding.status in (Status.FAIL, Status.WARN, Status.CRASH):
                assert finding.fix and finding.fix.commands, f"{title}: {finding.id} has no command"
