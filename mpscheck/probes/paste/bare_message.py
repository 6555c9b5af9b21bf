"""A torch message quoted bare: no ``RuntimeError:`` before it, in an issue's title ("Using 'mps' - view
size is not compatible with input tensor's size and stride"), in a sentence ('a Runtime error "Placeholder
storage has not been allocated ..."'), or as a line of its own.

A line is read as torch's message when, at the start of the line or right after a quote, a colon, a
dash or a log's bar, its first five words are the opening of a message torch's own libraries print
(mpscheck/knowledge/torch_openings.py, generated from the wheels). It becomes a ``paste.error_line``,
so the judgement weighs it as it weighs an error line with its class. Lines other readers already take
are left to them: a line with an exception class, a crash or a warning (error_line.py), a c10 log line
(``[W ...]``, a warning), a log line below the error level, code that names an error, and a line holding a
message of the known-errors or MPS messages tables (or opening like one), which the judgement reads with its
own rows. Linear: one scan for marks per line, and at most MAX_STARTS candidate starts, each reading five words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice

from mpscheck.probes.paste.error_line import CRASH, EXCEPTION, NOT_ERRORS, TOOL_ERROR, WARNING
from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "error"
MAX_STARTS = 8
MAX_MESSAGE = 300
MIN_LINE = 20  # shorter lines cannot hold five words of a message
MAX_PREFIX = 80  # a log line's level stands in its first characters
# Where a quoted message can start: the line's first letter, or a letter after a quote, a colon, a dash or a log's bar.
FIRST_LETTER = re.compile(r"[^A-Za-z]{0,12}(?=[A-Za-z])")
MARK = re.compile(r"[\"'`“‘:–—|-]")  # one character class: the scan stays fast on a long line
AFTER_MARK = re.compile(r" {1,4}(?=[A-Za-z])")  # after a colon, or a dash or bar with a space before it
AFTER_QUOTE = re.compile(r" {0,2}(?=[A-Za-z])")
CLOSING = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’"}
C10_LOG = re.compile(r"^\s*\[[WIE]\d*\s")  # torch's own log line: "[W NNPACK.cpp:51] ...", "[W1124 10:00 ...]"
# A log line at a level below error ("Warning: caught exception 'Torch not compiled with CUDA enabled', memory monitor
# disabled", which AUTOMATIC1111 prints on every Mac; "2024-05-01 | WARNING | ..."; "INFO: ..."): what it quotes is
# no error of this run.
NOT_ERROR_LEVEL = re.compile(r"(?i)(?:^|[\s|\[(-])(?:warn(?:ing)?|info|debug)\s*[:\]|)-]")


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    message = bare_message(line)
    return [seen("paste.error_line", message)] if message else []


def bare_message(line: str) -> str | None:
    """The torch message this line quotes bare, from its first word (None: none, or another reader's line)."""
    from mpscheck.knowledge.torch_openings import is_mps_opening, is_torch_opening, may_open, opening_key

    if len(line) < MIN_LINE or C10_LOG.match(line) or NOT_ERRORS.match(line):
        return None
    if NOT_ERROR_LEVEL.search(line[:MAX_PREFIX]):
        return None
    for mark, start in islice(_starts(line), MAX_STARTS):
        if not may_open(line, start):
            continue
        key = opening_key(line, start)
        if not is_torch_opening(key):
            continue
        if is_mps_opening(key) or _taken_elsewhere(line):
            return None
        return _message(line, mark, start)
    return None


def _starts(line: str) -> Iterator[tuple[str, int]]:
    """(the mark before it, the position) of each place a quoted message can start, in the line's order."""
    if first := FIRST_LETTER.match(line):
        yield "", first.end()
    for found in MARK.finditer(line):
        mark, end = found.group(), found.end()
        if mark in CLOSING:
            after = AFTER_QUOTE.match(line, end)
        elif mark == ":" or line[found.start() - 1 : found.start()].isspace():
            after = AFTER_MARK.match(line, end)
        else:
            continue  # a hyphen inside a word
        if after:
            yield mark, after.end()


def _message(line: str, mark: str, start: int) -> str:
    """The quoted stretch: from the first word to the closing quote (to the line's end when unquoted)."""
    text = line[start:]
    if (closing := CLOSING.get(mark)) and closing in text:
        text = text[: text.index(closing)]
    return text.strip()[:MAX_MESSAGE]


def _taken_elsewhere(line: str) -> bool:
    """Another reader takes this line: an exception class, an installer's ERROR:, a crash, a warning, or a known
    message."""
    from mpscheck.knowledge.errors import find
    from mpscheck.knowledge.messages import match

    if CRASH.search(line) or EXCEPTION.search(line) or TOOL_ERROR.match(line) or WARNING.search(line):
        return True
    return any(True for _ in find([line])) or bool(match(line))
