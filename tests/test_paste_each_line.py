"""model.each_line reads a repeated line once: the copies get the same observations, on their own line numbers."""

from __future__ import annotations

from mpscheck.probes.paste import parser
from mpscheck.probes.paste.model import Observation, Seen, each_line

LINES = [
    "# user: the results on mps are wrong",
    "RuntimeError: MPS backend out of memory (MPS allocated: 1.00 GB, other allocations: 2.00 GB)",
    "# user: the results on mps are wrong",
    "nothing here",
    "RuntimeError: MPS backend out of memory (MPS allocated: 1.00 GB, other allocations: 2.00 GB)",
]


def test_a_repeated_line_is_read_once_and_observed_on_every_copy() -> None:
    calls: list[str] = []

    def rule(seen: Seen, line: str) -> list[Observation]:
        calls.append(line)
        return [seen("paste.wrong_results", True)] if "wrong" in line else []

    found = each_line("prose", LINES, rule)
    assert calls == [*LINES[:2], LINES[3]]
    assert [(obs.line, obs.text) for obs in found] == [(1, LINES[0]), (3, LINES[0])]


def test_every_reader_sees_the_same_with_copies_as_line_by_line() -> None:
    for name in ("prose", "error_line", "traceback", "banner", "pip", "conda", "container", "brew", "sw_vers"):
        whole = parser(name)(LINES)
        alone = [(obs.fact, obs.value, number) for number, line in enumerate(LINES, 1) for obs in parser(name)([line])]
        assert [(obs.fact, obs.value, obs.line) for obs in whole] == alone, name
        assert all(obs.text == LINES[obs.line - 1] for obs in whole), name


def test_a_line_of_undecodable_bytes_is_no_prose_and_a_few_replaced_bytes_keep_it() -> None:
    said = "the results on mps are wrong"
    assert parser("prose")([said + "\ufffd" * 2])  # a stray undecodable byte or two: still the user's words
    assert parser("prose")([said + "\ufffd" * 10]) == []  # over a tenth undecodable: a binary, not words
