"""What torch's C++ makes of an environment value: std::stoi and strtod, with their exact semantics.

torch 2.0 to 2.7 read PYTORCH_ENABLE_MPS_FALLBACK with ``std::stoi`` at import (MPSFallback.mm;
later releases compare it with "0"), and every release reads the watermark ratios with
``strtod(value, nullptr)`` when the MPS allocator starts (MPSAllocator.mm). Both run in the C
locale: only ASCII whitespace and digits count, so an Arabic-Indic or a fullwidth digit is no
number to them. Which reader a release uses is knowledge (knowledge/torch_releases.json), not code.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

C_SPACE = " \t\n\v\f\r"  # isspace() in the C locale
INT_MIN, INT_MAX = -(2**31), 2**31 - 1

_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_HEX = re.compile(r"([+-]?)0[xX]((?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+))(?:[pP]([+-]?[0-9]+))?", re.ASCII)
_SPECIAL = re.compile(r"([+-]?)(inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)", re.ASCII | re.IGNORECASE)
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)


@dataclass(frozen=True)
class Stoi:
    """The result of std::stoi: a value, or the exception it throws."""

    value: int | None
    error: str | None = None  # "invalid_argument" (no digits) or "out_of_range" (beyond a C int)
    trailing: str = ""  # what stoi silently ignored after the digits


def stoi(text: str) -> Stoi:
    """std::stoi(text): strtol base 10 after C whitespace, then a check that the value fits an int."""
    body = text.lstrip(C_SPACE)
    match = _INTEGER.match(body)
    if not match:
        return Stoi(None, "invalid_argument", body)
    digits = match.group(0).lstrip("+-").lstrip("0")
    if len(digits) > 10:  # never hand Python's int() 10 kB of digits: it refuses more than 4300
        return Stoi(None, "out_of_range", body[match.end() :])
    value = int(digits or "0") * (-1 if match.group(0).startswith("-") else 1)
    if not INT_MIN <= value <= INT_MAX:
        return Stoi(None, "out_of_range", body[match.end() :])
    return Stoi(value, None, body[match.end() :])


@dataclass(frozen=True)
class Strtod:
    """The result of strtod(text, nullptr): the value (0.0 when nothing parsed) and how much was read."""

    value: float
    consumed: int  # characters read, leading whitespace included; 0: no conversion at all


def strtod(text: str) -> Strtod:
    """C's strtod in the C locale: decimal, hexadecimal (0x1p3), inf/infinity, nan, nan(chars)."""
    body = text.lstrip(C_SPACE)
    skipped = len(text) - len(body)
    if match := _SPECIAL.match(body):
        sign = -1.0 if match.group(1) == "-" else 1.0
        value = math.inf if match.group(2).lower().startswith("inf") else math.nan
        return Strtod(sign * value if value == math.inf else value, skipped + match.end())
    if match := _HEX.match(body):
        try:
            value = float.fromhex(match.group(0))
        except OverflowError:  # strtod saturates to HUGE_VAL
            value = -math.inf if match.group(1) == "-" else math.inf
        return Strtod(value, skipped + match.end())
    if match := _DECIMAL.match(body):
        return Strtod(_decimal(match.group(0)), skipped + match.end())
    return Strtod(0.0, 0)  # no conversion; "0x" with no hex digit was read above as the decimal "0"


def _decimal(text: str) -> float:
    """float() of a decimal literal, which Python reads like strtod except for absurd exponent lengths."""
    try:
        return float(text)
    except (OverflowError, ValueError):
        return math.inf


def full_number(text: str) -> bool:
    """True when strtod reads the whole value (surrounding C whitespace aside): no silent truncation."""
    parsed = strtod(text)
    return parsed.consumed > 0 and not text[parsed.consumed :].strip(C_SPACE)
