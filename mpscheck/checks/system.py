"""Checks of the machine itself: platform, chip, virtualisation."""

from __future__ import annotations

import re

from mpscheck.checks.registry import (
    Context,
    Outcome,
    check,
    failed,
    fix,
    passed,
    skipped,
    warned,
)
from mpscheck.checks.wording import plural, size
from mpscheck.model import Requirement
from mpscheck.versions import LAST_INTEL_MAC_TORCH

APPLE_CHIP = re.compile(r"Apple (M\d+)(?: (Pro|Max|Ultra))?")


def _accelerators(ctx: Context) -> str:
    torch = ctx.torch
    if torch is None:  # the probe never got to torch: say why, not that torch failed to import
        run = ctx.facts.target.run
        return f"the probe did not reach torch ({run.message or run.status}), so CUDA was not checked"
    if torch.import_error:
        return "torch could not be imported, so CUDA was not checked"
    if not torch.installed:
        return "torch is not installed, so CUDA was not checked"
    if torch.cuda_available and torch.cuda_devices:
        names = ", ".join(f"{d.name} ({size(d.memory_bytes)})" for d in torch.cuda_devices)
        return f"CUDA {torch.cuda_built}: {plural(len(torch.cuda_devices), 'device')}: {names}"
    if torch.cuda_built:
        return f"torch {torch.version} is a CUDA {torch.cuda_built} build but sees no CUDA device"
    return f"CPU only (torch {torch.version} is a CPU-only build)"


def cuda_usable(ctx: Context) -> bool:
    torch = ctx.torch
    return bool(torch and torch.cuda_available and torch.cuda_devices)


@check("platform", "Platform")
def platform_check(ctx: Context) -> Outcome:
    host = ctx.host
    if ctx.on_macos:
        return passed(f"macOS ({host.machine or 'unknown arch'}): MPS applies here")
    where = f"{host.system or 'this OS'} {host.machine}".strip()
    found = _accelerators(ctx)
    if ctx.require is Requirement.NONE:
        return skipped(f"{where}: MPS does not apply here; {found}")
    if ctx.require is Requirement.GPU and cuda_usable(ctx):
        return passed(f"{where}: MPS does not apply here; {found}")
    if ctx.require is Requirement.GPU:
        cuda_fix = (
            fix(
                "Install a CUDA build of torch (PyPI's Linux wheels are CUDA builds).",
                ctx.pip_install("torch", flags="--force-reinstall"),
            )
            if ctx.torch and ctx.torch.installed and not ctx.torch.cuda_built
            else fix(
                "Run on a machine with an NVIDIA GPU and its driver (check with nvidia-smi), or report only.",
                "nvidia-smi",
                "mpscheck doctor --require none",
            )
        )
        return failed(f"{where}: no GPU usable: MPS needs macOS, and {found}", cuda_fix)
    alternative = "mpscheck doctor --require gpu" if cuda_usable(ctx) else "mpscheck doctor --require none"
    return failed(
        f"{where}: MPS cannot be used here, it needs macOS on Apple silicon; {found}",
        fix("Run MPS work on a Mac with Apple silicon; on this machine, accept CUDA or only report.", alternative),
    )


@check("chip", "Chip")
def chip(ctx: Context) -> Outcome:
    if (off := ctx.off_macos()) is not None:
        return off
    host = ctx.host
    brand = host.cpu_brand
    if not brand:
        return skipped(f"chip not determined: {host.errors.get('machdep.cpu.brand_string', 'no brand string')}")
    if APPLE_CHIP.match(brand):
        return passed(_describe_apple_chip(ctx, brand), f"hw.model: {host.model or 'unknown'}")
    if "Intel" in brand:
        return _intel_mac(ctx, brand)
    return warned(
        f"unrecognised chip {brand!r}: MPS needs Apple silicon",
        fix(
            "Tell us what this Mac is, with the saved report attached.",
            "mpscheck doctor --format markdown --output mpscheck-report.md",
        ),
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
    summary = (
        f"Intel Mac ({brand}): torch has no macOS x86_64 wheels after {LAST_INTEL_MAC_TORCH}, "
        "and MPS on AMD GPUs is no longer supported by PyTorch"
    )
    remedy = fix(
        f"Use a Mac with Apple silicon for MPS; on this Mac, torch {LAST_INTEL_MAC_TORCH} is the last release.",
        ctx.pip_install(f"torch=={LAST_INTEL_MAC_TORCH}"),
    )
    if ctx.torch and ctx.torch.mps_available:
        return warned(summary + f"; MPS is available here ({ctx.torch.mps_device_name}), unofficially", remedy)
    if ctx.require is not Requirement.MPS:
        return warned(summary, remedy)
    return failed(summary, remedy)


@check("virtual-machine", "Virtualisation")
def virtual_machine(ctx: Context) -> Outcome:
    if (off := ctx.off_macos()) is not None:
        return off
    host = ctx.host
    if host.hypervisor is None:
        return skipped(f"not determined: {host.errors.get('kern.hv_vmm_present', 'kern.hv_vmm_present unreadable')}")
    if not host.hypervisor:
        return passed(f"physical Mac ({host.model or 'model unknown'}; kern.hv_vmm_present = 0)")
    return warned(
        f"macOS virtual machine ({host.model or 'model unknown'}; kern.hv_vmm_present = 1): its GPU is a "
        "paravirtual device, and Apple's Virtualization framework does not support MPS",
        fix(
            "For MPS work use a physical Mac (a self-hosted runner in CI); in a hosted macOS VM, "
            "report without requiring MPS.",
            "mpscheck doctor --require none",
        ),
        "GitHub's docs: 'Nested-virtualization and Metal Performance Shaders (MPS) are not supported'",
    )
