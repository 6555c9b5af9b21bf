"""near.Near: words with "mps" (or another anchor) close by, found in linear time; its windows pinned at their edges.

The windows replace regexes of the form ``words.{0,span}mps|mps.{0,span}words``: the same lines must match, and
hostile lines must stay fast (tests/test_explain_weighing.py times them).
"""

from __future__ import annotations

import re

from mpscheck.probes.paste import prose, wrong_words
from mpscheck.probes.paste.near import Near

WORD = re.compile(r"(?i)\bwrong\b")


def test_mps_after_the_words_reaches_span_characters_and_no_further() -> None:
    near = Near(WORD, 10)
    assert near.search("wrong" + " " * 10 + "mps")
    assert not near.search("wrong" + " " * 11 + "mps")


def test_mps_before_the_words_reaches_span_characters_and_no_further() -> None:
    near = Near(WORD, 10)
    assert near.search("mps" + " " * 10 + "wrong")
    assert not near.search("mps" + " " * 11 + "wrong")
    assert near.search("x " * 50 + "mps" + " " * 10 + "wrong")  # the window starts mid-line


def test_mps_must_be_a_word_of_its_own() -> None:
    near = Near(WORD, 10)
    assert not near.search("wrong in gmps")
    assert not near.search("wrong in mpsx")
    assert near.search("wrong in MPS:0")


def test_every_match_of_the_words_is_tried() -> None:
    near = Near(WORD, 10)
    assert near.search("wrong" + " " * 40 + "wrong mps")


def test_another_anchor_counts_only_before_the_words() -> None:
    anchor = re.compile(r"(?i)\b(?:mac|apple silicon)\b")
    near = Near(WORD, 10, anchor, len("apple silicon"))
    assert near.search("on apple silicon" + " " * 10 + "wrong")
    assert near.search("mac" + " " * 10 + "wrong")
    assert not near.search("apple silicon" + " " * 11 + "wrong")
    assert not near.search("wrong on my mac")  # after the words: not this reading
    assert not near.search("wrong mps")  # "mps" is not this anchor


def test_another_anchor_counts_within_the_words_match() -> None:
    """The Mac named between the results and their judgement (gluonts#3020): inside the words' own match."""
    anchor = re.compile(r"(?i)\bmac\b")
    words = re.compile(r"results[^\n]{0,30}?wrong")
    near = Near(words, 10, anchor, len("mac"))
    assert near.search("results on my mac are wrong")  # the anchor inside the match
    assert not near.search("results are wrong, on my mac")  # after the match: not this reading
    assert not near.search("results are wrong")


def test_the_readings_built_on_it_keep_their_reach() -> None:
    assert prose.MPS_FAILS_SAID.search("training with MPS does not work")
    assert not prose.MPS_FAILS_SAID.search("it does not work with MPS")  # the anchor comes first
    assert wrong_words.MAC_RESULTS_BAD.search("an issue for Mac users that are causing the results to be messed up")
    assert wrong_words.WRONG_PICTURE.search("I just get noise if I try and use the hardware accelerated MPS device")
    assert prose.MEMORY_GROWTH.search("MPS backend leaks when input sizes vary")
    assert not prose.MEMORY_GROWTH.search("memory leaks" + " " * 70 + "mps")
