"""Intel named as what a release supports, not as the user's Mac (round 40: Lightning#19708).

"PyTorch 2.2 was the last release that supported MacOS on the Intel platform, so I upgraded the version to MacOS 14"
tells why a CI moved to an Apple-silicon runner; read as the user's own Intel Mac it outranked the M1 the same paste
names. A line that says a release (the last one, or one that dropped support) supported Intel Macs speaks of the
release, unless the user says the Intel Mac is theirs on that line ("my Intel Mac", "I have an Intel Mac", "I'm on an
Intel iMac"): then it is still the user's machine.
"""

from __future__ import annotations

from mpscheck.knowledge.needles import gated

RELEASE_SUPPORT = gated(
    r"(?i)\b(?:last|final|latest) (?:release|version|build|wheel|torch|pytorch)s?\b[^\n]{0,40}?"
    r"\b(?:supports?|supported|supporting|for|on)\b[^\n]{0,30}?\bintel\b"
    r"|\b(?:dropped|drops|dropping|ended|ends|removed|deprecated) (?:the )?(?:support (?:for |of )?)?(?:the )?"
    r"(?:macos |mac )?(?:on )?(?:the )?intel\b"
)
OWN_INTEL = gated(
    r"(?i)\b(?:my|our)\b[^\n]{0,20}?\bintel\b"
    r"|\b(?:i have|i've got|i own|i use|i'm on|i am on|i'm using|i am using)\b[^\n]{0,20}?\bintel\b"
)


def intel_of_a_release(line: str) -> bool:
    """*line* names Intel as what a release supported (or dropped), not as the user's own Mac."""
    return bool(RELEASE_SUPPORT.search(line)) and not OWN_INTEL.search(line)
