"""Lines that only x86_64 code prints: Intel's Math Kernel Library (MKL) exists for x86-64 alone (on
Apple silicon torch uses other kernels: pytorch/pytorch#62107), so its start-up checks ("Intel MKL FATAL
ERROR: This system does not meet the minimum requirements ...", "Intel MKL WARNING: Support of Intel(R)
Streaming SIMD Extensions 4.2 ...") and a torch build that lists MKL "for Intel(R) 64 architecture"
(torch.__config__.show(), detectron2's environment) say the Python runs as x86_64. On an Apple chip that
is Rosetta, whose missing AVX is what MKL refuses (conda-forge/pytorch-cpu-feedstock#101); on an Intel
Mac it is native (a CPU without SSE4.2 gets the same fatal error).
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, observe

KIND = "x86_code"
MKL_CHECK = re.compile(r"\bIntel MKL (?:FATAL ERROR|WARNING|ERROR)\b", re.IGNORECASE)
MKL_BUILD = re.compile(r"Intel\(R\) (?:oneAPI )?Math Kernel Library Version \S+.{0,80}? for Intel\(R\) 64 architecture")


def parse(lines: list[str]) -> list[Observation]:
    out: list[Observation] = []
    for number, line in enumerate(lines, start=1):
        if MKL_CHECK.search(line) or MKL_BUILD.search(line):
            out.append(observe(KIND, lines, number, "paste.x86_library", "Intel MKL"))
            break  # one line is enough evidence; the rest repeat it
    return out
