"""The macOS version against what the installed torch needs (../shared/mps-facts.md 2).

It runs after the interpreter checks: the floor depends on the torch that interpreter has, and
under Rosetta the cure for an old torch is a native Python, not an upgrade.
"""

from __future__ import annotations

from dataclasses import replace

from mpscheck.checks.machine import wheel_arch
from mpscheck.checks.registry import Context, Outcome, check, failed, fix, passed, skipped, warned
from mpscheck.checks.wording import torch_named
from mpscheck.knowledge.op_limits import dtype_macos_floor
from mpscheck.knowledge.versions import (
    FIRST_MPS_TORCH,
    Floor,
    InstallAdvice,
    at_least,
    floor_for,
    install_advice,
    last_intel_mac_torch,
    parse_version,
    show,
    surely_below,
)
from mpscheck.model import Remediation


@check("macos-version", "macOS version", where="macos", reads=("host.macos_version",), cause="macos-too-old")
def macos_version(ctx: Context) -> Outcome:
    macos = parse_version(ctx.host.macos_version)
    if macos is None:
        return skipped(f"macOS version not determined: {ctx.host.errors.get('macos_version', 'sw_vers gave nothing')}")
    shown = f"macOS {ctx.host.macos_version}" + (f" ({ctx.host.macos_build})" if ctx.host.macos_build else "")
    torch = ctx.torch
    torch_version = parse_version(torch.version) if torch else None
    if torch is None or not torch.installed or (torch_version is None and torch.import_error):
        return _macos_without_torch(ctx, macos, shown)  # judged against the torch that would be installed
    if torch_version is None:
        return skipped(f"{shown}; the installed torch's version is unknown, so its floor is too")
    advice = install_advice(macos, _python(ctx), _arch(ctx))
    if not at_least(torch_version, FIRST_MPS_TORCH):
        return failed(
            f"torch {torch.version} predates MPS (it first shipped in torch 1.12): no MPS on any macOS",
            fix(
                f"Upgrade torch ({advice.why})." if advice.spec else f"No torch with MPS installs here: {advice.why}.",
                *((ctx.install(*advice.specs, upgrade=True),) if advice.spec else ()),
            ),
        )
    floor = floor_for(torch.version)
    assert floor is not None  # torch >= 1.12
    notes = tuple(n for n in (floor.note(torch.version or ""),) if n)
    assumed = f" ({notes[0]})" if floor.assumed else ""  # said in the summary, not only under -v
    if surely_below(macos, floor.macos):
        return _below_floor(ctx, shown, floor, advice, notes, assumed)
    if not at_least(macos, floor.macos):  # a major alone ("Monterey") against a floor inside that major
        return skipped(
            f"{shown}: its minor version is not shown, and torch {torch.version} needs macOS "
            f"{show(floor.macos)} for MPS",
            *notes,
        )
    if torch_version[:2] == (2, 2) and at_least(macos, (14, 4)):
        return _wrong_results_on_2_2(ctx, shown, advice)
    if (gated := _dtypes_gated(ctx, macos, shown, floor, notes)) is not None:
        return gated
    return passed(f"{shown} meets torch {torch.version}'s floor of macOS {show(floor.macos)}{assumed}", *notes)


def _below_floor(
    ctx: Context, shown: str, floor: Floor, advice: InstallAdvice, notes: tuple[str, ...], assumed: str
) -> Outcome:
    """macOS under the floor of the installed torch: failed, or a warning where torch does not enforce it or
    the floor was read from an older release (a torch newer than the table)."""
    torch = ctx.torch
    assert torch is not None
    if floor.assumed:  # a floor read from an older release cannot fail a newer one outright
        return warned(
            f"{shown} is older than macOS {show(floor.macos)}, which torch {torch.version} may need for MPS" + assumed,
            _floor_fix(ctx, floor.macos, advice),
            *notes,
        )
    if not floor.enforced and torch.mps_available:
        return warned(
            f"{shown} is older than macOS {show(floor.macos)}, the floor torch {torch.version} states for MPS; "
            "its device check does not enforce it, so MPS reports available, unsupported",
            _floor_fix(ctx, floor.macos, advice),
            *notes,
        )
    return failed(
        f"{shown} is older than macOS {show(floor.macos)}, which torch {torch.version} needs for MPS"
        " (torch then finds no MPS device)",
        _floor_fix(ctx, floor.macos, advice),
        *notes,
    )


def _wrong_results_on_2_2(ctx: Context, shown: str, advice: InstallAdvice) -> Outcome:
    """torch 2.2 on macOS 14.4+: silently wrong results on MPS (pytorch/pytorch#122016). A torch bug that the
    newer macOS exposed, fixed in torch 2.3 (pytorch#123234): its cause is metal-bug-fixed-later, not an old macOS."""
    version = ctx.torch.version if ctx.torch else None
    if upstream := ctx.upstream_problem("python-arch"):
        return ctx.blocked(upstream)  # x86_64 wheels end at 2.2.2: the cure is a native Python
    if _arch(ctx) == "x86_64":
        return failed(
            f"torch {version} on {shown} gives silently wrong results on MPS (pytorch/pytorch#122016), "
            f"and torch {last_intel_mac_torch()} is the last release for an x86_64 Mac",
            fix(
                "Run on the CPU device on this Mac (or use a Mac with Apple silicon, where torch 2.3+ installs).",
                "mpscheck doctor --require none",
            ),
        )
    return replace(
        failed(
            f"torch {version} on {shown} gives silently wrong results on MPS (pytorch/pytorch#122016)",
            fix("Upgrade torch to 2.3 or later.", ctx.install("torch>=2.3", *_numpy(advice), upgrade=True)),
        ),
        cause="metal-bug-fixed-later",
    )


def _dtypes_gated(
    ctx: Context, macos: tuple[int, ...], shown: str, floor: Floor, notes: tuple[str, ...]
) -> Outcome | None:
    """A release that refuses bfloat16 and complex on MPS below macOS 14 (knowledge/op_limits.py), on such a macOS."""
    bf16 = dtype_macos_floor("bfloat16") or (14, 0)  # knowledge/op_limits.py (PR pytorch/pytorch#119641)
    if at_least(macos, bf16) or not _gates_dtypes_on_macos_14(floor.release):
        return None
    version = ctx.torch.version if ctx.torch else None
    needed = show(bf16).removesuffix(".0")
    return warned(
        f"{shown} meets {torch_named(version)}'s floor of macOS {show(floor.macos)}, but bfloat16 and "
        f"complex dtypes on MPS need macOS {needed}",
        fix(
            f"Upgrade macOS to {needed} or later for bfloat16 and complex; until then use float16/float32.",
            "softwareupdate --list",
        ),
        *notes,
    )


BFLOAT16_MACOS_14 = "MPS bfloat16 type is supported on MacOS 14.0 or newer."  # torch 2.3 - 2.8's own text


def _gates_dtypes_on_macos_14(release: str | None) -> bool:
    """Whether this release's binary refuses bfloat16 (and complex) on MPS below macOS 14 (2.3 - 2.8)."""
    from mpscheck.knowledge import releases

    return release is not None and release in releases.text_releases(BFLOAT16_MACOS_14)


def _python(ctx: Context) -> str | None:
    return ctx.interpreter.version if ctx.interpreter and ctx.interpreter.version else None


def _arch(ctx: Context) -> str:
    """The architecture whose wheels this interpreter installs: x86_64 under Rosetta or on an Intel Mac."""
    return wheel_arch(ctx.interpreter)


def _numpy(advice: InstallAdvice) -> tuple[str, ...]:
    return (advice.numpy,) if advice.numpy else ()


def _floor_fix(ctx: Context, floor: tuple[int, ...], advice: InstallAdvice) -> Remediation:
    """Upgrade macOS, or install the newest torch that still runs here (one with a wheel for this Python)."""
    commands = ["softwareupdate --list"]
    if advice.spec:
        commands.append(ctx.install(*advice.specs))
        also = f", or install the newest torch that still runs here ({advice.spec}: {advice.why})"
    else:
        also = f"; no torch with MPS installs on this macOS with this Python ({advice.why})"
    return fix(f"Upgrade macOS to {show(floor)} or later{also}.", *commands)


def _macos_without_torch(ctx: Context, macos: tuple[int, ...], shown: str) -> Outcome:
    advice = install_advice(macos, _python(ctx), _arch(ctx))
    if len(macos) == 1 and install_advice((*macos, 99), _python(ctx), _arch(ctx)).newest != advice.newest:
        # A major alone ("Monterey"): its first and last minors differ here (12.0 runs no torch's MPS, 12.3 does).
        return skipped(f"{shown}: its minor version is not shown, and MPS depends on it")
    if advice.plain is None and _python(ctx):
        # No torch has a wheel for this Python at all (Python 3.15, or 3.13 on x86_64): no macOS would
        # change that; torch-import names the Pythons to use instead.
        return skipped(f"{shown}: not judged: {advice.why}")
    if advice.newest is None:
        return failed(
            f"{shown}: {advice.why}",
            fix("Upgrade macOS to 14 or later.", "softwareupdate --list"),
        )
    if advice.spec and advice.spec != "torch":
        plain_floor = floor_for(advice.plain) if advice.plain and advice.plain_has_mps is False else None
        plain = (
            f"; a plain `pip install torch` resolves to torch {advice.plain}, which needs macOS "
            f"{show(plain_floor.macos)}+ for MPS"
            if plain_floor
            else ""
        )
        return warned(
            f"{shown}: MPS here needs {advice.spec} (torch {advice.newest}){plain}",
            fix(
                f"Upgrade macOS, or install {advice.spec}.",
                "softwareupdate --list",
                ctx.install(*advice.specs),
            ),
        )
    return passed(f"{shown}: {advice.why}")
