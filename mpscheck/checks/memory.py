"""An out-of-memory message read by its numbers (MPS allocated, other allocations, max allowed,
requested; the Mac's memory where known): a VM's cap, a watermark setting that never reached torch,
the limit already off, a lowered cap, memory taken by others, or a model too large. The one reading
of these numbers, for the doctor's smoke test and for a paste alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mpscheck.checks.c_readers import strtod
from mpscheck.facts import Facts
from mpscheck.knowledge.sizes import gib, size_bytes
from mpscheck.model import Remediation

HIGH = "PYTORCH_MPS_HIGH_WATERMARK_RATIO"
LIFT = f"export {HIGH}=0.0"
LABELS = (("torch holds", "allocated"), ("other allocations", "other"), ("cap", "max"), ("asked for", "requested"))


@dataclass(frozen=True)
class OomReading:
    variant: str  # vm-cap | watermark-not-applied | watermark-off | watermark-lowered | other-processes | too-large
    kind: str  # what it means, in one clause
    remedy: Remediation | None
    numbers: str  # the message's numbers as printed, and the Mac's memory


def _numbers(groups: Mapping[str, str], memory: int | None) -> str:
    shown = ", ".join(f"{label} {groups[key]}" for label, key in LABELS if groups.get(key))
    return shown + (f"; this Mac has {gib(memory)}" if memory else "")


def read_oom(groups: Mapping[str, str], facts: Facts) -> OomReading:
    """What an out-of-memory message's numbers mean on this machine (groups: the error row's named groups)."""
    allocated, other = size_bytes(groups.get("allocated")), size_bytes(groups.get("other"))
    cap, requested = size_bytes(groups.get("max")), size_bytes(groups.get("requested"))
    memory = facts.host.memory_bytes
    numbers = _numbers(groups, memory)
    fits = allocated is not None and cap is not None and requested is not None and allocated + requested <= cap
    if fits and other == 0:  # nothing else holds memory, and it fits: a VM's cap (the paravirtual GPU)
        kind = (
            f"torch was refused {groups['requested']} although it fits under the cap, with no other "
            f"allocations ({numbers})"
        )
        return OomReading("vm-cap", kind, None, numbers)
    info = facts.target.interpreter
    set_to = (info.env or {}).get(HIGH) if info else None
    if cap is not None and set_to is not None and strtod(set_to).value == 0.0:
        return OomReading("watermark-not-applied", _not_applied(set_to), _not_applied_fix(), numbers)
    # no "max allowed" in a whole message (one that goes on to "Tried to allocate"): the limit is off; in a message
    # cut before that, the cap may have been cut too, so nothing is said of the limit
    if cap is None and allocated is not None and requested is not None:
        kind = (
            "the upper limit is already off (PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0: no 'max allowed' in the "
            "message), so the machine itself is out of memory"
        )
        return OomReading(
            "watermark-off", kind, Remediation("Use less memory per step (smaller batch/model, float16)."), numbers
        )
    return _by_share(groups, facts, allocated, other, cap, numbers)


def _not_applied(set_to: str) -> str:
    return (
        f"a watermark setting that never reached torch: the paste sets {HIGH}={set_to}, yet the message "
        "still shows a cap ('max allowed'), which torch prints only while the limit is on"
    )


def _not_applied_fix() -> Remediation:
    return Remediation(
        f"Set {HIGH} in the environment before Python starts (not as a function argument, not after "
        "`import torch`); lifting the cap may freeze the system.",
        (LIFT,),
    )


def _by_share(
    groups: Mapping[str, str], facts: Facts, allocated: int | None, other: int | None, cap: int | None, numbers: str
) -> OomReading:
    """A cap well under the Mac's memory, others' share over torch's own, else too large a model."""
    memory = facts.host.memory_bytes
    unified = bool(facts.host.cpu_brand and facts.host.cpu_brand.startswith("Apple"))
    if memory and unified and cap and cap < 0.9 * memory:
        kind = (
            f"a watermark setting: the cap ({gib(cap)}) is well under this Mac's memory ({gib(memory)}), "
            "lower than torch's default (1.7 x the GPU's recommended working set)"
        )
        fix = Remediation(
            "Unset PYTORCH_MPS_HIGH_WATERMARK_RATIO (or raise it) before Python starts.",
            ("unset PYTORCH_MPS_HIGH_WATERMARK_RATIO", LIFT),
        )
        return OomReading("watermark-lowered", kind, fix, numbers)
    if other is not None and allocated is not None and cap and other > max(allocated, cap * 0.25):
        kind = (
            f"memory taken by others: other allocations ({groups['other']}) exceed what torch itself holds "
            "(other processes and apps on the shared GPU memory, or other Metal work in this one)"
        )
        fix = Remediation(
            "Free the other allocations (quit other GPU apps, unload other models); lifting the cap risks "
            "freezing the system.",
            (LIFT,),
        )
        return OomReading("other-processes", kind, fix, numbers)
    where = f" with {gib(memory)}" if memory else ""
    kind = f"a model or batch too large for this Mac{where}: torch's own tensors fill the cap"
    if groups.get("requested") is None and allocated is not None and cap and held_little(groups):
        # the request was cut from the paste: torch held little of the cap, so one request asked for the rest
        kind = (
            f"a model or batch too large for this Mac{where}: torch held little of the cap, so the request (cut from "
            "the paste) was larger than all that was left"
        )
    fix = Remediation(
        "Use a smaller model, batch or resolution, or float16; lifting the cap with the variable below lets "
        "macOS swap (slow; may freeze the system).",
        (LIFT,),
    )
    return OomReading("too-large", kind, fix, numbers)


def held_little(groups: Mapping[str, str]) -> bool:
    """torch's own and the other allocations together under half the cap: the numbers of a refused first request
    (a VM's paravirtual GPU refuses modest ones), not of memory filled up; False when a number is not shown."""
    allocated, other, cap = (size_bytes(groups.get(key)) for key in ("allocated", "other", "max"))
    return allocated is not None and other is not None and cap is not None and allocated + other < cap / 2
