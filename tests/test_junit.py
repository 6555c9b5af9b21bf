"""JUnit stays well-formed XML whatever text a check carries: ANSI escapes and control characters
from torch's errors or a target's stderr are stripped or escaped on every path."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mpscheck.model import ExitCode, Finding, Remediation, Report, Status, Verdict
from mpscheck.render.junit import render
from tests.conftest import PYTHON
from tests.test_cli import invoke
from tests.test_renderers import by_name

DIRTY = "\x1b[31mred\x1b[0m bell\x07 nul\x00 vt\x0b ff\x0c esc\x1b del\x7f c1\x9b end\ufffe"


def _dirty_report() -> Report:
    base = by_name("GitHub-hosted macOS arm64 runner")
    fix = Remediation("Fix " + DIRTY, ("cmd " + DIRTY,))
    findings = [
        Finding(f"id-{status.value}", "title " + DIRTY, status, "summary " + DIRTY, ("detail " + DIRTY,), fix)
        for status in Status
    ]
    base.facts.target.requested = "/path/" + DIRTY
    verdict = Verdict(ExitCode.PROBLEMS, False, ("id-fail", "id-warn"), "Not ready: " + DIRTY)
    return Report("doctor", base.facts, findings, verdict, base.require, True)


def test_control_characters_never_break_the_xml() -> None:
    root = ET.fromstring(render(_dirty_report(), True))
    texts = [root.itertext(), *(e.attrib.values() for e in root.iter())]
    for value in (t for group in texts for t in group):
        assert "\x1b" not in value and "\x00" not in value and "\x07" not in value
    failure = root.find("testsuite/testcase[@name='id-fail']/failure")
    assert failure is not None and failure.get("message", "").startswith("summary red bell")
    assert root.find("testsuite/testcase[@name='id-crash']/error") is not None
    assert root.find("testsuite/testcase[@name='id-skip']/skipped") is not None


@pytest.mark.parametrize("verbose", [False, True])
def test_junit_written_with_output_parses_when_torch_prints_escapes(tmp_path: Path, verbose: bool) -> None:
    package = tmp_path / "dirty" / "torch"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "import sys\nsys.stderr.write('\\x1b[1;31mERROR\\x1b[0m\\x07\\n')\n"
        "raise ImportError('\\x1b[31mdlopen failed\\x1b[0m \\x00\\x0b\\x0c')\n"
    )
    output = tmp_path / "report.xml"
    args = ["doctor", "--python", PYTHON, "--format", "junit", "--output", str(output)]
    result = invoke(*args, *(["-v"] if verbose else []), env={"PYTHONPATH": str(package.parent)})
    assert result.exit_code == 1, result.output
    root = ET.fromstring(output.read_bytes())
    case = root.find("testsuite/testcase[@name='torch-import']")
    assert case is not None and case.find("failure") is not None
    assert "dlopen failed" in ET.tostring(root, encoding="unicode")
