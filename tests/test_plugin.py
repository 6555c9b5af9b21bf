"""The pytest plugin: markers skip with the doctor's reason; --mpscheck-require stops the session."""

from __future__ import annotations

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.model import Requirement
from mpscheck.render.json_report import render as render_json
from tests.scenarios import scenarios

MARKED_TESTS = """
import pytest

@pytest.mark.mps
def test_needs_mps():
    assert True

@pytest.mark.gpu
def test_needs_a_gpu():
    assert True

def test_plain():
    assert True
"""


def saved(pytester: pytest.Pytester, name: str) -> str:
    scenario = next(s for s in scenarios() if s.name.startswith(name))
    path = pytester.path / "mpscheck-report.json"
    path.write_text(render_json(diagnose(scenario.facts, require=Requirement(scenario.require))))
    return str(path)


def test_markers_run_where_mps_works(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(MARKED_TESTS)
    result = pytester.runpytest("--mpscheck-report", saved(pytester, "healthy native M1"))
    result.assert_outcomes(passed=3)


def test_markers_skip_with_the_doctors_reason_on_linux(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(MARKED_TESTS)
    result = pytester.runpytest("-rs", "--mpscheck-report", saved(pytester, "Linux CPU only, --require gpu"))
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines(
        [
            "*MPS not usable: platform: Linux x86_64: MPS cannot be used here*",
            "*GPU not usable: cuda: CPU only*",
        ]
    )


def test_gpu_marker_accepts_cuda(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(MARKED_TESTS)
    result = pytester.runpytest("--mpscheck-report", saved(pytester, "Linux with CUDA, --require mps"))
    result.assert_outcomes(passed=2, skipped=1)


def test_require_option_fails_the_session_at_start(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(MARKED_TESTS)
    result = pytester.runpytest(
        "--mpscheck-require", "mps", "--mpscheck-report", saved(pytester, "GitHub-hosted macOS arm64 runner")
    )
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*mpscheck: MPS is required and not usable: smoke: *paravirtual GPU*"])
    assert "passed" not in result.stdout.str()  # nothing ran


def test_unmarked_suites_never_probe(pytester: pytest.Pytester, monkeypatch) -> None:
    import mpscheck.pipeline

    def no_probe(*args, **kwargs):
        raise AssertionError("the plugin probed")

    monkeypatch.setattr(mpscheck.pipeline, "doctor_report", no_probe)
    pytester.makepyfile("def test_plain():\n    assert True\n")
    pytester.runpytest().assert_outcomes(passed=1)
    pytester.makepyfile(MARKED_TESTS)
    pytester.runpytest().assert_outcomes(passed=1, errors=2)  # the same patch trips once a marker asks


def test_bad_saved_report_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(MARKED_TESTS)
    (pytester.path / "bad.json").write_text("{")
    result = pytester.runpytest("--mpscheck-report", str(pytester.path / "bad.json"))
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*--mpscheck-report:*is not JSON*"])


def test_real_probe_of_this_interpreter(pytester: pytest.Pytester, real_torch) -> None:
    pytester.makepyfile(MARKED_TESTS)
    result = pytester.runpytest_subprocess("-rs")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines(["*GPU not usable: cuda: CPU only*"])
