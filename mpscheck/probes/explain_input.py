"""What `mpscheck explain INPUT` was given: a saved JSON report (judged by today's checks, as before)
or pasted text (read by the paste parsers). INPUT is a file, or ``-`` for standard input.

Text that opens with ``{`` is taken for a report, so a broken or foreign JSON file still gets the
report's own error message; a pasted ``system_profiler -json`` is the one JSON read as a paste.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from mpscheck.model import REPORT_KIND

if TYPE_CHECKING:
    from mpscheck.probes.saved_report import SavedReport

MAX_INPUT = 2_000_000  # characters: a paste, not a log archive; the rest is ignored


class InputError(ValueError):
    """INPUT cannot be read: a usage error (exit 2)."""


@dataclass(frozen=True)
class ExplainInput:
    text: str
    name: str  # the file name, or "standard input"
    is_report: bool


def read_input(path: str, stdin: TextIO | None = None) -> ExplainInput:
    if path == "-":
        stream = stdin or sys.stdin
        try:
            text = stream.read(MAX_INPUT)
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read standard input: {exc}") from exc
        name = "standard input"
    else:
        try:
            with open(Path(path), encoding="utf-8", errors="replace") as handle:
                text = handle.read(MAX_INPUT)
        except OSError as exc:
            raise InputError(f"cannot read {path}: {exc}") from exc
        name = path
    return ExplainInput(text, name, looks_like_report(text))


def looks_like_report(text: str) -> bool:
    """A saved report (or something meant as one); a pasted system_profiler -json is not."""
    text = text.lstrip("\ufeff \t\r\n")  # a byte-order mark or blank lines before the JSON
    if not text.startswith("{"):
        return False
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        return True
    if isinstance(data, dict) and data.get("kind") == REPORT_KIND:
        return True
    return not (isinstance(data, dict) and any(str(key).startswith("SP") for key in data))


def saved_report(given: ExplainInput, path: str) -> SavedReport:
    """The saved report in *given* (a file or standard input), read as `mpscheck doctor --format json` wrote it."""
    from mpscheck.probes.saved_report import parse_report

    return parse_report(given.text, given.name)
