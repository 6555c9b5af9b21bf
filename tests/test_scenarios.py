"""Every doctor check on fact sets that stand for real Macs (and Linux): exact ids and statuses."""

from __future__ import annotations

import pytest

from mpscheck.checks import DOCTOR, checks_for
from mpscheck.checks.diagnose import diagnose
from mpscheck.model import Requirement, Status
from tests.scenarios import Scenario, scenarios

SCENARIOS = scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_scenario(scenario: Scenario) -> None:
    report = diagnose(scenario.facts, require=Requirement(scenario.require))
    statuses = {f.id: f.status.value for f in report.findings}
    assert statuses == scenario.expected
    assert int(report.verdict.exit_code) == scenario.exit_code
    by_id = {f.id: f for f in report.findings}
    for check_id, words in scenario.mentions.items():
        finding = by_id[check_id]
        text = " ".join(
            [finding.summary, *finding.details, *([finding.fix.summary, *finding.fix.commands] if finding.fix else [])]
        )
        for word in words:
            assert word in text, f"{check_id}: {word!r} not in {text!r}"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_every_problem_has_a_fix_with_a_command(scenario: Scenario) -> None:
    report = diagnose(scenario.facts, require=Requirement(scenario.require))
    for finding in report.findings:
        if finding.status in (Status.WARN, Status.FAIL):
            assert finding.fix is not None, finding.id
            assert finding.fix.commands, f"{finding.id} has no command to type"


def test_scenarios_list_only_doctor_checks() -> None:
    ids = {c.id for c in checks_for(DOCTOR)}
    for scenario in SCENARIOS:
        assert set(scenario.listed) <= ids, scenario.name


@pytest.mark.parametrize("require", ["mps", "gpu", "none"])
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_findings_do_not_depend_on_the_requirement(scenario: Scenario, require: str) -> None:
    """--require changes the verdict, never a finding."""
    baseline = diagnose(scenario.facts, require=Requirement.MPS).findings
    assert diagnose(scenario.facts, require=Requirement(require)).findings == baseline


def test_one_root_cause_one_failure() -> None:
    """Skips name their root cause instead of failing again."""
    scenario = next(s for s in SCENARIOS if s.name.startswith("torch not installed"))
    report = diagnose(scenario.facts)
    blocked = {f.id: f.blocked_by for f in report.findings if f.status is Status.SKIP and f.blocked_by}
    assert blocked == dict.fromkeys(
        ("mps-built", "mps-available", "smoke", "silent-bugs", "frameworks"), "torch-import"
    )


def test_report_order_is_cause_before_effect() -> None:
    """A check comes after everything it declares it needs, and the order starts at the machine."""
    order = [c.id for c in checks_for(DOCTOR)]
    for position, item in enumerate(checks_for(DOCTOR)):
        assert all(order.index(need) < position for need in item.needs), item.id
    assert order[:3] == ["platform", "chip", "virtual-machine"] and order[-3:] == ["smoke", "silent-bugs", "frameworks"]
