"""The doctor's silent-bugs check: the known silent-correctness bugs of the installed torch on this macOS.

Facts are the recorded Macs of tests/scenarios.py; the rows are knowledge/silent_bugs.json (the real
table), except where a branch needs a row the real table does not hold (a table of fixed bugs only).
"""

from __future__ import annotations

import dataclasses

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.facts import Facts
from mpscheck.knowledge import silent_bugs as table
from mpscheck.model import Finding, Requirement, Status
from tests import recorded as rec
from tests.scenarios import PHYSICAL, facts, interpreter, mac_host, quick_smoke, torch_facts


def mac(torch: str, sw_vers: str = rec.SW_VERS_14_5, mac_ver: str = "14.5") -> Facts:
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, sw_vers, rec.DISPLAYS_M1)
    return facts(host, interpreter(mac_ver=mac_ver), torch_facts(torch, mps_device_name="Apple M1"), quick_smoke())


def finding(facts_: Facts, strict: bool = False) -> Finding:
    return next(f for f in diagnose(facts_, strict=strict).findings if f.id == "silent-bugs")


def test_a_bug_that_needs_macos_15_counts_there_with_the_upgrade_command() -> None:
    # pytorch/pytorch#145203 (bitwise into a non-contiguous output), macOS 15+, fixed in 2.7.0 by PR #146085
    on_15 = finding(mac("2.5.1", rec.SW_VERS_15_6, "15.6"))
    assert on_15.status is Status.WARN and "mps-bitwise-noncontiguous-output" in on_15.summary
    assert "fixed in torch 2.7.0" in on_15.summary and on_15.fix is not None
    assert on_15.fix.commands == ("/Users/dev/.venvs/torch/bin/python -m pip install --upgrade 'torch>=2.7.0'",)
    assert "https://github.com/pytorch/pytorch/issues/145203" in " ".join(on_15.details)
    on_14 = finding(mac("2.5.1"))
    assert "mps-bitwise-noncontiguous-output" not in on_14.summary


def test_bugs_no_release_fixes_say_what_to_avoid_and_pass() -> None:
    """Nothing in this install can change them: said (what to keep off MPS), not a warning on every Mac."""
    found = finding(mac("2.5.1"))
    assert found.status is Status.PASS and "none is fixed in a release yet" in found.summary
    assert found.fix is None
    assert "bmm when the output has more than 2**32 elements" in found.summary
    assert any(d.startswith("mpscheck ops -- /Users/dev/.venvs/torch/bin/python your_script.py") for d in found.details)


def test_an_upgrade_also_names_the_bugs_it_leaves() -> None:
    found = finding(mac("2.13.0", rec.SW_VERS_15_6, "15.6"))
    assert "fixed in torch 2.14.0 (mps-embedding-over-2pow31; the other 5 bugs in no release yet)" in found.summary
    assert found.fix is not None and "Upgrade torch to 2.14.0 or later (mps-embedding-over-2pow31)" in found.fix.summary
    assert "Not fixed in any release yet, keep off MPS: addmm, baddbmm, bmm, mm on float32" in found.fix.summary


def test_zero_known_passes_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_only = tuple(bug for bug in table.bugs() if bug.fixed_in)
    monkeypatch.setattr(table, "bugs", lambda: fixed_only)
    found = finding(mac("2.14.0"))
    assert found.status is Status.PASS and "0 known silent-correctness bugs" in found.summary
    assert finding(mac("2.13.0")).status is Status.WARN  # 2.13 still has the embedding bug (#188756)


def test_a_fixing_release_without_mps_on_this_macos_asks_for_macos(monkeypatch: pytest.MonkeyPatch) -> None:
    # torch 2.8.0 is the newest with MPS for Python 3.11 on macOS 13.5 (torch_releases.json); a row fixed
    # in 2.14.0 (its floor: macOS 14) cannot be cured by a torch upgrade there.
    row = dataclasses.replace(next(b for b in table.bugs() if b.id == "mps-embedding-over-2pow31"), affected_from=None)
    monkeypatch.setattr(table, "bugs", lambda: (row,))
    found = finding(mac("2.8.0", rec.SW_VERS_13_5, "13.5"))
    assert found.status is Status.WARN and "has no MPS on macOS 13.5" in found.summary
    assert found.fix is not None and found.fix.commands == ("softwareupdate --list",)


def test_an_unknown_version_is_unknown_never_a_pass() -> None:
    unknown_torch = mac("2.5.1")
    assert unknown_torch.target.torch is not None
    unknown_torch.target.torch.version = None
    found = finding(unknown_torch)
    assert found.status is Status.SKIP and "unknown" in found.summary
    unknown_macos = mac("2.5.1")
    unknown_macos.host.macos_version = None
    found = finding(unknown_macos)
    assert found.status is Status.SKIP and "unknown" in found.summary


def test_it_never_decides_readiness_not_even_with_strict() -> None:
    """A warning (an upgrade fixes some of them) leaves readiness alone, with --strict too (policy.ADVISORY)."""
    fixable = mac("2.13.0", rec.SW_VERS_15_6, "15.6")  # 2.13 has the embedding bug that 2.14 fixes (#188756)
    for strict in (False, True):
        report = diagnose(fixable, require=Requirement.MPS, strict=strict)
        assert finding(fixable, strict).status is Status.WARN
        assert report.verdict.ready and "silent-bugs" not in report.verdict.blocking


def test_off_macos_it_is_skipped() -> None:
    from tests.scenarios import _linux

    found = next(f for f in diagnose(_linux(torch_facts("2.13.0+cpu"), None)).findings if f.id == "silent-bugs")
    assert found.status is Status.SKIP
