"""A crash told in words on a line that names neither mps nor a Mac chip: "also crashes" on a line of its own,
"-> SIGSEGV (exit 139). faulthandler places the crash in ..." (huggingface/transformers#48029, once an e-mail client
wrapped the sentence that named mps). prose.py reads a crash told beside mps or a chip; this reads the rest, and the
signal names and exit statuses a crash is told with, which prose.py's words do not hold. The judge takes such a line
only where the paste names mps elsewhere (checks/causes/wrong_said.py), so that a crash it tells is never "healthy".

A crash denied ("it doesn't crash", "no crash so far", "without crashing") is none. Kept apart from prose.py, which
must stay under 400 lines.
"""

from __future__ import annotations

import re

from mpscheck.knowledge.needles import gated
from mpscheck.probes.paste.model import Observation, observe
from mpscheck.probes.paste.prose import CHIP, CRASH_SAID, looks_like_code_or_output

KIND = "prose"
# The signals a crash is told with, and the exit statuses a shell gives for them (128 + SIGSEGV 11, SIGABRT 6,
# SIGBUS 10, SIGILL 4; Python's subprocess gives the negative signal number).
SIGNAL = re.compile(
    r"\bSIG(?:SEGV|BUS|ABRT|ILL)\b|\bexit(?:ed)?(?: with)?(?: code| status)? (?:139|134|138|132|-11|-6|-10|-4)\b"
)
DENIED = re.compile(
    r"(?i)(?:\bno|\bnot|\bnever|\bwithout|n't)\s{1,3}(?:[a-z]{1,12}\s{1,3}){0,2}(?:crash|abort|segfault|sigsegv)"
)
MPS = re.compile(r"(?i)\bmps\b")
# Crash words for a line that names no device: not prose.py's "abort", which also tells a run the user stopped.
CRASHED = gated(r"(?i)\bcrash(?:es|ed|ing)?\b|\bbus error\b|\bsegfault|\bsegmentation fault\b|\bcore dumped\b")


def parse(lines: list[str]) -> list[Observation]:
    """The first crash told on a line without mps or a chip (``paste.crash_said_apart``), and a signal told beside
    mps (``paste.crash_said``: prose.py's words do not hold the signals)."""
    found: list[Observation] = []
    apart = False
    for number, line in enumerate(lines, start=1):
        signal = SIGNAL.search(line)
        said, crashed = CRASH_SAID.search(line), CRASHED.search(line)
        if not (signal or said or crashed) or looks_like_code_or_output(line) or DENIED.search(line):
            continue
        if MPS.search(line):
            if signal and not said and not any(o.fact == "paste.crash_said" for o in found):
                found.append(observe(KIND, lines, number, "paste.crash_said", True))
        elif not apart and (signal or crashed) and not CHIP.search(line):
            found.append(observe(KIND, lines, number, "paste.crash_said_apart", True))
            apart = True
    return found
