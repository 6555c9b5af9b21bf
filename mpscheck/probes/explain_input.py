"""What `mpscheck explain INPUT` was given: a saved JSON report (judged by today's checks, as before)
or pasted text (read by the paste parsers). INPUT is a file, or ``-`` for standard input.

Files and standard input are read the same way, as bytes, whatever the locale: a byte-order mark
picks UTF-8, UTF-16 or UTF-32, anything else is UTF-8 with undecodable bytes replaced, so one stray
byte never makes a paste unreadable. At most MAX_INPUT characters are read; a longer input is cut
and says so (``cut``), and the caller must say it aloud.

Text that opens with ``{`` is taken for a report when it says so (a ``kind``, ``facts`` or
``schema_version`` key) or is not JSON at all, so a broken report still gets the report's own error
message; any other JSON object (a Jupyter error object, ``system_profiler -json``) is read as a
paste, its strings one per line.
"""

from __future__ import annotations

import codecs
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from mpscheck.model import REPORT_KIND

if TYPE_CHECKING:
    from mpscheck.probes.saved_report import SavedReport

MAX_INPUT = 500_000  # characters (about 6,000 lines): a paste, not a log archive; the rest is cut, and said
_MAX_BYTES = 4 * MAX_INPUT + 4  # enough for MAX_INPUT characters in any of the encodings read
_REPORT_KEYS = ("kind", "facts", "schema_version")
_BOMS = (  # longest first: UTF-32's little-endian mark starts with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


class InputError(ValueError):
    """INPUT cannot be read: a usage error (exit 2)."""


@dataclass(frozen=True)
class ExplainInput:
    text: str
    name: str  # the file name, or "standard input"
    is_report: bool
    cut: bool = False  # the input was longer than MAX_INPUT characters: only the start was read


def cut_notice(name: str) -> str:
    return (
        f"{name} is longer than {MAX_INPUT:,} characters: only its start was read, so what follows was not "
        "judged; paste the part around the error"
    )


def decode(data: bytes) -> str:
    """*data* as text: by its byte-order mark if it has one, else UTF-8 with bad bytes replaced."""
    for mark, encoding in _BOMS:
        if data.startswith(mark):
            return data[len(mark) :].decode(encoding, errors="replace")
    return data.decode("utf-8", errors="replace")


def read_input(path: str, stdin: IO[Any] | None = None) -> ExplainInput:
    if path == "-":
        stream = stdin or sys.stdin
        if stream is None:
            raise InputError("cannot read standard input: it is closed")
        raw = getattr(stream, "buffer", stream)
        try:
            data = raw.read(_MAX_BYTES + 1)
        except (OSError, ValueError) as exc:  # ValueError: a closed stream
            raise InputError(f"cannot read standard input: {exc}") from exc
        name = "standard input"
    else:
        try:
            with open(Path(path), "rb") as handle:
                data = handle.read(_MAX_BYTES + 1)
        except OSError as exc:
            raise InputError(f"cannot read {path}: {exc}") from exc
        name = path
    if data is None:  # a non-blocking stream with nothing ready: nothing read, not a crash
        data = b""
    text = data if isinstance(data, str) else decode(data)  # a text stream handed in by a caller
    cut = len(data) > _MAX_BYTES or len(text) > MAX_INPUT
    text = text[:MAX_INPUT]
    if looks_like_report(text):
        return ExplainInput(text, name, True, cut)
    return ExplainInput(as_text(text), name, False, cut)


def _load(text: str) -> Any:
    """The JSON value of *text*, or None when it is not JSON (too deep for the parser counts as not)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def looks_like_report(text: str) -> bool:
    """A saved report (or something meant as one); a JSON object that is no report is a paste."""
    text = text.lstrip("\ufeff \t\r\n")  # a byte-order mark or blank lines before the JSON
    if not text.startswith("{"):
        return False
    data = _load(text)
    if data is None:
        return True
    return isinstance(data, dict) and any(key in data for key in _REPORT_KEYS) and _not_profiler(data)


def _not_profiler(data: dict[str, Any]) -> bool:
    return data.get("kind") == REPORT_KIND or not any(str(key).startswith("SP") for key in data)


def as_text(text: str) -> str:
    """A JSON object that is not a report (a Jupyter error: ename, evalue, traceback lines) as the text it
    holds, one string per line; system_profiler -json stays as it is (its reader reads the JSON lines)."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped.startswith("{"):
        return text
    data = _load(stripped)
    if not isinstance(data, dict) or any(str(key).startswith("SP") for key in data):
        return text
    return "\n".join(_strings(data))


def _strings(value: Any, depth: int = 0) -> list[str]:
    if depth > 50:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item, depth + 1)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item, depth + 1)]
    return []


def saved_report(given: ExplainInput, path: str) -> SavedReport:
    """The saved report in *given* (a file or standard input), read as `mpscheck doctor --format json` wrote it."""
    from mpscheck.probes.saved_report import parse_report

    return parse_report(given.text, given.name)
