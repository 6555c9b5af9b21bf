"""A torch newer than the release table (2.16, a 2.16 nightly): said in the headline and the summaries,
and a rule resting on facts assumed from the newest known release warns instead of failing.

Written against whatever release ends the table (2.15.0, macOS floor 15.0, when this was written), so
the weekly table update (.github/workflows/knowledge.yml) keeps it true: NEXT is one minor later.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.knowledge import releases
from mpscheck.model import Status
from tests import recorded as rec
from tests.scenarios import PHYSICAL, facts, interpreter, mac_host, quick_smoke, torch_facts

NEWEST = releases.known_releases()[-1]
_MAJOR, _MINOR = (int(part) for part in NEWEST.split(".")[:2])
NEXT = f"{_MAJOR}.{_MINOR + 1}.0"
FLOOR = ".".join(map(str, releases.macos_floor(NEWEST) or ()))
NOTE = f"newer than mpscheck's release table, which ends at {NEWEST}: facts of {NEWEST} assumed"


@pytest.mark.parametrize(
    ("version", "newer"),
    [
        (NEXT, NEWEST),
        (NEXT + ".dev20260301+cpu", NEWEST),
        (f"{_MAJOR + 1}.0.0", NEWEST),
        (NEWEST, None),
        (f"{_MAJOR}.{_MINOR}.9", None),  # a patch of a known minor: that minor's facts, not an assumption
        ("2.9.1", None),
        (None, None),
        ("nightly", None),
    ],
)
def test_which_torch_is_newer_than_the_table(version: str | None, newer: str | None) -> None:
    assert releases.newer_than_table(version) == newer


def _report(torch_version: str, sw_vers: str, available: bool = False):
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, sw_vers, rec.DISPLAYS_M1)
    smoke = quick_smoke() if available else None
    return diagnose(facts(host, interpreter(), torch_facts(torch_version, available=available), smoke))


def test_a_floor_assumed_for_a_newer_torch_warns_where_the_known_release_fails() -> None:
    known = next(f for f in _report(NEWEST, rec.SW_VERS_14_5).findings if f.id == "macos-version")
    assert known.status is Status.FAIL
    report = _report(NEXT + ".dev20260301", rec.SW_VERS_14_5)
    newer = next(f for f in report.findings if f.id == "macos-version")
    assert newer.status is Status.WARN
    assert newer.summary.startswith(
        f"macOS 14.5 (23F79) is older than macOS {FLOOR}, which torch {NEXT}.dev20260301 may"
    )
    assert f"is newer than mpscheck's release table, which ends at {NEWEST}" in newer.summary
    assert newer.fix is not None


def test_the_headline_and_the_torch_line_say_it() -> None:
    report = _report(NEXT, rec.SW_VERS_26_2, available=True)
    by_id = {f.id: f for f in report.findings}
    assert by_id["torch-import"].summary == f"torch {NEXT} imports in 1.2 s; {NOTE}"
    assert by_id["macos-version"].status is Status.PASS
    assert f"{FLOOR} (torch {NEXT} is newer than mpscheck's release table" in by_id["macos-version"].summary
    assert report.verdict.ready
    # the known bugs no release has fixed are counted for this newer torch too (said, no upgrade to give)
    assert report.verdict.headline == f"MPS is ready (torch {NEXT} is {NOTE})"
    assert any(NOTE in detail for detail in by_id["silent-bugs"].details)


def test_a_known_torch_says_nothing_of_the_table() -> None:
    report = _report(NEWEST, rec.SW_VERS_26_2, available=True)
    assert "release table" not in report.verdict.headline
    assert all("release table" not in f.summary for f in report.findings)
