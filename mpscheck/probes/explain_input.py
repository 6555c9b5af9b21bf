"""What `mpscheck explain INPUT` was given: a saved JSON report (judged by today's checks, as before)
or pasted text (read by the paste parsers). INPUT is a file, or ``-`` for standard input.

Files and standard input are read the same way, as bytes, whatever the locale: a byte-order mark
picks UTF-8, UTF-16 or UTF-32, anything else is UTF-8 with undecodable bytes replaced, so one stray
byte never makes a paste unreadable. At most MAX_INPUT characters are read: of a longer input, its first
HEAD characters (where a paste's set-up stands: collect_env, a banner) and its last TAIL (where a run prints its
error: a whole training log ends with the traceback), each cut back to whole lines; the same for an input of more
than MAX_LINES lines (its first HEAD_LINES and last TAIL_LINES). Such an input says so (``cut``),
and the caller must say it aloud, with how many lines of each end were read. A file's end is read where it lies; a
stream is read to its end, or to STREAM_LIMIT bytes (an endless stream cannot hang explain), keeping only the last
TAIL characters' bytes. The lines passed over are counted (a file's middle is read for that only when it is at
most STREAM_LIMIT bytes), so that every line a diagnosis names is the input's own line (``input_line``). Every
line break is made one LF first, as the paste readers split lines (a progress bar's CR too).

Text that opens with ``{`` is taken for a report when it says so (a ``kind``, ``facts`` or
``schema_version`` key) or is not JSON at all, so a broken report still gets the report's own error
message; any other JSON object (a Jupyter error object, ``system_profiler -json``) is read as a
paste, its strings one per line.
"""

from __future__ import annotations

import codecs
import io
import json
import os
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from mpscheck.model import REPORT_KIND
from mpscheck.probes.line_breaks import one_break

if TYPE_CHECKING:
    from mpscheck.probes.saved_report import SavedReport

# Characters (about 5,000 lines): a paste, not a log archive (a GitHub comment holds 65,536); the rest is cut, and
# said. Every reader's time grows with it: 400,000 keeps explain of any input under 2 s on a 2-core machine.
MAX_INPUT = 400_000
HEAD = 80_000  # characters kept from the start of a longer input
TAIL = MAX_INPUT - HEAD  # ... and from its end
# Lines, too: each reader pays per line, so 400,000 characters of two-character lines (`yes`, `seq`) cost seconds.
MAX_LINES = 25_000
HEAD_LINES = 5_000
TAIL_LINES = MAX_LINES - HEAD_LINES
STREAM_LIMIT = 64 * 1024 * 1024  # bytes read from a stream at most, to find its end
_MAX_BYTES = 4 * MAX_INPUT + 4  # enough for MAX_INPUT characters in any of the encodings read
_HEAD_BYTES = 4 * HEAD + 4  # a byte-order mark and HEAD characters of UTF-32
_TAIL_BYTES = 4 * TAIL
_CHUNK = 1024 * 1024
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
    cut: bool = False  # the input was longer than MAX_INPUT characters: only its start and its end were read
    stopped: bool = False  # a stream was still going at STREAM_LIMIT bytes: its "end" is where reading stopped
    # Of a cut input, how many lines of its start and of its end were read: where the skipped middle lies...
    read_lines: tuple[int, int] = field(default=(0, 0), compare=False)
    # ... and how many lines it skipped (None: not counted, a file's middle over STREAM_LIMIT bytes; -1: one line
    # longer than both parts, its start and its end read as two lines).
    skipped_lines: int | None = field(default=0, compare=False)

    def input_line(self, line: int) -> int:
        """The input's own number of the line numbered *line* in the text read: the same unless it lies after a
        skipped middle whose lines were counted (the cut notice says when they were not)."""
        if not self.cut or line <= self.read_lines[0] or self.skipped_lines is None:
            return line
        return line + self.skipped_lines

    def notice(self) -> str:
        return cut_notice(self.name, self.stopped, self.read_lines, self.skipped_lines)


def cut_notice(
    name: str, stopped: bool = False, read_lines: tuple[int, int] | None = None, skipped: int | None = 0
) -> str:
    """Why the middle of *name* was not judged, and where it lies: after its first and before its last lines read."""
    within = f" of its first {STREAM_LIMIT // 1024 // 1024} MiB" if stopped else ""
    start, end = read_lines or (0, 0)
    parts = (
        f"its first {_lines(start)} and the last {_lines(end)}{within}"
        if start or end
        else f"its start and its end{within}"
    )
    return (
        f"{name} is longer than {MAX_INPUT:,} characters or {MAX_LINES:,} lines: only {parts} were read "
        f"({HEAD:,} and {TAIL:,} characters, {HEAD_LINES:,} and {TAIL_LINES:,} lines at most), so the middle was "
        "not judged; paste the part around the error"
    ) + (f"; lines after line {start:,} are numbered as read, not as in {name}" if skipped is None else "")


def _lines(count: int) -> str:
    return "1 line" if count == 1 else f"{count:,} lines"


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
        try:
            read = _read_stream(getattr(stream, "buffer", stream))
        except (OSError, ValueError) as exc:  # ValueError: a closed stream
            raise InputError(f"cannot read standard input: {exc}") from exc
        name = "standard input"
    else:
        try:
            with open(Path(path), "rb") as handle:
                read = _read_file(handle)
        except OSError as exc:
            raise InputError(f"cannot read {path}: {exc}") from exc
        name = path
    text, kept = _text(read)
    lines, skipped = kept or ((0, 0), 0)
    if looks_like_report(text):
        return ExplainInput(text, name, True, kept is not None, read.stopped, lines, skipped)
    return ExplainInput(as_text(text), name, False, kept is not None, read.stopped, lines, skipped)


Data = bytes | str  # a caller may hand in a text stream


@dataclass(frozen=True)
class _Read:
    head: Data  # the input, or its start when *tail* is given
    tail: Data | None = None  # its end (None: *head* is all of it)
    at: int = 0  # where *tail* starts in the input, in bytes (its code units are counted from the input's start)
    stopped: bool = False  # a stream still going at STREAM_LIMIT bytes
    breaks: int | None = None  # line breaks in all the input read or passed over (None: not counted)


class _Breaks:
    """Counts the line breaks (LF, CRLF, CR CR LF, a lone CR) of an input read in pieces, the first piece giving its
    encoding: UTF-8 bytes 10 and 13 are always breaks; UTF-16 and UTF-32 are decoded to count (a piece may end inside
    a code unit). A CRLF split between two pieces counts once."""

    def __init__(self, first: Data):
        self.count = 0
        self.crs = 0  # CRs that end the last piece (at most 2): a break that the next piece may end
        self.decoder = None
        encoding = _encoding(first) if isinstance(first, bytes) else "utf-8"
        if encoding != "utf-8":
            self.decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self.add(first[len(_mark(first)) :] if isinstance(first, bytes) else first)

    def add(self, piece: Data) -> None:
        if self.decoder is not None and isinstance(piece, bytes):
            piece = self.decoder.decode(piece)
        text = piece if isinstance(piece, str) else piece.decode("latin-1")  # UTF-8's bytes 10 and 13 keep their place
        if not text:
            return
        # one break each, as line_breaks.BREAK finds them (CR CR LF, CR LF, a lone CR, LF); a break split between
        # pieces was counted as lone CRs before: counted again here less those
        joined = self.crs if text[0] == "\n" else min(self.crs, 1) if text.startswith("\r\n") else 0
        self.count += text.count("\n") + text.count("\r") - text.count("\r\n") - text.count("\r\r\n") - joined
        ending = len(text) - len(text.rstrip("\r"))
        self.crs = min(2, ending + (self.crs if ending == len(text) else 0))  # a piece of CRs only goes on a run


def _mark(data: bytes) -> bytes:
    return next((mark for mark, _ in _BOMS if data.startswith(mark)), b"")


def _encoding(data: bytes) -> str:
    return next((encoding for mark, encoding in _BOMS if data.startswith(mark)), "utf-8")


def _read_stream(raw: Any) -> _Read:
    data = raw.read(_MAX_BYTES + 1)
    if data is None:  # a non-blocking stream with nothing ready: nothing read, not a crash
        return _Read(b"")
    if len(data) <= _MAX_BYTES:
        return _Read(data)
    tail, total, breaks = data[-_TAIL_BYTES:], len(data), _Breaks(data)
    while total < STREAM_LIMIT:
        chunk = raw.read(_CHUNK)
        if not chunk:
            break
        tail, total = (tail + chunk)[-_TAIL_BYTES:], total + len(chunk)
        breaks.add(chunk)
    return _Read(data[:_HEAD_BYTES], tail, total - len(tail), total >= STREAM_LIMIT, breaks.count)


def _read_file(handle: IO[bytes]) -> _Read:
    """As _read_stream; a regular file's end is read where it lies, without reading what comes before."""
    data = handle.read(_MAX_BYTES + 1)
    if len(data) <= _MAX_BYTES:
        return _Read(data)
    try:
        status = os.fstat(handle.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        status = None
    if status is None or not stat.S_ISREG(status.st_mode):  # a named pipe, a device: read as a stream
        return _read_stream(_Prefixed(data, handle))
    at = max(len(data), status.st_size - _TAIL_BYTES)
    breaks: _Breaks | None = _Breaks(data)
    if at - len(data) > STREAM_LIMIT:  # too long a middle to count its lines: never read
        handle.seek(at)
        breaks = None
    while breaks is not None and handle.tell() < at:  # the middle, read only to count its lines
        breaks.add(handle.read(min(_CHUNK, at - handle.tell())))
    end = handle.read(_TAIL_BYTES)
    if breaks is not None:
        breaks.add(end)
    counted = None if breaks is None else breaks.count
    if at > len(data):
        return _Read(data[:_HEAD_BYTES], end, at, breaks=counted)
    whole = data + end  # a file a little longer than the limit: its end overlaps what was read
    return _Read(data[:_HEAD_BYTES], whole[-_TAIL_BYTES:], max(0, len(whole) - _TAIL_BYTES), breaks=counted)


class _Prefixed:
    """A stream whose first bytes were already read: given back first, then the rest."""

    def __init__(self, first: bytes, rest: IO[bytes]):
        self.first, self.rest = first, rest

    def read(self, size: int) -> bytes:
        if self.first:
            given, self.first = self.first[:size], self.first[size:]
            return given
        return self.rest.read(size)


Kept = tuple[tuple[int, int], int | None]  # lines read of the start and of the end, lines skipped between


def _text(read: _Read) -> tuple[str, Kept | None]:
    """The text to read and, when it was cut, what it keeps: all of it when it has at most MAX_INPUT characters and
    MAX_LINES lines, else its first HEAD characters and HEAD_LINES lines and its last TAIL characters and TAIL_LINES
    lines, each part cut back to whole lines."""
    first = one_break(read.head if isinstance(read.head, str) else decode(read.head))
    if read.tail is None and len(first) <= MAX_INPUT:
        if first.count("\n") < MAX_LINES:
            return first, None
        return _kept(first, first, first.count("\n"))
    if read.tail is None:
        last = first[-TAIL:]
        breaks: int | None = first.count("\n")
    elif isinstance(read.tail, str):
        last, breaks = one_break(read.tail)[-TAIL:], read.breaks
    else:
        last = one_break(decode_tail(read.tail, read.head if isinstance(read.head, bytes) else b"", read.at))[-TAIL:]
        breaks = read.breaks
    return _kept(*_whole_lines(first[:HEAD], last), breaks)


def _kept(start: str, end: str, breaks: int | None) -> tuple[str, Kept]:
    """The first HEAD_LINES lines of *start* and the last TAIL_LINES of *end* (the input's own end), how many of each
    (a line break that ends the input starts no line), and how many lines lie between (the input has *breaks* + 1)."""
    head = start.split("\n")[:HEAD_LINES]
    tail = end.split("\n")[-TAIL_LINES:]
    skipped = None if breaks is None else breaks + 1 - len(tail) - len(head)
    return "\n".join(head + tail), ((len(head), len(tail) - (tail[-1] == "")), skipped)


def _whole_lines(first: str, last: str) -> tuple[str, str]:
    """*first* up to its last line break and *last* from its first: no line is read half."""
    if "\n" in first:
        first = first[: first.rindex("\n")]
    if "\n" in last:
        last = last[last.index("\n") + 1 :]
    return first, last


def decode_tail(data: bytes, head: bytes, at: int) -> str:
    """The end of an input whose start is *head*, *data* starting at byte *at*: decoded as *head*'s byte-order mark
    says, from its first whole code unit, else as UTF-8 (a character cut at the start becomes a replacement mark)."""
    for mark, encoding in _BOMS:
        if head.startswith(mark):
            unit = 4 if "32" in encoding else 2 if "16" in encoding else 1
            return data[-(at - len(mark)) % unit :].decode(encoding, errors="replace")
    return data.decode("utf-8", errors="replace")


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
        if value and all(isinstance(item, str) for item in value) and any(item.endswith("\n") for item in value):
            # Jupyter's multi-line string: a list of lines that carry their own breaks ("text", "source").
            return ["".join(value).removesuffix("\n")]
        return [s for item in value for s in _strings(item, depth + 1)]
    return []


def saved_report(given: ExplainInput, path: str) -> SavedReport:
    """The saved report in *given* (a file or standard input), read as `mpscheck doctor --format json` wrote it."""
    from mpscheck.probes.saved_report import parse_report

    return parse_report(given.text, given.name)
