"""Every format shows the same mark for every check and the same counts, from one rule (Report.mark):
a check not counted for the policy looks the same everywhere, the failures JUnit counts are the
blocking ids the headline names, and no fix shown advises the command that was just run.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.model import Mark, Report, Requirement
from mpscheck.render import renderer
from mpscheck.render.markdown import ICONS
from mpscheck.render.text import MARKS
from tests.scenarios import scenarios


def reports() -> list[Report]:
    out = []
    for scenario in scenarios():
        for strict in (False, True):
            for require in (Requirement(scenario.require), Requirement.NONE):
                out.append(diagnose(scenario.facts, require=require, strict=strict))
    return out


def text_marks(report: Report) -> dict[str, str]:
    """id -> the mark the text report prints on its line (verbose: one line per check)."""
    marks = {}
    for line in renderer("text")(report, True).splitlines():
        found = re.match(r"^(\[.\]) (\S+)", line)
        if found and found.group(2) in {f.id for f in report.findings}:
            marks[found.group(2)] = found.group(1)
    return marks


def markdown_marks(report: Report) -> dict[str, str]:
    rows = re.findall(r"^\| (\S+) \| `([^`]+)` \|", renderer("markdown")(report, False), re.M)
    return {check: icon for icon, check in rows}


def junit_marks(report: Report) -> dict[str, str]:
    suite = ET.fromstring(renderer("junit")(report, False)).find("testsuite")
    assert suite is not None
    out = {}
    for case in suite.findall("testcase"):
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        out[case.get("name") or ""] = kinds[0] if kinds else "ok"
    return out


JUNIT = {
    Mark.PASS: "ok",
    Mark.WARN: "ok",
    Mark.NOT_COUNTED: "ok",
    Mark.FAIL: "failure",
    Mark.CRASH: "error",
    Mark.SKIP: "skipped",
}


@pytest.mark.parametrize("report", reports(), ids=lambda r: f"{r.facts.target.requested}-{r.require.value}")
def test_every_format_shows_the_same_mark_for_every_check(report: Report) -> None:
    expected = {f.id: report.mark(f) for f in report.findings}
    assert text_marks(report) == {i: MARKS[m][0] for i, m in expected.items()}
    assert markdown_marks(report) == {i: ICONS[m] for i, m in expected.items()}
    assert junit_marks(report) == {i: JUNIT[m] for i, m in expected.items()}
    document = json.loads(renderer("json")(report, False))
    assert {f["id"]: f["mark"] for f in document["findings"]} == {i: m.value for i, m in expected.items()}
    assert document["counts"] == report.counts()
    annotations = [line for line in renderer("github")(report, False).splitlines() if line.startswith("::")]
    shown = [i for i, m in expected.items() if m in (Mark.FAIL, Mark.WARN, Mark.CRASH)]
    assert [re.search(r"title=mpscheck (\S+)::", a).group(1) for a in annotations] == shown  # type: ignore[union-attr]


@pytest.mark.parametrize("report", reports(), ids=lambda r: f"{r.facts.target.requested}-{r.require.value}")
def test_junit_failures_are_the_blocking_ids_the_headline_names(report: Report) -> None:
    suite = ET.fromstring(renderer("junit")(report, False)).find("testsuite")
    assert suite is not None
    failures = [c.get("name") for c in suite.findall("testcase") if c.find("failure") is not None]
    assert failures == [f.id for f in report.findings if report.mark(f) is Mark.FAIL]
    if report.require is not Requirement.NONE:
        assert set(failures) == set(report.verdict.blocking)
        for blocking in report.verdict.blocking:
            assert blocking in report.verdict.headline
    assert suite.get("failures") == str(report.counts()["fail"])


def test_cuda_not_counted_for_mps_looks_the_same_in_every_format() -> None:
    """The reported case: on Linux, text showed cuda as not counted while markdown showed ❌."""
    scenario = next(s for s in scenarios() if s.name == "Linux CPU only, --require gpu")
    report = diagnose(scenario.facts, require=Requirement.MPS)
    assert report.verdict.not_counted == ("cuda",)
    markdown = renderer("markdown")(report, False)
    assert "| · | `cuda` |" in markdown and "(not counted for --require mps)" in markdown
    assert "**cuda**" not in markdown  # no fix for it under "How to fix"
    assert "(not counted for --require mps)" in renderer("junit")(report, False)
    assert report.counts()["not-counted"] == 1 and report.counts()["fail"] == 1
    assert report.verdict.headline == "Not ready: MPS failed: platform"


def test_no_fix_advises_the_command_just_run() -> None:
    scenario = next(s for s in scenarios() if s.name == "Linux CPU only, --require none")
    report = diagnose(scenario.facts, require=Requirement.NONE)
    platform = next(f for f in report.findings if f.id == "platform")
    assert platform.fix is not None and "mpscheck doctor --require none" in platform.fix.commands  # the finding's own
    for fmt in ("text", "markdown", "github", "junit"):
        assert "mpscheck doctor --require none" not in renderer(fmt)(report, True), fmt
    mps = diagnose(scenario.facts, require=Requirement.MPS)  # under another requirement it is advice
    assert "mpscheck doctor --require none" in renderer("text")(mps, True)
