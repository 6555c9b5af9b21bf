"""GitHub Actions output: the plain report for the log, then one workflow command per problem.

Failures become ``::error``, warnings ``::warning``, escaped as GitHub requires. No value can
start a command of its own: the runner takes a line for a command when it begins with ``::`` after
leading whitespace, or holds ``##[`` anywhere (the legacy form), and it ends lines at CR as well as
LF (actions/runner, src/Runner.Common/ActionCommand.cs). So the plain text part is split on every
line break and such lines are defused. The Markdown summary for $GITHUB_STEP_SUMMARY comes from
render/markdown.py; the CLI appends it.
"""

from __future__ import annotations

from mpscheck.model import Mark, Report
from mpscheck.render import text

COMMANDS = {Mark.FAIL: "error", Mark.CRASH: "error", Mark.WARN: "warning"}


def escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def workflow_commands(report: Report) -> list[str]:
    lines = []
    for finding in report.findings:
        command = COMMANDS.get(report.mark(finding))  # --strict makes a warning that blocks an error
        if command is None:
            continue
        message = finding.summary
        advice = report.advice(finding)
        if advice:
            message += "\nFix: " + advice.summary + "".join("\n  " + c for c in advice.commands)
        title = escape_property(f"mpscheck {finding.id}")
        lines.append(f"::{command} title={title}::{escape_data(message)}")
    return lines


def defuse(plain: str) -> str:
    """Plain text that the runner cannot read a workflow command from, line by line."""
    lines = []
    for line in plain.splitlines():  # CR, LF, and the other breaks: a superset of the runner's
        line = line.replace("##[", "## [")
        stripped = line.lstrip()  # Python's whitespace is a superset of .NET's TrimStart()
        if stripped.startswith("::"):
            line = line[: len(line) - len(stripped)] + ": :" + stripped[2:]
        lines.append(line)
    return "".join(line + "\n" for line in lines)


def parts(report: Report, verbose: bool = False) -> tuple[str, str]:
    """The plain report (not yet defused) and mpscheck's own workflow commands, apart: stdout defuses
    the first and writes the second as it is (render/deliver.py's to_stdout)."""
    return text.render(report, verbose), "\n".join(workflow_commands(report)) + "\n"


def render(report: Report, verbose: bool = False) -> str:
    plain, commands = parts(report, verbose)
    return defuse(plain) + commands
