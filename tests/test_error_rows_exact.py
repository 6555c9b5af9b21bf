"""The known-errors table's small helpers, exactly: where ``first`` says a message is, and what ``fill``
does with a placeholder it has no value for."""

from __future__ import annotations

from mpscheck.knowledge.error_rows import fill
from mpscheck.knowledge.errors import first

OOM = (
    "RuntimeError: MPS backend out of memory (MPS allocated: 5.05 GB, other allocations: 2.29 GB, max allowed: "
    "6.77 GB). Tried to allocate 1024.00 MB on private pool."
)


def test_first_gives_the_line_of_the_match_and_that_whole_line() -> None:
    text = 'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\n' + OOM + "\nmore"
    hit = first(text)
    assert hit is not None
    assert (hit.row.cause, hit.line, hit.text) == ("out-of-memory", 3, OOM)


def test_first_on_a_single_line_and_on_nothing() -> None:
    hit = first(OOM)
    assert hit is not None and (hit.line, hit.text) == (1, OOM)
    assert first("") is None and first(None) is None and first("all fine here") is None


def test_fill_keeps_an_unknown_placeholder_as_written_and_drops_none() -> None:
    assert fill("{python} -m pip install {pkg}", {"python": "python3", "pkg": None}) == "python3 -m pip install {pkg}"
    assert fill("{a}{b}", {}) == "{a}{b}"
    assert fill("broken {", {"a": "x"}) == "broken {"
