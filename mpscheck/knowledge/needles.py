"""The literal text a regular expression cannot match without: one needle per top-level alternative.

A pattern that begins with ``\\b``, a look-behind or a class makes the regex engine try every position
of the text; ``needle in text`` is a plain substring scan many times faster. So a pattern is searched
only where one of its alternatives' required literals occurs at all (exact: every match of that
alternative contains it). Read from the compiled pattern by Python's own parser; a pattern it cannot
read, a case-insensitive one, or an alternative without a literal of ``MIN_NEEDLE`` characters gets
no needles, which means "always search".
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

MIN_NEEDLE = 3


@cache
def needles(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """A required literal for each top-level alternative of *pattern*, or None when one has none."""
    if pattern.flags & re.IGNORECASE:
        return None
    try:
        try:
            from re import _parser  # type: ignore[attr-defined]  # the stdlib's own reader of patterns (3.11+)
        except ImportError:  # Python 3.9 and 3.10 name it sre_parse
            import sre_parse as _parser

        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except Exception:  # an unreadable pattern is always searched, never skipped
        return None
    items = list(parsed)
    branches = items[0][1][1] if len(items) == 1 and str(items[0][0]) == "BRANCH" else [items]
    found = []
    for branch in branches:
        best = _longest_literal(list(branch))
        if len(best) < MIN_NEEDLE:
            return None
        found.append(best)
    return tuple(found)


def _longest_literal(items: list[tuple[Any, Any]]) -> str:
    best, run = "", ""
    for op, value in items:
        if str(op) == "LITERAL":
            run += chr(value)
            best = max(best, run, key=len)
        else:
            run = ""
    return best


def may_match(pattern: re.Pattern[str], text: str) -> bool:
    """False only when *pattern* certainly has no match in *text* (none of its needles occurs)."""
    wanted = needles(pattern)
    return wanted is None or any(needle in text for needle in wanted)
