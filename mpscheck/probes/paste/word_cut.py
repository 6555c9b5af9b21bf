"""Whether lines cut at the wrap width are joined glued or with a space. A terminal cuts a record at exactly the
width, inside a word as often as not ("RuntimeError: M" + "PS backend out of memory"): glued. An editor or an e-mail
client wraps a sentence at a space it then drops ("on an" + "M1 Pro", "does not" + "happen."): a space. Both leave
lines of the width; what tells them apart is the rest of the paste: a word wrap leaves lines that end a word a little
short of the width because the next word, which the line below starts with, did not fit; a terminal leaves every
line it cut at exactly the width, and the lines it did not cut end records wherever they end.
"""

from __future__ import annotations

import re

SHORT_BY = 15  # a word wrap leaves a line at most a long word short of the width
# A figure a sentence goes on with ("2.2.2),", "16."), not a log record's time stamp ("2024-05-01", "12:00:01").
FIGURE = re.compile(r"\d{1,12}(?:\.\d{1,12}){0,4}[),.;]{0,2}")


def word_wrapped(lines: list[str], width: int) -> bool:
    """The paste was wrapped at spaces (an editor, an e-mail), not cut by a terminal at *width*: at least as many
    lines were moved on for a word that did not fit as lines stand at exactly the width."""
    exact = sum(1 for line in lines if len(line) == width)
    short = sum(1 for line, following in zip(lines, lines[1:]) if _word_moved_on(line, following, width))
    return short > 0 and short >= exact


def _word_moved_on(line: str, following: str, width: int) -> bool:
    """*line* stops short of *width* where the sentence goes on below (a lower-case word or a figure) with a word
    that would not have fit after it: what a word wrap leaves, and a record's end in a terminal rarely does."""
    if not width - SHORT_BY <= len(line) < width or not line[-1:].isalpha():
        return False
    first_word = following.split(" ", 1)[0]
    if not (first_word[:1].islower() or FIGURE.fullmatch(first_word)):
        return False
    return len(line) + 1 + len(first_word) > width


def glue(before: str, after: str, spaced: bool) -> str:
    """What joins *after* onto *before* at a wrap: a space where the paste is word-wrapped and the cut falls
    between two words' letters, else nothing (a terminal's cut, or a space already there)."""
    return " " if spaced and before[-1:].isalnum() and after[:1].isalnum() else ""
