"""Checks of the machine itself: platform, chip, virtualisation, and CUDA where MPS cannot apply."""

from __future__ import annotations

import re

from mpscheck.checks.machine import PARAVIRTUAL_DEVICE, intel_mac
from mpscheck.checks.machine import virtual_machine as in_a_vm
from mpscheck.checks.registry import Context, Outcome, check, failed, fix, passed, skipped, warned
from mpscheck.checks.wording import plural, size, torch_named
from mpscheck.knowledge.versions import (
    at_least,
    last_intel_mac_torch,
    numpy_pin,
    parse_version,
    pythons_for,
)

APPLE_CHIP = re.compile(r"Apple (M\d+)(?: (Pro|Max|Ultra))?")


def accelerators(ctx: Context) -> str:
    """What torch reported about CUDA, in words, for the platform line."""
    torch, run = ctx.torch, ctx.facts.target.run
    if torch is None:
        return f"torch was not probed ({run.message or run.status}), so CUDA is unknown"
    if not torch.installed:
        return "torch is not installed, so CUDA was not checked"
    if torch.import_error:
        return "torch could not be imported, so CUDA was not checked"
    if cuda_usable(ctx):
        names = ", ".join(f"{d.name} ({size(d.memory_bytes)})" for d in torch.cuda_devices)
        return f"CUDA {torch.cuda_built}: {plural(len(torch.cuda_devices), 'device')}: {names}"
    if torch.cuda_built:
        return f"{torch_named(torch.version)} is a CUDA {torch.cuda_built} build but sees no CUDA device"
    if torch.cuda_available is None:
        return "CUDA unknown"
    return f"CPU only ({torch_named(torch.version)} is a CPU-only build)"


def cuda_usable(ctx: Context) -> bool:
    torch = ctx.torch
    return bool(torch and torch.cuda_available and torch.cuda_devices)


@check("platform", "Platform", reads=("host.system",), cause="not-macos")
def platform_check(ctx: Context) -> Outcome:
    host = ctx.host
    if ctx.on_macos:
        return passed(f"macOS ({host.machine or 'architecture unknown'}): MPS applies here")
    if not host.system:
        return skipped("operating system not determined")
    where = f"{host.system} {host.machine}".strip()
    alternative = "mpscheck doctor --require gpu" if cuda_usable(ctx) else "mpscheck doctor --require none"
    return failed(
        f"{where}: MPS cannot be used here, it needs macOS on Apple silicon; {accelerators(ctx)}",
        fix("Run MPS work on a Mac with Apple silicon; on this machine, accept CUDA or only report.", alternative),
    )


@check("chip", "Chip", where="macos", reads=("host.cpu_brand",), cause="intel-mac")
def chip(ctx: Context) -> Outcome:
    host = ctx.host
    brand = host.cpu_brand
    if brand and APPLE_CHIP.match(brand):
        hazard = _large_k_matmul_hazard(ctx, brand)
        return passed(_describe_apple_chip(ctx, brand), f"hw.model: {host.model or 'unknown'}", *hazard)
    if intel_mac(host) and (not brand or "Intel" in brand):  # checks/machine.py; another brand: unrecognised
        return _intel_mac(ctx, brand or "model unknown; hw.optional.arm64 = 0")
    if not brand:
        why = host.errors.get("machdep.cpu.brand_string", "no brand string")
        apple = " (Apple silicon: hw.optional.arm64 = 1)" if host.arm64_hardware else ""
        return skipped(f"chip not determined{apple}: {why}")
    return warned(
        f"unrecognised chip {brand!r}: MPS needs Apple silicon",
        fix(
            "Tell us what this Mac is, with the saved report attached.",
            "mpscheck doctor --format markdown --output mpscheck-report.md",
        ),
    )


LARGE_K = re.compile(r"^Apple M[12]\b")  # Apple7/Apple8 GPUs


def _large_k_matmul_hazard(ctx: Context, brand: str) -> tuple[str, ...]:
    """M1/M2: MPSGraph matmuls with an inner dimension K >= 32767 sum past the operands (pytorch/pytorch#195163,
    open): mm/addmm/linear up to torch 2.13 (2.14 routes 2-D matmul around it, #183535), bmm/baddbmm/
    addbmm, 3-D matmul and einsum in every release so far."""
    if not LARGE_K.match(brand):
        return ()
    version = parse_version(ctx.torch.version) if ctx.torch else None
    ops = "mm/linear and bmm/einsum" if version is None or not at_least(version, (2, 14)) else "bmm/einsum"
    return (
        f"{brand.split()[1]} GPUs give silently wrong {ops} results on MPS when the inner dimension is 32767 or more "
        "(pytorch/pytorch#195163); split such products or run them on the CPU",
    )


def _describe_apple_chip(ctx: Context, brand: str) -> str:
    host = ctx.host
    gpu_cores = host.gpu_cores or (ctx.torch.mps_core_count if ctx.torch else None)
    parts = [brand + (" (virtual)" if host.hypervisor and "virtual" not in brand.lower() else "")]
    if gpu_cores:
        parts.append(f"{gpu_cores}-core GPU")
    if host.performance_cores is not None and host.efficiency_cores is not None:
        parts.append(f"{host.performance_cores}P+{host.efficiency_cores}E CPU cores")
    elif host.cpu_count:
        parts.append(f"{host.cpu_count} CPU cores")
    if host.memory_bytes:
        parts.append(f"{size(host.memory_bytes)} unified memory")
    return ", ".join(parts)


def _intel_mac(ctx: Context, brand: str) -> Outcome:
    last = last_intel_mac_torch()
    summary = (
        f"Intel Mac ({brand}): torch has no macOS x86_64 wheels after {last}, "
        "and MPS on AMD GPUs is no longer supported by PyTorch"
    )
    python = ctx.interpreter.version if ctx.interpreter else None
    py = ".".join(python.split(".")[:2]) if python else None
    pythons = pythons_for(last, "x86_64")  # the table: each of its wheels installs from macOS 10.9 on
    # Whether torch installs at all (a wheel for this Python), not whether its MPS runs: this remedy is
    # for the CPU, and below macOS 12.3 torch 2.2.2 still installs though it has no MPS there.
    if py and py not in pythons:
        # e.g. Python 3.13: torch 2.2.2's x86_64 wheels stop at cp312 (read from the package index)
        span = f"{pythons[0]} - {pythons[-1]}" if pythons else "an older Python"
        remedy = fix(
            f"Use a Mac with Apple silicon for MPS; on this Mac, torch {last}, the last release, has no wheel for "
            f"Python {py}: it needs Python {span}.",
            f"{ctx.python} -c 'import sys; print(sys.version)'",
        )
    else:
        numpy = numpy_pin(last, "x86_64")
        pins = (f"torch=={last}", *((numpy,) if numpy else ()))
        remedy = fix(
            f"Use a Mac with Apple silicon for MPS; on this Mac, torch {last} is the last release"
            + (f" and needs {numpy} (it was built against numpy 1.x)." if numpy else "."),
            ctx.install(*pins),
        )
    if ctx.torch and ctx.torch.mps_available:
        name = ctx.torch.mps_device_name or "device name not reported"
        return warned(summary + f"; MPS is available here ({name}), unofficially", remedy)
    return failed(summary, remedy)


@check("virtual-machine", "Virtualisation", where="macos", reads=("host.hypervisor",), cause="virtual-machine")
def virtual_machine(ctx: Context) -> Outcome:
    host = ctx.host
    vm = in_a_vm(ctx.facts)  # checks/machine.py: any of the four signs, as for a paste
    if not vm and host.hypervisor is None:
        return skipped(f"not determined: {host.errors.get('kern.hv_vmm_present', 'kern.hv_vmm_present unreadable')}")
    if not vm:
        return passed(f"physical Mac ({host.model or 'model unknown'}; kern.hv_vmm_present = 0)")
    return warned(
        f"macOS virtual machine ({'; '.join([host.model or 'model unknown', *_vm_signs(ctx)])}): its GPU is a "
        "paravirtual device, and Apple's Virtualization framework does not support MPS",
        fix(
            "For MPS work use a physical Mac (a self-hosted runner in CI); in a hosted macOS VM, "
            "report without requiring MPS.",
            "mpscheck doctor --require none",
        ),
        "GitHub's docs: 'Nested-virtualization and Metal Performance Shaders (MPS) are not supported'",
    )


def _vm_signs(ctx: Context) -> list[str]:
    """What showed the VM, in words true of a probe and of a paste alike (a paste may tell a VM only in words, so
    no sysctl value is quoted that it did not show)."""
    signs = ["a hypervisor present"] if ctx.host.hypervisor else []
    if "Virtual" in (ctx.host.cpu_brand or ""):
        signs.append(f"chip {ctx.host.cpu_brand}")
    if ctx.torch and ctx.torch.mps_device_name == PARAVIRTUAL_DEVICE:
        signs.append(f"Metal device {PARAVIRTUAL_DEVICE}")
    return signs


@check("cuda", "CUDA", where="elsewhere", needs=("torch-import",))
def cuda(ctx: Context) -> Outcome:
    """Where MPS cannot apply, the other GPU torch can use; what --require gpu rests on off macOS."""
    torch = ctx.torch
    if torch is None or torch.cuda_available is None:
        return skipped("not determined: torch did not report on CUDA")
    if cuda_usable(ctx) and ctx.host.nvidia_driver_seen is False:
        return _host_sees_no_driver(ctx)
    if cuda_usable(ctx):
        return passed(accelerators(ctx))
    if torch.cuda_built:
        return failed(
            accelerators(ctx),
            fix("Check that the NVIDIA driver sees a GPU and CUDA_VISIBLE_DEVICES does not hide it.", "nvidia-smi"),
            *([f"torch says: {torch.cuda_error}"] if torch.cuda_error else []),
        )
    return failed(
        accelerators(ctx),
        fix(
            "On a machine with an NVIDIA GPU, install PyPI's default Linux torch, which is a CUDA build.",
            ctx.install("torch", reinstall=True),
            "nvidia-smi",
        ),
    )


def _host_sees_no_driver(ctx: Context) -> Outcome:
    """The target says CUDA works; the host shows no NVIDIA driver at all. One of them is wrong (a
    wrapper that runs another machine's Python, a forged or stale report), so CUDA does not count."""
    return failed(
        f"the target reports {accelerators(ctx)}, but this host shows no NVIDIA driver (no /proc/driver/nvidia, "
        "no nvidia-smi on PATH, no libcuda): the two disagree, so CUDA is not counted as working",
        fix(
            "Check that the driver is loaded here and that --python runs on this machine.",
            "nvidia-smi",
        ),
    )
