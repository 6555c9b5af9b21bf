"""Known silent-correctness bugs of MPS: wrong results without an error, read from silent_bugs.json.

Each row is a pytorch/pytorch issue labelled ``module: correctness (silent)`` (or confirmed by a
maintainer), with the ops it hits, the dtypes, macOS and tensor shape or layout it needs, the first
release it names as affected and the release that fixed it (from the fixing PR; None while open or
not read). ``hits`` says which rows a recorded op meets in a predicted release. Shapes and layouts are
not recorded, so a row with a condition is a "may hit: if ..." for the reader to check. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mpscheck.knowledge import load_table
from mpscheck.knowledge.versions import Version, at_least, parse_version


@dataclass(frozen=True)
class SilentBug:
    id: str
    issue: str
    fixed_by: str | None
    ops: frozenset[str]
    dtypes: frozenset[str] | None  # None: any dtype
    condition: str | None
    macos_from: Version | None
    affected_from: str | None
    fixed_in: str | None
    what: str
    fixed_why: str

    def affects(self, release: str, macos: Version | None = None) -> bool:
        """This release (on this macOS, when the bug needs a newer one) has the bug."""
        version = parse_version(release) or ()
        if self.affected_from and not at_least(version, parse_version(self.affected_from) or ()):
            return False
        if self.fixed_in and at_least(version, parse_version(self.fixed_in) or ()):
            return False
        return macos is None or self.macos_from is None or at_least(macos, self.macos_from)


def _row(raw: dict[str, Any]) -> SilentBug:
    return SilentBug(
        id=str(raw["id"]),
        issue=str(raw["issue"]),
        fixed_by=raw.get("fixed_by"),
        ops=frozenset(raw["ops"]),
        dtypes=frozenset(raw["dtypes"]) if raw.get("dtypes") else None,
        condition=raw.get("condition"),
        macos_from=parse_version(raw.get("macos_from")),
        affected_from=raw.get("affected_from"),
        fixed_in=raw.get("fixed_in"),
        what=str(raw["what"]),
        fixed_why=str(raw.get("fixed_why", "")),
    )


@lru_cache(maxsize=1)
def bugs() -> tuple[SilentBug, ...]:
    return tuple(_row(raw) for raw in load_table("silent_bugs.json")["bugs"])


def hits(
    op: str, dtypes: tuple[str, ...], release: str, macos: Version | None, table: tuple[SilentBug, ...] | None = None
) -> list[SilentBug]:
    """The known silent bugs this recorded op (name with overload, as recorded) meets in *release*."""
    base = op.split(".", 1)[0]
    found = []
    for bug in bugs() if table is None else table:
        if base not in bug.ops:
            continue
        if bug.dtypes is not None and not (set(dtypes) & bug.dtypes):
            continue
        if bug.affects(release, macos):
            found.append(bug)
    return found


def affecting(release: str, macos: Version | None, table: tuple[SilentBug, ...] | None = None) -> list[SilentBug]:
    """Every known silent bug of this release on this macOS (the doctor's count)."""
    return [bug for bug in (bugs() if table is None else table) if bug.affects(release, macos)]
