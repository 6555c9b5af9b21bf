"""Run the checks over facts and build the report. A check that raises becomes a crash finding.

Used the same way for a live probe and for a saved report (``mpscheck explain``), so today's checks
judge yesterday's facts.
"""

from __future__ import annotations

import traceback
from typing import Iterable

from mpscheck.checks import DOCTOR, Check, Context, checks_for
from mpscheck.checks.registry import Outcome
from mpscheck.facts import Facts
from mpscheck.model import Finding, Remediation, Report, Requirement, Status
from mpscheck.policy import decide

BUG_REPORT = Remediation(
    "This is a bug in mpscheck: please report it with the saved report attached.",
    ("mpscheck doctor --format json --output mpscheck-report.json",),
)


def run_checks(checks: Iterable[Check], ctx: Context) -> list[Finding]:
    findings = []
    for item in checks:
        try:
            outcome = item.run(ctx)
        except Exception as exc:  # a broken check must not cost the rest of the report
            last = traceback.extract_tb(exc.__traceback__)[-1]
            outcome = Outcome(
                Status.CRASH,
                f"the check itself failed: {type(exc).__name__}: {exc}",
                (f"at {last.filename}:{last.lineno}",),
                BUG_REPORT,
            )
        root = ctx.roots.get(outcome.blocked_by, outcome.blocked_by) if outcome.blocked_by else None
        if root:
            ctx.roots[item.id] = root
        finding = Finding(item.id, item.title, outcome.status, outcome.summary, outcome.details, outcome.fix, root)
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
    ctx = Context(facts=facts, require=require)
    doctor_findings = run_checks(checks_for(DOCTOR), ctx)
    findings = run_checks(checks_for(command), ctx) if command != DOCTOR else doctor_findings
    selected = set(only)
    if selected:
        findings = [f for f in findings if f.id in selected]
    return Report(
        command=command,
        facts=facts,
        findings=findings,
        verdict=decide(findings, require, strict, command),
        require=require,
        strict=strict,
    )
