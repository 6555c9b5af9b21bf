"""The literal gates that keep explain fast on large pastes are exact: a gate never hides a match.

- ``required`` reads the literals every match holds (a required group's alternatives, any case);
- ``fold`` makes a case-insensitive literal comparable with ``in``, checked against every code point;
- every gated pattern of the package, on every corpus line and its case-swapped copy, is searched wherever it
  matches;
- ``windows`` and ``holding`` find the lines around a needle; the known-errors table's one-line path and
  many-line path agree.
"""

from __future__ import annotations

import re
import sys

import pytest

from mpscheck.knowledge import errors as table
from mpscheck.knowledge.needles import Gated, fold, gated, holding, required, windows
from tests.corpus_cases import CORPUS, cases
from tests.pattern_inventory import module_names

# ---- required -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"abc", (("abc",), ())),
        (r"(?i)abc", ((), ("abc",))),
        (r"(?i)ABC", ((), ("abc",))),  # folded literals are lower case
        (r"(?i:ABC)def", ((), ("abc",))),  # equally long: the first found stays
        (r"(?i:ABCD)def", ((), ("abcd",))),  # the longer literal wins
        (r"(?i)\b(?:only|just) x", ((), ("just", "only"))),  # a required group: any one of its alternatives
        (r"(?:only|ju)stuff", (("stuff",), ())),  # a group with a short alternative is no candidate
        (r"(?:only|just)?xyz", (("xyz",), ())),  # an optional group is not required
        (r"(?:abcd){1,3}", (("abcd",), ())),  # repeated at least once: required
        (r"(?:abcd){0,3}", None),
        (r"(?<=https://)x", (("https://",), ())),  # a look-behind's literal is in the text too
        (r"(?<!abc)x", None),  # a negative look-around requires nothing
        (r"(?>abcd)", (("abcd",), ())),
        (r"ab|cd", None),
        (r"abc|(?i:DEF)", (("abc",), ("def",))),
        (r"(?i)(?-i:ABC)x", (("ABC",), ())),  # case-sensitive again inside
        (r"(?i)只能用\s*x", ((), ("只能用",))),  # CJK has no case: kept in a folded run
        (r"(?i)只能\s*cpu", ((), ("cpu",))),  # two characters are too short a needle
        (r"(?i)é{1}xy", None),  # a cased non-ASCII letter breaks a folded run ("xy" is too short)
    ],
)
def test_required(pattern: str, expected: tuple[tuple[str, ...], tuple[str, ...]] | None) -> None:
    assert required(re.compile(pattern)) == expected


def test_an_unreadable_pattern_is_always_searched() -> None:
    class Odd:
        pattern = "(unclosed"
        flags = 0

    assert required(Odd()) is None  # type: ignore[arg-type]


# ---- fold ---------------------------------------------------------------------------------------------------------


def test_fold_maps_every_character_re_matches_to_an_ascii_literal_onto_it() -> None:
    printable = "".join(chr(c) for c in range(32, 127))
    any_ascii = re.compile("(?i)[" + re.escape(printable) + "]")
    for point in range(sys.maxunicode + 1):
        char = chr(point)
        if not any_ascii.fullmatch(char):
            continue
        for literal in printable:
            if re.fullmatch("(?i)" + re.escape(literal), char):
                assert fold(char) == literal.lower(), (hex(point), literal)


def test_fold_keeps_each_non_ascii_literal_of_a_gate_exact() -> None:
    """A non-ASCII character that a folded needle may hold (any in the gated patterns that has no case) is matched
    by itself only, in any case."""
    from mpscheck.knowledge.needles import _caseless_or_ascii

    text = "".join(gate.pattern for gate in _gates())
    chars = sorted({c for c in text if not c.isascii() and _caseless_or_ascii(c, True)})
    assert len(chars) > 20, "the readers have CJK literals"
    any_of = re.compile("(?i)[" + re.escape("".join(chars)) + "]")
    for point in range(sys.maxunicode + 1):
        if any_of.fullmatch(chr(point)):
            assert fold(chr(point)) in chars, hex(point)


def test_fold_remembers_the_last_text_only() -> None:
    assert fold("ABC") == "abc"
    assert fold("Straße İ ı ſ") == "straße i i s"
    assert fold("XY") == "xy"


# ---- the package's gated patterns on real lines ------------------------------------------------------------------


def _gates() -> list[Gated]:
    import importlib

    found: dict[int, Gated] = {}
    for name in module_names():
        for value in vars(importlib.import_module(name)).values():
            items = value if isinstance(value, (list, tuple)) else (value,)
            for item in items:
                if isinstance(item, Gated):
                    found[id(item)] = item
    return list(found.values())


def _corpus_lines() -> list[str]:
    lines = {line for case in cases(CORPUS) for line in case.paste.split("\n")}
    return sorted(lines | {line.swapcase() for line in lines})


def test_the_readers_use_gates() -> None:
    gates = _gates()
    assert len(gates) >= 60
    assert sum(1 for gate in gates if not gate.always) >= 50


def test_a_gated_pattern_is_searched_wherever_it_matches() -> None:
    lines = _corpus_lines()
    for gate in _gates():
        for line in lines:
            if gate.regex.search(line):
                assert gate.search(line) is not None, (gate.pattern[:60], line)
                assert not gate.absent(line)


def test_a_gate_without_its_literals_finds_nothing_and_with_them_what_the_regex_finds() -> None:
    gate = gated(r"(?i)\bnot (?:working|available)\b")
    assert gate.absent("it works") and gate.search("it works") is None
    assert gate.match("it works") is None and list(gate.finditer("it works")) == []
    text = "MPS is NOT AVAILABLE here, not working there"
    assert [m.group() for m in gate.finditer(text)] == ["NOT AVAILABLE", "not working"]
    assert gate.search(text, 20)[0] == "not working"  # type: ignore[index]
    assert gate.match("not working") is not None and gate.match("x not working") is None
    assert gate.pattern == gate.regex.pattern
    always = gated(r"\d+")
    assert always.always and always.search("a 12")[0] == "12"  # type: ignore[index]


# ---- windows, holding, and the table's two paths -----------------------------------------------------------------


def _starts(lines: list[str]) -> list[int]:
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return starts


def test_holding_finds_each_line_with_a_needle_once() -> None:
    lines = ["a needle", "none", "needle and needle", "", "x needl", "needle"]
    assert holding(("needle",), "\n".join(lines), _starts(lines)) == {0, 2, 5}
    assert holding(("zzz",), "\n".join(lines), _starts(lines)) == set()


def test_windows_reach_around_lines_either_side_and_merge() -> None:
    lines = [f"line {i}" for i in range(20)]
    lines[3] += " Killed: 9"
    lines[5] += " zsh: killed"
    lines[17] += " Killed: 9"
    text = "\n".join(lines)
    starts = _starts(lines)
    pattern = re.compile(r"Killed: 9|zsh: killed")
    found = windows(pattern, text, starts, 2)
    assert found == [(starts[1], starts[8] - 1), (starts[15], len(text))]
    assert windows(re.compile("nothing here"), text, starts, 2) == []
    assert windows(re.compile(r"\d"), text, starts, 2) == [(0, len(text))]  # no needle: everywhere


def test_the_table_reads_one_line_as_it_reads_that_line_among_others() -> None:
    for line in sorted({line for case in cases(CORPUS) for line in case.paste.split("\n")}):
        alone = [(hit.row.id, hit.groups) for hit in table.find([line])]
        among = [(hit.row.id, hit.groups) for hit in table.find(["-", line, "--"]) if hit.line == 2]
        assert alone == among, line


def test_the_prose_reader_skips_only_lines_where_no_reading_can_match() -> None:
    """prose.py returns at once on a line with no letter: every one of its readings needs a word. Checked by running
    the readings themselves (without that guard) on every corpus line with its letters taken out."""
    from mpscheck.probes.paste import prose
    from mpscheck.probes.paste.model import each_line

    letterless = sorted({prose.LETTER.sub("", line) for line in _corpus_lines()} | {"1: 2", "16 32", "[1, 2]: 3"})
    assert not any(prose.LETTER.search(line) for line in letterless)
    assert each_line("prose", letterless, prose._words) == []
    assert prose.LETTER.search("只能") and prose.LETTER.search("é") and not prose.LETTER.search("1_2 -> 3")
