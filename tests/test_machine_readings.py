"""The readings of a machine that every rule shares (checks/machine.py): one home for Intel, VM and
x86_64-Python detection, asked by the doctor's checks and by the rules over a paste's facts alike."""

from __future__ import annotations

from mpscheck.checks.machine import PARAVIRTUAL_DEVICE, intel_mac, virtual_machine, wheel_arch, x86_python
from mpscheck.facts import Facts, HostFacts, InterpreterFacts, TorchFacts


def test_intel_needs_evidence_and_unknown_is_not_intel() -> None:
    assert intel_mac(HostFacts(arm64_hardware=False))
    assert intel_mac(HostFacts(cpu_brand="Intel(R) Core(TM) i9-9880H CPU @ 2.30GHz"))
    assert not intel_mac(HostFacts())  # unknown hardware is not "Intel"
    assert not intel_mac(HostFacts(cpu_brand="Apple M1", arm64_hardware=True))


def test_a_vm_from_any_of_its_four_signs() -> None:
    assert not virtual_machine(Facts())
    for host in (
        HostFacts(hypervisor=True),
        HostFacts(model="VirtualMac2,1"),
        HostFacts(cpu_brand="Apple M1 (Virtual)"),
    ):
        facts = Facts()
        facts.host = host
        assert virtual_machine(facts)
    paravirtual = Facts()
    paravirtual.target.torch = TorchFacts(mps_device_name=PARAVIRTUAL_DEVICE)
    assert virtual_machine(paravirtual)


def test_an_x86_python_and_the_wheels_it_installs() -> None:
    assert wheel_arch(None) == "arm64" and not x86_python(InterpreterFacts())
    for signs in ({"proc_translated": 1}, {"machine": "x86_64"}, {"processor": "i386"}, {"conda_subdir": "osx-64"}):
        info = InterpreterFacts(**signs)
        assert x86_python(info) and wheel_arch(info) == "x86_64", signs
    assert x86_python(InterpreterFacts(binary_archs=["x86_64"]))
    assert not x86_python(InterpreterFacts(binary_archs=["x86_64", "arm64"], machine="arm64"))


def test_rosetta_is_decided_by_proc_translated_where_it_was_read() -> None:
    from mpscheck.checks.machine import rosetta

    apple = HostFacts(cpu_brand="Apple M2", arm64_hardware=True)
    assert rosetta(apple, InterpreterFacts(proc_translated=1))
    assert not rosetta(apple, InterpreterFacts(proc_translated=0, machine="x86_64"))  # the sysctl is decisive
    assert rosetta(apple, InterpreterFacts(processor="i386"))  # not read: an x86_64 Python on Apple silicon
    assert rosetta(HostFacts(cpu_brand="Apple M1"), InterpreterFacts(conda_subdir="osx-64"))
    assert not rosetta(HostFacts(arm64_hardware=False), InterpreterFacts(machine="x86_64"))  # an Intel Mac
    assert not rosetta(HostFacts(), InterpreterFacts(machine="x86_64"))  # unknown hardware: not concluded


def test_the_vm_check_reads_every_sign_of_a_vm_not_only_the_sysctl() -> None:
    from mpscheck.checks.diagnose import diagnose

    facts = Facts()
    facts.host = HostFacts(system="Darwin", model="VirtualMac2,1")  # kern.hv_vmm_present not read
    found = {f.id: f for f in diagnose(facts).findings}["virtual-machine"]
    assert found.status.value == "warn" and found.summary.startswith("macOS virtual machine (VirtualMac2,1): ")
    for brand, shown in (("Apple M1 (Virtual)", "chip Apple M1 (Virtual)"), (None, "a hypervisor present")):
        facts.host = HostFacts(system="Darwin", cpu_brand=brand, hypervisor=brand is None)  # no sysctl value quoted
        summary = {f.id: f for f in diagnose(facts).findings}["virtual-machine"].summary
        assert summary.startswith(f"macOS virtual machine (model unknown; {shown}): "), summary
    paravirtual = Facts()
    paravirtual.host = HostFacts(system="Darwin", hypervisor=True)
    paravirtual.target.torch = TorchFacts(mps_device_name=PARAVIRTUAL_DEVICE)
    summary = {f.id: f for f in diagnose(paravirtual).findings}["virtual-machine"].summary
    shown = f"model unknown; a hypervisor present; Metal device {PARAVIRTUAL_DEVICE}"
    assert summary.startswith(f"macOS virtual machine ({shown})")
    facts.host = HostFacts(system="Darwin")
    assert {f.id: f for f in diagnose(facts).findings}["virtual-machine"].status.value == "skip"


def test_a_saved_reports_errors_are_judged_and_survive_the_json() -> None:
    """facts.errors is carried by a saved report and judged by the error-text check on re-reading."""
    import json

    from mpscheck.checks.diagnose import diagnose
    from mpscheck.facts import SeenError, from_dict
    from mpscheck.model import ExitCode
    from mpscheck.render.json_report import report_to_dict
    from tests import recorded as rec
    from tests.test_renderers import validate
    from tests.test_smoke_checks import full_smoke, m1_facts

    facts = m1_facts(full_smoke())
    assert "error-text" not in {f.id for f in diagnose(facts).findings}  # a live run shows no error text
    facts.errors = [SeenError(rec.FALLBACK_OFF_ERROR, 12, "error", {"op": "aten::foo"})]
    report = diagnose(facts)
    found = {f.id: f for f in report.findings}["error-text"]
    assert found.status.value == "fail" and "(op-not-implemented)" in found.summary
    assert report.verdict.exit_code is ExitCode.PROBLEMS and "error-text" in report.verdict.blocking
    saved = json.loads(json.dumps(report_to_dict(report)))
    validate(saved)  # mpscheck/report.schema.json: facts.errors is part of the versioned facts
    again = from_dict(Facts, saved["facts"])
    assert again.errors == facts.errors
    assert {f.id: f for f in diagnose(again).findings}["error-text"] == found
