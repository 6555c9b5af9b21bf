"""Errors and warnings a paste shows, recorded as observations: the line, its text, and what it names.

The lines recorded are those that hold a known error text (the table of known errors,
mpscheck/knowledge/errors.py, is the vocabulary of what to look for), with the values its pattern
pulls out: the op, the dtype, the sizes and numbers. Which error it is and what it means is decided by
the checks (mpscheck/checks/signatures.py), the same way for a paste, a saved report and a smoke test.
"""

from __future__ import annotations

from mpscheck.probes.paste.model import Observation, observe

KIND = "error text"
TEMPLATE_ONLY = ("macos_or", "which_upper")  # defaults the table adds for its templates: not in the text


def parse(lines: list[str]) -> list[Observation]:
    from mpscheck.knowledge.errors import find

    out: list[Observation] = []
    seen: set[int] = set()
    for hit in find(lines):
        if hit.line in seen:  # one record per line: the checks read every known text on it
            continue
        seen.add(hit.line)
        values = {k: v for k, v in hit.groups.items() if k not in TEMPLATE_ONLY}
        record = {"severity": hit.row.severity, "values": values}
        out.append(observe(KIND, lines, hit.line, "error", record))
    return out
