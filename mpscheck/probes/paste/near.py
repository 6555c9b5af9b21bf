"""Words said close to another word on one line, in linear time: the prose reader's "wrong results ... on mps",
"memory grows ... mps", "on my Mac the results are garbage" (mpscheck/probes/paste/prose.py).

A regex of the form ``words.{0,60}mps|mps.{0,60}words`` tries 60 characters at every "mps" of a line, whether or
not the words are there: 12 ms for 4,000 characters of "MPS ", over a second for an input of such lines. Looking
from each match of the (rarer) words into its own bounded window costs linear time however many of either a line
holds.
"""

from __future__ import annotations

import re

MPS_WORD = re.compile(r"(?i)(?<![a-z])mps(?![a-z0-9_])")  # "使用mps版本": no \b between Latin and CJK letters


class Near:
    """Words said with an anchor word close by on one line: "mps" up to *span* characters before or after them, or
    another anchor only before them (*after* False).

    Each match of the words looks for the anchor in its own bounded window, so a line costs linear time however many
    of either it holds: one regex with ``.{0,span}`` between the two tried *span* characters at every anchor of a
    hostile line (12 ms for 4,000 characters of "MPS ", over a second for an input of such lines).
    """

    def __init__(self, words: re.Pattern[str], span: int = 60, anchor: re.Pattern[str] | None = None, longest: int = 0):
        self.words = words
        self.anchor = anchor or MPS_WORD
        self.reach = span + (longest or len("mps"))  # *longest*: the anchor's longest word
        self.after = anchor is None

    def search(self, line: str) -> bool:
        for match in self.words.finditer(line):
            end = match.end() + self.reach if self.after else match.start()
            if self.anchor.search(line, max(0, match.start() - self.reach), end):
                return True
        return False
