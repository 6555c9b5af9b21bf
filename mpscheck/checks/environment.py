"""Checks of the PYTORCH_* environment variables that steer MPS, read the way torch reads them.

torch reads PYTORCH_ENABLE_MPS_FALLBACK once, while it loads (MPSFallback.mm: a static read in
TORCH_LIBRARY_IMPL), and the watermark ratios with strtod when the MPS allocator starts
(MPSAllocator.mm): ../shared/mps-facts.md 3. The C readers live in c_readers.py; which reader a
torch release applies to the fallback variable comes from versions.fallback_reader.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from mpscheck.checks.c_readers import full_number, stoi, strtod
from mpscheck.checks.registry import Context, Outcome, check, failed, fix, passed, skipped, warned
from mpscheck.knowledge.versions import fallback_reader
from mpscheck.model import Remediation

FALLBACK = "PYTORCH_ENABLE_MPS_FALLBACK"
HIGH = "PYTORCH_MPS_HIGH_WATERMARK_RATIO"
LOW = "PYTORCH_MPS_LOW_WATERMARK_RATIO"
DEFAULT_HIGH, HIGH_UPPER_BOUND, DEFAULT_LOW_UNIFIED = 1.7, 2.0, 1.4

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
INTEGER_VALUE = re.compile(r"^[ \t]*[+-]?(0[xX][0-9a-fA-F]+|[0-9]+)[ \t]*$", re.ASCII)  # strtol(v, nullptr, 0)
BEFORE_IMPORT = "Set it before Python starts: setting os.environ after `import torch` has no effect."


@dataclass(frozen=True)
class FallbackReading:
    """What a torch release makes of the fallback variable's value."""

    enabled: bool | None  # None: import torch dies on this value
    exact: bool  # the value says what torch reads (no ignored characters, no surprising meaning)
    how: str  # in words, for the finding


def read_fallback(value: str | None, torch_version: str | None) -> FallbackReading:
    """The one home of 'is the CPU fallback on?': unset, then the release's own reader."""
    if value is None:
        return FallbackReading(False, True, "unset")
    reader = fallback_reader(torch_version)
    if reader == "not-zero":
        return FallbackReading(value != "0", value in ("0", "1"), 'any value but "0" turns it on')
    parsed = stoi(value)
    if parsed.error:
        return FallbackReading(None, False, f"std::stoi throws std::{parsed.error} on it while torch loads")
    exact = parsed.trailing == "" and value == value.strip()
    how = f"std::stoi reads {parsed.value}" + ("" if exact else f", ignoring {parsed.trailing or 'whitespace'!r}")
    return FallbackReading(parsed.value != 0, exact, how)


def export_fix(ctx: Context, summary: str, name: str, value: str) -> Remediation:
    """`export NAME=value`, plus the conda way to make it stick to the env when the target is conda."""
    commands = [f"export {name}={value}"]
    if ctx.interpreter and ctx.interpreter.conda_prefix:
        commands.append(f"conda env config vars set {name}={value}")
    return Remediation(summary, tuple(commands))


@check(
    "mps-fallback-env", "CPU fallback", where="macos", needs=("interpreter",), reads=(f"interpreter.env.{FALLBACK}",)
)
def mps_fallback_env(ctx: Context) -> Outcome:
    if ctx.interpreter is None or ctx.interpreter.env is None:
        return skipped("not determined: the environment was not captured")
    value = ctx.env.get(FALLBACK)
    reading = read_fallback(value, ctx.torch.version if ctx.torch else None)
    if value is None:
        return warned(
            f"{FALLBACK} is not set: an op without an MPS kernel raises NotImplementedError instead of "
            "running on the CPU",
            export_fix(ctx, BEFORE_IMPORT, FALLBACK, "1"),
        )
    if reading.enabled is None:
        return failed(
            f"{FALLBACK}={value[:40]!r}: {reading.how}, so import torch aborts",
            export_fix(ctx, "Use 1 to enable the CPU fallback (0 to disable). " + BEFORE_IMPORT, FALLBACK, "1"),
        )
    state = "on" if reading.enabled else "off"
    if not reading.exact:
        return warned(
            f"{FALLBACK}={value[:40]!r}: {reading.how}, so the CPU fallback is {state}",
            export_fix(ctx, f"Say what you mean: 1 (on) or 0 (off). {BEFORE_IMPORT}", FALLBACK, "1"),
        )
    if not reading.enabled:
        return warned(
            f"{FALLBACK}={value}: the CPU fallback is off, so an op without an MPS kernel raises NotImplementedError",
            export_fix(ctx, BEFORE_IMPORT, FALLBACK, "1"),
        )
    return passed(f"{FALLBACK}={value}: ops without an MPS kernel run on the CPU (slower; torch warns once)")


@check(
    "mps-watermark-env",
    "MPS memory limits",
    where="macos",
    needs=("interpreter",),
    reads=(f"interpreter.env.{HIGH}",),
    cause="watermark-invalid",
)
def mps_watermark_env(ctx: Context) -> Outcome:
    if ctx.interpreter is None or ctx.interpreter.env is None:
        return skipped("not determined: the environment was not captured")
    raw_high, raw_low = ctx.env.get(HIGH), ctx.env.get(LOW)
    if raw_high is None and raw_low is None:
        return passed(f"defaults: high watermark {DEFAULT_HIGH}, low {DEFAULT_LOW_UNIFIED} (unified memory)")
    high = strtod(raw_high).value if raw_high is not None else DEFAULT_HIGH
    low = strtod(raw_low).value if raw_low is not None else DEFAULT_LOW_UNIFIED
    unset_both = Remediation("Unset both to use torch's defaults, or set numbers in range.", (f"unset {HIGH} {LOW}",))
    for name, raw in ((HIGH, raw_high), (LOW, raw_low)):
        if raw is not None and not full_number(raw):
            read = strtod(raw).value
            consequence = (
                (
                    ", i.e. no memory limit at all (may freeze the system)"
                    if name == HIGH
                    else ", i.e. no adaptive commit"
                )
                if read == 0.0
                else ""
            )
            return failed(
                f"{name}={raw[:40]!r} is not a number: torch's strtod reads it as {read:g}{consequence}",
                unset_both,
            )
    if not 0.0 <= high <= HIGH_UPPER_BOUND:
        return failed(
            f"{HIGH}={(raw_high or '')[:40]}: outside [0, 2]; the first MPS allocation raises "
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


@check("mps-env-vars", "Other MPS variables", where="macos", needs=("interpreter",))
def mps_env_vars(ctx: Context) -> Outcome:
    if ctx.interpreter is None or ctx.interpreter.env is None:
        return skipped("not determined: the environment was not captured")
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
        if kind == "integer" and not INTEGER_VALUE.match(value):
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
