"""Under GitHub Actions no probed or pasted value can start a workflow command on stdout, in any format
(issue 18, item 8; render/deliver.py's to_stdout). Before: a line break in $VIRTUAL_ENV, an
interpreter path or a paste, printed by --format text, markdown, json or junit while
GITHUB_ACTIONS=true, put a live ``::error::`` or ``##[warning]`` line in the log; only the github
format defused its plain text. The planted value must still be shown (defused, not dropped)."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mpscheck.cli import cli
from mpscheck.render.deliver import to_stdout
from mpscheck.render.json_report import render as render_json
from tests.test_renderers import by_name

FORGED = "x\n::error::forged\r##[warning]forged\u2028  ::notice::forged"
FORMATS = ["text", "json", "markdown", "github", "junit"]
TRACEBACK = ["Traceback (most recent call last):", '  File "train.py", line 3, in <module>']
FLOAT64_ERROR = (  # torch's own message (knowledge/torch_messages.json), as a paste quotes it
    "TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. "
    "Please use float32 instead."
)
OURS = re.compile(r"^::(error|warning|notice) title=mpscheck ")  # mpscheck's own annotations (github format)


def forged_commands(output: str) -> list[str]:
    """The lines the runner would take for a command (``::`` after blanks, ``##[`` anywhere; lines end
    at CR and LF) that are not mpscheck's own."""
    lines = re.split(r"\r\n|\r|\n", output)
    return [line for line in lines if (line.lstrip().startswith("::") or "##[" in line) and not OURS.match(line)]


def invoke(args: list[str], stdin: str | None = None):
    env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": "", "NO_COLOR": "1"}
    return CliRunner().invoke(cli, args, input=stdin, env=env, catch_exceptions=False)


@pytest.fixture
def planted_report(tmp_path: Path) -> Path:
    """A saved Mac report whose interpreter path, platform and allowlisted variables hold forged lines."""
    report = by_name("invalid fallback and watermark values")
    interpreter = report.facts.target.interpreter
    interpreter.executable = "/opt/py" + FORGED
    interpreter.platform = "macOS-14" + FORGED
    interpreter.env = {name: value + FORGED for name, value in interpreter.env.items()}
    interpreter.env["VIRTUAL_ENV"] = "/venv" + FORGED
    saved = tmp_path / "saved.json"
    saved.write_text(render_json(report))
    return saved


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_saved_reports_planted_values_start_no_command_on_stdout(planted_report: Path, fmt: str) -> None:
    result = invoke(["explain", str(planted_report), "--format", fmt, "-v"])
    assert result.exit_code == 1, result.output
    assert "forged" in result.stdout  # shown, defused
    assert forged_commands(result.stdout) == []
    if fmt == "github":
        assert any(OURS.match(line) for line in result.stdout.splitlines())  # its own annotations stay live


@pytest.mark.parametrize("fmt", ["json", "markdown"])  # the formats that show the target's environment
def test_the_doctors_planted_virtual_env_starts_no_command_on_stdout(fmt: str) -> None:
    """The issue's own case: $VIRTUAL_ENV with line breaks, read by the probe inside the target."""
    env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": "", "NO_COLOR": "1", "VIRTUAL_ENV": "/venv" + FORGED}
    args = ["doctor", "--python", sys.executable, "--no-smoke", "--require", "none", "-v", "--format", fmt]
    result = CliRunner().invoke(cli, args, env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "forged" in result.stdout
    assert forged_commands(result.stdout) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_pastes_planted_lines_start_no_command_on_stdout(fmt: str) -> None:
    """The paste's lines end at LF; within the quoted one, ``##[`` and a U+2028 then ``::`` are left."""
    paste = "\n".join([*TRACEBACK, FLOAT64_ERROR + " ##[warning]forged \u2028::error::forged", "::error::alone"])
    result = invoke(["explain", "--format", fmt, "-v", "-"], stdin=paste)
    assert result.exit_code == 1, result.output
    assert "forged" in result.stdout
    assert forged_commands(result.stdout) == []


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_the_ops_report_quoting_a_scripts_last_words_starts_no_command(tmp_path: Path, fmt: str) -> None:
    script = tmp_path / "dies.py"
    script.write_text("import sys\nsys.stderr.write(" + repr(FORGED + "\n") + ")\nsys.exit(1)\n")
    result = invoke(["ops", "--format", fmt, "--", sys.executable, str(script)])
    assert "forged" in result.stdout  # the report quotes the script's last words
    assert forged_commands(result.stdout) == []


def test_outside_actions_the_text_is_written_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    sink = io.StringIO()
    monkeypatch.setattr(sys, "stdout", sink)
    to_stdout("a\n::error::b", {"GITHUB_ACTIONS": ""})
    assert sink.getvalue() == "a\n::error::b"
    to_stdout("a\n::error::b", {"GITHUB_ACTIONS": "true"})
    assert sink.getvalue().endswith("a\n: :error::b")
