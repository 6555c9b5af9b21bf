"""A library's pin of torch below the first release with MPS (1.12), told in words or written as a requirement:
"mlagents which is 0.30.0 requires Pytorch to be <=1.11.0" (Unity-Technologies/ml-agents#5855),
``Requires-Dist: torch<=1.11.0,>=1.8.0``, ``install_requires=['torch==1.10.2']``, "torch is pinned to 1.9". Whatever
the user installs through that library is a torch with no mps device, which is what a torch this old means: recorded
as ``paste.torch_pinned`` (the pinned release), which the judge (checks/causes/setup.py) reads as torch-too-old only
where the paste shows no torch version of its own (a collect_env or a banner saying which torch is installed outranks
a pin told in words).

Only a pin that bounds torch from above or fixes it (``<=``, ``==``, ``~=``, "to be", "pinned to"): ``>=1.8`` is a
floor and says nothing of the torch installed. pip's resolver line "X requires torch<=1.11.0, but you have torch 2.0.1"
names the torch that is installed (a newer one) and is no pin of it; a failed install of a pinned torch installs
nothing; a spec alone on its line is how uv lists the releases it tried; nor is a pin of torchvision or torchaudio
(their own numbers). Each pattern starts at the literal "torch" and reaches over bounded runs: linear on any line.
"""

from __future__ import annotations

import re

from mpscheck.knowledge.needles import gated
from mpscheck.probes.paste.model import Observation, Seen, each_line

KIND = "prose"
FIRST_MPS = (1, 12)
PIN = gated(
    r"(?i)(?<![\w-])(?:py)?torch(?![\w-])[^\n<>=~\d]{0,24}?"
    r"(?:<=|==|~=|\bto be\b|\bpinned to\b|\bpins? (?:it )?to\b|\blocked to\b)"
    r" ?v?(?P<version>\d\.\d{1,2}(?:\.\d{1,2})?)\b"
)
# Lines that name a torch release without pinning the installed one: pip's resolver ("X requires torch<=1.11.0, but you
# have torch 2.0.1"), a failed install ("No matching distribution found for torch==1.11.0+cu113", "Could not find a
# version that satisfies the requirement torch==1.10.2"), uv's reasoning ("Because torch==1.11.0 has no wheels ...
# cannot be used"), collect_env's installed list ("[pip3] torch==1.8.0.dev...", read by collect_env.py).
NOT_A_PIN = gated(
    r"(?i)\bbut you have\b|\bno matching distribution\b|\bcould not find a version\b"
    r"|\bsatisf(?:y|ies) the requirement\b|\bbecause\b|\bcannot be used\b|\bno wheels?\b|\bno versions? of\b"
    r"|^\s*\[(?:pip3?|conda)\]"
)
# A spec alone on its line ("          torch==1.10.0"): uv lists the releases it tried that way, so it pins nothing.
BARE_SPEC = re.compile(r"^\s*(?:py)?torch\s*(?:==|<=|~=)\s*\d[\w.+]{0,30}\s*$")


def parse(lines: list[str]) -> list[Observation]:
    return each_line(KIND, lines, _line)


def _line(seen: Seen, line: str) -> list[Observation]:
    if NOT_A_PIN.search(line) or BARE_SPEC.match(line) or (match := PIN.search(line)) is None:
        return []
    version = match["version"]
    major, minor = (int(part) for part in version.split(".")[:2])
    if (major, minor) >= FIRST_MPS:
        return []
    return [seen("paste.torch_pinned", version)]
