"""std::stoi and strtod as torch's C++ applies them to environment values, on a table of hard cases.

Expected values follow the C and C++ standards (C locale): strtol/stoi skip ASCII whitespace, take
an optional sign and ASCII digits, ignore what follows, throw invalid_argument without a digit and
out_of_range beyond int; strtod also reads hexadecimal floats, inf/infinity and nan, and returns 0.0
when nothing converts. Non-ASCII digits are no digits to either.
"""

from __future__ import annotations

import math

import pytest

from mpscheck.checks.c_readers import full_number, stoi, strtod

TEN_KB_OF_DIGITS = "9" * 10_000


@pytest.mark.parametrize(
    ("text", "value", "error", "trailing"),
    [
        ("1", 1, None, ""),
        ("1 ", 1, None, " "),
        (" 1", 1, None, ""),
        ("\t\n\v\f\r 7", 7, None, ""),
        ("1abc", 1, None, "abc"),
        ("0x1", 0, None, "x1"),  # base 10: the 0 is read, the x stops it
        ("+5", 5, None, ""),
        ("-0", 0, None, ""),
        ("00000000000000000001", 1, None, ""),  # leading zeros do not overflow
        ("2147483647", 2147483647, None, ""),
        ("-2147483648", -2147483648, None, ""),
        ("2147483648", None, "out_of_range", ""),
        (TEN_KB_OF_DIGITS, None, "out_of_range", ""),
        ("", None, "invalid_argument", ""),
        ("   ", None, "invalid_argument", ""),
        ("true", None, "invalid_argument", "true"),
        ("nan", None, "invalid_argument", "nan"),
        ("inf", None, "invalid_argument", "inf"),
        ("\u0661", None, "invalid_argument", "\u0661"),  # ARABIC-INDIC DIGIT ONE
        ("\uff11.\uff15", None, "invalid_argument", "\uff11.\uff15"),  # FULLWIDTH 1.5
        ("\u00a01", None, "invalid_argument", "\u00a01"),  # NO-BREAK SPACE is no C whitespace
        ("- 1", None, "invalid_argument", "- 1"),
    ],
)
def test_stoi(text: str, value: int | None, error: str | None, trailing: str) -> None:
    parsed = stoi(text)
    assert (parsed.value, parsed.error) == (value, error)
    if error is None:
        assert parsed.trailing == trailing


@pytest.mark.parametrize(
    ("text", "value", "consumed"),
    [
        ("1.5", 1.5, 3),
        ("1 ", 1.0, 1),
        (" 1", 1.0, 2),
        ("1abc", 1.0, 1),
        ("1.5x", 1.5, 3),
        ("abc", 0.0, 0),
        ("", 0.0, 0),
        (".", 0.0, 0),
        (".5", 0.5, 2),
        ("2e0", 2.0, 3),
        ("1e", 1.0, 1),  # an exponent needs digits
        ("-1", -1.0, 2),
        ("0x1", 1.0, 3),
        ("0x1p3", 8.0, 5),
        ("0x.8", 0.5, 4),
        ("-0x1P-2", -0.25, 7),
        ("0x", 0.0, 1),  # the 0 converts, the x does not
        ("inf", math.inf, 3),
        ("-Infinity", -math.inf, 9),
        ("infin", math.inf, 3),
        ("1e400", math.inf, 5),  # overflow saturates like HUGE_VAL
        (TEN_KB_OF_DIGITS, math.inf, 10_000),
        ("\u0661", 0.0, 0),
        ("\uff11.\uff15", 0.0, 0),
    ],
)
def test_strtod(text: str, value: float, consumed: int) -> None:
    parsed = strtod(text)
    assert (parsed.value, parsed.consumed) == (value, consumed)


@pytest.mark.parametrize("text", ["nan", "NAN", "nan(123)", " -nan"])
def test_strtod_nan(text: str) -> None:
    parsed = strtod(text)
    assert math.isnan(parsed.value) and parsed.consumed == len(text)


@pytest.mark.parametrize(
    ("text", "whole"), [("1.7", True), (" 1.7 ", True), ("1.7x", False), ("abc", False), ("", False), ("nan", True)]
)
def test_full_number_means_nothing_was_silently_dropped(text: str, whole: bool) -> None:
    assert full_number(text) is whole
