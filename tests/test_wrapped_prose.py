"""A sentence of the user's wrapped over two lines is read as one (probes/paste/wrapped_prose.py), and a word-wrapped
paste's lines are joined with a space, a terminal's glued (probes/paste/word_cut.py): the metamorphic run's soft
wraps at 72 and 100 columns made five crash or wrong-result pastes "healthy" before."""

from __future__ import annotations

import textwrap
from dataclasses import replace

from mpscheck.checks.causes import explain_text
from mpscheck.model import ExitCode
from mpscheck.probes.paste import read
from mpscheck.probes.paste.normalise import join_wrapped, wrap_width
from mpscheck.probes.paste.word_cut import glue, word_wrapped
from mpscheck.probes.paste.wrapped_prose import joined_readings

CRASHED = "Trying to train a yolov5 model on a m1 Pro, seems to run for until end of first epoch, then"
BANNER = "YOLOv5 🚀 v7.0-72-gb8cbc6a Python-3.10.9 torch-2.0.0 MPS"


def facts(lines: list[str]) -> list[tuple[str, object, int, str]]:
    """What the join adds to what each line says alone."""
    alone = [replace(o, line=number) for number, line in enumerate(lines, 1) for o in read(line).observations]
    return [(o.fact, o.value, o.line, o.text) for o in joined_readings(lines, alone)]


def test_a_sentence_wrapped_over_two_lines_says_what_the_whole_says_on_its_first_line() -> None:
    assert facts([CRASHED, "crashes:"]) == [("paste.crash_said_mac", True, 1, CRASHED)]
    said = "# user: When downgrading to torch 2.1.X or using the CPU, this does not"
    assert facts([said, "happen."]) == [("paste.only_on_mps", True, 1, said)]


def test_only_what_neither_line_says_alone_is_added() -> None:
    assert facts([CRASHED + " it crashes", "again and again"]) == []  # the first line says it alone
    assert facts(["It is slow on my M1 Pro and it crashes after the first epoch and then", "stops."]) == []


def test_no_join_where_the_first_line_ends_a_sentence_is_short_or_output_or_the_next_starts_anew() -> None:
    assert facts([CRASHED + ".", "crashes:"]) == []  # a sentence ended
    assert facts(["on a m1 Pro, then", "crashes:"]) == []  # too short to be a wrapped line
    assert facts([CRASHED, "Crashes:"]) == []  # a new sentence
    assert facts(["❯ sysctl -a | grep machdep.cpu.brand_string then on a m1 Pro", "crashes"]) == []  # a command
    assert facts([CRASHED, "crashes | tee log"]) == []  # output goes on
    assert facts([CRASHED, "crashes in top_x?) with device=cpu"]) != []  # names of code in the words going on


def test_a_crash_told_over_a_wrapped_line_is_never_healthy() -> None:
    wrapped = f"{CRASHED}\ncrashes:\n{BANNER}"
    assert explain_text(f"{CRASHED} crashes:\n{BANNER}").exit_code != ExitCode.READY
    diagnosis = explain_text(wrapped)
    assert diagnosis.exit_code != ExitCode.READY and diagnosis.cause.id == "metal-bug-fixed-later"


PROSE = (
    "I am currently using Python 3.12 and PyTorch 2.2.2 on MPS on an M1 Pro MacBook running MacOS 14.4.1. I have "
    "tried it with Python 3.9 and 3.11 as well, and all have the same issue. When downgrading to torch 2.1 or using "
    "the CPU, this does not happen, and the text is fine. The output is a row of exclamation marks instead."
)


def test_a_word_wrapped_paste_is_told_from_a_terminal_cut_one() -> None:
    soft = textwrap.fill("the run crashes after the first epoch on my mac when it uses mps " * 8, 72).split("\n")
    assert word_wrapped(soft, 72)
    cut = [PROSE[i : i + 72] for i in range(0, len(PROSE), 72)]  # a terminal: every line exactly the width
    assert not word_wrapped(cut, 72)
    assert word_wrapped(["x" * 60 + " the", "end of it", "y" * 72], 72) is False  # one short line: no more than exact


def test_the_glue_is_a_space_only_between_two_words_of_a_word_wrapped_paste() -> None:
    assert glue("on an", "M1 Pro", True) == " "
    assert glue("RuntimeError: M", "PS backend", False) == ""
    assert glue("on an", "M1 Pro", False) == ""
    assert glue("ends with (", "x", True) == "" and glue("word", " next", True) == ""


WRAPPED = [  # words wrapped at 72 columns at spaces (textwrap.fill): two lines of exactly the width, three shorter
    "an step does pro each the not with happen wrong to cpu an the bug happen",
    "to cpu to pro to on to numbers step the in on be m1 when on bug an cpu",
    "apple not when mac cpu gives i on on on step be pro my the in gives",
    "after on it i run an apple to my gives not wrong use apple in my happen",
    "when step gives apple gives after i the wrong the torch pro seems my the",
    "i the an an be my",
]


def test_a_word_wrapped_paste_joins_its_cut_lines_with_a_space_and_a_terminal_cut_one_glued() -> None:
    assert wrap_width(WRAPPED) == 72 and word_wrapped(WRAPPED, 72)
    joined = join_wrapped(WRAPPED)
    assert joined[0] == f"{WRAPPED[0]} {WRAPPED[1]}" and joined[1] == ""  # "happen" + "to", not "happento"
    text = " ".join(WRAPPED)
    cut = [text[i : i + 72] for i in range(0, len(text), 72)]  # a terminal: every record cut at exactly the width
    assert not word_wrapped(cut, 72) and join_wrapped(cut)[0] == "".join(cut)  # glued back, as it was
