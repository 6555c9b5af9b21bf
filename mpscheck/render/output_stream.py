"""mpscheck's own standard streams, made safe to write whatever they lead to.

A CI step or a user's shell can hand mpscheck a closed stdout (``>&-``), ``/dev/full``, a pipe
whose reader left (``| head -1``), or an ASCII-only encoding (``PYTHONIOENCODING=ascii``, a C
locale). None of these is mpscheck breaking (exit 3): a write that fails is a clear one-line error
and exit 2, and a character the encoding lacks is written as a backslash escape. A stream that
failed is pointed at the null device, so Python's own flush at exit adds no second traceback.
A closed stdin reads as an error ("standard input is closed"), never as an empty paste.

stderr carries mpscheck's messages, and they quote what the user typed (a --python path, `run`'s
command, an unknown option). The GitHub Actions runner reads a workflow command from any output
line that starts with ``::`` after blanks, or holds ``##[`` anywhere, and it breaks lines at CR as
well as LF; so every line written to stderr is defused as render/github.py defuses the plain report
(``: :``, ``## [``), whatever the value that put a line break in it. mpscheck writes no workflow
command of its own to stderr; the user's command in `run` writes to the inherited descriptor, as is.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import os
import re
import sys
from typing import IO, Any

import click

NAMES = {0: "stdin", 1: "stdout", 2: "stderr"}
LABELS = {"stdin": "standard input", "stdout": "standard output", "stderr": "standard error"}
LINE_BREAKS = re.compile("([\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])")  # str.splitlines' set


class StreamError(click.ClickException):
    """mpscheck's stdout or stderr cannot be written: exit 2, like any output that cannot be written."""

    exit_code = 2


def guard_streams() -> None:
    """Closed descriptors held by the null device, encodings made total, writes guarded."""
    for fd, name in NAMES.items():
        closed = _reserve_if_closed(fd)
        stream = getattr(sys, name)
        if closed or stream is None:
            setattr(sys, name, Closed(LABELS[name]))
        elif name != "stdin" and not isinstance(stream, GuardedText):
            _make_total(stream)
            setattr(sys, name, GuardedText(stream, LABELS[name], defuse=name == "stderr"))


def flush_streams() -> None:
    """Flush stdout and stderr now, while a failure can still become exit 2."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()


def _reserve_if_closed(fd: int) -> bool:
    """A closed 0/1/2 gets the null device, so that no file mpscheck opens later lands on it."""
    try:
        os.fstat(fd)
        return False
    except OSError:
        pass
    with contextlib.suppress(OSError):
        taken = os.open(os.devnull, os.O_RDWR)
        if taken != fd:  # a lower descriptor was closed too: it is reserved on its own turn
            os.dup2(taken, fd)
            os.close(taken)
    return True


def _make_total(stream: Any) -> None:
    """A stream whose encoding is not a UTF one writes what it cannot encode as backslash escapes."""
    try:
        name = codecs.lookup(stream.encoding or "ascii").name
    except (LookupError, AttributeError):
        name = "ascii"
    if not name.startswith("utf") and getattr(stream, "errors", "strict") == "strict":
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")


def defuse_text(text: str) -> str:
    """*text* with no line the runner would read as a workflow command, its line breaks kept as they were
    (stdout under GitHub Actions, render/deliver.py)."""
    return GuardedText(sys.stdout, "", defuse=True).defused(text)


class GuardedText:
    """A text stream whose write and flush failures become StreamError, once; later writes are dropped."""

    def __init__(self, stream: IO[str], label: str, defuse: bool = False) -> None:
        self._stream = stream
        self._label = label
        self._broken = False
        self._buffer: GuardedBinary | None = None
        self._defuse = defuse
        self._line_blank = True  # nothing but blanks written on the current line yet
        self._tail = ""  # the last two characters written on the current line

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # click probes a stream with write(b"") and catches what it raises
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self._broken or not text:
            return len(text)
        try:
            self._stream.write(self.defused(text) if self._defuse else text)
            return len(text)
        except (OSError, ValueError) as exc:
            raise self.fail(exc) from exc

    def defused(self, text: str) -> str:
        """*text* with no workflow command in it, across writes (a line or a ``##[`` may come in pieces)."""
        parts = LINE_BREAKS.split(text)  # segment, break, segment, ...
        for index in range(0, len(parts), 2):
            if index:
                self._line_blank, self._tail = True, ""
            part = (self._tail + parts[index]).replace("##[", "## [")[len(self._tail) :]
            stripped = part.lstrip()
            if self._line_blank and stripped.startswith(":"):  # ":" then ":" in the next write is caught too
                part = part[: len(part) - len(stripped)] + ": " + stripped[1:]
            if stripped:
                self._line_blank = False
            parts[index] = part
            self._tail = (self._tail + part)[-2:]
        return "".join(parts)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self._broken:
            return
        try:
            self._stream.flush()
        except (OSError, ValueError) as exc:
            raise self.fail(exc) from exc

    @property
    def buffer(self) -> GuardedBinary:
        if self._buffer is None:
            self._buffer = GuardedBinary(self._stream.buffer, self)  # type: ignore[attr-defined]
        return self._buffer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def fail(self, exc: BaseException) -> StreamError:
        """Mark the stream broken, point its descriptor at the null device, and say why."""
        self._broken = True
        with contextlib.suppress(OSError, ValueError, AttributeError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())
            os.close(null)
        return StreamError(f"cannot write to {self._label}: {_reason(exc)}")


class GuardedBinary:
    """The binary buffer under a GuardedText (the child's stderr is copied through it byte for byte)."""

    def __init__(self, raw: IO[bytes], owner: GuardedText) -> None:
        self._raw = raw
        self._owner = owner

    def write(self, data: bytes) -> int:
        if self._owner._broken or not data:
            return len(data)
        try:
            return self._raw.write(data)
        except (OSError, ValueError) as exc:
            raise self._owner.fail(exc) from exc

    def flush(self) -> None:
        if self._owner._broken:
            return
        try:
            self._raw.flush()
        except (OSError, ValueError) as exc:
            raise self._owner.fail(exc) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class Closed:
    """What a closed standard stream becomes: reading or writing it is a clear error, never a crash."""

    encoding = "utf-8"
    errors = "strict"
    closed = False

    def __init__(self, label: str) -> None:
        self.label = label
        self.told = False

    def _error(self) -> OSError:
        return OSError(errno.EBADF, f"{self.label} is closed")

    def read(self, size: int = -1) -> str:
        raise self._error()

    def readline(self, size: int = -1) -> str:
        raise self._error()

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # click's probe, as above
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self.told or not text:
            return len(text)
        self.told = True
        raise StreamError(f"cannot write to {self.label}: it is closed")

    def flush(self) -> None:
        return None

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError(errno.EBADF, f"{self.label} is closed")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, BrokenPipeError):
        return "the reader closed the pipe"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)
