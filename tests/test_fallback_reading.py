"""PYTORCH_ENABLE_MPS_FALLBACK as each release reads it (knowledge/torch_releases.json): std::stoi up
to 2.7, "anything but 0 is on" from 2.8. The same value means different things to different torches."""

from __future__ import annotations

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.checks.environment import read_fallback
from mpscheck.model import Status
from tests import recorded as rec
from tests.scenarios import PHYSICAL, facts, interpreter, mac_host, quick_smoke, torch_facts


@pytest.mark.parametrize(
    ("value", "torch", "enabled", "exact"),
    [
        ("false", "2.7.1", None, False),  # std::stoi throws while torch loads: import aborts
        ("false", "2.9.0", True, False),  # compared with "0": "false" turns the fallback ON
        ("", "2.7.1", None, False),
        ("", "2.9.0", True, False),
        ("1abc", "2.7.1", True, False),
        ("0", "2.7.1", False, True),
        ("0", "2.9.0", False, True),
        ("1", "2.9.0", True, True),
        (None, "2.9.0", False, True),
    ],
)
def test_each_release_reads_the_value_its_own_way(
    value: str | None, torch: str, enabled: bool | None, exact: bool
) -> None:
    reading = read_fallback(value, torch)
    assert (reading.enabled, reading.exact) == (enabled, exact)


@pytest.mark.parametrize(
    ("torch", "status", "words"), [("2.7.1", Status.FAIL, "import torch aborts"), ("2.9.0", Status.WARN, "is on")]
)
def test_the_check_says_what_false_does_to_this_torch(torch: str, status: Status, words: str) -> None:
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_14_5, rec.DISPLAYS_M1)
    found = diagnose(
        facts(host, interpreter(env={"PYTORCH_ENABLE_MPS_FALLBACK": "false"}), torch_facts(torch), quick_smoke())
    ).findings
    check = next(f for f in found if f.id == "mps-fallback-env")
    assert check.status is status and words in check.summary
    assert check.fix.commands[0] == "export PYTORCH_ENABLE_MPS_FALLBACK=1"
