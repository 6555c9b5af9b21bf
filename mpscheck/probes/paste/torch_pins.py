"""A library's pin of torch below the first release with MPS (1.12), told in words or written as a requirement:
"mlagents which is 0.30.0 requires Pytorch to be <=1.11.0" (Unity-Technologies/ml-agents#5855), ``torch<=1.11.0``,
``torch==1.10.2``, "torch is pinned to 1.9". Whatever the user installs through that library is a torch with no mps
device, which is what a torch this old means: recorded as ``paste.torch_pinned`` (the pinned release), which the
judge (checks/causes/setup.py) reads as torch-too-old only where the paste shows no torch version of its own (a
collect_env or a banner saying which torch is installed outranks a pin told in words).

Only a pin that bounds torch from above or fixes it (``<=``, ``==``, ``~=``, "to be", "pinned to"): ``>=1.8`` is a
floor and says nothing of the torch installed. pip's resolver line "X requires torch<=1.11.0, but you have torch 2.0.1"
names the torch that is installed (a newer one) and is no pin of it; nor is a pin of torchvision or torchaudio (their
own numbers). Each pattern starts at the literal "torch" and reaches over bounded runs: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated
from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "prose"
FIRST_MPS = (1, 12)
PIN = gated(
    r"(?i)(?<![\w-])(?:py)?torch(?![\w-])[^\n<>=~\d]{0,24}?"
    r"(?:<=|==|~=|\bto be\b|\bpinned to\b|\bpins? (?:it )?to\b|\blocked to\b)"
    r" ?v?(?P<version>\d\.\d{1,2}(?:\.\d{1,2})?)\b"
)
INSTALLED_ELSEWHERE = gated(r"(?i)\bbut you have\b")


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    if INSTALLED_ELSEWHERE.search(line) or (match := PIN.search(line)) is None:
        return []
    version = match["version"]
    major, minor = (int(part) for part in version.split(".")[:2])
    if (major, minor) >= FIRST_MPS:
        return []
    return [seen("paste.torch_pinned", version)]
