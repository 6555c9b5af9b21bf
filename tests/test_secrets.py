"""Planted secrets never appear in any output format, even when the target prints them."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from mpscheck.render import FORMATS
from tests.conftest import PYTHON, SECRETS
from tests.test_cli import invoke


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_format_shows_a_planted_secret(fmt: str, tmp_path, real_torch) -> None:
    summary = tmp_path / "summary.md"
    env = {**SECRETS, "GITHUB_STEP_SUMMARY": str(summary), "PYTORCH_ENABLE_MPS_FALLBACK": "1"}
    outputs = []
    for args in (["doctor", "--require", "none"], ["smoke-test", "--device", "cpu"]):
        result = invoke(*args, "--python", PYTHON, "--format", fmt, "-v", env=env)
        assert result.exit_code == 0, result.output
        if fmt == "junit":
            ET.fromstring(result.output)
        outputs.append(result.output)
    text = "\n".join(outputs) + (summary.read_text() if summary.exists() else "")
    if fmt == "json":
        assert '"PYTORCH_ENABLE_MPS_FALLBACK": "1"' in text  # allowlisted variables do come through
    for name, value in SECRETS.items():
        assert value not in text, f"{name} leaked into --format {fmt}"
        assert name not in text, f"{name} (the name) leaked into --format {fmt}"


def test_a_target_that_prints_a_secret_has_it_masked(make_python) -> None:
    python = make_python(f"echo \"token is {SECRETS['HF_TOKEN']}\" >&2; echo '{SECRETS['GITHUB_TOKEN']}'; exit 3")
    result = invoke("doctor", "--python", python, "--format", "json", "-v", env=SECRETS)
    assert result.exit_code == 1
    for value in SECRETS.values():
        assert value not in result.output
    assert "token is ***" in result.output
