"""A cut input's lines keep the input's own numbers (explain reads its start and its end, the middle skipped):
every line a diagnosis names, in its evidence, its facts and its findings' words, is the input's line."""

from __future__ import annotations

import codecs
import io
import random

from mpscheck.checks.causes import explain_text
from mpscheck.probes import explain_input
from mpscheck.probes.explain_input import HEAD_LINES, MAX_LINES, one_break, read_input
from mpscheck.probes.paste import read

OUTSIDE = """Traceback (most recent call last):
  File "/Users/me/app/run.py", line 3, in <module>
    cfg = load(path)
KeyError: 'model_name'
"""
OOM = (
    "# user: M2 Air\nRuntimeError: MPS backend out of memory (MPS allocated: 17.82 GB, other allocations: 0 bytes, "
    "max allowed: 18.13 GB). Tried to allocate 256 MB on private pool.\n"
)


def after_first(line: int) -> int:
    """As a cut input numbers its lines: the first read as it is, the rest 1,000 lines further on."""
    return line if line <= 1 else line + 1000


def test_the_evidence_and_the_words_name_the_input_lines() -> None:
    cause = explain_text(OUTSIDE, input_line=after_first).cause
    assert (cause.id, cause.variant) == ("not-enough-evidence", "outside-torch")
    assert "ends at line 1002 of the paste" in cause.summary
    assert [e.line for e in cause.evidence] == [1002, 1004]
    plain = explain_text(OUTSIDE).cause  # uncut: numbered as read
    assert "ends at line 2 of the paste" in plain.summary and [e.line for e in plain.evidence] == [2, 4]


def test_the_facts_and_the_findings_name_the_input_lines() -> None:
    diagnosis = explain_text(OOM, input_line=after_first)
    assert [e.line for e in diagnosis.facts.errors] == [1002]
    assert [e.line for e in diagnosis.cause.evidence] == [1002]
    said = next(f.summary for f in diagnosis.findings if f.id == "error-text")
    assert said.startswith("line 1002: MPS ran out of memory")
    assert explain_text(OOM).facts.errors[0].line == 2


def test_every_line_break_is_one_lf_as_the_readers_split() -> None:
    assert one_break("a\r\nb\rc\nd") == "a\nb\nc\nd"
    assert one_break("a\r\r\nb\r\r\r\nc") == "a\nb\n\nc"  # CR CR LF (a doubled Windows end) is one break
    assert read("one\r\r\ntwo").text == "one\ntwo"  # the paste readers split the same way
    assert one_break("no break") == "no break"
    bars = "\r".join(f"{n}%|###" for n in range(60_000))  # a progress bar's updates: 60,000 lines to a reader
    given = read_input("-", io.BytesIO(bars.encode()))
    assert given.cut and given.text.count("\n") == MAX_LINES - 1 and "\r" not in given.text
    assert given.input_line(HEAD_LINES + 1) == 40_001  # the line that reads "40000%|###"
    assert given.text.split("\n")[HEAD_LINES] == "40000%|###"


def test_line_breaks_are_counted_once_across_pieces_in_every_encoding() -> None:
    pieces = [(b"a\r", b"\nb\rc\n"), (b"x",), (b"\r\n\r", b"\r\n"), (b"\r\r", b"\n"), (b"\r", b"\r\n"), (b"\r\r\r\n",)]
    pieces += [(b"\r\r", b"\r\n"), (b"a\r\r\nb",), (b"\r", b"\r", b"\n"), (b"\n\r", b"x")]
    for data in pieces:
        breaks = explain_input._Breaks(data[0])
        for piece in data[1:]:
            breaks.add(piece)
        assert breaks.count == one_break(b"".join(data).decode()).count("\n"), data
    text = "a\r\nb\rc\n"
    for mark, encoding in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF32_BE, "utf-32-be")):
        encoded = mark + text.encode(encoding)
        breaks = explain_input._Breaks(encoded[: len(mark) + 1])  # a piece ends inside a code unit
        breaks.add(encoded[len(mark) + 1 :])
        assert breaks.count == 3, encoding
    words = explain_input._Breaks("one\ntwo\r")
    words.add("\nthree")
    assert words.count == 2


def test_a_vm_cap_out_of_memory_finding_gives_its_numbers_once() -> None:
    said = next(f.summary for f in explain_text(OOM).findings if f.id == "error-text")
    assert said == (
        "line 2: MPS ran out of memory: torch was refused 256 MB although it fits under the cap, with no other "
        "allocations (torch holds 17.82 GB, other allocations 0 bytes, cap 18.13 GB, asked for 256 MB) (out-of-memory)"
    )


def test_the_count_of_breaks_read_in_pieces_is_one_breaks_count_wherever_the_pieces_are_cut() -> None:
    """Seeded: 5,000 texts of CR, LF and letters, each cut into up to four pieces at random places."""
    draw = random.Random(20261125)
    for _ in range(5000):
        text = "".join(draw.choice("\r\nab") for _ in range(draw.randint(1, 12))).encode()
        cuts = (
            sorted(draw.sample(range(1, len(text)), k=min(len(text) - 1, draw.randint(0, 3)))) if len(text) > 1 else []
        )
        pieces = [text[i:j] for i, j in zip([0, *cuts], [*cuts, len(text)])]
        breaks = explain_input._Breaks(pieces[0])
        for piece in pieces[1:]:
            breaks.add(piece)
        assert breaks.count == one_break(text.decode()).count("\n"), pieces


def test_a_long_text_stream_keeps_its_end_and_numbers_its_lines() -> None:
    """Standard input that gives text, not bytes (a stream with no buffer): its end is read and numbered as a byte
    stream's is."""
    lines = [f"step {n}" for n in range(60_000)] + ["RuntimeError: MPS backend out of memory"]
    given = read_input("-", io.StringIO("\r\n".join(lines)))
    assert given.cut and given.text.endswith("RuntimeError: MPS backend out of memory")
    last = given.text.count("\n") + 1
    assert given.input_line(last) == len(lines)
    assert given.input_line(HEAD_LINES + 1) == len(lines) - (last - HEAD_LINES) + 1
