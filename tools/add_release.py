"""Add one torch release to the knowledge tables without re-reading the others' wheels.

A full build (tools/build_knowledge.py) reads every release's wheel; when torch publishes one more,
only that wheel is new. Its facts go through the same table writers as a full build
(releases_table, ops_table's kinds), and are merged into the committed JSON: the release's record
replaces or joins the others, its texts join their entries, and every per-release history (op
kinds, the CPU-always list, the Python-registered kernels) is expanded to one value per release,
given the new release's value, and folded back into transitions. A test checks that adding a
release to the tables built without it gives the tables built with it.

Run through ``tools/build_knowledge.py --add 2.16.0`` (one release) or ``--add-missing`` (every
release the package index lists and the table lacks: what the weekly workflow runs).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any


def values_at(history: Sequence[Sequence[Any]], releases: Sequence[str], key: Callable[[str], Any]) -> list[Any]:
    """One value per release from transitions ([[release, value], ...]); None before the first."""
    out: list[Any] = []
    for release in releases:
        value = None
        for since, changed in history:
            if key(since) <= key(release):
                value = changed
        out.append(value)
    return out


def _with_release(
    history: Sequence[Sequence[Any]],
    releases: Sequence[str],
    version: str,
    value: Any,
    key: Callable[[str], Any],
    transitions: Callable[[Sequence[tuple[str, Any]]], list[list[Any]]],
) -> tuple[list[list[Any]], list[str]]:
    old = [r for r in releases if r != version]
    values = dict(zip(old, values_at(history, old, key)))
    values[version] = value
    ordered = sorted(values, key=key)
    return transitions([(r, values[r]) for r in ordered]), ordered


def merge_releases(table: dict[str, Any], partial: dict[str, Any], key: Callable[[str], Any]) -> dict[str, Any]:
    """torch_releases.json with the one release of *partial* (releases_table of that release alone)."""
    merged = copy.deepcopy(table)
    for section in ("releases", "x86_64"):
        for version, record in partial[section].items():
            merged[section][version] = record
            arch = "arm64" if section == "releases" else "x86_64"
            for entry in merged["texts"]:  # re-adding a release replaces what it said before
                if entry["arch"] == arch and version in entry["releases"]:
                    entry["releases"].remove(version)
    merged["texts"] = [entry for entry in merged["texts"] if entry["releases"]]
    by_key = {(entry["text"], entry["arch"]): entry for entry in merged["texts"]}
    for entry in partial["texts"]:
        known = by_key.get((entry["text"], entry["arch"]))
        if known is None:
            by_key[(entry["text"], entry["arch"])] = copy.deepcopy(entry)
            continue
        known["releases"] = sorted(set(known["releases"]) | set(entry["releases"]), key=key)
        known["files"] = sorted(set(known["files"]) | set(entry["files"]))
    merged["texts"] = sorted(by_key.values(), key=lambda e: (e["category"], e["text"], e["arch"]))
    return merged


def merge_ops(
    table: dict[str, Any],
    version: str,
    kinds: dict[str, str],
    delegates: dict[str, str],
    cpu_always: list[str] | None,
    python_mps: list[str],
    key: Callable[[str], Any],
    transitions: Callable[[Sequence[tuple[str, Any]]], list[list[Any]]],
) -> dict[str, Any]:
    """op_coverage.json with one release's op kinds (build_knowledge.kinds_of), CPU-always list and
    Python-registered kernels; the other releases' values are read back from their histories."""
    merged = copy.deepcopy(table)
    releases = list(table["releases"])
    ordered = sorted({*releases, version}, key=key)
    newest = ordered[-1] == version
    for name in sorted(set(merged["ops"]) | set(kinds)):
        entry = merged["ops"].setdefault(name, {"history": [[releases[0], "absent"]] if releases else []})
        entry["history"], _ = _with_release(
            entry["history"], releases, version, kinds.get(name, "absent"), key, transitions
        )
        # A full build names the delegate of the newest release that has one.
        if name in delegates and (newest or "delegate" not in entry):
            entry["delegate"] = delegates[name]
    for section, value in (("cpu_always", cpu_always), ("python_mps", python_mps)):
        merged[section]["history"], _ = _with_release(
            merged[section]["history"], releases, version, value, key, transitions
        )
    merged["releases"] = ordered
    return merged


def missing(
    listed: Sequence[str], table: dict[str, Any], first: tuple[int, ...], key: Callable[[str], Any]
) -> list[str]:
    """Final releases the index lists (from *first* on) that the table lacks, oldest first."""
    final = [v for v in listed if v.replace(".", "").isdigit() and key(v) >= first]
    return sorted(set(final) - set(table["releases"]), key=key)
