"""Error lines anywhere in a paste: a Python exception line (``RuntimeError: ...``) wherever it stands on
the line (after ``stderr:``, a log prefix, a quote or the user's own words), a Jupyter error header, an
installer's ``ERROR:`` / ``Error:`` line, Metal's ``error:`` line, and the ways a process dies on macOS
(``Segmentation fault: 11``, ``bus error``, ``Abort trap: 6``, ``zsh: abort``, ``Killed: 9``, an uncaught
C++ or Objective-C exception, a Metal ``failed assertion``, a notebook's kernel process that died).

Each becomes an observation (``paste.error_line``, ``paste.crash_line``; ``paste.warning_line`` for a
``...Warning:`` line) whose value is the message, so a paste that shows an error is never "unreadable",
and the judgement can weigh an error no known-errors row recognises. Patterns are anchored or bounded:
linear on any line.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "error"
EXCEPTION = re.compile(
    r"(?<![\w.])(?:[A-Za-z_]\w*\.){0,6}(?P<type>[A-Z]\w{0,60}(?:Error|Exception|Failed|Exit))"
    r"(?::[ \t]*(?P<message>\S.*)|[ \t]+Traceback \(most recent call last\)|[ \t]*$)"
)
BARE = re.compile(r"^\s*(?P<type>RuntimeError|NotImplementedError|TypeError|ValueError)[ \t]+(?P<message>[A-Z]\S.*)")
TOOL_ERROR = re.compile(r"^\s*(?:ERROR|Error|error|fatal error|FATAL)(?: \[[\w-]+\])?:\s*(?P<message>\S.*)")
WARNING = re.compile(r"\b(?P<type>[A-Z]\w{0,40}Warning):[ \t]*(?P<message>\S.*)")
CRASH = re.compile(
    # bash's job reports ("Bus error: 10", "Illegal instruction: 4") as well as zsh's and the lower-case forms
    r"Segmentation fault|\bbus error\b|\bBus error: 10\b|Abort trap: 6|Illegal instruction: 4\b"
    r"|zsh: (?:abort|segmentation fault|bus error|illegal)"
    r"|illegal hardware instruction|libc\+\+abi: terminating|Terminating app due to uncaught exception"
    r"|failed assertion `|Fatal Python error|\bKilled: 9\b|zsh: killed\b"
    # a notebook's kernel process dying (Jupyter, VS Code's Jupyter): the same crash, told by the front end
    r"|[Kk]ernel process died|The [Kk]ernel '[^'\n]{1,120}' died|The [Kk]ernel crashed while executing code"
    r"|[Kk]ernel appears to have died|Cannot execute code, session has been disposed"
)
# Every pattern below needs one of these words: a line without any is skipped at once (most lines of a log).
GATE = re.compile(
    r"rror|RROR|xception|Failed|Exit|Warning|fault|bort|erminat|assertion|illed|llegal|Fatal|FATAL|died|rashed|isposed"
)
NOT_ERRORS = re.compile(r"^\s*(?:#\s*\[\.\.\.\]|raise\s|except\s|\w+ = )")  # a cut mark, code that names an error


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    if not GATE.search(line) or NOT_ERRORS.match(line):
        return []
    if match := CRASH.search(line):
        return [seen("paste.crash_line", match.group(0))]
    if (match := EXCEPTION.search(line)) or (match := BARE.match(line)):
        message = (match["message"] or "").strip()
        return [seen("paste.error_line", f"{match['type']}: {message}" if message else match["type"])]
    if match := TOOL_ERROR.match(line):
        return [seen("paste.error_line", match["message"].strip())]
    if match := WARNING.search(line):
        return [seen("paste.warning_line", f"{match['type']}: {match['message'].strip()}")]
    return []
