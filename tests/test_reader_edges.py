"""Edges of the C readers and the wording helpers that the table tests leave open.

What stoi ignored is reported for its errors too (the finding quotes it), strtod saturates a
hexadecimal overflow like HUGE_VAL and counts leading whitespace in what it read, and sizes, first
lines and plurals read the way the findings print them.
"""

from __future__ import annotations

import math

import pytest

from mpscheck.checks.c_readers import Stoi, Strtod, full_number, stoi, strtod
from mpscheck.checks.wording import first_line, plural, size


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("99999999999x", Stoi(None, "out_of_range", "x")),
        ("2147483648 ", Stoi(None, "out_of_range", " ")),
        ("-2147483649", Stoi(None, "out_of_range", "")),
        ("-" + "9" * 20 + "z", Stoi(None, "out_of_range", "z")),
        ("0000000000000000000000000000001z", Stoi(1, None, "z")),
        (" \tabc", Stoi(None, "invalid_argument", "abc")),
        ("-7", Stoi(-7, None, "")),
        ("+0", Stoi(0, None, "")),
    ],
)
def test_stoi_reports_what_it_ignored_even_when_it_throws(text: str, expected: Stoi) -> None:
    assert stoi(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0x1p99999", Strtod(math.inf, 9)),
        ("-0x1p99999", Strtod(-math.inf, 10)),
        ("  0x1p3", Strtod(8.0, 7)),
        (" \t-inf", Strtod(-math.inf, 6)),
        ("+inf", Strtod(math.inf, 4)),
        (" 1.5e1x", Strtod(15.0, 6)),
        ("1e" + "9" * 5000, Strtod(math.inf, 5002)),
    ],
)
def test_strtod_saturates_and_counts_leading_whitespace(text: str, expected: Strtod) -> None:
    assert strtod(text) == expected


def test_only_c_whitespace_is_skipped() -> None:
    """NO-BREAK SPACE and the information separators are whitespace to Python, not to C's isspace."""
    for other in ("\u00a0", "\x1c", "\u2003"):
        assert strtod(other + "1.5") == Strtod(0.0, 0)
        assert full_number("1.5" + other) is False
        assert stoi(other + "1") == Stoi(None, "invalid_argument", other + "1")
    assert full_number(" \t1.5\n\v\f\r") is True


def test_strtod_nan_keeps_no_sign_and_counts_whitespace() -> None:
    parsed = strtod("  -nan(abc)x")
    assert math.isnan(parsed.value) and parsed.consumed == 11


@pytest.mark.parametrize(
    ("num_bytes", "text"),
    [
        (None, "unknown"),
        (0, "0 B"),
        (1023, "1023 B"),
        (1024, "1 KiB"),
        (1536, "1.5 KiB"),
        (64 * 1024**2, "64 MiB"),
        (22906503168, "21.3 GiB"),
        (3 * 1024**4, "3 TiB"),
        (2048 * 1024**4, "2048 TiB"),
    ],
)
def test_size(num_bytes: int | None, text: str) -> None:
    assert size(num_bytes) == text


def test_first_line_and_plural() -> None:
    assert first_line(None) == ""
    assert first_line("   \n  ") == ""
    assert first_line("\n  first\nsecond") == "first"
    assert first_line("x" * 240) == "x" * 240
    assert first_line("x" * 241) == "x" * 239 + "…"
    assert first_line("abcdef", limit=4) == "abc…"
    assert (plural(1, "device"), plural(2, "device"), plural(0, "step")) == ("1 device", "2 devices", "0 steps")
