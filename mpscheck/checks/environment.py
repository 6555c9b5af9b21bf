"""Checks of the PYTORCH_* environment variables that steer MPS, read the way torch reads them.

torch parses PYTORCH_ENABLE_MPS_FALLBACK with std::stoi at import (MPSFallback.mm) and the
watermark ratios with strtod when the MPS allocator starts (MPSAllocator.mm): ../shared/mps-facts.md 3.
"""

from __future__ import annotations

import difflib
import re

from mpscheck.checks.registry import Context, Outcome, check, failed, fix, passed, warned
from mpscheck.model import Remediation

FALLBACK = "PYTORCH_ENABLE_MPS_FALLBACK"
HIGH = "PYTORCH_MPS_HIGH_WATERMARK_RATIO"
LOW = "PYTORCH_MPS_LOW_WATERMARK_RATIO"
DEFAULT_HIGH, HIGH_UPPER_BOUND, DEFAULT_LOW_UNIFIED = 1.7, 2.0, 1.4
PLAIN_INTEGER = re.compile(r"^[+-]?\d+$")
_STRTOD_PREFIX = re.compile(r"^\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)", re.IGNORECASE)

# Every MPS variable torch reads (docs/source/mps_environment_variables.md), with how it parses it.
KNOWN_MPS_VARIABLES = {
    FALLBACK: "integer",
    HIGH: "ratio",
    LOW: "ratio",
    "PYTORCH_DEBUG_MPS_ALLOCATOR": "integer",
    "PYTORCH_MPS_LOG_PROFILE_INFO": "integer",
    "PYTORCH_MPS_TRACE_SIGNPOSTS": "integer",
    "PYTORCH_MPS_FAST_MATH": "integer",
    "PYTORCH_MPS_PREFER_METAL": "integer",
    "PYTORCH_MPS_METAL_VERSION": "metal-version",
}
METAL_VERSIONS = ("3.1", "3.2", "4.0")


def strtod(text: str) -> float:
    """What C's strtod(text, nullptr) returns: the numeric prefix, or 0.0 when there is none."""
    match = _STRTOD_PREFIX.match(text)
    return float(match.group(0)) if match else 0.0


def export_fix(ctx: Context, summary: str, name: str, value: str) -> Remediation:
    """`export NAME=value`, plus the conda way to make it stick to the env when the target is conda."""
    commands = [f"export {name}={value}"]
    if ctx.interpreter and ctx.interpreter.conda_prefix:
        commands.append(f"conda env config vars set {name}={value}")
    return Remediation(summary, tuple(commands))


@check("mps-fallback-env", "CPU fallback")
def mps_fallback_env(ctx: Context) -> Outcome:
    if (off := ctx.off_macos()) is not None:
        return off
    if ctx.interpreter is None:
        return ctx.blocked("interpreter")
    value = ctx.env.get(FALLBACK)
    before_import = "Set it before Python starts: setting os.environ after `import torch` has no effect."
    if value is None:
        return warned(
            f"{FALLBACK} is not set: an op without an MPS kernel raises NotImplementedError instead of "
            "running on the CPU",
            export_fix(ctx, before_import, FALLBACK, "1"),
        )
    if not PLAIN_INTEGER.match(value):
        return failed(
            f"{FALLBACK}={value!r} is not a plain integer: torch parses it with std::stoi while it loads, which "
            "throws on this value or silently reads only its leading digits",
            export_fix(ctx, "Use 1 to enable the CPU fallback (0 to disable). " + before_import, FALLBACK, "1"),
        )
    if int(value) == 0:
        return warned(
            f"{FALLBACK}=0: the CPU fallback is off, so an op without an MPS kernel raises NotImplementedError",
            export_fix(ctx, before_import, FALLBACK, "1"),
        )
    return passed(f"{FALLBACK}={value}: ops without an MPS kernel run on the CPU (slower; torch warns once)")


@check("mps-watermark-env", "MPS memory limits")
def mps_watermark_env(ctx: Context) -> Outcome:
    if (off := ctx.off_macos()) is not None:
        return off
    if ctx.interpreter is None:
        return ctx.blocked("interpreter")
    raw_high, raw_low = ctx.env.get(HIGH), ctx.env.get(LOW)
    if raw_high is None and raw_low is None:
        return passed(f"defaults: high watermark {DEFAULT_HIGH}, low {DEFAULT_LOW_UNIFIED} (unified memory)")
    high = strtod(raw_high) if raw_high is not None else DEFAULT_HIGH
    low = strtod(raw_low) if raw_low is not None else DEFAULT_LOW_UNIFIED
    unset_both = Remediation("Unset both to use torch's defaults, or set numbers in range.", (f"unset {HIGH} {LOW}",))
    for name, raw in ((HIGH, raw_high), (LOW, raw_low)):
        if raw is not None and not _STRTOD_PREFIX.fullmatch(raw.strip()):
            consequence = "no memory limit at all (may freeze the system)" if name == HIGH else "no adaptive commit"
            return failed(
                f"{name}={raw!r} is not a number: torch's strtod reads it as {strtod(raw):g}, i.e. {consequence}",
                unset_both,
            )
    if not 0.0 <= high <= HIGH_UPPER_BOUND:
        return failed(
            f"{HIGH}={raw_high}: outside [0, 2]; the first MPS allocation raises "
            f"'invalid high watermark ratio {high:g}'",
            unset_both,
        )
    low_limit = HIGH_UPPER_BOUND if high == 0.0 else high
    if not 0.0 <= low <= low_limit:
        return failed(
            f"{LOW}={raw_low or f'unset (default {DEFAULT_LOW_UNIFIED})'}: outside [0, {low_limit:g}] "
            f"given high {high:g}; the first MPS allocation raises 'invalid low watermark ratio {low:g}'",
            unset_both,
        )
    if high == 0.0:
        return warned(
            f"{HIGH}=0: no upper limit on MPS memory; an out-of-memory can take the whole system down",
            Remediation("Keep a limit unless you must go past it.", (f"unset {HIGH}",)),
        )
    return passed(f"high watermark {high:g}, low {low:g}: valid")


@check("mps-env-vars", "Other MPS variables")
def mps_env_vars(ctx: Context) -> Outcome:
    if (off := ctx.off_macos()) is not None:
        return off
    if ctx.interpreter is None:
        return ctx.blocked("interpreter")
    names = sorted(n for n in ctx.env if "MPS" in n and n.startswith("PYTORCH_") and n not in (FALLBACK, HIGH, LOW))
    for name in names:
        kind, value = KNOWN_MPS_VARIABLES.get(name), ctx.env[name]
        if kind is None:
            guess = difflib.get_close_matches(name, KNOWN_MPS_VARIABLES, n=1)
            hint = f"; did you mean {guess[0]}?" if guess else ""
            rename = [f"export {guess[0]}={value}"] if guess else []
            return warned(
                f"{name} is not a variable torch reads{hint}", fix("Rename or remove it.", f"unset {name}", *rename)
            )
        if kind == "integer" and not re.match(r"^\s*[+-]?(0[xX][0-9a-fA-F]+|\d+)\s*$", value):
            return failed(
                f"{name}={value!r} is not an integer, and torch parses it as one",
                fix("Set it to an integer (1 to enable) or unset it.", f"unset {name}"),
            )
        if kind == "metal-version" and value not in METAL_VERSIONS:
            return warned(
                f"{name}={value!r}: torch ignores it (expects {', '.join(METAL_VERSIONS)})",
                fix("Set a version torch accepts, or unset it.", f"unset {name}"),
            )
    if not names:
        return passed("no other PYTORCH_*MPS* variables set")
    return passed("valid: " + ", ".join(f"{n}={ctx.env[n]}" for n in names))
