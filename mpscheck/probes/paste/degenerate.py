"""Text a language model generated that has degenerated: one word glued to itself over and over
("isThisThisThisThisThis...", pytorch#84169) or '!' between every few words on several lines ("Hello, my name is!!
I'm a! from!", pytorch/torchchat#471; '!' is token 0 of the GPT-2 and Llama vocabularies, what a model gives when its
logits are NaN or zero). No one types either; it is the output of a run whose numbers went wrong.

Read only when the judge asks (a paste that asks for mps and shows no error and no other word of wrong results), and
then on a bounded part of the paste (the first ``LIMIT`` characters, each run of letters cut at ``TOKEN``): the
repetition's pattern has a back-reference, bounded but too slow to try on every line of a 10 MB input.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, observe

KIND = "output"
LIMIT = 200_000
TOKEN = 1_000
# A run of letters long enough to hold a word of 3+ letters six times; the unit a word as written ("This", "the").
LETTERS = re.compile(r"[A-Za-z]{18,}")
GLUED = re.compile(r"(?P<unit>[A-Z][a-z]{2,10}|[a-z]{3,11})(?P=unit){5}")
# '!' right after a letter or digit ("is!!", "a!", "from!"): a word the model ended with token 0.
GLUED_BANG = re.compile(r"\w!")
# The request for mps in code, a command, a log or words ("device= \"mps\"", "--device mps", "Using device=mps",
# ".to('mps')", "device: mps", "python detect.py - - device mps"); not torch.device("mps") passed to a parameter the
# tool may ignore (EasyOCR's gpu=device, JaidedAI/EasyOCR#806).
MPS_ASKED = re.compile(r"""(?i)(?:\bdevice(?: {0,3}[=:])? {0,3}|\.to\( ?)["']?mps\b""")


def mps_asked(text: str) -> bool:
    return bool(MPS_ASKED.search(text))


def degenerate_text(text: str) -> Observation | None:
    """The first line of degenerate generated text in *text*'s first ``LIMIT`` characters, or None."""
    lines = text[:LIMIT].split("\n")
    for number, line in enumerate(lines, start=1):
        if line.lstrip().startswith("#"):  # the user's words or a comment, never what the model generated
            continue
        for run in LETTERS.finditer(line):
            found = GLUED.search(run[0][:TOKEN])
            if found and len(set(found["unit"].lower())) > 2:  # "ThisThis...", not "aaaa..." nor "hahaha..."
                return observe(KIND, lines, number, "paste.degenerate_text", found["unit"])
    bangs = [n for n, line in enumerate(lines, start=1) if _bangs(line)]
    if len(bangs) >= 2:  # on two lines or more: one excited sentence is someone's words
        return observe(KIND, lines, bangs[0], "paste.degenerate_text", "!")
    return None


def _bangs(line: str) -> bool:
    """'!' five times or more, three of them glued to a word, outside the user's words: token 0 between words."""
    if line.count("!") < 5 or line.lstrip().startswith("#"):
        return False
    return len(GLUED_BANG.findall(line)) >= 3
