"""Sizes as torch prints them in an out-of-memory message (format_size: 1024s, GB or GiB labels)."""

from __future__ import annotations

import re

_UNITS = {"bytes": 1, "KB": 1024, "KiB": 1024, "MB": 1024**2, "MiB": 1024**2, "GB": 1024**3, "GiB": 1024**3}
_UNITS |= {"TB": 1024**4, "TiB": 1024**4}


def size_bytes(text: str | None) -> int | None:
    """'17.36 GB' -> bytes (torch's format_size counts in 1024s whatever the label)."""
    match = re.fullmatch(r"\A(?:\s*([\d.]+)\s*(bytes|[KMGT]i?B)\s*)", text or "")
    if not match:
        return None
    try:
        return int(float(match.group(1)) * _UNITS[match.group(2)])
    except (ValueError, OverflowError):  # '1.2.3 GB', or 400 digits: not a size
        return None


def gib(num: int) -> str:
    return f"{num / 1024**3:.2f} GiB"
