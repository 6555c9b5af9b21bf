"""--format github: no value can start a workflow command of its own, in the annotations or in the
plain text before them, and the action's own error echo escapes its input too.

How the runner reads a line (actions/runner, src/Runner.Common/ActionCommand.cs): ``TryParseV2``
does ``message.TrimStart()`` and then needs ``::`` at the start; the legacy ``TryParse`` looks for
``##[`` anywhere in the line (``message.IndexOf(Prefix)``), and ActionCommandManager tries both.
Data is unescaped %0D -> CR, %0A -> LF, %25 -> %.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from mpscheck.model import Finding, Remediation, Status
from mpscheck.render.github import render, workflow_commands
from mpscheck.render.json_report import render as render_json
from tests.test_action import run_step
from tests.test_cli import invoke
from tests.test_renderers import by_name

INJECTIONS = (
    "ok\n::error::injected by a newline",
    "ok\r::warning::injected by a carriage return",
    "ok\r\n  ::notice::injected after spaces",
    "legacy ##[error]injected anywhere in a line",
    "100% sure %0A::error::pre-escaped",
    "\u2028::error::after a Unicode line separator",
)


def runner_lines(output: str) -> list[str]:
    """Lines as .NET's ReadLine splits them: on CR, LF and CRLF."""
    return re.split(r"\r\n|\r|\n", output)


def commands_in(output: str) -> list[str]:
    """Every line the runner would take for a workflow command."""
    return [line for line in runner_lines(output) if line.lstrip().startswith("::") or "##[" in line]


def _unescape(data: str) -> str:
    return data.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def _poisoned_report():
    report = by_name("GitHub-hosted macOS arm64 runner")
    text = " | ".join(INJECTIONS)
    poisoned = []
    for finding in report.findings:
        fix = Remediation("Do this " + text, tuple(f"cmd {i}" for i in INJECTIONS))
        poisoned.append(dataclasses.replace(finding, summary=finding.summary + text, details=INJECTIONS, fix=fix))
    poisoned.append(Finding("extra", "t", Status.WARN, "\n".join(INJECTIONS), INJECTIONS, None))
    report.findings = poisoned
    report.facts.target.requested = "/opt/py\n::error::from the header"
    return report


@pytest.mark.parametrize("verbose", [False, True])
def test_no_value_starts_a_command_of_its_own(verbose: bool) -> None:
    report = _poisoned_report()
    output = render(report, verbose)
    ours = workflow_commands(report)
    assert commands_in(output) == ours
    for line in ours:
        assert re.match(r"^::(error|warning) title=mpscheck [a-z-]+::", line)
        assert "\r" not in line and "\n" not in line


def test_the_annotation_carries_the_value_intact_once_unescaped() -> None:
    report = _poisoned_report()
    line = next(line for line in workflow_commands(report) if "title=mpscheck extra" in line)
    assert _unescape(line.split("::", 2)[2]) == "\n".join(INJECTIONS)


def test_an_environment_value_with_a_newline_cannot_inject(tmp_path) -> None:
    """A saved Mac report whose PYTORCH_ variables hold line breaks, explained as the action does."""
    report = by_name("invalid fallback and watermark values")
    env = report.facts.target.interpreter.env
    for name in env:
        env[name] = env[name] + "\n::error::injected from " + name + "\r##[warning]legacy"
    saved = tmp_path / "saved.json"
    saved.write_text(render_json(report))
    result = invoke("explain", str(saved), "--format", "github", "-v")
    assert result.exit_code == 1, result.output
    assert "injected from" in result.output  # shown, but defused
    for line in commands_in(result.output):
        assert re.match(r"^::(error|warning) title=mpscheck [a-z-]+::", line), line


@pytest.mark.parametrize("name", ["strict", "smoke"])
def test_the_actions_own_error_echo_escapes_the_input(tmp_path, name: str) -> None:
    done, _ = run_step(tmp_path, **{name: "yes\n::error::injected\r##[warning]legacy 100%"})
    assert done.returncode == 2
    commands = commands_in(done.stdout)
    assert len(commands) == 1 and commands[0].startswith(f"::error::{name} must be one line")  # checked first
    assert "%0A::error::injected%0D##[warning]legacy 100%25" in commands[0]
