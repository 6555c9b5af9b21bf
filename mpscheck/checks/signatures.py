"""Known error texts, recognised so a finding can name the cause, not echo it: the checks' view of the
one table of known errors in ``mpscheck/knowledge/errors.py``, with its one cause vocabulary.

Every row of the table is recognised here, so a signature added for pasted text is recognised by the
doctor's smoke test, a saved report and ``explain`` alike, with the same cause and the same fix. A new
torch that rewords a message degrades to "unrecognised", never to a wrong diagnosis. Further sources of
error classes (a generated table of torch's own MPS messages) plug in as more matchers in ``MATCHERS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mpscheck.knowledge.errors import Hit, Row, fill, first
from mpscheck.model import Remediation


@dataclass(frozen=True)
class Signature:
    cause: str  # the table's cause id: virtual-machine, out-of-memory, op-not-implemented, ...
    detail: str = ""
    row: Row | None = None  # the table's row: its fix is the fix the checks give
    groups: tuple[tuple[str, str], ...] = ()  # what the pattern pulled out: op, dtype, sizes, numbers

    @property
    def kind(self) -> str:
        """Which row matched (oom-zero, oom, ...): several rows may share one cause."""
        return self.row.id if self.row else self.cause

    def values(self, python: str, package: str = "torch") -> dict[str, str]:
        return {"python": python, "package": package, **dict(self.groups)}

    def remedy(self, python: str, package: str = "torch") -> Remediation | None:
        """The row's fix sentence and commands, filled in for the interpreter the checks name."""
        if self.row is None:
            return None
        values = self.values(python, package)
        return Remediation(fill(self.row.fix, values), tuple(fill(c, values) for c in self.row.commands))

    def summary(self, python: str) -> str:
        """The row's one-line meaning, filled with what the error named."""
        return fill(self.row.summary, self.values(python)) if self.row else self.cause


def _detail(row_id: str, groups: dict[str, str], whole: str) -> str:
    if row_id == "oom":
        return f"MPS allocated {groups.get('allocated', '?')}, other allocations {groups.get('other', '?')}"
    if row_id == "wrong-arch-dylib":
        return f"have {groups.get('have', '?')}, need {groups.get('need', '?')}"
    if row_id == "watermark":  # the checks quote torch's words without the value
        return f"invalid {groups.get('which', 'high')} watermark ratio"
    if row_id == "no-metal-device":
        return whole
    return ""


def _from_table(text: str) -> Signature | None:
    hit: Hit | None = first(text)
    if hit is None:
        return None
    groups = dict(hit.groups)
    match = hit.row.pattern.search(text)
    whole = match.group(0).strip() if match else hit.text.strip()
    return Signature(hit.row.cause, _detail(hit.row.id, groups, whole), hit.row, tuple(groups.items()))


# Sources of error classes, tried in order: the hand-written table first.
MATCHERS: list[Callable[[str], Signature | None]] = [_from_table]


def recognise(text: str | None) -> Signature | None:
    """The known cause behind an error text, or None."""
    if not text:
        return None
    for matcher in MATCHERS:
        found = matcher(text)
        if found is not None:
            return found
    return None
