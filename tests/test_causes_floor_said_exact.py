"""The user's word that MPS does not work, on a macOS below what current torch needs, with no torch version and
no error (checks/causes/judge.py macos_below_newest_floor), pinned exactly."""

from __future__ import annotations

from mpscheck.checks.causes import Cause, Evidence, explain_text
from mpscheck.model import Remediation, Status

SAID = "# user: training with MPS does not work"
OLD = "# user: macOS 12.6.8, M1 Max"


def test_mps_said_not_to_work_on_a_macos_below_current_torchs_floor_is_that_floor_with_the_version_check() -> None:
    diagnosis = explain_text(f"{SAID}\n{OLD}")
    warned = next(f for f in diagnosis.findings if f.id == "macos-version")
    assert warned.status is Status.WARN and warned.fix is not None
    assert diagnosis.cause == Cause(
        "macos-too-old",
        f"the paste says MPS does not work, on a macOS older than current torch needs ({warned.summary}); the torch "
        "version is not shown (the first command prints it)",
        Remediation(warned.fix.summary, ("python3 -c 'import torch; print(torch.__version__)'", *warned.fix.commands)),
        (Evidence(1, SAID), Evidence(2, OLD)),
        "docs/checks.md (macos-version); https://github.com/pytorch/pytorch/issues/139425",
    )


def test_without_the_users_word_a_shown_torch_or_an_old_macos_it_is_not_that_floor() -> None:
    assert explain_text(OLD).cause.id == "not-enough-evidence"  # nothing said to fail
    new = "# user: macOS 26.1, M4 Pro"
    assert explain_text(f"{SAID}\n{new}").cause.id == "not-enough-evidence"  # no warn: this macOS runs current torch
    # a torch shown: its own floor decides (setup rules), this rule stays out either way
    runs = explain_text(f"{SAID}\n{OLD}\n>>> torch.__version__\n'2.4.1'").cause  # 2.4.1 runs on 12.6.8
    assert runs.id == "not-enough-evidence"
    needs_13 = explain_text(f"{SAID}\n{OLD}\nPyTorch version: 2.5.1").cause
    assert (needs_13.id, needs_13.summary) == (
        "macos-too-old",
        "macOS 12.6.8 is older than macOS 13.0, which torch 2.5.1 needs for MPS",
    )
