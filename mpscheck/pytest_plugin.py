"""pytest plugin: ``@pytest.mark.mps`` / ``@pytest.mark.gpu`` skip with the doctor's one-line reason,
and ``--mpscheck-require`` fails the session at its start when the requirement is not met.

The doctor runs at most once per session, in a subprocess of the interpreter running the tests,
and only when a marked test is about to run (or the option asks for it), so an unmarked suite pays
nothing. ``--mpscheck-report FILE`` judges a report saved earlier instead of probing.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from mpscheck.facts import Facts
    from mpscheck.model import Report

MARKERS = {
    "mps": "mps: run only where PyTorch can use MPS (mpscheck doctor --require mps passes)",
    "gpu": "gpu: run only where PyTorch can use a GPU, MPS or CUDA (mpscheck doctor --require gpu passes)",
}
_FACTS_KEY = pytest.StashKey["Facts"]()
_VERDICTS_KEY = pytest.StashKey["dict[str, tuple[bool, str]]"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mpscheck", "MPS/GPU preflight (mpscheck)")
    group.addoption(
        "--mpscheck-require",
        choices=("mps", "gpu"),
        default=None,
        help="Fail the session at its start unless MPS (or any GPU) is usable.",
    )
    group.addoption(
        "--mpscheck-report",
        metavar="FILE",
        default=None,
        help="Judge this saved `mpscheck doctor --format json` report instead of probing.",
    )
    group.addoption(
        "--mpscheck-timeout",
        type=_seconds,
        default=120.0,
        metavar="SECONDS",
        help="Time the probe of this interpreter may take (default 120).",
    )


def _seconds(text: str) -> float:
    """--mpscheck-timeout's type: a bad value is pytest's usage error, not an internal error later."""
    import argparse

    from mpscheck.probes.process import timeout_problem

    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    problem = timeout_problem(seconds)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return seconds


def pytest_configure(config: pytest.Config) -> None:
    for line in MARKERS.values():
        config.addinivalue_line("markers", line)
    saved_path = config.getoption("--mpscheck-report")
    if saved_path:  # read at once: a bad file is a usage error before any test runs
        from mpscheck.probes.saved_report import ReportError, load_report

        try:
            config.stash[_FACTS_KEY] = load_report(saved_path).facts
        except ReportError as exc:
            raise pytest.UsageError(f"--mpscheck-report: {exc}") from exc


def pytest_sessionstart(session: pytest.Session) -> None:
    requirement = session.config.getoption("--mpscheck-require")
    if requirement:
        ready, reason = verdict(session.config, requirement)
        if not ready:
            pytest.exit(f"mpscheck: {requirement.upper()} is required and not usable: {reason}", returncode=1)


def pytest_runtest_setup(item: pytest.Item) -> None:
    for requirement in ("mps", "gpu"):
        if item.get_closest_marker(requirement) is not None:
            ready, reason = verdict(item.config, requirement)
            if not ready:
                pytest.skip(f"{requirement.upper()} not usable: {reason}")


def verdict(config: pytest.Config, requirement: str) -> tuple[bool, str]:
    """(ready, one-line reason) for *requirement*, computed once per session."""
    cache = config.stash.setdefault(_VERDICTS_KEY, {})
    if requirement not in cache:
        report = _judge(config, requirement)
        cache[requirement] = (report.verdict.ready, one_line_reason(report))
    return cache[requirement]


def one_line_reason(report: Report) -> str:
    first = next((f for f in report.findings if f.id in report.verdict.blocking), None)
    return f"{first.id}: {first.summary}" if first else report.verdict.headline


def _judge(config: pytest.Config, requirement: str) -> Report:
    import os

    from mpscheck.checks.diagnose import diagnose
    from mpscheck.model import Requirement
    from mpscheck.redact import redact_report

    return redact_report(diagnose(_facts(config), require=Requirement(requirement)), os.environ)


def _facts(config: pytest.Config) -> Facts:
    if _FACTS_KEY not in config.stash:
        from mpscheck.pipeline import doctor_report

        timeout = config.getoption("--mpscheck-timeout")
        config.stash[_FACTS_KEY] = doctor_report(sys.executable, timeout=timeout).facts
    return config.stash[_FACTS_KEY]
