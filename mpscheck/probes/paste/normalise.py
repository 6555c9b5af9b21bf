"""Undo what happens to text between a Mac's terminal and an issue thread, before any parser reads it.

A paste arrives mangled in a few common ways (issue 17, item 2): a terminal or an e-mail hard-wraps
long lines at a fixed width (an ``uname -a`` line split in two), a tool's hint is wrapped with its
platform tag on the next line, an error is copied from a Python repr (``\\'`` and ``\\n`` escapes, the
whole traceback on one line), a reply quotes it with ``> ``, and a summary annotates values with an
arrow (``platform.machine() → 'x86_64'``). Each step here is linear in the text and never raises.

Line numbers: a wrapped line is joined onto its first line and its continuation left blank, so the
paste keeps its numbering; a repr line expands into several lines, and ``origin`` maps every line
back to the line of the paste it came from.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass

from mpscheck.probes.paste.word_cut import glue, word_wrapped

MIN_WRAP = 60  # narrower hard wraps are not a terminal's
TERMINAL_WIDTH = 80  # one wrapped line of exactly this width is enough to call it a wrap
# Other widths terminals are commonly set to (a VT100's 132 columns, 100/120/160 in editors' panels): one line of
# such a width is a wrap when the cut falls inside a word (a letter or digit on both sides of it).
TERMINAL_WIDTHS = (100, 120, 132, 160)
MAX_JOINED = 4000  # a wrapped line is joined up to the readers' per-line cut, no further
MAX_SPLIT = 5  # a known message soft-wrapped over more lines than this is left as it is
REPR_ESCAPES = {"\\n": "\n", "\\t": "\t", "\\'": "'", '\\"': '"', "\\\\": "\\"}
_ESCAPE = re.compile(r"\\[nt'\"\\]")
_REPR_HINT = re.compile(r"\\n|\\'")
_ERRORISH = re.compile(r"Error|Exception|Traceback|Warning|torch|MPS|mps")
_ARROW = re.compile(r"(?<=\))\s*(?:→|⇒|=>|->)\s*")  # f(x) → 'value': a summary's annotation
# a line that starts a record of its own: a prompt, a comment, a "Label: value" row, a traceback's frame, a
# warning's "/Users/.../x.py:NNN: UserWarning" header from a root folder (after a shell line that happens to fill
# the wrap width; a long path cut just before one of its own "/" goes on from a package folder, never a root)
_RECORD = re.compile(
    r"\A\s*(?:>>>|\.\.\.|[$%#]|[A-Z][\w .()/-]{0,40}:\s|File \"|Traceback"
    r"|/(?:Users|home|opt|usr|Library|Volumes|private|Applications|System|tmp|var|content)/[^\s:]{1,400}\.py:\d{1,6}: "
    r"\w{0,40}Warning\b)"
)
# a piece that a wrap cut just before a space begins with that one space (a record's indent is none, or two or more)
_CUT_AT_SPACE = re.compile(r"\A [^\s-]")
_QUOTE_MARK = re.compile(r"\A(?:>(?!>>) ?){1,8}")  # a reply's "> ", never a REPL's ">>>" prompt
_CONTINUES = re.compile(r"^\s*(?:\(?`?macosx_|\(`|`?(?:arm64|x86_64)`?\)?\s*$|RELEASE_|root:xnu)")


@dataclass(frozen=True)
class Normalised:
    lines: list[str]
    origin: list[int]  # 1-based line of the original paste for each line


# HTML-escaped text (a page's source, a web form, an e-mail): &#39; &quot; &lt; &gt; &amp; and numeric forms.
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|quot|apos|lt|gt|amp|nbsp);")
# A prefix a log or a container runtime puts before every line: Docker Compose's "name-1  | ", a logging
# record's "2024-05-01 10:00:00,123 - ERROR - " or "2024-08-07 09:14:12.262 | INFO | ", a CI log's
# "2024-05-01T12:00:00.1234567Z ", a time alone ("[12:00:00] ", a chat export's or a CI step's), a level
# in brackets ("[INFO] "), or a list bullet.
_LINE_PREFIX = re.compile(
    r"\A(?:[\w.-]{1,60} {1,40}\| "
    r"|\[?(?:\d{4}-\d\d-\d\d[ T])?\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?\]?"
    r"(?: ?[-|:]? ?\[?(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\b\]?)?"
    r"(?: ?[-|:] ?| )"
    r"|[-*] (?=\S))"  # a Markdown list item on every line
)


# Typography a web page, a word processor or a chat app puts into copied text: non-breaking and thin spaces,
# zero-width characters, curly quotes. Machine output never has them; every pattern is written for ASCII.
_TYPOGRAPHY = str.maketrans(
    {
        **dict.fromkeys("\u00a0\u2002\u2003\u2007\u2009\u200a\u202f\u3000", " "),
        **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff", None),
        **dict.fromkeys("\u2018\u2019\u201a\u2032", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u2033", '"'),
        # full-width punctuation an East Asian input method types inside an error (U+FF1A after RuntimeError)
        "\uff08": "(",
        "\uff09": ")",
        "\uff1d": "=",
        "\uff07": "'",
        "\uff02": '"',
    }
)
_FULL_WIDTH_SEPARATOR = re.compile("[\uff1a\uff0c\uff1b] ?")  # full-width colon, comma, semicolon: no space after
_SEPARATOR = {"\uff1a": ": ", "\uff0c": ", ", "\uff1b": "; "}
_PYTEST_E = re.compile(r"\AE {3,12}(?=[^ ])")  # pytest's failure lines: "E       RuntimeError: ..."


def normalise(lines: list[str]) -> Normalised:
    """*lines* (split, colours and quote marks already removed) with wraps joined and reprs undone."""
    # Wraps are joined first: a terminal cut the line as it was printed, prefix and escapes included.
    # A message soft-wrapped at word boundaries is joined (with its spaces) before the hard-wrap rule could
    # join its pieces without one.
    typed = [markdown_unescape(typography(line)) for line in lines]
    split_joined = join_split_messages(typed)
    joined = rejoin_split_messages(join_wrapped(split_joined, typed), split_joined)
    joined = strip_prefixes([_PYTEST_E.sub("", unfence(html_unescape(separators(line)))) for line in joined])
    out: list[str] = []
    origin: list[int] = []
    for number, line in enumerate(joined, start=1):
        for part in unrepr(line):
            out.append(_ARROW.sub(" = ", part) if "→" in part or "=>" in part else part)
            origin.append(number)
    return Normalised(out, origin)


def join_split_messages(lines: list[str]) -> list[str]:
    """A known error message that a soft wrap (at a word boundary, as an e-mail, a narrow page or a rich
    console wraps) broke over lines, joined back onto its first line (the others left blank): found by
    matching the known-error table on the text with line breaks read as spaces, unless a terminal's hard wrap
    cut one of these lines (it has the paste's wrap width) and joined without spaces they match as much (that
    is the hard wrap, joined later). At most MAX_SPLIT lines. A Darwin kernel version string (uname -a, a
    framework's environment report) is joined the same way: its RELEASE_ARM64 / RELEASE_X86_64 ends it."""
    # A reply's quote marks are no part of the message: it is looked for on the lines without them (each
    # continuation joined without its marks, the first line keeping its own), as in the paste quoted.
    marks = [len(q[0]) if (q := _QUOTE_MARK.match(line)) else 0 for line in lines]
    if not any(marks):
        return _join_split(lines)
    bare = [line[at:] for line, at in zip(lines, marks)]
    joined = _join_split(bare)
    return [
        line if now == was else (line[:at] + now if now else "")
        for line, at, was, now in zip(lines, marks, bare, joined)
    ]


def _join_split(lines: list[str]) -> list[str]:
    from mpscheck.knowledge.errors import TABLE
    from mpscheck.knowledge.needles import windows
    from mpscheck.probes.paste.uname import KERNEL

    # Each line without its blanks at either end: a rich console pads a wrapped line to the width and indents
    # the next one ("restore data" + blanks, then blanks + "location of ..."), which a message's single spaces
    # would not match across.
    # A quoted reply's "> " on each line is no part of the message either.
    pieces = [_QUOTE_MARK.sub("", line).strip() for line in lines]
    text = "\n".join(pieces)
    if "\n" not in text:
        return lines
    flat = text.replace("\n", " ")
    starts = [0]
    for piece in pieces[:-1]:
        starts.append(starts[-1] + len(piece) + 1)
    runs: list[tuple[int, int]] = []
    width: int | None = 0  # the width a terminal hard-wrapped the paste at (read once, when first needed)
    patterns = [row.pattern for row in TABLE]
    if "Darwin Kernel Version" in flat:
        patterns.append(KERNEL)
    # A run is at most MAX_SPLIT lines: it lies within MAX_SPLIT lines of its needle (one more each side, so that a
    # look-around at the run's ends reads the same text as in the whole).
    searched = [(pattern, pos, end) for pattern in patterns for pos, end in windows(pattern, flat, starts, MAX_SPLIT)]
    for pattern, pos, end in searched:
        for match in pattern.finditer(flat, pos, end):
            if "\n" not in text[match.start() : match.end()]:
                continue
            first = bisect.bisect_right(starts, match.start()) - 1
            last = bisect.bisect_right(starts, match.end() - 1) - 1
            run = lines[first : last + 1]
            if last - first >= MAX_SPLIT or not _soft_wrapped(run):
                continue
            if width == 0:
                width = wrap_width(lines)
            hard = width is not None and any(len(line) == width for line in run[:-1])
            if not (hard and _matches_glued(pattern, run, match)):
                runs.append((first, last))  # joined without spaces it matches less, or no terminal cut these lines
    out = list(lines)
    for first, last in sorted(runs):
        if not out[first].strip() or not out[last].strip():  # already joined into an earlier run
            continue
        out[first] = " ".join(
            _QUOTE_MARK.sub("", out[i]).strip() if i > first else out[i].rstrip() for i in range(first, last + 1)
        )
        for i in range(first + 1, last + 1):
            out[i] = ""
    return out


def rejoin_split_messages(joined: list[str], before: list[str]) -> list[str]:
    """A message a soft wrap broke over lines and a terminal then hard-wrapped too: once the hard wrap is
    joined, the message's lines are looked for again over the lines left (each hard-wrapped line's pieces
    now one line, their blanks skipped). Only when the hard wrap joined something: else nothing changed."""
    blanked = {i for i, (was, now) in enumerate(zip(before, joined)) if was.strip() and not now}
    if not blanked:
        return joined
    keep = [i for i in range(len(joined)) if i not in blanked]
    out = list(joined)
    for i, line in zip(keep, join_split_messages([joined[i] for i in keep])):
        out[i] = line
    return out


def _matches_glued(pattern: re.Pattern[str], run: list[str], spaced: re.Match[str]) -> bool:
    """The lines joined without spaces (a terminal's hard wrap) match as much of the message as the lines
    joined with spaces do (*spaced*): then the pieces are a hard wrap's. A row whose pattern matches a prefix
    of its message (an out-of-memory message without its numbers) matches less once a word is glued on."""
    glued = pattern.search("".join(run))
    return glued is not None and glued.end() - glued.start() >= spaced.end() - spaced.start() - (len(run) - 1)


def typography(line: str) -> str:
    """*line* with a web page's or an input method's typography as the ASCII that machine output has (one
    character for one, so a terminal's wrap width still shows)."""
    return line if line.isascii() else line.translate(_TYPOGRAPHY)


def markdown_unescape(line: str) -> str:
    """Markdown's escaped backticks (\\`) as the backticks the tool printed: a PR body or a comment written in
    raw Markdown quotes uv's and pip's hints that way ("(e.g., \\`macosx_26_0_x86_64\\`)")."""
    return line.replace("\\`", "`") if "\\`" in line else line


def separators(line: str) -> str:
    """Full-width colons, commas and semicolons as ASCII ones followed by a space, as the patterns expect."""
    return line if line.isascii() else _FULL_WIDTH_SEPARATOR.sub(lambda m: _SEPARATOR[m[0][0]], line)


def _soft_wrapped(run: list[str]) -> bool:
    """Lines a soft wrap may have made of one: none blank, every line between the first and the last filled
    to near the widest (a wrap breaks only a full line; a short line inside is a line's own end; the first
    may be short where the next word was too long to fit)."""
    widest = max(len(line) for line in run)
    return all(line.strip() for line in run) and all(
        len(line) >= 0.7 * widest or _next_word_too_long(line, following, widest)
        for line, following in zip(run[1:-1], run[2:])
    )


def _next_word_too_long(line: str, following: str, widest: int) -> bool:
    """A line of words that ends short because the next line's first word would not have fit beside it (a long
    name such as PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 after a wrap): what a word wrap does."""
    word = following.strip().split(" ", 1)[0]
    return " " in line.strip() and len(line.rstrip()) + 1 + len(word) > widest


# Code markup glued to the text it opens or closes: a chat app's Markdown fence (Slack, Discord and Teams write
# "```Traceback (most recent call last):" ... "RuntimeError: ...```"), a web page's source (<pre><code>, a
# <br> ending every line), a forum's BBCode ([code] ... [/code]). A fence alone on its line, or one with only a
# language tag ("```python"), is left as it is.
_GLUED_OPEN = re.compile(
    r"\A(\s{0,32})(?:(?:```|~~~)(?=\S)(?![\w+#.-]{1,30}\s*\Z)"
    r"|(?:<pre\b[^<>\n]{0,60}>|<code\b[^<>\n]{0,60}>|\[code(?:=[\w+#.-]{1,20})?\]){1,3})"
)
_GLUED_CLOSE = re.compile(r"(?<=\S)(?:```|~~~)\s*\Z|(?:</code>|</pre>|\[/code\]|<br ?/?>){1,3}\s*\Z")
_MARKUP = ("```", "~~~", "<", "[")


def unfence(line: str) -> str:
    """*line* without code markup (a fence, HTML's pre, code and br, BBCode's code) glued to its start or end."""
    if not any(mark in line for mark in _MARKUP):
        return line
    return _GLUED_CLOSE.sub("", _GLUED_OPEN.sub(r"\1", line))


def html_unescape(line: str) -> str:
    """A line with HTML character references (``&#39;``, ``&quot;``) as the text they stand for."""
    if "&" not in line or not _ENTITY.search(line):
        return line
    import html

    return html.unescape(line).replace("\xa0", " ")


def strip_prefixes(lines: list[str]) -> list[str]:
    """The lines without the container's or logger's prefix, when most lines of the paste carry one."""
    quotes = [len(q[0]) if (q := _QUOTE_MARK.match(line)) else 0 for line in lines]  # a reply's "> " stays
    prefixed = [_LINE_PREFIX.match(line[at:]) for line, at in zip(lines, quotes)]
    filled = sum(1 for line in lines if line.strip())
    if not filled or sum(1 for m in prefixed if m) * 2 < filled:
        return lines
    return [line[:at] + line[at + m.end() :] if m else line for line, m, at in zip(lines, prefixed, quotes)]


def wrap_width(lines: list[str]) -> int | None:
    """The width a terminal hard-wrapped this paste at, if it did: the longest line length, where two
    different lines have it (a log or a paste repeated twice repeats a line, which is no wrap), or one line
    cut inside a word at a common terminal width."""
    lengths = Counter(len(line) for line in set(lines) if len(line) >= MIN_WRAP)
    if not lengths:
        return None
    width = max(lengths)  # a hard wrap leaves no line longer than its width, and cuts more than one
    if lengths[width] >= 2 or width == TERMINAL_WIDTH:
        return width
    if width in TERMINAL_WIDTHS and any(
        len(line) == width and line[-1:].isalnum() and following[:1].isalnum()
        for line, following in zip(lines, lines[1:])
    ):
        return width
    return None


def join_wrapped(lines: list[str], as_pasted: list[str] | None = None) -> list[str]:
    """Lines cut at the wrap width joined onto the line they continue (which keeps its number; each
    continuation is left blank), and a hint's platform tag or uname's machine moved back to its line.

    A terminal may wrap a quoted text (the marks only on each record's first piece, counted in the width), or
    a reply may quote a wrapped paste (the marks on every piece, not counted): a continuation's quote marks,
    when its line has them too (the reply's, before the paste's own), are dropped as it is joined, and the
    width is measured without the marks when the lines as they stand show none. The width is read from the
    lines *as_pasted* when given: a soft-wrapped message joined before (join_split_messages) is a line longer
    than the terminal's, which would hide the width the rest of the paste was cut at."""
    marks = [q[0] if (q := _QUOTE_MARK.match(line)) else "" for line in lines]
    measured = lines
    width = wrap_width(as_pasted if as_pasted is not None else lines)
    if width is None and any(marks):
        measured = [line[len(mark) :] for line, mark in zip(lines, marks)]
        width = wrap_width(measured)
    out = list(lines)
    spaced = width is not None and word_wrapped(measured, width)  # an editor's wrap at spaces, not a terminal's
    start = None  # the line a run of wrapped lines is being joined onto
    for i, line in enumerate(lines):
        wrapped = width is not None and len(measured[i]) == width
        if start is not None:
            piece = line[len(marks[i]) :] if marks[i] and marks[start].startswith(marks[i]) else line
            out[start] += glue(out[start], piece, spaced) + piece
            out[i] = ""
        elif i > 0 and line.strip() and _CONTINUES.match(line[len(marks[i]) :]) and _open(lines[i - 1]):
            out[i - 1] = lines[i - 1].rstrip() + " " + line[len(marks[i]) :].strip()  # a reply's "> " too
            out[i] = ""
            continue
        joined_enough = start is not None and len(out[start]) >= MAX_JOINED
        if (
            wrapped
            and not joined_enough
            and i + 1 < len(lines)
            and lines[i + 1].strip()
            and _continued(line, lines[i + 1])
        ):
            start = i if start is None else start
        else:
            start = None
    return out


def _continued(line: str, following: str) -> bool:
    """*following* carries on a line cut at the wrap width: it is no record of its own, or the cut fell
    inside a word (a letter or digit on both sides, as in "RuntimeError: M" + "PS backend out of memory")."""
    if following == line:  # a log repeating one record of the same length: records, not a wrap
        return False
    following = _QUOTE_MARK.sub("", following)  # a quoted reply's record is still a record
    if _CUT_AT_SPACE.match(following) and line[-1:].isalnum():  # "... on MPS for pre" + " MacOS_14_0. Received"
        return True
    return not _RECORD.match(following) or (line[-1:].isalnum() and following[:1].isalnum())


def _open(line: str) -> bool:
    """A line that a wrapped hint or uname line continues: uv's "You're on macOS", a platform tag's
    "(e.g.,", a Darwin line still missing its machine."""
    stripped = line.rstrip()
    if stripped.endswith(("You're on macOS", "(e.g.,", "(e.g.", "platform tag", "tag")):
        return True
    return stripped.lstrip().startswith("Darwin ") and not stripped.endswith(("arm64", "x86_64"))


def unrepr(line: str) -> list[str]:
    """An error copied from a Python repr (escaped quotes, \\n for its line breaks) as the lines it held; a
    line that is one whole string literal with line breaks in it (``print(repr(text))``) as its text."""
    if "\\" not in line:
        return [line]
    literal = string_literal(line)
    if literal is not None:
        return literal.split("\n")
    if not _REPR_HINT.search(line) or not _ERRORISH.search(line):
        return [line]
    text = _ESCAPE.sub(lambda m: REPR_ESCAPES[m[0]], line)
    return text.split("\n")


_LITERAL = re.compile(r"\A\s*[bBrRuU]{0,2}(['\"])")


def string_literal(line: str) -> str | None:
    """The text of *line* when the whole line is one Python string literal holding a \\n escape (a repr of
    several lines, quotes and all); None for anything else. Python's own literal reader does it, so every
    escape (\\x1b, \\u00a0, \\') reads as it would in Python, in linear time."""
    opening = _LITERAL.match(line)
    stripped = line.strip()
    if not opening or "\\n" not in stripped or len(stripped) < 2 or stripped[-1] != opening[1]:
        return None
    import ast

    try:
        value = ast.literal_eval(stripped)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    return value if isinstance(value, str) else None


# Chinese, Japanese and Korean text: a Latin word or a number written against it ("mac系统intel架构的",
# "M2芯片", "torch==2.4.1怎么办") has no \b between them, so a reader of words spaces them first.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_CJK_EDGE = re.compile(f"(?<=[{_CJK}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{_CJK}])")


def spaced_cjk(line: str) -> str:
    """*line* with a space wherever a Latin letter or digit touches a CJK character (an ASCII line: itself)."""
    return line if line.isascii() else _CJK_EDGE.sub(" ", line)
