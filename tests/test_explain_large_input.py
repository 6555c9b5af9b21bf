"""What keeps `mpscheck explain` under 2 s on 10 MB (benchmarks/bench_explain_large.py measures it):
each row of the known-errors table is searched only where its required literal occurs (exact: a skipped
row has no match), a log that repeats one line is not joined as a "wrap" nor judged and reported once
per repeat, and a joined wrap stops at the readers' per-line cut.
"""

from __future__ import annotations

import re

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.needles import may_match, needles
from mpscheck.probes.paste import read
from mpscheck.probes.paste.normalise import MAX_JOINED, join_wrapped
from mpscheck.render.paste import render
from tests.corpus_cases import CORPUS, cases

WARNING = (
    "/Users/me/train.py:42: UserWarning: The operator 'aten::sgn.out' is not currently supported on the MPS "
    "backend and will fall back to run on the CPU. This may have performance implications."
)


def test_every_row_has_needles() -> None:
    missing = [row.id for row in table.TABLE if needles(row.pattern) is None]
    assert missing == []


def test_a_row_is_never_skipped_where_it_matches() -> None:
    lines = [line for case in cases(CORPUS) for line in case.paste.split("\n")]
    for row in table.TABLE:
        for line in lines:
            if row.pattern.search(line):
                assert may_match(row.pattern, line), (row.id, line)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"\bKilled: 9\b|zsh: killed\s", ("Killed: 9", "zsh: killed")),
        (r"(?<!\w)(?P<op>\w+): implementation for device", (": implementation for device",)),
        (r"(?i)out of memory", None),  # case-insensitive: always searched
        (r"ab|[xy]z", None),  # an alternative without a literal of 3 characters: always searched
        (r"(?:foo)?barbaz", ("barbaz",)),  # an optional group is not required
    ],
)
def test_needles_are_the_required_literals(pattern: str, expected: tuple[str, ...] | None) -> None:
    assert needles(re.compile(pattern)) == expected


def test_a_log_repeating_one_line_is_one_error_and_no_wrap() -> None:
    log = "\n".join([WARNING] * 500)
    paste = read(log)
    assert len(paste.facts.errors) == 1
    assert max(len(line) for line in paste.text.split("\n")) == len(WARNING)
    diagnosis = explain_text(log)
    assert diagnosis.cause.id == "op-fallback-warning"
    assert len(render(diagnosis, "json", False)) < 20_000


def test_a_joined_wrap_stops_at_the_per_line_cut() -> None:
    lines = [f"{i:03d}" + "x" * 77 for i in range(200)]  # 80-wide pieces of one long line
    joined = join_wrapped(lines)
    assert max(len(line) for line in joined) <= MAX_JOINED + 80
