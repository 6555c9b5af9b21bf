"""Run the checks over facts and build the report. A check that raises becomes a crash finding.

The runner owns what every check would otherwise repeat: the skip off macOS for a macOS-only
check, and the skip naming the root cause when a declared prerequisite failed. Used the same way
for a live probe and for a saved report (``mpscheck explain``), so today's checks judge
yesterday's facts. The verdict is always drawn from every finding; ``only`` filters what is shown.
"""

from __future__ import annotations

import traceback
from typing import Iterable

from mpscheck.checks import BENCH, DOCTOR, INPUT, Check, Context, checks_for
from mpscheck.checks.policy import decide
from mpscheck.checks.registry import Outcome, skipped
from mpscheck.facts import Facts
from mpscheck.model import Finding, Remediation, Report, Requirement, Status

BUG_REPORT = Remediation(
    "This is a bug in mpscheck: please report it with the saved report attached.",
    ("mpscheck doctor --format json --output mpscheck-report.json",),
)


def _declared_skip(item: Check, ctx: Context) -> Outcome | None:
    """The skip that the check's declaration implies here, or None when its rule must run."""
    if item.where == "macos" and ctx.off_macos:
        return skipped(f"not macOS ({ctx.host.system}): MPS does not apply")
    if item.where == "elsewhere" and ctx.on_macos:
        return skipped("does not apply on macOS")
    root = ctx.upstream_problem(*item.needs)
    return ctx.blocked(root) if root else None


def _run_one(item: Check, ctx: Context) -> Outcome:
    try:
        return _declared_skip(item, ctx) or item.run(ctx)
    except Exception as exc:  # a broken check must not cost the rest of the report
        last = traceback.extract_tb(exc.__traceback__)[-1]
        return Outcome(
            Status.CRASH,
            f"the check itself failed: {type(exc).__name__}: {exc}",
            (f"at {last.filename}:{last.lineno}",),
            BUG_REPORT,
        )


def run_checks(checks: Iterable[Check], ctx: Context) -> list[Finding]:
    findings = []
    for item in checks:
        outcome = _run_one(item, ctx)
        root = ctx.roots.get(outcome.blocked_by, outcome.blocked_by) if outcome.blocked_by else None
        if root:
            ctx.roots[item.id] = root
        finding = Finding(
            item.id, item.title, outcome.status, outcome.summary, outcome.details, outcome.fix, root, outcome.cause
        )
        ctx.findings[item.id] = finding
        findings.append(finding)
    return findings


def diagnose(
    facts: Facts,
    *,
    command: str = DOCTOR,
    require: Requirement = Requirement.MPS,
    strict: bool = False,
    only: Iterable[str] = (),
) -> Report:
    """Judge *facts*. smoke-test and bench report their own suites; the doctor's findings explain them."""
    ctx = Context(facts=facts)
    doctor_findings = run_checks(checks_for(DOCTOR), ctx)
    if facts.errors:  # an input that showed error text (a paste): its errors are judged too
        doctor_findings += run_checks(checks_for(INPUT), ctx)
    findings = run_checks(checks_for(command), ctx) if command != DOCTOR else doctor_findings
    verdict = decide(findings, facts, require=require, strict=strict, command=command)
    selected = set(only)
    shown = [f for f in findings if f.id in selected] if selected else findings
    report = Report(command=command, facts=facts, findings=shown, verdict=verdict, require=require, strict=strict)
    if command == BENCH:
        from mpscheck.checks.bench import bench_summary

        report.bench = bench_summary(facts)
    return report
