"""Knowledge builders pinned whole where the mutation run found a branch nobody took: the availability
pattern with and without texts read from the wheels (an empty table adds no empty alternative, which
would match every line), the needles of a pattern that is one item and not a branch, and the message
index's word variants, which all lead to an anchor word of the index.

The texts handed in are torch's own wordings (EmptyTensor.cpp, the unified-memory message); the expected
patterns are written out with plain code.
"""

from __future__ import annotations

import re

import pytest

from mpscheck.knowledge import errors, messages, releases
from mpscheck.knowledge.needles import needles

KNOWN = r"The MPS backend is supported on [Mm]ac[Oo][Ss] (?P<floor>12\.3|13\.0|14\.0|15\.0)\+"


# ---- the availability pattern ---------------------------------------------------------------------------


def test_no_text_from_the_wheels_leaves_the_known_wordings_alone(monkeypatch) -> None:
    monkeypatch.setattr(releases, "availability_texts", lambda: [])
    assert errors.availability_regex() == KNOWN
    assert re.search(errors.availability_regex(), "an unrelated line") is None
    monkeypatch.setattr(releases, "availability_texts", lambda: ["   ", errors.UNIFIED_MEMORY + "."])
    assert errors.availability_regex() == KNOWN  # blank and unified-memory texts are left out


def test_a_table_that_fails_to_load_leaves_the_known_wordings_alone(monkeypatch) -> None:
    def broken() -> list[str]:
        raise OSError("the table is not there")

    monkeypatch.setattr(releases, "availability_texts", broken)
    assert errors.availability_regex() == KNOWN


def test_texts_from_the_wheels_are_escaped_longest_first_once_each(monkeypatch) -> None:
    texts = [
        "MPS backend is not available.",
        " The MPS backend is supported on MacOS 13.0+. ",
        "MPS backend is not available.",
    ]
    monkeypatch.setattr(releases, "availability_texts", lambda: texts)
    assert errors.availability_regex() == (
        KNOWN + r"|The\ MPS\ backend\ is\ supported\ on\ MacOS\ 13\.0\+\.|MPS\ backend\ is\ not\ available\."
    )
    monkeypatch.setattr(releases, "availability_texts", lambda: ["bbb", "aaa", "cc"])  # same length: by text
    assert errors.availability_regex() == KNOWN + "|aaa|bbb|cc"
    monkeypatch.setattr(releases, "availability_texts", lambda: ["  ", "aaa"])  # a blank: no empty alternative
    assert errors.availability_regex() == KNOWN + "|aaa"


# ---- needles of a pattern of one item ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("x", None),  # one literal: one item, no branch
        ("(torch_mps)", None),  # one group: no literal at the top level
        ("(?:abcd)", ("abcd",)),  # a group without a capture is read as its literals
        ("abcd|(efgh)", None),
        ("abcd|efgh", ("abcd", "efgh")),
        ("abcd", ("abcd",)),
    ],
)
def test_a_pattern_of_one_item_that_is_not_a_branch_is_one_alternative(
    pattern: str, expected: tuple[str, ...] | None
) -> None:
    assert needles(re.compile(pattern)) == expected


# ---- the message index's word variants --------------------------------------------------------------------


def test_every_word_variant_of_the_index_leads_to_one_of_its_anchor_words() -> None:
    index = messages.index()
    assert index._variants
    assert set(index._variants.values()) <= index._words
    for variant, word in index._variants.items():
        assert variant.strip(messages.PUNCTUATION) == word or word in variant, variant
        assert messages.PLACEHOLDER not in variant
