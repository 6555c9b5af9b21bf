"""The user's words that the run fails on the Mac (or mps) and works elsewhere, on two lines of the paste: "fails all
eval episodes on mac" above "The same agent works with Cuda" (huggingface/lerobot#496), where prose.py's one-line
reading ("works on CPU but fails on MPS") sees neither half alone.

Recorded as two facts, ``paste.fails_on_mac`` and ``paste.works_elsewhere`` (on CUDA, the CPU, Colab, Linux,
Windows or another machine); the judge takes them together only where the paste shows no error at all. A failure to
install, build, download, import or find something is not this (an installer's trouble, not the backend's). Every
pattern is a bounded run of words between literals: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated
from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "prose"
_FAILS = r"(?:fail(?:s|ed|ing)?|(?:does not|doesn't|did not|didn't|won't) work|not working|breaks|broke)"
FAILS_ON_MAC = gated(
    rf"(?i)\b{_FAILS}(?: [\w-]{{1,20}}){{0,4}}? (?:on|with|using|in) (?:the |my |an? )?"
    r"(?:apple silicon|mps|mac(?:book|s)?)\b"
)
# Both halves on one line, mps set against a CPU that works with no failure word for mps: "I also get the cubes when
# setting device to "mps", it does work with "cpu" though" (Tencent-Hunyuan/Hunyuan3D-2#151): what mps gave was wrong.
MPS_AGAINST_CPU = gated(
    r"""(?i)(?<![\w-])mps\b["'`]?,? (?:but |though |although |while |whereas )?(?:it |everything )?(?:does |do )?"""
    r"""(?:works?|worked|runs? fine|is fine)(?: fine| well| correctly)? (?:with|on|using) (?:the )?["'`]?cpu(?![\w-])"""
    r"""(?!["'`]? ?fall ?back)"""
)
SETUP_TROUBLE = gated(r"(?i)\bfail\w* to (?:install|build|compile|download|import|find|detect|load|open)\b")
WORKS_ELSEWHERE = gated(
    r"(?i)\b(?:works?|worked|working|runs? fine|is fine)(?: (?:fine|well|correctly|perfectly|as expected))?"
    r" (?:on|with|using|in|under) (?:the |an? )?(?:cuda|nvidia|cpu|colab|linux|ubuntu|windows|another machine|a pc)\b"
)


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    found: list[Observation] = []
    against = bool(MPS_AGAINST_CPU.search(line))
    if (FAILS_ON_MAC.search(line) or against) and not SETUP_TROUBLE.search(line):
        found.append(seen("paste.fails_on_mac", True))
    if WORKS_ELSEWHERE.search(line) or against:
        found.append(seen("paste.works_elsewhere", True))
    return found
