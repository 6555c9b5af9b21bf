"""Wrong values or NaN on mps in a paste that also shows the torch version and an op a known silent bug hits:
the bug is named (knowledge/silent_bugs.json), with its issue, the release that fixed it and the upgrade.

An op counts as shown where the paste calls it (``torch.bmm(``, ``x.sum(``, ``F.embedding(``) or names its
aten op (``aten::bmm``). The table's conditions (shapes, layouts) are not in a paste, so the bug is named
as the one this torch is known to have for that op, with its condition, never as proven. Without a torch
version or such an op the cause is left as it was. Every pattern is linear: one alternation of literal
names after a fixed prefix.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from mpscheck.checks.causes.model import Cause, Evidence
from mpscheck.knowledge import silent_bugs as table
from mpscheck.knowledge.silent_bugs import SilentBug
from mpscheck.knowledge.versions import parse_version
from mpscheck.model import Remediation

DEFAULT_DTYPE = "float32"  # torch's default dtype: a paste that names no dtype ran in it
DTYPE = re.compile(r"\b(?:torch\.)(float16|bfloat16|float32|float64|half|float|double|int64|int32|bool|complex64)\b")
FALLBACK = "fall back to run on the CPU"  # torch's MPS fallback warning (aten/src/ATen/mps/MPSFallback.mm)
ALIASES = {"half": "float16", "float": "float32", "double": "float64"}


@lru_cache(maxsize=1)
def _op_call() -> re.Pattern[str]:
    names = sorted({op.removeprefix("aten::") for bug in table.bugs() for op in bug.ops}, key=len, reverse=True)
    alternation = "|".join(re.escape(name) for name in names)
    return re.compile(rf"\.({alternation})_?\(|\baten::({alternation})\b")


def shown_ops(text: str) -> dict[str, int]:
    """The table's op names the paste calls or names, each with the first line that shows it. An op named
    in torch's fallback warning ran on the CPU, so no MPS bug of it is shown: those lines are left out."""
    found: dict[str, int] = {}
    kept = "\n".join("" if FALLBACK in line else line for line in text.split("\n"))
    for match in _op_call().finditer(kept):
        op = f"aten::{match.group(1) or match.group(2)}"
        if op not in found:  # at most one count per op of the table: linear in the paste
            found[op] = kept.count("\n", 0, match.start()) + 1
    return found


def shown_dtypes(text: str) -> set[str]:
    return {ALIASES.get(name, name) for name in DTYPE.findall(text)}


def known_bugs(text: str, torch: str | None, macos: str | None) -> list[tuple[SilentBug, str, int]]:
    """(bug, op, line) for each known bug the paste's torch has in an op the paste shows."""
    if parse_version(torch) is None:
        return []
    assert torch is not None
    ops = shown_ops(text)
    dtypes = shown_dtypes(text) or {DEFAULT_DTYPE}
    found = []
    for bug in table.bugs():
        op = next((o for o in sorted(ops) if o in bug.ops), None)
        if op is None or (bug.dtypes is not None and not dtypes & bug.dtypes):
            continue
        if bug.affects(torch, parse_version(macos)):
            found.append((bug, op, ops[op]))
    return found


def name_known_bug(cause: Cause, text: str, torch: str | None, macos: str | None, python: str) -> Cause:
    """*cause* (wrong values or NaN on mps) with the known silent bug the paste's torch has in a shown op."""
    found = known_bugs(text, torch, macos)
    if not found:
        return cause
    bug, op, line = next(((b, o, n) for b, o, n in found if b.fixed_in), found[0])
    name = op.removeprefix("aten::")
    fixed = f", fixed in torch {bug.fixed_in}" if bug.fixed_in else ", not fixed in a release yet"
    summary = (
        f"{cause.summary}; torch {torch} has a known silent-correctness bug of {name} on mps: {bug.id} "
        f"({bug.what}; {bug.issue}){fixed}"
    )
    notes = [f"{bug.id} needs: {bug.condition}" if bug.condition else f"{bug.id} hits {name} on any input"]
    if bug.fixed_by:
        notes.append(f"fixed by {bug.fixed_by} ({bug.fixed_why})")
    notes += [f"also known for this torch: {b.id} ({b.issue})" for b, _, _ in found if b is not bug]
    evidence = (*cause.evidence, Evidence(line, text.split("\n")[line - 1]))
    if bug.fixed_in:
        command = f"{python} -m pip install --upgrade 'torch>={bug.fixed_in}'"
        remedy = Remediation(f"Upgrade torch to {bug.fixed_in} or later, which fixes {bug.id}.", (command,))
    else:
        until = f" when {bug.condition}" if bug.condition else ""
        remedy = Remediation(
            f"Run {name} on the CPU{until}: no release fixes {bug.id} yet. " + (cause.fix.summary if cause.fix else ""),
            cause.fix.commands if cause.fix else (),
        )
    return replace(
        cause, summary=summary, fix=remedy, evidence=evidence, source=bug.issue, notes=(*cause.notes, *notes)
    )
