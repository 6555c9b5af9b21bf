"""A crash by an illegal CPU instruction (SIGILL: "zsh: illegal hardware instruction"): native code built for a
CPU this Mac does not have, never a Metal or MPS failure. On Apple silicon it is an x86_64 build whose
instructions (AVX) Rosetta does not translate, or a library built for another CPU (PromtEngineer/localGPT#509:
"binaries that are built for the wrong platform"; marella/gpt4all-j#7: "M1 CPU doesn't support AVX/AVX2").
The paste alone cannot tell the two apart; the Python's architecture does.
"""

from __future__ import annotations

import re

from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.model import Remediation

ILLEGAL_INSTRUCTION = re.compile(r"illegal hardware instruction|\bSIGILL\b|Illegal instruction")
SOURCE = "https://github.com/PromtEngineer/localGPT/issues/509; https://github.com/marella/gpt4all-j/issues/7"


def illegal_instruction(crash_text: str, crash_line: int, python: str) -> Cause | None:
    """The wrong-build cause of an illegal-instruction crash, with the command that tells Rosetta from a wrong
    build; None for any other crash."""
    if not ILLEGAL_INSTRUCTION.search(crash_text):
        return None
    return Cause(
        "wrong-arch-wheel",
        "the process ran a CPU instruction this Mac does not have (illegal hardware instruction): native code built "
        "for another CPU, not an MPS failure. On Apple silicon either the Python is x86_64 under Rosetta and a "
        "library uses AVX, which Rosetta does not translate, or a library was built for another CPU",
        Remediation(
            "Check the Python's architecture: x86_64 means Rosetta, so install an arm64 Python and reinstall there; "
            "arm64 means the native library that crashed was built for another CPU: reinstall it with this "
            "interpreter, bypassing pip's cache (pip install --force-reinstall --no-cache-dir on that package).",
            (f"{python} -c 'import platform; print(platform.machine())'",),
        ),
        (Evidence(crash_line, crash_text),),
        SOURCE,
    )
