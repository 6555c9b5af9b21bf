"""Renderers print the report and decide nothing: each format checked on scenario reports."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.facts import Facts, from_dict, to_dict
from mpscheck.model import Mark, Remediation, Report, Requirement
from mpscheck.render import FORMATS, renderer
from mpscheck.render.github import escape_data, escape_property, workflow_commands
from mpscheck.render.json_report import report_to_dict
from mpscheck.render.markdown import home_to_tilde
from mpscheck.render.markdown import render as markdown
from mpscheck.render.text import render as text
from tests.scenarios import scenarios

GOLDEN = Path(__file__).parent / "golden"
SCHEMA = json.loads(resources.files("mpscheck").joinpath("report.schema.json").read_text())


def validate(document: dict) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(document)


def reports(strict: bool = False) -> list[Report]:
    return [diagnose(s.facts, require=Requirement(s.require), strict=strict) for s in scenarios()]


def by_name(name: str) -> Report:
    scenario = next(s for s in scenarios() if s.name.startswith(name))
    return diagnose(scenario.facts, require=Requirement(scenario.require))


def test_schema_is_itself_valid() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("command", ["doctor", "smoke-test"])
def test_every_scenario_report_matches_the_schema(command: str) -> None:
    for scenario in scenarios():
        report = diagnose(scenario.facts, command=command, require=Requirement(scenario.require))
        validate(json.loads(renderer("json")(report, False)))


def test_schema_rejects_a_report_missing_its_verdict() -> None:
    document = report_to_dict(reports()[0])
    del document["exit_code"]
    with pytest.raises(jsonschema.ValidationError):
        validate(document)


def test_facts_survive_a_json_round_trip() -> None:
    for scenario in scenarios():
        again = from_dict(Facts, json.loads(json.dumps(to_dict(scenario.facts))))
        assert again == scenario.facts, scenario.name


def test_text_report_whole(golden) -> None:
    """The terminal report at a fixed width and without colour, compared whole."""
    got = text(by_name("Rosetta via an Intel Miniconda"), width=100)
    golden("rosetta_conda.txt", got)
    assert "\x1b[" not in got


def test_text_collapses_skips_sharing_a_cause_unless_verbose() -> None:
    report = by_name("Linux CPU only, --require none")
    short, verbose = text(report), text(report, verbose=True)
    assert "[-] chip, virtual-machine, python-arch" in short
    assert "[-] chip " in verbose and "[-] chip, " not in verbose


def test_markdown_for_an_issue() -> None:
    report = by_name("healthy native M2 Pro")
    out = markdown(report)
    assert out.startswith("## mpscheck doctor · probed ~/.venvs/torch/bin/python")
    assert "/Users/dev" not in out
    assert "| ✅ | `chip` | Apple M2 Pro, 16 GiB unified memory |" in out
    assert "**mps-fallback-env**: Set it before Python starts" in out
    assert "```sh\nexport PYTORCH_ENABLE_MPS_FALLBACK=1\n```" in out
    details = out[out.index("<details>") :]
    for field in (
        "PyTorch version: 2.10.0",
        "OS: macOS 14.4.1 (arm64)",
        "CPU: Apple M2 Pro",
        "Is MPS available: True",
        "Python platform: macOS-14.4.1-arm64-arm-64bit",
        "Is CUDA available: False",
        "Versions of relevant libraries:",
        "[pip3] lightning==2.4.0",
    ):
        assert field in details, field


def test_github_escaping_follows_the_workflow_command_rules() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("mpscheck a:b,c") == "mpscheck a%3Ab%2Cc"


def test_github_annotations() -> None:
    report = by_name("GitHub-hosted macOS arm64 runner")
    lines = workflow_commands(report)
    assert lines[0].startswith("::warning title=mpscheck virtual-machine::macOS virtual machine")
    smoke = next(line for line in lines if "title=mpscheck smoke::" in line)
    assert smoke.startswith("::error ") and "%0AFix: Run MPS work on a physical Mac" in smoke and "\n" not in smoke
    strict = diagnose(report.facts, strict=True)
    advisory = [line for line in workflow_commands(strict) if "title=mpscheck silent-bugs::" in line]
    assert len(advisory) == 1 and advisory[0].startswith("::warning ")  # never blocks, not even with --strict
    assert all(line.startswith("::error ") for line in workflow_commands(strict) if line not in advisory)
    assert renderer("github")(report, False).endswith(lines[-1] + "\n")


def test_junit_is_valid_xml_with_one_testcase_per_check() -> None:
    report = by_name("GitHub-hosted macOS arm64 runner")
    root = ET.fromstring(renderer("junit")(report, False))
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == [f.id for f in report.findings]
    failures = [c.get("name") for c in cases if c.find("failure") is not None]
    skipped = [c.get("name") for c in cases if c.find("skipped") is not None]
    assert failures == ["smoke"]
    assert skipped == ["cuda", "frameworks"]
    assert suite.get("failures") == "1" and suite.get("tests") == str(len(cases)) and suite.get("errors") == "0"
    warning = next(c for c in cases if c.get("name") == "mps-available")
    assert warning.find("system-out").text.startswith("warn: MPS reports available")


def test_junit_strict_turns_warnings_into_failures() -> None:
    report = diagnose(by_name("GitHub-hosted macOS arm64 runner").facts, strict=True)
    root = ET.fromstring(renderer("junit")(report, False))
    assert root.get("failures") == "4"


def commands_counted(report: Report) -> list[str]:
    """Fix commands every format prints: problems that count for this --require (report.fixes())."""
    return [c for f in report.fixes() for c in (report.advice(f) or Remediation("")).commands]


def _content_of(name: str, report: Report) -> None:
    """What each format must carry: every finding's id and status, the verdict, and every fix command."""
    out = renderer(name)(report, True)
    commands = [c for f in report.findings if f.fix and f.status.value in ("warn", "fail") for c in f.fix.commands]
    if name == "json":
        document = json.loads(out)
        assert [(f["id"], f["status"]) for f in document["findings"]] == [
            (f.id, f.status.value) for f in report.findings
        ]
        assert (document["exit_code"], document["headline"]) == (int(report.verdict.exit_code), report.verdict.headline)
        assert [
            c
            for f in document["findings"]
            if f["fix"] and f["status"] in ("warn", "fail")
            for c in f["fix"]["commands"]
        ] == commands
    elif name == "junit":
        suite = ET.fromstring(out).find("testsuite")
        cases = {c.get("name"): c for c in suite.findall("testcase")}
        assert list(cases) == [f.id for f in report.findings]
        for finding in report.findings:
            failed = cases[finding.id].find("failure") is not None
            assert failed is (report.mark(finding) is Mark.FAIL), finding.id
        properties = {p.get("name"): p.get("value") for p in suite.find("properties")}
        assert properties["verdict"] == report.verdict.headline
        texts = " ".join(node.text or "" for node in suite.iter())
        for command in commands_counted(report):
            assert command in texts
    else:
        assert report.verdict.headline in out
        for finding in report.findings:
            assert finding.id in out
        for command in commands_counted(report):
            assert (home_to_tilde(command, report.facts) if name == "markdown" else command) in out
        if name == "github":
            annotations = [line for line in out.splitlines() if line.startswith(("::error", "::warning"))]
            expected = [f for f in report.findings if report.mark(f) in (Mark.FAIL, Mark.WARN, Mark.CRASH)]
            assert len(annotations) == len(expected)


@pytest.mark.parametrize("name", FORMATS)
def test_every_format_carries_every_finding_fix_and_verdict(name: str) -> None:
    for report in reports() + reports(strict=True):
        _content_of(name, report)


def test_a_problem_on_the_path_not_taken_is_shown_dim_and_without_a_fix() -> None:
    report = by_name("Linux with CUDA, --require gpu")
    assert report.verdict.ready and report.verdict.not_counted == ("platform",)
    out = text(report, width=300)
    assert "[·] platform" in out and "(not counted for --require gpu)" in out
    assert "mpscheck doctor --require gpu" not in out  # platform's fix is not printed here
    assert not [line for line in renderer("github")(report, False).splitlines() if line.startswith("::")]
