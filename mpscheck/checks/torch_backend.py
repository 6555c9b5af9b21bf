"""Checks of torch in the target: installed and importable, built with MPS, MPS available."""

from __future__ import annotations

from mpscheck.checks.environment import FALLBACK, read_fallback
from mpscheck.checks.machine import PARAVIRTUAL_DEVICE
from mpscheck.checks.registry import Context, Outcome, check, failed, fix, passed, skipped, warned
from mpscheck.checks.signatures import recognise
from mpscheck.checks.wording import first_line, newer_than_table, seconds_or_limit, torch_named
from mpscheck.knowledge.versions import install_advice, parse_version, pythons_with_mps
from mpscheck.model import Remediation, Status

CPU_WHEELS = "https://download.pytorch.org/whl/cpu"  # PyTorch's own index of CPU-only Linux builds


def install_fix(ctx: Context) -> Remediation:
    """`pip install torch` for this interpreter and this platform.

    macOS: pinned where this macOS needs an older release. Linux: PyPI's default wheel is a CUDA
    build (several GB), right where the NVIDIA driver is loaded; elsewhere the CPU-only build.
    """
    if ctx.off_macos and ctx.host.system == "Linux":
        if ctx.host.nvidia_driver:
            return Remediation(
                "Install torch into the interpreter you run (PyPI's Linux wheel is a CUDA build; the NVIDIA "
                "driver is loaded here).",
                (ctx.install("torch"),),
            )
        return Remediation(
            "Install torch into the interpreter you run: no NVIDIA driver is loaded here, so the CPU-only build "
            "(PyPI's default Linux wheel is a multi-GB CUDA build).",
            (ctx.install("torch", index_url=CPU_WHEELS),),
        )
    macos = parse_version(ctx.host.macos_version) if ctx.on_macos else None
    if macos is None:
        return Remediation("Install torch into the interpreter you run.", (ctx.install("torch"),))
    python = ctx.interpreter.version if ctx.interpreter and ctx.interpreter.version else None
    arch = "x86_64" if ctx.interpreter and ctx.interpreter.machine == "x86_64" else "arm64"
    advice = install_advice(macos, python, arch)
    if advice.spec is None:
        pythons = pythons_with_mps(macos, arch)
        other = f"; use Python {pythons[0]} - {pythons[-1]}" if pythons else "; upgrade macOS"
        return Remediation(
            f"No torch with MPS installs into this interpreter: {advice.why}{other}.",
            ("softwareupdate --list",) if not pythons else (f"{ctx.python} -c 'import sys; print(sys.version)'",),
        )
    why = f" ({advice.spec}: {advice.why})" if advice.spec != "torch" or advice.numpy else ""
    return Remediation(f"Install torch into the interpreter you run{why}.", (ctx.install(*advice.specs),))


@check("torch-import", "torch", needs=("interpreter",))
def torch_import(ctx: Context) -> Outcome:
    if ctx.interpreter is None:
        return skipped("not determined: the interpreter did not report")
    torch, run = ctx.torch, ctx.facts.target.run
    if torch is None:
        return _import_died(ctx)
    if not torch.installed:
        if upstream := ctx.upstream_problem("python-arch"):
            return ctx.blocked(upstream)
        return failed(f"torch is not installed in {ctx.interpreter.executable}", install_fix(ctx))
    if torch.import_error:
        return _import_failed(ctx, torch.import_error)
    seconds = f" in {torch.import_seconds:.1f} s" if torch.import_seconds is not None else ""
    newer = newer_than_table(torch.version)
    return passed(
        f"{torch_named(torch.version)} imports{seconds}" + (f"; {newer}" if newer else ""),
        f"location: {torch.location}",
        f"probe took {run.seconds} s in all",
    )


def _import_died(ctx: Context) -> Outcome:
    run = ctx.facts.target.run
    if run.running_stage != "torch":
        return skipped(f"torch was not probed: {run.message or run.status}")
    reinstall = ctx.install("torch", reinstall=True)
    fallback = ctx.env.get(FALLBACK)
    if run.status == "crashed" and read_fallback(fallback, None).enabled is None:
        return failed(
            f"import torch died ({run.message}); {FALLBACK}={(fallback or '')[:40]!r}: "
            f"{read_fallback(fallback, None).how}",
            fix("Set PYTORCH_ENABLE_MPS_FALLBACK to 1 (or unset it).", f"export {FALLBACK}=1"),
        )
    if run.status == "timeout":
        return failed(
            f"import torch did not finish within {seconds_or_limit(run.timeout)}",
            fix(
                "A first import after installing can be slow; allow more time, and reinstall if it still hangs.",
                f"mpscheck doctor --timeout {max(180, int((run.timeout or 60) * 3))}",
                reinstall,
            ),
        )
    return failed(
        f"import torch crashed the interpreter: {run.message}",
        fix("Reinstall torch; if it still crashes, report it with this report attached.", reinstall),
    )


def _import_failed(ctx: Context, error: str) -> Outcome:
    reinstall = ctx.install("torch", reinstall=True)
    signature = recognise(error)
    remedy = signature.remedy(ctx.python) if signature else None
    if signature and remedy and signature.kind == "wrong-arch-dylib":
        return failed(  # the table's fix sentence; the command fits this interpreter's setup (pip, uv, ...)
            f"import torch failed: torch's libraries do not match this Python ({signature.detail}): "
            "the wheel was installed by a Python of the other architecture",
            fix(remedy.summary, reinstall),
            first_line(error, 400),
        )
    return failed(
        f"import torch failed: {first_line(error)}",
        fix("Reinstall torch into this interpreter.", reinstall),
        error[:1000],
    )


@check(
    "mps-built",
    "MPS built",
    where="macos",
    needs=("torch-import",),
    reads=("torch.mps_built",),
    cause="torch-not-built-with-mps",
)
def mps_built(ctx: Context) -> Outcome:
    torch = ctx.torch
    if torch is None or torch.mps_built is None:
        return skipped("not determined: torch was not imported")
    if torch.version is None:
        return (passed if torch.mps_built else skipped)(
            f"torch.backends.mps.is_built() is {torch.mps_built} (torch version unknown)"
        )
    if torch.mps_built:
        return passed(f"{torch_named(torch.version)} was built with MPS (torch.backends.mps.is_built() is True)")
    return failed(
        f"{torch_named(torch.version)} was built without MPS (torch.backends.mps.is_built() is False)",
        fix(
            "Install PyPI's macOS arm64 wheel, which is built with MPS.",
            ctx.install("torch", reinstall=True),
        ),
        f"location: {torch.location}",
    )


@check(
    "mps-available",
    "MPS available",
    where="macos",
    needs=("mps-built",),
    reads=("torch.mps_available",),
    cause="no-metal-device",
)
def mps_available(ctx: Context) -> Outcome:
    torch = ctx.torch
    if torch is None or torch.mps_available is None:
        return skipped("not determined: torch was not imported")
    if torch.mps_available:
        return _available(ctx)
    for upstream_id in ("macos-version", "chip", "python-arch"):
        if ctx.upstream_problem(upstream_id):
            return ctx.blocked(upstream_id)
    torchs_words = f"torch says: {first_line(torch.mps_error)}" if torch.mps_error else "torch gave no reason"
    misleading = " (torch's macOS wording does not mean the OS is too old)" if recognise(torch.mps_error) else ""
    if ctx.host.hypervisor:
        return failed(
            "no usable Metal device inside this virtual machine" + misleading,
            fix("Run MPS work on a physical Mac.", "mpscheck doctor --require none"),
            torchs_words,
        )
    os_known = ctx.status("macos-version") in (Status.PASS, Status.WARN)
    if not os_known or ctx.host.hypervisor is None:
        unknown = "whether this macOS is new enough" if not os_known else "whether this is a VM"
        return failed(
            f"torch sees no Metal device; {unknown} is unknown, so the cause is one of: a macOS older than this "
            "torch needs, a virtual machine, or a sandbox" + misleading,
            fix(
                "Compare with a run from a normal Terminal window, and check the macOS version.",
                "sw_vers -productVersion",
                f"{ctx.python} -c 'import torch; print(torch.backends.mps.is_available())'",
            ),
            torchs_words,
        )
    return failed(
        f"this process sees no Metal device although macOS {ctx.host.macos_version} is new enough: typically a "
        "sandbox (Codex CLI, App Sandbox, some remote runners)" + misleading,
        fix(
            "Run it outside the sandbox, e.g. from a normal Terminal window, and compare.",
            f"{ctx.python} -c 'import torch; print(torch.backends.mps.is_available())'",
        ),
        torchs_words,
    )


def _available(ctx: Context) -> Outcome:
    torch = ctx.torch
    assert torch is not None
    name = torch.mps_device_name or "device name not reported by this torch"
    cores = f", {torch.mps_core_count} GPU cores" if torch.mps_core_count else ""
    if torch.mps_device_name == PARAVIRTUAL_DEVICE:
        return warned(
            f"MPS reports available on '{PARAVIRTUAL_DEVICE}': a VM's GPU, where allocations often fail",
            fix(
                "Trust the smoke test, not is_available(); for MPS work use a physical Mac.",
                "mpscheck smoke-test --device mps",
            ),
        )
    return passed(f"MPS available: {name}{cores}")
