"""A macOS virtual machine told in words, where no log line shows it (round 40: CI threads).

Hosted CI Macs (GitHub's macOS runners, most of all) are virtual machines whose paravirtual GPU reports MPS
available and then fails every allocation; their threads often say so only in prose: "virtualized Mac does not
support MPS" (torchchat#1416), "MPS isn't available to via GH CI" (torchchat#975). Two readings, each of one line:

- a virtual Mac named: "virtualized Mac", "a virtual Mac", "macOS VM(s)", "macOS virtual machine", a CI's "Mac
  runner" or "M1 runners";
- a CI said on the line (the caller's ``CI_SAID``) beside MPS said to be unavailable or unsupported there.

Neither on a line that names an Intel or x86_64 machine ("the GitHub runner is an old x86_64 Mac and doesn't
support MPS", torchgeo#1188): that runner has no MPS because it is an Intel Mac, not because it is a VM.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated

VM_SAID = gated(
    r"(?i)\bvirtuali[sz]ed mac(?:os| os|s|es)?\b"
    r"|\bvirtual mac(?:os| os|s|es)?\b(?! ?address)"
    r"|\bmac ?os (?:vms?|virtual machines?|guests?)\b|\bmac vms?\b"  # never a Linux or Windows VM on the Mac
    # a CI's "Mac runner" or "M1 runners" ("a GithHub limitation with the Mac runner", llm.c#242; "M1 runners
    # currently have a bug with PyTorch", deepforestr#15): hosted unless the line says self-hosted (the caller)
    r"|\b(?:mac|m[1-5])[ -]runners?\b"
)
# MPS said to be unusable: "MPS isn't available", "MPS is not actually available", "doesn't support MPS".
MPS_UNUSABLE = gated(
    r"(?i)\bmps\b[^\n]{0,30}?\b(?:is(?:n't| not)|not|never) (?:actually |really )?"
    r"(?:available|supported|usable|functional)\b"
    r"|\b(?:does(?:n't| not)|cannot|can't|can not) (?:support|use|run) mps\b"
)
INTEL_NAMED = gated(r"(?i)\b(?:intel|x86_64|x86-64|x64)\b")


def vm_told(line: str, ci: bool) -> bool:
    """A macOS VM told in words on *line*; *ci*: the line also says CI (a hosted runner, most often)."""
    if INTEL_NAMED.search(line):
        return False
    return bool(VM_SAID.search(line)) or (ci and bool(MPS_UNUSABLE.search(line)))
