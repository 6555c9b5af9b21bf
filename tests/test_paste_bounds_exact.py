"""The bounds of the paste readers' loops and cuts, pinned at the bound and one past it, whole: the
line cut and the run of blanks every line gets, a reply's quote marks, the hard-wrap join that stops at
MAX_JOINED, a soft-wrapped message joined over MAX_SPLIT lines at most, the wrap width, the log prefix
rule, and the REPL reader's windows (its output up to three lines below, its command up to three above).

A change to one of these bounds makes a loop run further than it should (the mutation run's slow
mutants): each test here states the exact result at the bound, so such a change fails at once rather
than running long. Lines are built to reach each bound (the comments say how) from real messages.
"""

from __future__ import annotations

import textwrap

import pytest

from mpscheck.probes.paste import MAX_LINE, parser, read, split
from mpscheck.probes.paste.normalise import (
    MAX_JOINED,
    MAX_SPLIT,
    MIN_WRAP,
    TERMINAL_WIDTH,
    join_split_messages,
    join_wrapped,
    strip_prefixes,
    wrap_width,
)
from tests.corpus_cases import CORPUS
from tests.test_explain_round3 import OOM
from tests.test_paste_readers_exact import rows

# ---- every line: the cut, the blanks, colours, line ends, quote marks ------------------------------------


def test_a_line_is_cut_at_max_line_and_the_next_keeps_its_number() -> None:
    assert MAX_LINE == 4000
    assert split("a" * 4000 + "\nb") == ["a" * 4000, "b"]
    assert split("a" * 4001 + "\nb") == ["a" * 4000, "b"]
    assert split("a" * 100_000) == ["a" * 4000]
    assert read("a" * 4001 + "\nb").text == "a" * 4000 + "\nb"


@pytest.mark.parametrize(
    ("blanks", "kept"),
    [
        (" " * 32, " " * 32),
        (" " * 33, " " * 32),
        (" " * 10_000, " " * 32),
        ("\t" * 40, " " * 32),
        (" \t" * 16, " \t" * 16),
    ],
)
def test_a_run_of_blanks_is_cut_to_32(blanks: str, kept: str) -> None:
    assert split(f"a{blanks}b") == [f"a{kept}b"]


def test_colours_line_ends_and_a_replys_quote_marks() -> None:
    text = "\x1b[31mred\x1b[0m\r\nb\rc\n> > quoted\n>>x\n>\n> "
    assert split(text) == ["red", "b", "c", "quoted", "x", "", ""]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (">>> torch.ones(1)", ">>> torch.ones(1)"),  # a REPL prompt is no quote mark
        ("> >>> torch.ones(1)", ">>> torch.ones(1)"),  # a quoted REPL line keeps its prompt
        (">> >>> torch.ones(1)", ">>> torch.ones(1)"),
        ("> >> x", "x"),
        ("> ... y", "... y"),
    ],
)
def test_a_quoted_prompt_keeps_its_prompt(line: str, expected: str) -> None:
    assert split(line) == [expected]


def test_code_typed_in_a_quoted_repl_is_not_output() -> None:
    """The bug this pins: a quoted reply's "> >>> x = torch.ones(2, device='mps')" lost its prompt with its
    quote mark, and the code typed there read as a tensor printed on mps (proof that MPS worked)."""
    typed = "> >>> x = torch.ones(2, device='mps')"
    assert rows(read(typed).observations) == []
    printed = "> >>> x\n> tensor([1., 1.], device='mps:0')"
    assert rows(read(printed).observations) == [("paste.mps_tensor", True, 2, None)]
    quoted = "> >>> torch.backends.mps.is_available()\n> False"
    paste = read(quoted)
    assert paste.text == ">>> torch.backends.mps.is_available()\nFalse"
    assert rows(paste.observations) == [("torch.mps_available", False, 2, 1)]


# ---- hard wraps: the width, and the join that stops at MAX_JOINED ------------------------------------------


def _pieces(count: int, width: int = TERMINAL_WIDTH) -> list[str]:
    """*count* pieces of one long line cut at *width*, each of its own letter (no two alike: a repeated
    line is a log's record, never a wrap)."""
    return [chr(ord("A") + i % 26) * width for i in range(count)]


def test_a_hard_wrap_is_joined_up_to_max_joined_then_starts_again() -> None:
    assert MAX_JOINED == 50 * TERMINAL_WIDTH
    lines = _pieces(120)
    expected = [""] * 120
    expected[0] = "".join(lines[0:50])  # 4000 characters: the join stops there
    expected[50] = "".join(lines[50:100])
    expected[100] = "".join(lines[100:120])
    assert join_wrapped(lines) == expected


def test_a_hard_wrap_just_under_max_joined_is_one_line() -> None:
    lines = _pieces(50)
    assert join_wrapped(lines) == ["".join(lines)] + [""] * 49
    one_more = _pieces(51)
    assert join_wrapped(one_more) == ["".join(one_more[:50])] + [""] * 49 + [one_more[50]]


@pytest.mark.parametrize(
    ("lines", "width"),
    [
        ([], None),
        (["x" * (MIN_WRAP - 1)] * 2, None),  # narrower than any terminal's wrap
        (["x" * MIN_WRAP, "y" * MIN_WRAP], MIN_WRAP),
        (["x" * 70], None),  # one long line alone is no wrap
        (["x" * TERMINAL_WIDTH], TERMINAL_WIDTH),  # unless it is exactly a terminal's width
        (["x" * 81], None),
        (["x" * 90, "y" * 90, "z" * 100], None),  # the longest line must be the width, and cut more than once
        (["x" * 90, "y" * 90, "z" * 70, "short"], 90),
    ],
)
def test_the_wrap_width(lines: list[str], width: int | None) -> None:
    assert wrap_width(lines) == width


def test_a_wrapped_line_followed_by_a_record_is_not_joined() -> None:
    cut = "RuntimeError: MPS backend out of memory (MPS allocated: 5.05 GB, other allocations: 2."
    width = len(cut)
    second = "x" * width
    assert join_wrapped([cut, 'File "x.py", line 1', second, second]) == [cut, 'File "x.py", line 1', second, second]
    assert join_wrapped([cut, "29 GB, max allowed", "z" * width]) == [cut + "29 GB, max allowed", "", "z" * width]


# ---- soft wraps of a known message: at most MAX_SPLIT lines ------------------------------------------------


def test_a_soft_wrapped_message_over_max_split_lines_is_joined() -> None:
    """At 30 columns the out-of-memory row's match spans the first 5 lines: joined with spaces."""
    assert MAX_SPLIT == 5
    lines = textwrap.wrap(OOM, 30)
    expected = [" ".join(lines[:5])] + [""] * 4 + lines[5:]
    assert join_split_messages(lines) == expected


def test_a_soft_wrapped_message_over_one_line_more_is_left_as_it_is() -> None:
    """At 29 columns the same match spans 6 lines: one past MAX_SPLIT."""
    lines = textwrap.wrap(OOM, 29)
    assert join_split_messages(lines) == lines
    assert join_split_messages(["one line"]) == ["one line"]


# ---- a log's prefix on most lines --------------------------------------------------------------------------


def test_a_prefix_is_stripped_where_at_least_half_the_lines_carry_it() -> None:
    prefix = "web-1  | "
    half = [prefix + "RuntimeError: x", "plain line", "", prefix + "b", "c"]  # 2 of 4 filled lines
    assert strip_prefixes(half) == ["RuntimeError: x", "plain line", "", "b", "c"]
    fewer = [prefix + "RuntimeError: x", "plain line", "c", "d"]  # 1 of 4
    assert strip_prefixes(fewer) == fewer
    quoted = ["> " + prefix + "a", "> " + prefix + "b"]  # a reply's quote mark stays, the prefix goes
    assert strip_prefixes(quoted) == ["> a", "> b"]
    assert strip_prefixes(["", "  "]) == ["", "  "]
    logged = ["2024-05-01 10:00:00,123 - ERROR - boom", "2024-05-01 10:00:01 INFO x", "- item"]
    assert strip_prefixes(logged) == ["boom", "x", "item"]


# ---- the REPL reader's windows -----------------------------------------------------------------------------


@pytest.mark.parametrize("blanks", [0, 1, 2, 3])
def test_a_repl_value_is_read_up_to_three_lines_below_its_expression(blanks: int) -> None:
    lines = [">>> torch.backends.mps.is_available()", *[""] * blanks, "True"]
    expected = [("torch.mps_available", True, 2 + blanks, 1)] if blanks < 3 else []
    assert rows(parser("repl")(lines)) == expected


def test_a_repl_value_at_the_end_of_the_text_and_past_a_prompt() -> None:
    assert rows(parser("repl")([">>> torch.backends.mps.is_available()"])) == []
    assert rows(parser("repl")([">>> torch.backends.mps.is_available()", ">>> True"])) == []


@pytest.mark.parametrize(("blanks", "used"), [(0, False), (2, False), (3, True), (4, True)])
def test_a_printed_device_is_used_unless_torch_device_built_it_up_to_three_lines_above(blanks: int, used: bool) -> None:
    lines = ['>>> torch.device("mps")', *[""] * blanks, "device(type='mps')"]
    expected = [("paste.device_used", "mps", 2 + blanks, None)] if used else []
    assert rows(parser("repl")(lines)) == expected


def test_a_printed_device_on_the_first_line() -> None:
    assert rows(parser("repl")(["device(type='mps', index=0)"])) == [("paste.device_used", "mps", 1, None)]


# ---- a REPL prompt after a line of the wrap width is a record of its own -----------------------------------


def test_a_prompt_after_a_line_of_the_wrap_width_is_not_joined_onto_it() -> None:
    """The bug this pins: the wrap rule's quote-mark step took ">>> " for a reply's "> " marks, so a prompt
    line read as the continuation of a line cut at the wrap width and was glued onto it (pytorch#146236's
    paste: its first line ended in ">>> import torch"), and code typed there could read as output."""
    paste = (CORPUS / "pytorch-146236-rosetta-bf16.txt").read_text(encoding="utf-8").split("\n---\n", 1)[1]
    lines = paste.split("\n")
    assert lines[1] == ">>> import torch"
    assert join_wrapped(lines)[:3] == lines[:3]
    wrapped = "Downloading torch-2.2.2-cp311-none-macosx_10_9_x86_64.whl (150.8 MB) abcdefghijk"  # 80 wide: built
    assert len(wrapped) == TERMINAL_WIDTH
    typed = ">>> x = torch.ones(2, device='mps')"
    assert join_wrapped([wrapped, typed]) == [wrapped, typed]
    assert join_wrapped([wrapped, "> " + typed]) == [wrapped, "> " + typed]
    assert "paste.mps_tensor" not in {o.fact for o in read(f"{wrapped}\n{typed}").observations}
    assert strip_prefixes([">>> a", ">>> b"]) == [">>> a", ">>> b"]


# ---- every line's own steps: typography, HTML entities, full-width separators, pytest's E, arrows, reprs ----


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("it&#39;s &quot;mps&quot; &lt;a&gt; &amp; b&nbsp;c &#x41;", 'it\'s "mps" <a> & b c A'),  # a page's source
        ("a & b", "a & b"),  # an ampersand alone: nothing to undo
        ("&foo; x", "&foo; x"),  # not an entity the pattern knows
        ("RuntimeError\uff1aMPS\uff0c x\uff1b y", "RuntimeError: MPS, x; y"),  # an input method's full-width marks
        ("a\u00a0b\u200bc \u2018x\u2019 \u201cy\u201d \uff08z\uff09", "a bc 'x' \"y\" (z)"),  # a web page's typography
        ("E       RuntimeError: boom", "RuntimeError: boom"),  # pytest's failure line
        ("E  RuntimeError: boom", "E  RuntimeError: boom"),  # two blanks: not pytest's
        ("platform.machine() \u2192 'x86_64'", "platform.machine() = 'x86_64'"),  # a summary's annotation
        ("platform.machine() => 'arm64'", "platform.machine() = 'arm64'"),
        ("platform.machine() -> 'arm64'", "platform.machine() -> 'arm64'"),  # an ASCII arrow alone stays
    ],
)
def test_a_lines_own_normalising_steps(line: str, expected: str) -> None:
    from mpscheck.probes.paste.normalise import normalise

    assert normalise([line]).lines == [expected]


def test_a_repr_line_is_expanded_only_when_it_looks_like_an_error() -> None:
    from mpscheck.probes.paste.normalise import normalise, unrepr

    assert unrepr(r"Error x\ny") == ["Error x", "y"]
    assert unrepr(r"Error: it\'s") == ["Error: it's"]
    assert unrepr(r"plain x\ny") == [r"plain x\ny"]  # no error word
    assert unrepr(r"Error \t only") == [r"Error \t only"]  # no \n nor \' escape
    assert unrepr("Error no escapes") == ["Error no escapes"]
    result = normalise(["first", r"ValueError: a\nb\tc", "last"])
    assert (result.lines, result.origin) == (["first", "ValueError: a", "b\tc", "last"], [1, 2, 2, 3])


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # transcribe-anything#52's uv hint, as a narrow terminal breaks it before the platform tag
        ("hint:  You're on macOS", "(`macosx_15_0_x86_64`), but `torch` (v2.7.1) only has wheels for"),
        ("a platform tag (e.g.,", "`macosx_14_0_arm64`)"),  # built: each ending a hint's line may have
        ("a platform tag (e.g.", "`macosx_14_0_arm64`)"),
        ("your platform tag", "`macosx_14_0_arm64`"),
        ("the wheel's tag", "`macosx_14_0_arm64`"),
        ("Darwin mbp.local 22.1.0 Darwin Kernel Version 22.1.0", "root:xnu-8792.41.9~2/RELEASE_ARM64_T8103 arm64"),
    ],
)
def test_a_hint_or_uname_line_broken_before_its_tag_is_joined(first: str, second: str) -> None:
    assert join_wrapped([first, second]) == [first + " " + second, ""]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("hint: nothing open here", "(`macosx_15_0_x86_64`)"),  # the line before ends in none of the openings
        ("Darwin mbp.local 22.1.0 arm64", "arm64"),  # a Darwin line with its machine already
        ("hint:  You're on macOS", "and then some words"),  # the next line is no tag
    ],
)
def test_a_line_that_does_not_continue_is_not_joined(first: str, second: str) -> None:
    assert join_wrapped([first, second]) == [first, second]
