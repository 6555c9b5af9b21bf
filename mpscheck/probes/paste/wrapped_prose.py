"""A sentence of the user's hard-wrapped over two lines, as an editor or an e-mail client wraps at 72-80 columns
("seems to run until the end of the first epoch on my M1 Pro, then\\ncrashes"): the words readers see one line at a
time, so the chip on one line and "crashes" on the next said nothing, and a banner showing mps made it "healthy".

Read again as one line where a long line of words that ends no sentence is followed by a line that goes on with a
lower-case word. Only the facts neither line gave alone are kept, on the first line (its text as the evidence).
Linear: each line is joined with the next at most once, and only lines the prose reader reads at all qualify.
"""

from __future__ import annotations

import dataclasses
import re

from mpscheck.probes.paste import prose
from mpscheck.probes.paste.model import Observation

MIN_WRAPPED = 40  # a line an editor wrapped is a long one
SENTENCE_END = (".", "!", ":", ";")  # not "?": a question goes on too when the next line starts lower-case
# A wrapped sentence goes on with a lower-case word ("crashes:", "happen.", "top_x?) step of ...").
GOES_ON = re.compile(r"[a-z][\w'’-]{0,40}(?=[\s,;:.!?)]|$)")
WORDS = re.compile(r"[A-Za-z]{2} [A-Za-z]{2}")  # a line of words, not of figures or code
# What a sentence is not written with: paths, pipes, prompts, assignments, brackets and names of code are output.
MACHINE = re.compile(r"[_|/\\=❯$<>{}\[\]`@]")
TERMINAL = re.compile(r"[|\\❯$<>{}\[\]`@]")  # ... on the line that goes on, a name (device=mps, top_x) may stand


def joined_readings(lines: list[str], seen: list[Observation]) -> list[Observation]:
    """The prose facts that only the join of a wrapped line with the next one shows, on the first of the two."""
    facts_on: dict[int, set[str]] = {}
    for obs in seen:
        facts_on.setdefault(obs.line, set()).add(obs.fact)
    found: list[Observation] = []
    for number in range(1, len(lines)):
        first, then = lines[number - 1].rstrip(), lines[number].strip()
        if not _wrapped(first, then):
            continue
        alone = facts_on.get(number, set()) | facts_on.get(number + 1, set())
        for obs in prose.parse([f"{first} {then}"]):
            if obs.fact not in alone:
                found.append(dataclasses.replace(obs, line=number, text=lines[number - 1]))
                alone.add(obs.fact)
    return found


def _wrapped(first: str, then: str) -> bool:
    return (
        len(first) >= MIN_WRAPPED
        and not first.endswith(SENTENCE_END)
        and bool(GOES_ON.match(then))
        and bool(WORDS.search(first))
        and not prose.looks_like_code_or_output(first)
        and not MACHINE.search(first)
        and not TERMINAL.search(then)
    )
