"""Known error texts from torch and Metal, recognised so a finding can name the cause, not echo it.

Each pattern comes from a cited report (../shared/mps-facts.md). Matching is on torch's own words,
so a new torch that rewords a message degrades to "unrecognised", never to a wrong diagnosis.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# The availability texts of every torch release (EmptyTensor.cpp's MPS_ERROR_RUNTIME_TOO_LOW and, from
# 2.15, mps_unavailable_error), read from the wheels into mpscheck/knowledge/torch_releases.json.
UNIFIED_MEMORY = "MPS backend is only supported on devices with unified memory"
# Non-MPS builds: EmptyTensor.cpp, user reports, and torch 2.13.0+cpu on Linux as mpscheck recorded it.
NOT_BUILT = re.compile(
    r"not linked with support for mps|not compiled with MPS enabled|with arguments from the 'MPS' backend"
)
# MPSAllocator.mm; the 0-byte form is the GitHub-hosted VM signature (actions/runner-images#9918).
OUT_OF_MEMORY = re.compile(r"MPS backend out of memory \(MPS allocated: ([^,]+), other allocations: ([^,)]+)")
VIRTUAL_GPU = re.compile(r"MPS backend out of memory \(MPS allocated: 0 bytes, other allocations: 0 bytes")
# MPSFallback.mm, wording since 2.6 and before (pytorch/pytorch#141314, #86195).
FALLBACK_OFF = re.compile(r"is not currently implemented for the MPS device")
NO_FLOAT64 = re.compile(r"Cannot convert a (MPS Tensor to float64|float64 Tensor to MPS)")
NEEDS_MACOS14 = re.compile(
    r"(BFloat16 is only supported on MacOS 14|bfloat16 type is supported on MacOS 14"
    r"|complex types are only supported on MacOS 14|does not have support for that dtype)"
)
WATERMARK = re.compile(r"invalid (high|low) watermark ratio")
# dlopen of a wheel built for the other architecture (invoke-ai/InvokeAI#2152; older dyld wording too).
WRONG_ARCH = re.compile(r"incompatible architecture \(have \(?'?(\w+)'?\)?, need \(?'?(\w+)'?\)?")


@dataclass(frozen=True)
class Signature:
    cause: str  # stable key: virtual-gpu, out-of-memory, fallback-off, no-metal-device, ...
    detail: str = ""


@lru_cache(maxsize=1)
def no_metal_device() -> re.Pattern[str]:
    """torch's 'MPS is unavailable' texts, every wording of every release in the table."""
    from mpscheck.knowledge import releases

    texts = [t.strip() for t in releases.availability_texts() if UNIFIED_MEMORY not in t]
    return re.compile("|".join(re.escape(t) for t in sorted(set(texts), key=len, reverse=True)))


def recognise(text: str | None) -> Signature | None:
    """The known cause behind an error text, or None."""
    if not text:
        return None
    if VIRTUAL_GPU.search(text):
        return Signature("virtual-gpu")
    if match := OUT_OF_MEMORY.search(text):
        return Signature("out-of-memory", f"MPS allocated {match.group(1)}, other allocations {match.group(2)}")
    if match := WATERMARK.search(text):
        return Signature("watermark", match.group(0))
    if FALLBACK_OFF.search(text):
        return Signature("fallback-off")
    if NO_FLOAT64.search(text):
        return Signature("no-float64")
    if NEEDS_MACOS14.search(text):
        return Signature("needs-macos14")
    if UNIFIED_MEMORY in text:
        return Signature("no-unified-memory")
    if match := no_metal_device().search(text):
        return Signature("no-metal-device", match.group(0))
    if NOT_BUILT.search(text):
        return Signature("not-built")
    if match := WRONG_ARCH.search(text):
        return Signature("wrong-arch", f"have {match.group(1)}, need {match.group(2)}")
    return None
