"""Planted secrets and terminal control sequences never leave mpscheck (issue 18, items 5 and 8).

Every shape the masking knows is planted where each command reads untrusted text: a paste's error
line (explain), the target interpreter's stderr and an allowlisted variable (doctor), the argv that
`run` echoes. Then every format and every channel is searched: stdout and stderr (CliRunner keeps
both in ``output``), the --output file and the step summary. Each planted value carries the marker
SEKRIT, so a secret cut short by quoting is caught as well as a whole one.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mpscheck.cli import cli
from mpscheck.redact import sanitise, scrub
from tests.corpus_cases import CORPUS, load

MARK = "SEKRIT"
PLANTED = {
    "bearer": "Authorization: Bearer SEKRITabcdef0123456789",
    "jwt": "eyJSEKRITabcdefgh.eyJSEKRITijklmnop.SEKRITsignature",
    "slack-token": "xoxb-SEKRIT-123456789012",
    "slack-webhook": "https://hooks.slack.com/services/T0SEKRIT/B0SEKRIT/SEKRITxyz",
    "gitlab": "glpat-SEKRITabcdefghijklmnop",
    "google": "AIzaSEKRITabcdefghijklmnopqrstuvwxyz0",
    "stripe": "sk_live_SEKRITabcdef123456",
    "password": "password=SEKRIThunter2",
    "query-token": "https://example.org/x?token=SEKRIT0123&page=2",
    "pem": "-----BEGIN RSA PRIVATE KEY----- MIIESEKRITbase64body+/= -----END RSA PRIVATE KEY-----",
    "variable-value": "the value SEKRITmyPassValue of a variable",
    "conda-channel": "https://conda.anaconda.org/t/SEKRIT-tok-1234/mychannel",
    "url-password": "https://me:SEKRIT/x@y@pypi.example.org/simple",
    "hugging-face": "hf_SEKRITabcdefghijklmnopqrst",
    "github": "ghp_SEKRITabcdefghijklmnopqrstu",
}
ENVIRONMENT = {"MY_PASS": "SEKRITmyPassValue", "GITHUB_ACTIONS": "", "NO_COLOR": "1"}
CONTROL = {
    "window-title": "\x1b]0;pwned\x07",
    "hyperlink": "\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\",
    "reset": "\x1bc",
    "backspace": "abc\x08\x08\x08",
    "bidi": "\u202eevil\u202c",
    "c1": "\x9b31m",
    "bell": "\x07",
}
FORBIDDEN = ("\x1b", "\x07", "\x08", "\u202e", "\u202c", "\x9b")


def invoke(args: list[str], env: dict[str, str], stdin: str | None = None):
    return CliRunner().invoke(cli, args, input=stdin, env={**ENVIRONMENT, **env}, catch_exceptions=False)


def leaks(*texts: str) -> list[str]:
    found = [name for name, value in PLANTED.items() for text in texts if MARK in text and value in text]
    found += [f"control {c!r}" for c in FORBIDDEN for text in texts if c in text]
    if any(MARK in text for text in texts):
        found.append(f"the marker {MARK}")
    return found


def _everything(tmp_path: Path, result, fmt: str) -> list[str]:
    out = tmp_path / f"out.{fmt}"
    summary = tmp_path / "summary.md"
    return [result.output, out.read_text() if out.exists() else "", summary.read_text() if summary.exists() else ""]


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "github", "junit"])
@pytest.mark.parametrize("to_file", [False, True])
def test_explain_masks_and_sanitises_a_paste_in_every_format_and_channel(tmp_path, fmt: str, to_file: bool) -> None:
    paste = load(CORPUS / "lightning-14634-rosetta-misconfig.txt").paste.splitlines()
    error = next(i for i, line in enumerate(paste) if "MPSAccelerator can not run" in line)
    paste[error] += " " + " ".join([*PLANTED.values(), *CONTROL.values()])  # quoted as the evidence
    paste.insert(0, " ".join(CONTROL.values()) + " " + PLANTED["bearer"])
    summary = tmp_path / "summary.md"
    env = {"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_ACTIONS": "true" if fmt == "github" else ""}
    args = ["explain", "--format", fmt, "-v", "-"] + (["--output", str(tmp_path / f"out.{fmt}")] if to_file else [])
    result = invoke(args, env, stdin="\n".join(paste))
    assert result.exit_code == 1, result.output
    texts = _everything(tmp_path, result, fmt)
    assert "MPSAccelerator" in "".join(texts)  # the evidence is there, masked
    assert not leaks(*texts)


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "github", "junit"])
def test_doctor_masks_the_targets_stderr_and_allowlisted_values(tmp_path, make_python, fmt: str) -> None:
    noise = " ".join([*PLANTED.values(), *CONTROL.values()]).replace("'", "")
    python = make_python(f"echo '{noise}' >&2; exit 3")
    summary = tmp_path / "summary.md"
    env = {
        "GITHUB_STEP_SUMMARY": str(summary),
        "CONDA_CHANNELS": PLANTED["conda-channel"],
        "PYTORCH_SOMETHING": PLANTED["url-password"],
    }
    for to_file in (False, True):
        args = ["doctor", "--python", python, "--format", fmt, "-v"]
        args += ["--output", str(tmp_path / f"out.{fmt}")] if to_file else []
        result = invoke(args, {**env, "GITHUB_ACTIONS": "true" if fmt == "github" else ""})
        assert result.exit_code == 1, result.output
        assert not leaks(*_everything(tmp_path, result, fmt))


def test_run_masks_its_echo_of_the_command(tmp_path) -> None:
    argv = [sys.executable, "-c", "pass", "--token=SEKRIT0123", PLANTED["bearer"], PLANTED["url-password"]]
    result = invoke(["run", "--require", "none", "--", *argv], {})
    assert result.exit_code == 0
    assert "starting" in result.output and not leaks(result.output)


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_each_shape_is_masked_alone(name: str) -> None:
    assert MARK not in scrub(PLANTED[name], {"MY_PASS": "SEKRITmyPassValue"}), name


@pytest.mark.parametrize("name", sorted(CONTROL))
def test_each_control_sequence_is_removed(name: str) -> None:
    clean = sanitise("before " + CONTROL[name] + " after")
    assert clean.startswith("before ") and clean.endswith(" after")
    assert not any(c in clean for c in FORBIDDEN), name


def test_ordinary_report_words_are_not_masked() -> None:
    for text in (
        "Python version: 3.11.9",
        "TOKENIZERS_PARALLELISM=false",
        "status: pass",
        "max_new_tokens=20",
        "https://download.pytorch.org/whl/cpu/torch-2.2.0-cp311-none-macosx_11_0_arm64.whl",
        "pip install torch@https://example.org/torch.whl",
        "line one\n\tline two",
    ):
        assert scrub(text, {}) == text


@pytest.mark.parametrize("fmt", ["json", "github"])
def test_allowlisted_variables_reach_the_report_masked(tmp_path, fmt: str, real_torch) -> None:
    """CONDA_* and PYTORCH_* are shown (allowlisted), so a token inside their values must be masked there."""
    summary = tmp_path / "summary.md"
    env = {
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_ACTIONS": "true" if fmt == "github" else "",
        "CONDA_CHANNELS": PLANTED["conda-channel"],
        "PYTORCH_SOMETHING": PLANTED["url-password"],
    }
    out = tmp_path / f"out.{fmt}"
    args = ["doctor", "--python", sys.executable, "--no-smoke", "--require", "none", "--format", fmt, "-v"]
    result = invoke([*args, "--output", str(out)], env)
    assert result.exit_code == 0, result.output
    texts = _everything(tmp_path, result, fmt)
    assert "conda.anaconda.org/t/***/mychannel" in "".join(texts)  # the variable is there, its token is not
    assert not leaks(*texts)


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_scrubbing_any_text_leaves_no_control_character(text: str) -> None:
    clean = scrub(text, {"MY_PASS": "SEKRITmyPassValue"})
    assert not any(ch in clean for ch in FORBIDDEN)
    assert not any(ord(ch) < 32 and ch not in "\n\t" for ch in clean)
    assert scrub(clean, {}) == clean  # one pass is enough: scrubbed text is a fixed point
