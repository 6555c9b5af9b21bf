"""Which table row and macOS a prediction is for, read as the release rules read versions, and what
may differ when that row is not the recording's own torch. Pure: the table is passed in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mpscheck.knowledge.versions import Version, macos_floor, parse_version

if TYPE_CHECKING:
    from mpscheck.ops.prediction import CoverageTable


class ReleaseError(ValueError):
    """--torch or --macos names something the table cannot answer for: a usage error."""


def choose_release(table: CoverageTable, requested: str | None, installed: str | None) -> tuple[str, str]:
    """(release, why): --torch, else the installed torch, else the newest, resolved to one row of the table.

    A version is read as the release rules read it (``knowledge.releases.nearest_known``, the doctor's
    one reading): a local version (2.13.0+cpu) is its release; a pre-release (2.15.0.dev20260801), an
    unknown patch or a release newer than the table uses the row of the release it is nearest, and
    the *why* names that row. Older than the table, or not a version at all, is refused.
    """
    known = table.known_releases()
    if not known:
        raise ReleaseError("the op coverage table lists no torch releases")
    if requested:
        row, note = _row_for(known, requested)
        if row is None:
            raise ReleaseError(f"--torch {requested}: {note}")
        return row, f"--torch {requested}: {note}"
    if installed:
        row, note = _row_for(known, installed)
        if row is not None:
            return row, f"the installed torch ({installed}): {note}"
    why = f"the newest in the table; the installed torch {installed} is not in it" if installed else "the newest"
    return known[-1], why


def _row_for(known: list[str], text: str) -> tuple[str | None, str]:
    """The coverage row for a version as the release rules read it, and a note when it is not that very release."""
    from mpscheck.knowledge.releases import nearest_known

    if parse_version(text) is None:
        return None, f"not a torch version (expected e.g. 2.4 or 2.5.1; it knows {known[0]} to {known[-1]})"
    found = nearest_known(text)
    if found is None:
        return None, f"not in the op coverage table (it knows {known[0]} to {known[-1]})"
    facts, exact = found
    row = _newest_at_or_below(known, facts.version)
    if row is None:
        return None, f"not in the op coverage table (it knows {known[0]} to {known[-1]})"
    read = "" if exact else ("a pre-release, " if _is_prerelease(text) else "not a release in the table, ")
    read += f"read as {facts.version} by the release rules" if read else ""
    lacks = f"the op coverage table lacks {facts.version}, " if row != facts.version else ""
    return row, ", ".join(part for part in (read.rstrip(", "), lacks.rstrip(", ")) if part) + (
        f"; table row {row}" if read or lacks else f"table row {row}"
    )


def _is_prerelease(text: str) -> bool:
    from mpscheck.knowledge.releases import _is_prerelease as rules_prerelease  # the release rules' own test

    return rules_prerelease(text)


def _newest_at_or_below(known: list[str], version: str) -> str | None:
    wanted = pad3(parse_version(version) or ())
    below = [r for r in known if pad3(parse_version(r) or ()) <= wanted]
    return below[-1] if below else None


def pad3(version: Version) -> Version:
    return version + (0,) * (3 - len(version)) if len(version) < 3 else version


def choose_macos(requested: str | None, release: str) -> tuple[Version, str]:
    if requested:
        version = parse_version(requested)
        if version is None or version[0] < 10:
            raise ReleaseError(f"--macos {requested}: expected a macOS version such as 14.5")
        return version, "--macos"
    floor = macos_floor(parse_version(release) or (0,))
    return floor, f"the oldest macOS torch {release} supports; pass --macos for yours"


def python_path_notes(table: CoverageTable, recorded: str | None, release: str) -> list[str]:
    """When predicting for another release than the recording's: its Python may reach other ops."""
    from mpscheck.knowledge.optim_paths import differences

    if recorded is None:
        return []
    row, _ = _row_for(table.known_releases(), recorded)
    if row == release:
        return []
    notes = [
        f"Recorded with torch {recorded}'s Python code; torch {release}'s Python may take other paths (optimizer "
        "foreach/fused defaults, clip_grad_norm_, scaled_dot_product_attention's backend choice, module fast "
        "paths), so ops reached only through Python code that changed between them may differ: record with "
        f"torch {release} installed to be sure"
    ]
    if row is not None:
        notes += differences(row, release)
    return notes
