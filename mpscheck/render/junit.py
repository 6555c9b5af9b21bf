"""JUnit XML: one testcase per check, so CI servers show mpscheck next to the test results.

A blocking finding is a <failure>, a crash an <error>, a skip <skipped>; a warning that does not
block passes with its text in <system-out>. Every text and attribute is made fit for XML 1.0 in
one pass at the end: ANSI escapes (torch's and compilers' coloured errors) are stripped, and other
characters XML cannot hold are written as \\xNN, so the file always parses.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from mpscheck.model import Mark, Report
from mpscheck.render.text import NOT_COUNTED

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """*text* without ANSI escapes, and with characters XML 1.0 cannot carry shown as \\xNN."""
    text = _ANSI.sub("", text)
    return _NOT_XML.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def _clean(root: ET.Element) -> None:
    for element in root.iter():
        if element.text:
            element.text = xml_safe(element.text)
        for key, value in list(element.attrib.items()):
            element.set(key, xml_safe(value))


def render(report: Report, verbose: bool = False) -> str:
    counts = {"failures": 0, "errors": 0, "skipped": 0}
    suite = ET.Element("testsuite", name=f"mpscheck {report.command}")
    properties = ET.SubElement(suite, "properties")
    for name, value in (
        ("python", report.facts.target.requested or ""),
        ("require", report.require.value),
        ("verdict", report.verdict.headline),
    ):
        ET.SubElement(properties, "property", name=name, value=value)
    for finding in report.findings:
        case = ET.SubElement(suite, "testcase", classname=f"mpscheck.{report.command}", name=finding.id, time="0")
        body = finding.summary
        mark = report.mark(finding)
        advice = report.advice(finding)
        if finding in report.fixes() and advice:
            body += "\nFix: " + advice.summary + "".join("\n  " + c for c in advice.commands)
        if mark is Mark.CRASH:
            ET.SubElement(case, "error", message=finding.summary, type="crash").text = body
            counts["errors"] += 1
        elif mark is Mark.FAIL:  # a failure, or a required check that did not confirm anything
            ET.SubElement(case, "failure", message=finding.summary, type=finding.status.value).text = body
            counts["failures"] += 1
        elif mark is Mark.SKIP:
            ET.SubElement(case, "skipped", message=finding.summary)
            counts["skipped"] += 1
        elif mark is Mark.NOT_COUNTED:
            said = f"{finding.status.value}: {body} {NOT_COUNTED.format(report.require.value)}"
            ET.SubElement(case, "system-out").text = said
        else:
            ET.SubElement(case, "system-out").text = f"{finding.status.value}: {body}"
    suite.set("tests", str(len(report.findings)))
    for key, count in counts.items():
        suite.set(key, str(count))
    root = ET.Element(
        "testsuites",
        name="mpscheck",
        tests=str(len(report.findings)),
        failures=str(counts["failures"]),
        errors=str(counts["errors"]),
    )
    root.append(suite)
    _clean(root)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
