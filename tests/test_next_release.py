"""A torch newer than the release table (2.16, a 2.16 nightly): said in the headline and the summaries,
and a rule resting on facts assumed from the newest known release warns instead of failing.

The table ends at 2.15.0 (macOS floor 15.0, read from its wheel); 2.16 is not in it.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.knowledge import releases
from mpscheck.model import Status
from tests import recorded as rec
from tests.scenarios import PHYSICAL, facts, interpreter, mac_host, quick_smoke, torch_facts

NEWEST = releases.known_releases()[-1]
NOTE = f"newer than mpscheck's release table, which ends at {NEWEST}: facts of {NEWEST} assumed"


@pytest.mark.parametrize(
    ("version", "newer"),
    [
        ("2.16.0", NEWEST),
        ("2.16.0.dev20260301+cpu", NEWEST),
        ("3.0.0", NEWEST),
        (NEWEST, None),
        ("2.15.1", None),  # a patch of a known minor: that minor's facts, not an assumption across releases
        ("2.9.1", None),
        (None, None),
        ("nightly", None),
    ],
)
def test_which_torch_is_newer_than_the_table(version: str | None, newer: str | None) -> None:
    assert NEWEST == "2.15.0"
    assert releases.newer_than_table(version) == newer


def _report(torch_version: str, sw_vers: str, available: bool = False):
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, sw_vers, rec.DISPLAYS_M1)
    smoke = quick_smoke() if available else None
    return diagnose(facts(host, interpreter(), torch_facts(torch_version, available=available), smoke))


def test_a_floor_assumed_for_a_newer_torch_warns_where_the_known_release_fails() -> None:
    known = next(f for f in _report(NEWEST, rec.SW_VERS_14_5).findings if f.id == "macos-version")
    assert known.status is Status.FAIL
    report = _report("2.16.0.dev20260301", rec.SW_VERS_14_5)
    newer = next(f for f in report.findings if f.id == "macos-version")
    assert newer.status is Status.WARN
    assert newer.summary.startswith("macOS 14.5 (23F79) is older than macOS 15.0, which torch 2.16.0.dev20260301 may")
    assert f"is newer than mpscheck's release table, which ends at {NEWEST}" in newer.summary
    assert newer.fix is not None


def test_the_headline_and_the_torch_line_say_it() -> None:
    report = _report("2.16.0", rec.SW_VERS_15_6, available=True)
    by_id = {f.id: f for f in report.findings}
    assert by_id["torch-import"].summary == f"torch 2.16.0 imports in 1.2 s; {NOTE}"
    assert by_id["macos-version"].status is Status.PASS
    assert "15.0 (torch 2.16.0 is newer than mpscheck's release table" in by_id["macos-version"].summary
    assert report.verdict.ready
    assert report.verdict.headline == f"MPS is ready (torch 2.16.0 is {NOTE})"


def test_a_known_torch_says_nothing_of_the_table() -> None:
    report = _report(NEWEST, rec.SW_VERS_15_6, available=True)
    assert "release table" not in report.verdict.headline
    assert all("release table" not in f.summary for f in report.findings)
