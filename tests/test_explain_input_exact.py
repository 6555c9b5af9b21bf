"""What explain reads from its INPUT, pinned exactly (issue 16, item 7: the mutation run's survivors).

In process and fast: the whole ExplainInput a file or a stream gives (text, name, is_report, cut),
every error's exact message, the byte and character limits at exactly the limit and one past it,
each byte-order mark, the blank characters skipped before a report, and the nesting limit of a JSON
paste's strings. Expected values are written out by hand, never computed by the function under test.
"""

from __future__ import annotations

import codecs
import io
import json
import os
import sys
import threading
from typing import Any, ClassVar

import pytest

from mpscheck.model import REPORT_KIND
from mpscheck.probes import explain_input
from mpscheck.probes.explain_input import (
    HEAD,
    HEAD_LINES,
    MAX_INPUT,
    MAX_LINES,
    STREAM_LIMIT,
    TAIL,
    TAIL_LINES,
    ExplainInput,
    InputError,
    as_text,
    cut_notice,
    decode,
    looks_like_report,
    read_input,
    saved_report,
)
from mpscheck.probes.saved_report import ReportError

LIMIT_BYTES = 4 * MAX_INPUT + 4  # a byte-order mark and MAX_INPUT characters of UTF-32: the most ever read


def test_the_cut_notice_word_for_word() -> None:
    """It says how many lines of the start and of the end were read: the skipped middle lies between them."""
    assert cut_notice("train.log", False, (1_203, 3_790)) == (
        "train.log is longer than 400,000 characters or 25,000 lines: only its first 1,203 lines and the last "
        "3,790 lines were read (80,000 and 320,000 characters, 5,000 and 20,000 lines at most), so the middle was "
        "not judged; paste the part around the error"
    )
    assert cut_notice("standard input", True, (1, 1)) == (
        "standard input is longer than 400,000 characters or 25,000 lines: only its first 1 line and the last "
        "1 line of its first 64 MiB were read (80,000 and 320,000 characters, 5,000 and 20,000 lines at most), so "
        "the middle was not judged; paste the part around the error"
    )
    assert cut_notice("paste.txt") == (  # no counts known: the parts by name
        "paste.txt is longer than 400,000 characters or 25,000 lines: only its start and its end were read "
        "(80,000 and 320,000 characters, 5,000 and 20,000 lines at most), so the middle was not judged; paste the "
        "part around the error"
    )
    assert cut_notice("paste.txt", True, (0, 0)) == cut_notice("paste.txt", True)
    assert "its start and its end of its first 64 MiB were read" in cut_notice("paste.txt", True)
    assert (MAX_INPUT, HEAD, TAIL, STREAM_LIMIT) == (400_000, 80_000, 320_000, 64 * 1024 * 1024)  # as spelt above
    assert (MAX_LINES, HEAD_LINES, TAIL_LINES) == (25_000, 5_000, 20_000)


@pytest.mark.parametrize(
    "data, text",
    [
        (b"", ""),
        (b"plain", "plain"),
        ("h\u00e9".encode(), "h\u00e9"),
        (b"a\xffb", "a\ufffdb"),  # a stray byte is replaced, never an error
        (codecs.BOM_UTF8 + "h\u00e9".encode(), "h\u00e9"),
        (codecs.BOM_UTF8 + b"a\xff", "a\ufffd"),
        (codecs.BOM_UTF16_LE + "h\u00e9".encode("utf-16-le"), "h\u00e9"),
        (codecs.BOM_UTF16_BE + "h\u00e9".encode("utf-16-be"), "h\u00e9"),
        (codecs.BOM_UTF16_LE + b"a\x00b", "a\ufffd"),  # an odd byte at the end
        (codecs.BOM_UTF32_LE + "h\u00e9".encode("utf-32-le"), "h\u00e9"),
        (codecs.BOM_UTF32_BE + "h\u00e9".encode("utf-32-be"), "h\u00e9"),
        (codecs.BOM_UTF32_LE + b"a\x00\x00\x00b", "a\ufffd"),
        (codecs.BOM_UTF32_LE, ""),  # UTF-32's mark, not UTF-16's followed by two NULs
        ("x".encode("utf-16-le"), "x\x00"),  # no mark: UTF-8
    ],
)
def test_decode_by_the_mark_else_utf8_with_bad_bytes_replaced(data: bytes, text: str) -> None:
    assert decode(data) == text


def test_a_file_is_read_whole_with_its_name(tmp_path) -> None:
    path = tmp_path / "paste.txt"
    path.write_bytes(b"RuntimeError: MPS backend out of memory\n")
    assert read_input(str(path)) == ExplainInput("RuntimeError: MPS backend out of memory\n", str(path), False, False)


def test_a_file_that_cannot_be_read_is_a_usage_error_naming_it(tmp_path) -> None:
    path = str(tmp_path / "missing.txt")
    with pytest.raises(InputError) as raised:
        read_input(path)
    assert str(raised.value).startswith(f"cannot read {path}: [Errno 2] No such file or directory")


class Stdin:
    """A standard input as a caller hands it: text on top, bytes underneath (``buffer``)."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


class Endless:
    """A byte stream that never ends (``yes | mpscheck explain -``); it records what was asked of it."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def read(self, size: int) -> bytes:
        self.asked.append(size)
        return b"y" * size


@pytest.mark.parametrize("kind", ["buffer", "bytes", "text"])
def test_standard_input_is_read_from_its_bytes_or_as_given(kind: str) -> None:
    given = "Memory: 16 GB\n"
    streams = {"buffer": Stdin(given.encode()), "bytes": io.BytesIO(given.encode()), "text": io.StringIO(given)}
    assert read_input("-", streams[kind]) == ExplainInput("Memory: 16 GB\n", "standard input", False, False)


def test_an_empty_input_is_empty_text(tmp_path) -> None:
    class Nothing:
        def read(self, size: int) -> None:  # a non-blocking stream with nothing ready
            return None

    assert read_input("-", io.BytesIO(b"")) == ExplainInput("", "standard input", False, False)
    assert read_input("-", Nothing()) == ExplainInput("", "standard input", False, False)
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    assert read_input(str(path)) == ExplainInput("", str(path), False, False)


def test_standard_input_defaults_to_the_process_own(monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", Stdin(b"Memory: 16 GB\n"))
    assert read_input("-") == ExplainInput("Memory: 16 GB\n", "standard input", False, False)


def test_a_closed_or_absent_standard_input_is_a_usage_error(monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(InputError) as absent:
        read_input("-")
    assert str(absent.value) == "cannot read standard input: it is closed"
    closed = io.BytesIO(b"x")
    closed.close()
    with pytest.raises(InputError) as shut:
        read_input("-", closed)
    assert str(shut.value) == "cannot read standard input: I/O operation on closed file."


def test_a_failing_standard_input_is_a_usage_error_that_says_why() -> None:
    class Broken:
        def read(self, size: int) -> bytes:
            raise OSError("Input/output error")

    with pytest.raises(InputError) as raised:
        read_input("-", Broken())
    assert str(raised.value) == "cannot read standard input: Input/output error"
    assert isinstance(raised.value.__cause__, OSError)


def test_an_endless_stream_is_read_up_to_the_stream_limit_and_says_so() -> None:
    stream = Endless()
    given = read_input("-", stream)
    assert given == ExplainInput("y" * HEAD + "\n" + "y" * TAIL, "standard input", False, True, True)
    assert given.read_lines == (1, 1)
    assert stream.asked == [LIMIT_BYTES + 1] + [1024 * 1024] * 63  # 2 MB, then 1 MiB at a time to 64 MiB


def test_a_long_stream_keeps_its_first_and_last_lines_whole() -> None:
    lines = [f"line {n:07d} " + "x" * 87 for n in range(60_000)]  # 100 characters each, 6 MB: the middle not read
    given = read_input("-", io.BytesIO("\n".join(lines).encode()))
    assert given.cut and not given.stopped
    kept = given.text.split("\n")
    assert kept[0] == lines[0] and kept[-1] == lines[-1]
    assert all(len(line) == 100 for line in kept)  # no line read half
    assert lines[791] in kept and lines[792] not in kept  # 80,000 characters: 792 lines and a part
    assert lines[56_832] in kept and lines[56_831] not in kept  # 320,000 from the end: 3,168 lines and a part
    assert given.read_lines == (792, 3_168)
    assert len(given.text) <= MAX_INPUT


def test_more_lines_than_the_line_limit_keep_the_first_and_the_last() -> None:
    numbers = "\n".join(str(n) for n in range(60_000))  # 338,890 characters: under the character limit
    given = read_input("-", io.BytesIO(numbers.encode()))
    kept = given.text.split("\n")
    assert given.cut and len(kept) == HEAD_LINES + TAIL_LINES
    assert kept[HEAD_LINES - 1] == "4999" and kept[HEAD_LINES] == "40000" and kept[-1] == "59999"
    assert given.read_lines == (HEAD_LINES, TAIL_LINES)
    ended = read_input("-", io.BytesIO((numbers + "\n").encode()))  # a last line break starts no line
    assert ended.text.split("\n")[-2:] == ["59999", ""] and ended.read_lines == (HEAD_LINES, TAIL_LINES - 1)
    exact = "\n".join(str(n) for n in range(MAX_LINES))  # 25,000 lines: read whole
    assert read_input("-", io.BytesIO(exact.encode())) == ExplainInput(exact, "standard input", False, False)
    over = exact + "\n"  # one line break more: 25,001 lines (the last one empty)
    assert read_input("-", io.BytesIO(over.encode())).cut


class Recorded(io.BufferedReader):
    """A file that writes down the size of every read."""

    asked: ClassVar[list[int]] = []

    def read(self, size: int | None = -1) -> bytes:
        self.asked.append(-1 if size is None else size)
        return super().read(size)


def test_a_long_file_is_read_at_its_start_and_its_end_and_its_middle_only_counted(tmp_path, monkeypatch) -> None:
    """The middle is read in pieces only to count its lines (findings name the file's own lines), never kept."""
    asked: list[int] = []
    monkeypatch.setattr(Recorded, "asked", asked)
    monkeypatch.setattr(explain_input, "open", lambda path, mode: Recorded(io.FileIO(path, mode)), raising=False)
    path = tmp_path / "train.log"
    path.write_bytes(b"start\n" + b"y\n" * (10 * LIMIT_BYTES) + b"Traceback: the end\n")  # 32 MB
    given = read_input(str(path))
    kept = ["start"] + ["y"] * (HEAD_LINES - 1) + ["y"] * (TAIL_LINES - 2) + ["Traceback: the end", ""]
    assert given == ExplainInput("\n".join(kept), str(path), False, True, False)
    assert given.read_lines == (HEAD_LINES, TAIL_LINES - 1)  # 5,000 lines of the start; the end's last 19,999
    assert given.skipped_lines == 1 + 10 * LIMIT_BYTES + 1 - HEAD_LINES - (TAIL_LINES - 1)
    assert given.input_line(HEAD_LINES) == HEAD_LINES  # the start keeps its numbers
    assert given.input_line(HEAD_LINES + TAIL_LINES - 1) == 10 * LIMIT_BYTES + 2  # "Traceback: the end"
    middle = path.stat().st_size - 4 * TAIL - (LIMIT_BYTES + 1)  # bytes between the start read and the end read
    assert asked == [LIMIT_BYTES + 1] + [1024 * 1024] * (middle // (1024 * 1024)) + [middle % (1024 * 1024), 4 * TAIL]


def test_a_file_whose_middle_is_too_long_to_count_is_not_read_there_and_says_its_numbers_are_as_read(
    tmp_path, monkeypatch
) -> None:
    asked: list[int] = []
    monkeypatch.setattr(Recorded, "asked", asked)
    monkeypatch.setattr(explain_input, "open", lambda path, mode: Recorded(io.FileIO(path, mode)), raising=False)
    path = tmp_path / "train.log"
    with open(path, "wb") as handle:  # sparse: 70 MiB of NUL bytes that take no disk
        handle.write(b"start\n")
        handle.seek(70 * 1024 * 1024)
        handle.write(b"\nTraceback: the end\n")
    given = read_input(str(path))
    assert asked == [LIMIT_BYTES + 1, 4 * TAIL]  # the middle (over STREAM_LIMIT bytes) is never read
    assert given.read_lines == (1, 1) and given.skipped_lines is None
    assert given.input_line(1) == 1 and given.input_line(2) == 2  # numbered as read, and the notice says so
    assert given.notice().endswith(f"; lines after line 1 are numbered as read, not as in {path}")
    assert "numbered as read" not in cut_notice(str(path), False, (1, 1), 5)


def test_a_line_cut_stream_counts_what_it_skipped() -> None:
    numbers = "\n".join(str(n) for n in range(60_000))
    given = read_input("-", io.BytesIO(numbers.encode()))
    assert given.read_lines == (HEAD_LINES, TAIL_LINES) and given.skipped_lines == 60_000 - MAX_LINES
    assert given.input_line(HEAD_LINES + 1) == 40_001  # the line that reads "40000"
    endless = read_input("-", Endless())
    assert endless.read_lines == (1, 1) and endless.skipped_lines == -1  # one endless line: its start and end read
    assert endless.input_line(2) == 1  # its end is still line 1
    assert read_input("-", io.BytesIO(b"short\n")).input_line(1) == 1


def test_the_lines_of_a_utf16_middle_are_counted_on_its_characters(tmp_path) -> None:
    """UTF-16 is decoded to count: a byte 10 inside a character (U+0A00, U+010A) is no line break."""
    path = tmp_path / "log.txt"
    body = "\u0a00\u010a\n" * 300_000 + "Traceback: the end"
    path.write_bytes(codecs.BOM_UTF16_LE + body.encode("utf-16-le"))
    for given in (read_input(str(path)), read_input("-", io.BytesIO(path.read_bytes()))):
        assert given.cut and given.text.endswith("\nTraceback: the end")
        start, end = given.read_lines
        assert given.input_line(start + end) == 300_001


@pytest.mark.parametrize("where", ["file", "stdin"])
def test_an_input_a_little_over_the_limit_is_cut_the_same_from_a_file_and_a_stream(tmp_path, where: str) -> None:
    """2.5 MB: the end read from a file overlaps the start already read; both give the same lines."""
    lines = [f"row {n:06d} " + "x" * 49 for n in range(41_000)]  # 60 characters and a newline each
    data = "\n".join(lines).encode()
    path = tmp_path / "log.txt"
    path.write_bytes(data)
    given = read_input(str(path)) if where == "file" else read_input("-", io.BytesIO(data))
    kept = given.text.split("\n")
    assert given.cut and kept[0] == lines[0] and kept[-1] == lines[-1]
    assert kept[1310] == lines[1310] and kept[1311] == lines[35_755]  # 80,000 characters, then 320,000 from the end
    assert len(kept) == 1311 + 5245 and given.read_lines == (1311, 5245)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_long_named_pipe_is_read_as_a_stream_from_its_first_byte(tmp_path) -> None:
    """A path that is no regular file (`<(...)`, a FIFO) has no end to seek to: read on as a stream, the bytes
    already read given back first."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    lines = [f"line {n:07d} " + "x" * 87 for n in range(60_000)]
    data = "\n".join(lines).encode()
    writer = threading.Thread(target=fifo.write_bytes, args=(data,))
    writer.start()
    given = read_input(str(fifo))
    writer.join(timeout=30)
    stream = read_input("-", io.BytesIO(data))
    assert given == ExplainInput(stream.text, str(fifo), False, True, False)
    assert given.text.startswith(lines[0] + "\n") and given.text.endswith("\n" + lines[-1])


def test_the_end_of_a_utf16_file_is_read_on_its_code_units(tmp_path) -> None:
    path = tmp_path / "log.txt"
    body = "héllo\n" * 200_000 + "Traceback: the end"
    path.write_bytes(codecs.BOM_UTF16_LE + body.encode("utf-16-le"))
    given = read_input(str(path))
    assert given.cut and given.text.startswith("héllo\nhéllo") and given.text.endswith("héllo\nTraceback: the end")
    assert "\ufffd" not in given.text


def test_the_end_of_a_utf16_file_cut_short_by_a_byte_is_still_read_on_its_code_units(tmp_path) -> None:
    """An odd number of bytes: the end starts at an odd byte, and is read from the next whole code unit."""
    path = tmp_path / "log.txt"
    body = "héllo\n" * 200_000 + "Traceback: the end"
    path.write_bytes(codecs.BOM_UTF16_LE + body.encode("utf-16-le") + b"!")
    given = read_input(str(path))
    assert given.cut and given.text.endswith("héllo\nTraceback: the end\ufffd")
    assert given.text.count("\ufffd") == 1


def _utf32(characters: int, extra: bytes = b"") -> bytes:
    return codecs.BOM_UTF32_LE + ("a" * (characters - 1) + "z").encode("utf-32-le") + extra


@pytest.mark.parametrize("where", ["file", "stdin"])
def test_the_byte_limit_at_exactly_the_limit_and_one_past_it(tmp_path, where: str) -> None:
    """UTF-32 with its mark: MAX_INPUT characters are exactly the byte limit, read whole and not cut."""

    def given(data: bytes) -> ExplainInput:
        if where == "stdin":
            return read_input("-", io.BytesIO(data))
        path = tmp_path / "paste.txt"
        path.write_bytes(data)
        return read_input(str(path))

    name = "standard input" if where == "stdin" else str(tmp_path / "paste.txt")
    exact = _utf32(MAX_INPUT)
    assert len(exact) == LIMIT_BYTES
    assert given(exact) == ExplainInput("a" * (MAX_INPUT - 1) + "z", name, False, False)
    # one byte more: cut, its first HEAD and last TAIL characters (one line: nothing to cut back to)
    assert given(exact + b"\x00") == ExplainInput("a" * HEAD + "\n" + "a" * (TAIL - 2) + "z\ufffd", name, False, True)
    assert given(exact + b"b\x00\x00\x00") == ExplainInput(
        "a" * HEAD + "\n" + "a" * (TAIL - 2) + "zb", name, False, True
    )


def test_the_character_limit_at_exactly_the_limit_and_one_past_it() -> None:
    assert read_input("-", io.BytesIO(b"y" * MAX_INPUT)) == ExplainInput("y" * MAX_INPUT, "standard input", False)
    assert read_input("-", io.BytesIO(b"y" * (MAX_INPUT + 1))) == ExplainInput(
        "y" * HEAD + "\n" + "y" * TAIL, "standard input", False, True
    )
    assert read_input("-", io.StringIO("y" * (MAX_INPUT + 1))) == ExplainInput(
        "y" * HEAD + "\n" + "y" * TAIL, "standard input", False, True
    )


def test_a_cut_report_is_still_a_report_and_still_cut(tmp_path) -> None:
    path = tmp_path / "report.json"
    path.write_text('{"kind": "' + "k" * MAX_INPUT + '"}')
    cut = '{"kind": "' + "k" * (HEAD - 10) + "\n" + "k" * (TAIL - 2) + '"}'
    given = read_input(str(path))
    assert given == ExplainInput(cut, str(path), True, True)
    assert (given.read_lines, given.skipped_lines) == ((1, 1), -1)  # one line, its start and end read
    whole = '{"kind": "mpscheck-report"}'
    uncut = read_input("-", io.BytesIO(whole.encode()))
    assert uncut == ExplainInput(whole, "standard input", True, False)
    assert (uncut.read_lines, uncut.skipped_lines) == ((0, 0), 0)  # nothing cut, nothing skipped
    text = read_input("-", io.BytesIO(b"a paste\n"))
    assert (text.read_lines, text.skipped_lines, text.input_line(1)) == ((0, 0), 0, 1)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("{", True),  # not JSON: a broken report gets the report's error
        ('{"kind": "anything"}', True),
        ('{"facts": {}}', True),
        ('{"schema_version": 9}', True),
        ('{"ename": "E", "evalue": "v"}', False),  # a Jupyter error object is a paste
        ("{}", False),
        ("[1]", False),
        ('"{"', False),
        ("", False),
        ("x{", False),
        ("X{", False),
        ('X{"kind": "anything"}', False),
        ('\ufeff \t\r\n{"kind": "anything"}', True),
        ('\ufeff{"facts": 1}', True),
        (' {"facts": 1}', True),
        ('\t{"facts": 1}', True),
        ('\r{"facts": 1}', True),
        ('\n{"facts": 1}', True),
        ('\x0c{"facts": 1}', False),  # a form feed is not one of the blanks skipped
        ('{"facts": 1, "SPHardwareDataType": []}', False),  # system_profiler -json
        ('{"facts": 1, "XSPHardwareDataType": []}', True),
        ('{"facts": 1, "sp": []}', True),
        ('{"kind": "mpscheck-report", "SPHardwareDataType": []}', True),
        ('{"kind": "other", "SPHardwareDataType": []}', False),
    ],
)
def test_what_looks_like_a_report(text: str, expected: bool) -> None:
    assert looks_like_report(text) is expected
    assert REPORT_KIND == "mpscheck-report"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("plain text\n", "plain text\n"),
        ("{", "{"),  # not JSON: as it is
        ("[1]", "[1]"),
        ('{"ename": "E", "evalue": "v", "n": 3, "t": ["a", ["b"], {"c": "d"}], "x": null}', "E\nv\na\nb\nd"),
        ('\ufeff \t\r\n{"ename": "E", "evalue": "v"}', "E\nv"),
        ('\ufeff{"ename": "E"}', "E"),
        ('X{"ename": "E"}', 'X{"ename": "E"}'),
        ("{}", ""),
        ('{"SPDisplaysDataType": [{"name": "Apple M1"}]}', '{"SPDisplaysDataType": [{"name": "Apple M1"}]}'),
        ('{"XSPDisplays": ["Apple M1"]}', "Apple M1"),
    ],
)
def test_a_json_paste_as_its_strings_one_a_line(text: str, expected: str) -> None:
    assert as_text(text) == expected


def _nested(objects: int, lists: int) -> Any:
    value: Any = "deep"
    for _ in range(lists):
        value = [value]
    for _ in range(objects):
        value = {"k": value}
    return value


@pytest.mark.parametrize(
    "objects, lists, kept",
    [
        (50, 0, True),  # the top object is depth 0: its 50th nesting is depth 50, the deepest read
        (51, 0, False),
        (1, 49, True),
        (1, 50, False),
        (25, 25, True),
        (26, 25, False),
        (3, 0, True),
    ],
)
def test_the_strings_of_a_json_paste_are_read_fifty_deep(objects: int, lists: int, kept: bool) -> None:
    data = {"ename": "E", "nested": _nested(objects - 1, lists)}
    assert as_text(json.dumps(data)) == ("E\ndeep" if kept else "E")


def test_a_saved_report_is_parsed_under_the_name_it_was_given() -> None:
    given = ExplainInput("{", "report.json", True)
    with pytest.raises(ReportError) as raised:
        saved_report(given, "-")
    assert str(raised.value).startswith("report.json is not JSON (")
