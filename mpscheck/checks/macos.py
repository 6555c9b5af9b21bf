"""The macOS version against what the installed torch needs (../shared/mps-facts.md 2).

It runs after the interpreter checks: the floor depends on the torch that interpreter has, and
under Rosetta the cure for an old torch is a native Python, not an upgrade.
"""

from __future__ import annotations

from mpscheck.checks.registry import Context, Outcome, check, failed, fix, passed, skipped, warned
from mpscheck.versions import at_least, macos_floor, parse_version, show, torch_pin_for_macos


@check("macos-version", "macOS version", where="macos")
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
    if not at_least(torch_version, (1, 12)):
        return failed(
            f"torch {torch.version} predates MPS (it first shipped in torch 1.12): no MPS on any macOS",
            fix("Upgrade torch.", ctx.install(torch_pin_for_macos(macos) or "torch", upgrade=True)),
        )
    floor = macos_floor(torch_version)
    if not at_least(macos, floor):
        pin = torch_pin_for_macos(macos)
        commands = ["softwareupdate --list"] + ([ctx.install(pin)] if pin else [])
        also = f", or install the newest torch that still runs here ({pin})" if pin else ""
        return failed(
            f"{shown} is older than macOS {show(floor)}, which torch {torch.version} needs for MPS"
            " (torch then finds no MPS device)",
            fix(f"Upgrade macOS to {show(floor)} or later{also}.", *commands),
        )
    if torch_version[:2] == (2, 2) and at_least(macos, (14, 4)):
        if upstream := ctx.upstream_problem("python-arch"):
            return ctx.blocked(upstream)  # x86_64 wheels end at 2.2.2: the cure is a native Python
        return failed(
            f"torch {torch.version} on {shown} gives silently wrong results on MPS (pytorch/pytorch#122016)",
            fix("Upgrade torch to 2.3 or later.", ctx.install("torch>=2.3", upgrade=True)),
        )
    if not at_least(macos, (14, 0)):
        return warned(
            f"{shown} meets torch {torch.version}'s floor of {show(floor)}, but bfloat16 and complex "
            "dtypes on MPS need macOS 14",
            fix(
                "Upgrade macOS to 14 or later for bfloat16 and complex; until then use float16/float32.",
                "softwareupdate --list",
            ),
        )
    return passed(f"{shown} meets torch {torch.version}'s floor of macOS {show(floor)}")


def _macos_without_torch(ctx: Context, macos: tuple[int, ...], shown: str) -> Outcome:
    if not at_least(macos, (12, 3)):
        return failed(
            f"{shown} is older than 12.3: no release of torch has MPS here",
            fix("Upgrade macOS to 14 or later.", "softwareupdate --list"),
        )
    pin = torch_pin_for_macos(macos)
    if pin:
        return warned(
            f"{shown}: the newest torch needs macOS 14 for MPS; here MPS needs {pin}",
            fix(f"Upgrade macOS to 14 or later, or install {pin}.", "softwareupdate --list", ctx.install(pin)),
        )
    return passed(f"{shown}: every current torch release supports MPS here")
