"""An upgrade of torch told to a torch that is the last release for x86_64 macOS (2.2.2), on a Mac the paste shows
to be Apple silicon, by a Python whose architecture it does not show: the paste cannot tell an arm64 Python that
is merely old from an x86_64 one under Rosetta, which can install no newer torch at all (MouseLand/cellpose#1468:
"my conda was installed as xs64 instead of arm64 ... xs64 pulls the old torch 2.2.2"). The fix names both and puts
first the one command that tells them apart; the cause stays what the error says.
"""

from __future__ import annotations

from dataclasses import replace

from mpscheck.checks.causes.model import Cause
from mpscheck.facts import Facts
from mpscheck.knowledge.versions import last_intel_mac_torch
from mpscheck.model import Remediation


def fit_last_intel(cause: Cause, facts: Facts, python: str) -> Cause:
    """*cause* with its torch upgrade preceded by the check of the Python's architecture, where that can block it."""
    fix, torch, interpreter = cause.fix, facts.target.torch, facts.target.interpreter
    if fix is None or torch is None or torch.version != last_intel_mac_torch():
        return cause
    if facts.host.arm64_hardware is not True or (interpreter is not None and interpreter.machine):
        return cause  # not shown to be Apple silicon, or the Python's architecture is shown: nothing to tell apart
    if not any("--upgrade" in command and "torch" in command for command in fix.commands):
        return cause
    tell = f"{python} -c 'import platform; print(platform.machine())'"
    summary = (
        f"First check the Python's architecture (the first command): torch {torch.version} is also the last release "
        "for x86_64 macOS, so if it prints x86_64 the Python runs under Rosetta and no newer torch installs: use an "
        "arm64 Python (Homebrew's /opt/homebrew, or an arm64 conda such as Miniforge). If it prints arm64: "
        + fix.summary
    )
    return replace(cause, fix=Remediation(summary, (tell, *fix.commands)))
