"""The user's words that the run goes right only with the GPU turned off: "have to disable GPU to fix issue", "Must
specify `gpu=False` to make code work" (JaidedAI/EasyOCR#1136), "The CPU works well, but the GPU has some problems"
(EasyOCR#1182). Libraries with a ``gpu``/``use_gpu`` switch (EasyOCR, Stanza, docling's OCR) reach a Mac's GPU
through mps, so on a Mac this is a run that fails on mps and works on the CPU, told without naming mps.

Recorded as ``paste.gpu_off_works``; the judge (checks/causes/wrong_said.py) takes it only on an Apple-silicon Mac
that shows no PC GPU and no CUDA asked for, as it takes results called wrong on "the GPU". Every pattern is a bounded
run of words between literals: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated
from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "prose"
_GPU = r"(?:the )?(?:gpu|mps)\b"
_FIXES = r"(?:fix(?:es|ed)?|solves?|solved|helps?|helped|works?|worked|to make (?:it|the code|code|this) work)\b"
# the GPU switched off as the cure: "have to disable GPU to fix issue", "disabling the GPU fixes it", "Must specify
# `gpu=False` to make code work", "it works with use_gpu=False"; never a plain setting in code (`gpu=False)`)
GPU_OFF_FIXES = gated(
    rf"(?i)\b(?:have|has|had|need|needs|needed|must) to (?:disable|turn off|switch off|deactivate) {_GPU}"
    rf"|\b(?:disabling|turning off|switching off|without) {_GPU}(?: [\w-]{{1,20}}){{0,3}}? {_FIXES}"
    r"|(?<![\w.])(?:use_)?gpu ?= ?False[`'\"]?,?(?: [\w-]{1,20}){0,3}? "
    + _FIXES
    + r"|\b(?:works?|worked) (?:only |just |fine |well )?(?:with|when|after|by) (?:setting |passing )?[`'\"]?"
    r"(?:use_)?gpu ?= ?False\b"
)
_FAILS = r"(?:fail(?:s|ed|ing)?|(?:does not|doesn't|did not|didn't|won't) work|not working|breaks|broke)"
# the two halves on one line, set against each other: "The CPU works well, but the GPU has some problems"
GPU_FAILS = gated(
    rf"(?i)\bgpu(?: [\w-]{{1,20}}){{0,2}}? (?:{_FAILS}|(?:has|had|have|gives?|gave|shows?) "
    r"(?:some |a few |many |several |the same )?(?:problems?|issues?|errors?))\b"
)
CPU_WORKS = gated(
    r"(?i)\bcpu(?: [\w-]{1,20}){0,2}? (?:works?|worked|is fine|runs? fine)\b"
    r"|\b(?:works?|worked) (?:fine |well |correctly )?(?:on|with|using) (?:the )?cpu\b"
)
CONTRAST = gated(r"(?i)\b(?:but|while|whereas|however)\b")


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    low = line.lower()
    if "gpu" not in low and "mps" not in low:  # every reading names the GPU (or mps): a line without is free
        return []
    against = bool(CONTRAST.search(line) and GPU_FAILS.search(line) and CPU_WORKS.search(line))
    if against or GPU_OFF_FIXES.search(line):
        return [seen("paste.gpu_off_works", True)]
    return []
