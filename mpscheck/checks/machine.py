"""What the facts say about the machine and the interpreter, read once for every rule: an Intel Mac, a
macOS virtual machine, an x86_64 (translated, on Apple silicon) Python. The doctor's checks and the
rules over a paste's facts both ask here, so the readings cannot drift apart.
"""

from __future__ import annotations

from mpscheck.facts import Facts, HostFacts, InterpreterFacts

PARAVIRTUAL_DEVICE = "Apple Paravirtual device"  # the Metal device of macOS VMs (ggml-org/llama.cpp#6628)


def intel_mac(host: HostFacts) -> bool:
    """hw.optional.arm64 = 0, or an Intel brand string: no Apple silicon."""
    return host.arm64_hardware is False or "Intel" in (host.cpu_brand or "")


def virtual_machine(facts: Facts) -> bool:
    """kern.hv_vmm_present, a VirtualMac model, a 'Virtual' chip name, or the paravirtual Metal device."""
    host, torch = facts.host, facts.target.torch
    return bool(
        host.hypervisor
        or (host.model or "").startswith("VirtualMac")
        or "Virtual" in (host.cpu_brand or "")
        or (torch and torch.mps_device_name == PARAVIRTUAL_DEVICE)
    )


def x86_python(info: InterpreterFacts) -> bool:
    """Any sign that this Python is an x86_64 build: translated, its machine or processor, an osx-64 conda,
    or an executable without an arm64 slice (which runs only translated)."""
    return (
        info.proc_translated == 1
        or info.machine == "x86_64"
        or info.processor == "i386"
        or info.conda_subdir == "osx-64"
        or bool(info.binary_archs and not any(a.startswith("arm64") for a in info.binary_archs))
    )


def wheel_arch(info: InterpreterFacts | None) -> str:
    """The architecture whose wheels this interpreter installs: x86_64 for an x86_64 Python (under
    Rosetta or on an Intel Mac), else arm64."""
    return "x86_64" if info is not None and x86_python(info) else "arm64"


def apple_silicon(host: HostFacts) -> bool:
    """hw.optional.arm64 = 1, or an Apple M-series brand string."""
    return host.arm64_hardware is True or (host.cpu_brand or "").startswith("Apple M")


def rosetta(host: HostFacts, info: InterpreterFacts) -> bool:
    """An x86_64 Python translated by Rosetta 2: sysctl.proc_translated where it was read (decisive), else an
    x86_64 Python on Apple silicon."""
    if info.proc_translated is not None:
        return info.proc_translated == 1
    return x86_python(info) and apple_silicon(host) and not intel_mac(host)
