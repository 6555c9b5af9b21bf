"""`mpscheck explain INPUT` on pasted text: a file or standard input, every format, the exit codes;
a saved JSON report still takes the report path (also from standard input).
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from mpscheck.cli import cli
from tests.corpus_cases import CORPUS, load
from tests.test_cli import _saved

ENV = {"GITHUB_ACTIONS": "", "GITHUB_STEP_SUMMARY": "", "NO_COLOR": "1"}


def explain(*args: str, stdin: str | None = None, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, ["explain", *args], input=stdin, env={**ENV, **(env or {})}, catch_exceptions=False)


def paste(name: str) -> str:
    return load(CORPUS / name).paste


def test_a_paste_on_standard_input_gets_its_root_cause_and_exit_1() -> None:
    result = explain("-", stdin=paste("lightning-14634-rosetta-misconfig.txt"))
    assert result.exit_code == 1
    assert result.output.startswith("mpscheck explain: root cause: rosetta-python")
    assert "MisconfigurationException: MPSAccelerator can not run" in result.output  # the evidence, quoted


def test_a_working_setup_in_a_file_is_exit_0(tmp_path) -> None:
    path = tmp_path / "paste.txt"
    path.write_text(paste("tch-rs-777-healthy-python-repl.txt"))
    result = explain(str(path))
    assert result.exit_code == 0 and "healthy" in result.output


def test_unreadable_input_is_exit_2_and_says_what_it_accepts() -> None:
    result = explain("-", stdin="just some words\n")
    assert result.exit_code == 2
    assert "nothing in the input could be read" in result.output and "collect_env" in result.output


def test_markdown_reply_names_the_next_step_when_the_paste_is_thin() -> None:
    error = "RuntimeError: MPS does not support cumsum op with int64 input\n"
    result = explain("-", "--format", "markdown", stdin=error)
    assert result.exit_code == 1 and result.output.startswith("**Root cause: `int64-op-needs-newer-macos`**")
    assert "run `mpscheck doctor --format markdown` on the Mac" in result.output


def test_json_output_to_a_file(tmp_path) -> None:
    out = tmp_path / "d.json"
    result = explain("-", "--format", "json", "--output", str(out), stdin=paste("tianshou-1237-float64-repl.txt"))
    assert result.exit_code == 1 and "root cause: float64-unsupported" in result.output
    data = json.loads(out.read_text())
    assert data["cause"]["id"] == "float64-unsupported" and data["exit_code"] == 1
    assert any("Cannot convert a MPS Tensor to float64" in e["text"] for e in data["cause"]["evidence"])


def test_under_github_actions_the_step_summary_gets_the_markdown(tmp_path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("")
    env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)}
    result = explain("-", stdin=paste("torchchat-974-ci-oom.txt"), env=env)
    assert result.output.startswith("::error title=mpscheck explain virtual-machine::")
    assert summary.read_text().startswith("**Root cause: `virtual-machine`**")


def test_strict_makes_a_fallback_note_fail() -> None:
    text = paste("pytorch-106594-sgn-fallback-warning.txt")
    assert explain("-", stdin=text).exit_code == 0
    assert explain("-", "--strict", stdin=text).exit_code == 1


def test_a_saved_report_on_standard_input_keeps_the_report_path(tmp_path) -> None:
    report = _saved(tmp_path, "GitHub-hosted macOS arm64 runner").read_text()
    result = explain("-", stdin=report)
    assert result.exit_code == 1 and "paravirtual GPU" in result.output and "[✗] smoke" in result.output


def test_what_counts_as_a_saved_report() -> None:
    from mpscheck.probes.explain_input import looks_like_report
    from tests.recorded import DISPLAYS_M1

    assert looks_like_report('\ufeff{"kind": "mpscheck-report"}')
    assert looks_like_report("{not json")  # meant as a report: it gets the report's own error
    assert not looks_like_report(DISPLAYS_M1)  # system_profiler -json is a paste
    assert not looks_like_report("PyTorch version: 2.5.1")


def test_system_profiler_json_is_read_as_a_paste(tmp_path) -> None:
    from tests.recorded import DISPLAYS_M1

    path = tmp_path / "displays.json"
    path.write_text(DISPLAYS_M1)
    result = explain(str(path), "--format", "json")
    assert result.exit_code == 1 and json.loads(result.output)["facts"]["host"]["gpu_name"] == "Apple M1"
    assert json.loads(result.output)["cause"]["id"] == "not-enough-evidence"  # a GPU name alone proves nothing


def test_the_same_require_strict_and_check_as_every_command() -> None:
    """One verdict rule (checks/policy.py decide_text): --require none reports only; an unknown --check id
    is a usage error; unreadable input stays exit 2 whatever the requirement."""
    problem = paste("lightning-14634-rosetta-misconfig.txt")
    assert explain("-", stdin=problem).exit_code == 1
    report_only = explain("-", "--require", "none", stdin=problem)
    assert report_only.exit_code == 0 and "root cause: rosetta-python" in report_only.output
    assert explain("-", "--require", "none", "--strict", stdin=problem).exit_code == 0
    unknown = explain("-", "--check", "no-such-id", stdin=problem)
    assert unknown.exit_code == 2 and "unknown check id no-such-id" in unknown.output
    assert explain("-", "--require", "none", stdin="hello world\nlorem ipsum").exit_code == 2
    shown = explain("-", "--check", "platform", "--format", "json", stdin=problem)
    assert shown.exit_code == 1 and {f["id"] for f in json.loads(shown.output)["findings"]} <= {"platform"}


def test_the_errors_a_paste_shows_are_observed_facts_in_the_json() -> None:
    import jsonschema

    from mpscheck.render.paste import SCHEMA_PATH

    result = explain("-", "--format", "json", stdin=paste("comfyui-8984-oom-model-too-large.txt"))
    document = json.loads(result.output)
    jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text())).validate(document)
    assert document["cause"]["id"] == "out-of-memory" and document["cause"]["evidence"]
    (seen,) = document["facts"]["errors"]
    assert seen["line"] and "MPS backend out of memory" in seen["text"] and seen["severity"] == "error"
    assert seen["values"] == {
        "allocated": "15.72 GiB",
        "other": "2.41 MiB",
        "max": "18.13 GiB",
        "requested": "5.81 GiB",
    }
