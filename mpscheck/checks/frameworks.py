"""Do Lightning, transformers and accelerate decide MPS the way torch does, on these facts?

Their rules, re-stated from their sources (../shared/mps-facts.md 8), are applied here to the facts
instead of importing the frameworks, which would cost seconds: Lightning also needs
platform.processor() in ("arm", "arm64"); transformers and accelerate need is_available() and
is_built() (accelerate also torch >= 1.12).
"""

from __future__ import annotations

from mpscheck.checks.registry import Context, Outcome, check, fix, passed, skipped, warned
from mpscheck.knowledge.versions import FIRST_MPS_TORCH, at_least, parse_version

LIGHTNING_PROCESSORS = ("arm", "arm64")
# Lightning's MPSAccelerator.is_available() (src/lightning/fabric/accelerators/mps.py, current
# Lightning-AI/pytorch-lightning): `os.getenv("DISABLE_MPS", "0") == "1"` turns MPS off; older releases
# (e.g. the copy at commit 1ad5ab98dd50) do not read it.
LIGHTNING_OFF_SWITCH = "DISABLE_MPS"
LIGHTNING_ERROR = (
    "MisconfigurationException: MPSAccelerator can not run on your system since the accelerator is not available."
)


def verdicts(ctx: Context) -> dict[str, bool]:
    """Each installed framework's answer to 'is MPS available?'."""
    info, torch = ctx.interpreter, ctx.torch
    if info is None or torch is None:
        return {}
    torch_says = bool(torch.mps_available and torch.mps_built)
    version = parse_version(torch.version) or (0,)
    lightning = bool(torch.mps_available) and info.processor in LIGHTNING_PROCESSORS
    lightning = lightning and ctx.env.get(LIGHTNING_OFF_SWITCH, "0") != "1"
    rules = {
        "lightning": lightning,
        "pytorch-lightning": lightning,
        "transformers": torch_says,
        "accelerate": torch_says and at_least(version, FIRST_MPS_TORCH),
    }
    return {name: rules[name] for name, installed in (info.packages or {}).items() if installed and name in rules}


@check("frameworks", "Frameworks", where="macos", needs=("torch-import",))
def frameworks(ctx: Context) -> Outcome:
    info, torch = ctx.interpreter, ctx.torch
    if info is None or info.packages is None:
        return skipped("not determined: installed frameworks were not checked")
    if torch is None or torch.mps_available is None:
        return skipped("not compared: torch's own answer on MPS is unknown")
    answers = verdicts(ctx)
    if not answers:
        return skipped("none of Lightning, transformers, accelerate is installed")
    assert ctx.interpreter is not None and ctx.torch is not None
    torch_says = bool(ctx.torch.mps_available)
    versions = ctx.interpreter.packages or {}
    listed = ", ".join(f"{name} {versions[name]}" for name in answers)
    disagree = [name for name, says in answers.items() if says != torch_says]
    if not disagree:
        word = "available" if torch_says else "not available"
        return passed(f"{listed} agree with torch: MPS {word}")
    processor = ctx.interpreter.processor
    switched_off = ctx.env.get(LIGHTNING_OFF_SWITCH, "0") == "1" and processor in LIGHTNING_PROCESSORS
    if any("lightning" in name for name in disagree) and switched_off:
        return warned(
            f"torch says MPS is available but {LIGHTNING_OFF_SWITCH}=1 is set: {', '.join(disagree)} will not use it "
            "(current Lightning's MPSAccelerator.is_available() reads it; older releases ignore it)",
            fix(f"Unset {LIGHTNING_OFF_SWITCH} to let Lightning use MPS.", f"unset {LIGHTNING_OFF_SWITCH}"),
        )
    if any("lightning" in name for name in disagree) and not processor:
        return skipped("not compared: platform.processor(), which Lightning reads, is unknown")
    if any("lightning" in name for name in disagree):
        return warned(
            f"torch says MPS is available but {', '.join(disagree)} will say it is not: platform.processor() is "
            f"{processor!r}, not 'arm' (a Rosetta Python); Trainer(accelerator='mps') fails with "
            f"'{LIGHTNING_ERROR}'",
            fix(
                "Use a native arm64 Python (see python-arch); check what Lightning sees with:",
                f"{ctx.python} -c 'import platform; print(platform.processor())'",
            ),
        )
    return warned(
        f"{', '.join(disagree)} decide differently from torch (MPS {'available' if torch_says else 'not available'})",
        fix("Update them to releases that follow torch.", ctx.install(*disagree, upgrade=True)),
    )
