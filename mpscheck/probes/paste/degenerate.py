"""Text a language model generated that has degenerated: one word glued to itself over and over
("isThisThisThisThisThis...", pytorch#84169) or '!' between every few words on several lines ("Hello, my name is!!
I'm a! from!", pytorch/torchchat#471; '!' is token 0 of the GPT-2 and Llama vocabularies, what a model gives when its
logits are NaN or zero), or '!' over and over against a tokenizer's special token ("<|endoftext|>!!!!!!!!",
karpathy/llm.c#36: nothing but token 0 generated). No one types these; it is the output of a run whose numbers went
wrong.

Read only when the judge asks (a paste that asks for mps and shows no error and no other word of wrong results), and
then on a bounded part of the paste (the first and the last ``LIMIT`` characters, where a run's generated text stands
in a long log; each run of letters cut at ``TOKEN``): the repetition's pattern has a back-reference, bounded but too
slow to try on every line of a 10 MB input.
"""

from __future__ import annotations

import dataclasses
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
# Token 0 eight times or more against a special token of a tokenizer (<|endoftext|>, <|eot_id|>, </s>, <eos>).
SPECIAL = r"<\|?/?[A-Za-z_]{1,20}\|?>"
TOKEN_ZERO_RUN = re.compile(rf"{SPECIAL}!{{8}}|!{{8}}{SPECIAL}")
# The request for mps in code, a command, a log or words ("device= \"mps\"", "--device mps", "Using device=mps",
# ".to('mps')", "device: mps", "python detect.py - - device mps"); not torch.device("mps") passed to a parameter the
# tool may ignore (EasyOCR's gpu=device, JaidedAI/EasyOCR#806).
MPS_ASKED = re.compile(r"""(?i)(?:\bdevice(?: {0,3}[=:])? {0,3}|\.to\( ?)["']?mps\b""")


def mps_asked(text: str) -> bool:
    return bool(MPS_ASKED.search(text))


def degenerate_text(text: str) -> Observation | None:
    """The first line of degenerate generated text in *text*'s first or last ``LIMIT`` characters, or None."""
    if len(text) <= 2 * LIMIT:
        return _first_in(text.split("\n"), 0)
    found = _first_in(text[:LIMIT].split("\n"), 0)
    if found is not None:
        return found
    start = text.find("\n", len(text) - LIMIT) + 1 or len(text) - LIMIT  # from a whole line where there is one
    return _first_in(text[start:].split("\n"), text.count("\n", 0, start))


def _first_in(lines: list[str], before: int) -> Observation | None:
    """The first degenerate line of *lines*, numbered after the *before* lines of the paste that precede them."""
    for number, line in enumerate(lines, start=1):
        if line.lstrip().startswith("#"):  # the user's words or a comment, never what the model generated
            continue
        for run in LETTERS.finditer(line):
            found = GLUED.search(run[0][:TOKEN])
            if found and len(set(found["unit"].lower())) > 2:  # "ThisThis...", not "aaaa..." nor "hahaha..."
                return _seen(lines, number, before, found["unit"])
        if "!!!!!!!!" in line and TOKEN_ZERO_RUN.search(line):
            return _seen(lines, number, before, "!")
    bangs = [n for n, line in enumerate(lines, start=1) if _bangs(line)]
    if len(bangs) >= 2:  # on two lines or more: one excited sentence is someone's words
        return _seen(lines, bangs[0], before, "!")
    return None


def _seen(lines: list[str], number: int, before: int, value: str) -> Observation:
    found = observe(KIND, lines, number, "paste.degenerate_text", value)
    return dataclasses.replace(found, line=found.line + before) if before else found


def _bangs(line: str) -> bool:
    """'!' five times or more, three of them glued to a word, outside the user's words: token 0 between words."""
    if line.count("!") < 5 or line.lstrip().startswith("#"):
        return False
    return len(GLUED_BANG.findall(line)) >= 3
