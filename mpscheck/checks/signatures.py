"""Known error texts, recognised so a finding can name the cause, not echo it: the checks' view of the
one signature table in ``mpscheck/knowledge/errors.py``, keeping the cause keys the checks already use.

A new torch that rewords a message degrades to "unrecognised", never to a wrong diagnosis.
"""

from __future__ import annotations

from dataclasses import dataclass

from mpscheck.knowledge.errors import TABLE, Row, fill, groups_of
from mpscheck.model import Remediation


@dataclass(frozen=True)
class Signature:
    cause: str  # stable key: virtual-gpu, out-of-memory, fallback-off, no-metal-device, ...
    detail: str = ""
    row: Row | None = None  # the table's row: its fix is the fix the checks give

    def remedy(self, python: str, package: str = "torch") -> Remediation | None:
        """The row's fix sentence and commands, filled in for the interpreter the checks name."""
        if self.row is None:
            return None
        values = {"python": python, "package": package}
        return Remediation(fill(self.row.fix, values), tuple(fill(c, values) for c in self.row.commands))


def _detail(cause: str, groups: dict[str, str], whole: str) -> str:
    if cause == "out-of-memory":
        return f"MPS allocated {groups.get('allocated', '?')}, other allocations {groups.get('other', '?')}"
    if cause == "wrong-arch":
        return f"have {groups.get('have', '?')}, need {groups.get('need', '?')}"
    if cause == "watermark":  # the checks quote torch's words without the value
        return f"invalid {groups.get('which', 'high')} watermark ratio"
    if cause == "no-metal-device":
        return whole
    return ""


def recognise(text: str | None) -> Signature | None:
    """The known cause behind an error text, or None (the table's rows that the checks know, in order)."""
    if not text:
        return None
    for row in TABLE:
        if row.legacy is None:
            continue
        match = row.pattern.search(text)
        if match:
            return Signature(row.legacy, _detail(row.legacy, groups_of(match), match.group(0).strip()), row)
    return None
