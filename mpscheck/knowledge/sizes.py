"""Sizes as torch prints them (c10's format_size in MPSAllocator messages and the profiler's tables):
counted in 1024s whatever the label (KB, MiB, GB, GiB). The one reader of such sizes.
"""

from __future__ import annotations

import re

_UNITS = {"bytes": 1, "KB": 1024, "KiB": 1024, "MB": 1024**2, "MiB": 1024**2, "GB": 1024**3, "GiB": 1024**3}
_UNITS |= {"TB": 1024**4, "TiB": 1024**4}
_SIZE = re.compile(r"\A(?:\s*(\d{1,30}(?:\.\d{1,30})?)\s?(bytes|[KMGT]i?B)\s*)")


def size_bytes(text: str | None) -> int | None:
    """'17.36 GB' -> bytes; None when *text* is not one size."""
    match = _SIZE.fullmatch(text or "")
    if not match:
        return None
    try:
        return int(float(match.group(1)) * _UNITS[match.group(2)])
    except (ValueError, OverflowError):  # 400 digits: not a size
        return None


def gib(num: int) -> str:
    return f"{num / 1024**3:.2f} GiB"
