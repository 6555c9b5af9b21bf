"""Unknown is not a value: facts that were not read lead to skips or named candidates, never conclusions.

The partial fact sets here are what a paste or a half-finished probe gives: a Mac whose hardware,
macOS or torch version was not read. No summary may print "None", "()" or "''" for them.
"""

from __future__ import annotations

import re

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.facts import Facts, HostFacts, InterpreterFacts, ProbeRun, TargetFacts, TorchFacts
from mpscheck.model import Requirement, Status


def _partial(host: HostFacts, interp: InterpreterFacts | None, torch: TorchFacts | None) -> Facts:
    run = ProbeRun(status="ok", workload="none")
    return Facts(host=host, target=TargetFacts(requested="python", run=run, interpreter=interp, torch=torch))


MAC_UNKNOWN_HARDWARE = HostFacts(system="Darwin")  # nothing but the OS was read
X86_PYTHON = InterpreterFacts(executable="/usr/local/bin/python3", version="3.11.9", machine="x86_64")
TORCH_NOT_AVAILABLE = TorchFacts(installed=True, version=None, mps_built=True, mps_available=False)


def statuses(facts: Facts) -> dict[str, Status]:
    return {f.id: f.status for f in diagnose(facts, require=Requirement.MPS).findings}


def summaries(facts: Facts) -> list[str]:
    return [f.summary for f in diagnose(facts, require=Requirement.MPS).findings]


@pytest.mark.parametrize(
    "facts",
    [
        _partial(MAC_UNKNOWN_HARDWARE, X86_PYTHON, TORCH_NOT_AVAILABLE),
        _partial(MAC_UNKNOWN_HARDWARE, InterpreterFacts(executable="python"), TorchFacts(installed=True)),
        _partial(HostFacts(system="Darwin", macos_version="14.5"), None, None),
        _partial(HostFacts(), None, None),
    ],
    ids=["x86 python, unknown hardware", "nothing read but the path", "macOS only", "nothing at all"],
)
def test_no_summary_prints_an_unknown_as_a_value(facts: Facts) -> None:
    for summary in summaries(facts):
        assert not re.search(r"\bNone\b|(?<![\w.])\(\)|''", summary), summary  # "f()" is a call, "()" a value


def test_unknown_hardware_is_not_an_intel_mac() -> None:
    found = statuses(_partial(MAC_UNKNOWN_HARDWARE, X86_PYTHON, TORCH_NOT_AVAILABLE))
    assert found["python-arch"] is Status.SKIP  # x86_64 could be Rosetta or an Intel Mac: not concluded
    assert found["chip"] is Status.SKIP


def test_hw_optional_arm64_zero_is_an_intel_mac_without_a_brand_string() -> None:
    host = HostFacts(system="Darwin", arm64_hardware=False, macos_version="13.5")
    found = diagnose(_partial(host, X86_PYTHON, TORCH_NOT_AVAILABLE), require=Requirement.MPS).findings
    chip = next(f for f in found if f.id == "chip")
    assert chip.status is Status.FAIL and "Intel Mac" in chip.summary
    assert next(f for f in found if f.id == "python-arch").status is Status.PASS


def test_mps_unavailable_with_unknown_macos_names_the_candidates_instead_of_a_sandbox() -> None:
    host = HostFacts(system="Darwin", cpu_brand="Apple M2", arm64_hardware=True, hypervisor=False)
    interp = InterpreterFacts(executable="/opt/homebrew/bin/python3", version="3.12.1", machine="arm64")
    torch = TorchFacts(installed=True, version="2.9.0", mps_built=True, mps_available=False)
    available = next(f for f in diagnose(_partial(host, interp, torch)).findings if f.id == "mps-available")
    assert available.status is Status.FAIL
    assert "sandbox" in available.summary and "virtual machine" in available.summary and "macOS" in available.summary
    assert "although macOS" not in available.summary  # the sandbox conclusion needs a known, new enough macOS
    assert "sw_vers -productVersion" in available.fix.commands


def test_torch_older_than_mps_is_said_to_predate_it() -> None:
    host = HostFacts(system="Darwin", cpu_brand="Apple M1", arm64_hardware=True, macos_version="14.5")
    interp = InterpreterFacts(executable="/opt/homebrew/bin/python3", version="3.9.6", machine="arm64")
    torch = TorchFacts(installed=True, version="1.11.0", mps_built=False, mps_available=False)
    macos = next(f for f in diagnose(_partial(host, interp, torch)).findings if f.id == "macos-version")
    assert macos.status is Status.FAIL and "predates MPS" in macos.summary


def test_environment_not_captured_is_not_no_variables_set() -> None:
    host = HostFacts(system="Darwin", cpu_brand="Apple M1", arm64_hardware=True, macos_version="14.5")
    interp = InterpreterFacts(executable="/opt/homebrew/bin/python3", version="3.12.1", machine="arm64", env=None)
    found = statuses(_partial(host, interp, TorchFacts(installed=True, version="2.9.0", mps_built=True)))
    assert found["mps-fallback-env"] is Status.SKIP and found["mps-env-vars"] is Status.SKIP


def test_frameworks_never_checked_or_torch_unknown_are_skips_not_agreement() -> None:
    host = HostFacts(system="Darwin", cpu_brand="Apple M1", arm64_hardware=True, macos_version="14.5")
    never_checked = InterpreterFacts(executable="python3", version="3.12.1", machine="arm64", packages=None)
    installed = InterpreterFacts(
        executable="python3", version="3.12.1", machine="arm64", processor="arm", packages={"lightning": "2.4.0"}
    )
    torch_unknown = TorchFacts(installed=True, version="2.9.0", mps_built=True, mps_available=None)
    first = next(f for f in diagnose(_partial(host, never_checked, torch_unknown)).findings if f.id == "frameworks")
    second = next(f for f in diagnose(_partial(host, installed, torch_unknown)).findings if f.id == "frameworks")
    assert first.status is Status.SKIP and "not checked" in first.summary
    assert second.status is Status.SKIP and "agree" not in second.summary


def test_no_interpreter_facts_and_no_failed_probe_is_not_a_probe_failure() -> None:
    """A paste or a saved report without interpreter facts: nothing was probed, so nothing failed."""
    found = diagnose(_partial(HostFacts(system="Darwin"), None, None)).findings
    interpreter = next(f for f in found if f.id == "interpreter")
    assert interpreter.status is Status.SKIP and "could not be probed" not in interpreter.summary


def test_an_interpreter_with_unknown_path_and_version_is_not_printed_blank() -> None:
    found = diagnose(_partial(HostFacts(system="Darwin"), InterpreterFacts(), None)).findings
    summary = next(f for f in found if f.id == "interpreter").summary
    assert not summary.startswith(" ") and "  at " not in summary and "unknown" in summary


def test_lightning_with_an_unknown_processor_is_not_called_a_rosetta_python() -> None:
    host = HostFacts(system="Darwin", cpu_brand="Apple M1", arm64_hardware=True, macos_version="14.5")
    interp = InterpreterFacts(executable="python3", version="3.12.1", machine="arm64", packages={"lightning": "2.4"})
    torch = TorchFacts(installed=True, version="2.9.0", mps_built=True, mps_available=True)
    frameworks = next(f for f in diagnose(_partial(host, interp, torch)).findings if f.id == "frameworks")
    assert frameworks.status is Status.SKIP and "unknown" in frameworks.summary
