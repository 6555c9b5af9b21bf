"""The literal text a regular expression cannot match without: one needle per top-level alternative.

A pattern that begins with ``\\b``, a look-behind or a class makes the regex engine try every position
of the text; ``needle in text`` is a plain substring scan many times faster. So a pattern is searched
only where one of its alternatives' required literals occurs at all (exact: every match of that
alternative contains it). Read from the compiled pattern by Python's own parser; a pattern it cannot
read, a case-insensitive one, or an alternative without a literal of ``MIN_NEEDLE`` characters gets
no needles, which means "always search".

Three uses: the known-errors table searches only the lines that hold a row's needle (``holding``), the soft-wrap
joiner only the lines around one (``windows``), and the paste readers' own patterns are built ``gated``: a
``Gated`` pattern reads its literals more widely (``required``: any case, compared folded; a required group's
alternatives; a look-around's literal) and is tried only on a line that holds one, which makes a line of prose
cost a few substring tests instead of forty regex scans.
"""

from __future__ import annotations

import bisect
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

MIN_NEEDLE = 3


def needles(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """A required literal for each top-level alternative of *pattern*, or None when one has none."""
    # Cached by the pattern's identity (the pattern kept alive beside it): hashing a Pattern hashes its whole code.
    known = _NEEDLES.get(id(pattern))
    if known is None:
        known = _NEEDLES[id(pattern)] = (pattern, _needles(pattern))
    return known[1]


_NEEDLES: dict[int, tuple[re.Pattern[str], tuple[str, ...] | None]] = {}


def _needles(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
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


# ---- any case, any depth: the gate on the paste readers' patterns ---------------------------------------------------

# The letters other than ASCII's that Python's re matches to an ASCII letter under IGNORECASE, beside those whose
# lower() is that letter (the Kelvin sign): every code point checked (tests/test_needles_gate.py).
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})
_REPEATS = {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}
Needle = tuple[str, bool]  # the literal, and whether it is compared case-folded (see fold)


def fold(text: str) -> str:
    """*text* as a case-insensitive pattern's literals are compared with it: lower case, with the dotted capital I,
    the dotless i and the long s as i, i and s."""
    global _last_folded
    last = _last_folded
    if last[0] is text:  # the readers try many patterns on one line: it is folded once
        return last[1]
    folded = text.lower() if text.isascii() else text.translate(_FOLD).lower()
    _last_folded = (text, folded)
    return folded


_last_folded = ("", "")


def required(pattern: re.Pattern[str]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Literals one of which every match of *pattern* holds, as (exact, folded), or None when the pattern has no such
    set of literals of MIN_NEEDLE characters. Unlike needles(), a required group's alternatives count (``(?:only|just)
    uses``), and case-insensitive literals are given folded."""
    try:
        try:
            from re import _parser  # type: ignore[attr-defined]
        except ImportError:
            import sre_parse as _parser

        parsed = _parser.parse(pattern.pattern, pattern.flags)
    except Exception:
        return None
    found = _sequence(list(parsed), bool(pattern.flags & re.IGNORECASE))
    if found is None:
        return None
    return tuple(sorted(n for n, f in found if not f)), tuple(sorted(n for n, f in found if f))


def _sequence(items: list[tuple[Any, Any]], icase: bool) -> frozenset[Needle] | None:
    """The strongest set of needles that every match of the sequence *items* holds one of (longest shortest needle)."""
    best: frozenset[Needle] | None = None
    run = ""
    for op, value in [*items, (None, None)]:  # the sentinel closes the last run
        name = str(op)
        if name == "LITERAL" and _caseless_or_ascii(chr(value), icase):
            run += chr(value).lower() if icase else chr(value)
            continue
        candidates = [frozenset({(run, icase)}) if len(run) >= MIN_NEEDLE else None]
        run = ""
        if name == "BRANCH":
            candidates.append(_branches(value[1], icase))
        elif name == "SUBPATTERN":
            _group, add, remove, sub = value
            candidates.append(_sequence(list(sub), bool((icase or add & re.IGNORECASE) and not remove & re.IGNORECASE)))
        elif name in _REPEATS and value[0] >= 1:
            candidates.append(_sequence(list(value[2]), icase))
        elif name == "ATOMIC_GROUP":
            candidates.append(_sequence(list(value), icase))
        elif name == "ASSERT":  # a positive look-around: its literal stands in the text, if not in the match
            candidates.append(_sequence(list(value[1]), icase))
        for candidate in candidates:
            if candidate is not None and (best is None or _strength(candidate) > _strength(best)):
                best = candidate
    return best


def _branches(alternatives: list[Any], icase: bool) -> frozenset[Needle] | None:
    union: set[Needle] = set()
    for alternative in alternatives:
        found = _sequence(list(alternative), icase)
        if found is None:
            return None
        union |= found
    return frozenset(union)


def _strength(needles: frozenset[Needle]) -> tuple[int, int]:
    return min(len(n) for n, _ in needles), -len(needles)


def _caseless_or_ascii(char: str, icase: bool) -> bool:
    """A literal character that a folded comparison keeps exact: any, when case matters; else an ASCII one, or one
    that no other character matches in any case (CJK: "只能")."""
    return not icase or char.isascii() or char == char.lower() == char.upper() == char.casefold()


@dataclass(frozen=True)
class Gated:
    """A compiled pattern searched only in text that holds one of its required literals: exact (a text without them
    has no match), and a line without them costs a substring test, not the regex engine tried at every position."""

    regex: re.Pattern[str]
    exact: tuple[str, ...] = field(init=False, repr=False)
    folded: tuple[str, ...] = field(init=False, repr=False)
    always: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        found = required(self.regex)
        object.__setattr__(self, "always", found is None)
        object.__setattr__(self, "exact", found[0] if found else ())
        object.__setattr__(self, "folded", found[1] if found else ())

    @property
    def pattern(self) -> str:
        return self.regex.pattern

    def absent(self, text: str) -> bool:
        """True only when no match can be in *text*."""
        if self.always:
            return False
        for needle in self.exact:
            if needle in text:
                return False
        if self.folded:
            low = fold(text)
            for needle in self.folded:
                if needle in low:
                    return False
        return True

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return None if self.absent(text) else self.regex.search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return None if self.absent(text) else self.regex.match(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return iter(()) if self.absent(text) else self.regex.finditer(text, pos, endpos)


def gated(pattern: str, flags: int = 0) -> Gated:
    """re.compile(*pattern*, *flags*) behind its literal gate."""
    return Gated(re.compile(pattern, flags))


def windows(pattern: re.Pattern[str], text: str, starts: list[int], around: int) -> list[tuple[int, int]]:
    """The (pos, endpos) ranges of *text* (whose lines begin at *starts*) that hold every match of *pattern* lying
    within *around* lines of one of its needles: the lines from *around* before a needle to *around* after it,
    overlapping ranges merged. A pattern without needles is searched everywhere; one whose needles are absent,
    nowhere. For matches known to span few lines (a soft-wrapped message), searched only where they can be."""
    wanted = needles(pattern)
    if wanted is None:
        return [(0, len(text))]
    spans = [(max(0, line - around), min(len(starts) - 1, line + around)) for line in holding(wanted, text, starts)]
    merged: list[tuple[int, int]] = []
    for first, last in sorted(spans):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return [(starts[first], starts[last + 1] - 1 if last + 1 < len(starts) else len(text)) for first, last in merged]


def holding(wanted: tuple[str, ...], text: str, starts: list[int]) -> set[int]:
    """The indexes of the lines of *text* (beginning at *starts*) that hold one of the needles *wanted*: str.find
    over the whole text, many times faster than a regex tried at every position."""
    found: set[int] = set()
    for needle in wanted:
        at = text.find(needle)
        while at >= 0:
            line = bisect.bisect_right(starts, at) - 1
            found.add(line)
            at = text.find(needle, starts[line + 1]) if line + 1 < len(starts) else -1
    return found
