"""Renderers print the report and decide nothing: each format checked on scenario reports."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from mpscheck.diagnose import diagnose
from mpscheck.facts import Facts, from_dict, to_dict
from mpscheck.model import Report, Requirement
from mpscheck.render import FORMATS, renderer
from mpscheck.render.github import escape_data, escape_property, workflow_commands
from mpscheck.render.json_report import report_to_dict
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
    assert smoke.startswith("::error ") and "%0AFix: Use a physical Mac" in smoke and "\n" not in smoke
    strict = diagnose(report.facts, strict=True)
    assert all(line.startswith("::error ") for line in workflow_commands(strict))
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


def test_every_format_renders_every_scenario() -> None:
    for report in reports() + reports(strict=True):
        for name in FORMATS:
            out = renderer(name)(report, True)
            assert report.verdict.headline.split(":")[0] in out or name == "junit"
