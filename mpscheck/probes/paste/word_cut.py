"""Whether lines cut at the wrap width are joined glued or with a space. A terminal cuts a record at exactly the
width, inside a word as often as not ("RuntimeError: M" + "PS backend out of memory"): glued. An editor or an e-mail
client wraps a sentence at a space it then drops ("on an" + "M1 Pro", "does not" + "happen."): a space. Both leave
lines of the width; what tells them apart is the rest of the paste: a word wrap leaves many more lines that end a
word a little short of the width with the sentence going on below in lower case than lines of exactly the width.
"""

from __future__ import annotations

SHORT_BY = 15  # a word wrap leaves a line at most a long word short of the width


def word_wrapped(lines: list[str], width: int) -> bool:
    """The paste was wrapped at spaces (an editor, an e-mail), not cut by a terminal at *width*."""
    exact = sum(1 for line in lines if len(line) == width)
    short = sum(
        1
        for line, following in zip(lines, lines[1:])
        if width - SHORT_BY <= len(line) < width and line[-1:].isalpha() and following[:1].islower()
    )
    return short > exact


def glue(before: str, after: str, spaced: bool) -> str:
    """What joins *after* onto *before* at a wrap: a space where the paste is word-wrapped and the cut falls
    between two words' letters, else nothing (a terminal's cut, or a space already there)."""
    return " " if spaced and before[-1:].isalnum() and after[:1].isalnum() else ""
