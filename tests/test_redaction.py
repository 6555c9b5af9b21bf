"""Secrets are masked by value wherever they show up: URL userinfo, the values of secret-named
variables inside paths, PYTHONPATH, torch's error text, the stderr tail, the probed command and the
report header, and common token shapes, in every format, the step summary and JUnit."""

from __future__ import annotations

import json
import stat
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mpscheck.redact import MASK, redact
from mpscheck.render import FORMATS
from tests.conftest import PYTHON, SECRETS
from tests.test_cli import invoke

# Credentials inside URLs, in variables whose names do not look secret.
URL_SECRETS = {
    "CONDA_CHANNELS": ("https://channeluser:channelPass77@conda.example.com/private", "channelPass77"),
    "PIP_INDEX_URL": ("https://__token__:pypiPlantedPass88@pypi.example.com/simple", "pypiPlantedPass88"),
    "HTTPS_PROXY": ("http://proxyuser:proxyPlantedPass99@proxy.example.com:3128", "proxyPlantedPass99"),
    "https_proxy": ("http://lowuser:lowerPlantedPass11@proxy.example.com:3128", "lowerPlantedPass11"),
}
# Token shapes that appear in no variable at all: only their shape can give them away.
SHAPES = (
    "hf_shapeOnlyPlanted0123456789abcdefgh",
    "ghp_shapeOnlyPlanted0123456789abcdefghijk",
    "github_pat_11SHAPEONLY0123456789_abcdefghijklmnopqrstuvwxyz",
    "sk-proj-shapeOnlyPlanted0123456789abcd",
    "AKIAPLANTEDKEY123456",
)
PLANTED = (*SECRETS.values(), *(secret for _, secret in URL_SECRETS.values()), *SHAPES)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://user:pass@host/x", f"https://{MASK}@host/x"),
        ("CONDA_CHANNELS=https://user:pass@host,conda-forge", f"CONDA_CHANNELS=https://{MASK}@host,conda-forge"),
        ("git+ssh://git@github.com/o/r", f"git+ssh://{MASK}@github.com/o/r"),
        ("see https://example.com/a@b", "see https://example.com/a@b"),  # an @ in the path is no userinfo
        ("token hf_abcdefghijklmnopqrstuvwxyz0123 used", f"token {MASK} used"),
        ("AKIAIOSFODNN7EXAMPLE", MASK),
        ("ghp_" + "a" * 36, MASK),
        ("sk-" + "b1" * 20, MASK),
        ("sk-learn-extra-tools-for-everyone", "sk-learn-extra-tools-for-everyone"),  # no digit: a name
        ("scikit-learn hf_hub sk-learn torch_npu", "scikit-learn hf_hub sk-learn torch_npu"),
    ],
)
def test_redact_masks_by_value_and_shape(text: str, expected: str) -> None:
    assert redact(text, {}) == expected


def test_redact_masks_secret_named_values_inside_other_text() -> None:
    environ = {"MY_API_KEY": "zz-value-9876", "HOME": "/root"}
    assert redact("/opt/zz-value-9876/lib:/usr/lib", environ) == f"/opt/{MASK}/lib:/usr/lib"


def _world(tmp_path: Path) -> tuple[str, dict[str, str]]:
    """An interpreter under a folder named like a token, and a torch whose import fails loudly."""
    folder = tmp_path / SECRETS["GITHUB_TOKEN"] / "bin"
    folder.mkdir(parents=True)
    python = folder / "python"
    python.write_text(f'#!/bin/sh\nexec "{PYTHON}" "$@"\n')
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    package = tmp_path / SECRETS["HF_TOKEN"] / "torch"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "import os, sys\n"
        "sys.stderr.write('proxy %s token %s\\n' % (os.environ['HTTPS_PROXY'], os.environ['HF_TOKEN']))\n"
        "raise ImportError('cannot load %s from %s for %s %s' % (os.environ['PIP_INDEX_URL'], __file__,"
        f" os.environ['GITHUB_TOKEN'], {' '.join(SHAPES)!r}))\n"
    )
    env = {
        **SECRETS,
        **{name: value for name, (value, _) in URL_SECRETS.items()},
        "PYTHONPATH": str(package.parent),
        "PYTORCH_ENABLE_MPS_FALLBACK": "1",
    }
    return str(python), env


def _assert_clean(text: str, where: str) -> None:
    for value in PLANTED:
        assert value not in text, f"{value} leaked into {where}"


@pytest.mark.parametrize("fmt", FORMATS)
def test_planted_values_never_reach_any_format(fmt: str, tmp_path: Path) -> None:
    python, env = _world(tmp_path)
    summary = tmp_path / "summary.md"
    output = tmp_path / f"report.{fmt}"
    env["GITHUB_STEP_SUMMARY"] = str(summary)
    shown = invoke("doctor", "--python", python, "--format", fmt, "-v", env=env)
    assert shown.exit_code == 1, shown.output
    assert "ImportError" in shown.output or fmt == "junit" or "torch" in shown.output
    written = invoke("doctor", "--python", python, "--format", fmt, "-v", "--output", str(output), env=env)
    assert written.exit_code == 1, written.output
    _assert_clean(shown.output, f"--format {fmt}")
    _assert_clean(written.output + output.read_text(), f"--format {fmt} --output")
    if summary.exists():
        _assert_clean(summary.read_text(), "the step summary")
    if fmt == "junit":
        ET.fromstring(output.read_bytes())
    if fmt == "json":
        document = json.loads(output.read_text())
        assert MASK in document["facts"]["target"]["run"]["command"][0]
        assert MASK in document["facts"]["target"]["torch"]["import_error"]
        assert MASK in document["facts"]["target"]["interpreter"]["env"]["PYTHONPATH"]
        assert document["facts"]["target"]["interpreter"]["env"]["CONDA_CHANNELS"] == (
            f"https://{MASK}@conda.example.com/private"
        )


@pytest.mark.parametrize("fmt", FORMATS)
def test_explain_masks_a_saved_report_that_holds_secrets(fmt: str, tmp_path: Path) -> None:
    """A report saved by an older mpscheck, or edited, is masked by shape when it is shown again."""
    python, env = _world(tmp_path)
    saved = tmp_path / "saved.json"
    done = invoke("doctor", "--python", python, "--format", "json", "--output", str(saved), env=env)
    assert done.exit_code == 1
    document = json.loads(saved.read_text())
    document["facts"]["target"]["torch"]["import_error"] = "ImportError: " + " ".join(SHAPES)
    document["facts"]["target"]["interpreter"]["env"]["CONDA_CHANNELS"] = URL_SECRETS["CONDA_CHANNELS"][0]
    saved.write_text(json.dumps(document))
    shown = invoke("explain", str(saved), "--format", fmt, "-v")
    assert shown.exit_code == 1, shown.output
    _assert_clean(shown.output, f"explain --format {fmt}")


def test_the_pytest_plugins_skip_reason_is_masked(pytester: pytest.Pytester) -> None:
    from mpscheck.checks.diagnose import diagnose
    from mpscheck.render.json_report import render as render_json
    from tests.scenarios import scenarios

    scenario = next(s for s in scenarios() if s.name.startswith("torch import fails"))
    scenario.facts.target.torch.import_error = (
        f"ImportError: cannot fetch {URL_SECRETS['PIP_INDEX_URL'][0]} {SHAPES[0]}"
    )
    saved = pytester.path / "saved.json"
    saved.write_text(render_json(diagnose(scenario.facts)))
    pytester.makepyfile("import pytest\n\n@pytest.mark.mps\ndef test_needs_mps():\n    pass\n")
    result = pytester.runpytest("--mpscheck-report", str(saved), "-rs")
    result.assert_outcomes(skipped=1)
    output = result.stdout.str()
    assert "torch-import" in output and f"https://{MASK}@pypi.example.com" in output, output
    _assert_clean(output, "the plugin's skip reason")
