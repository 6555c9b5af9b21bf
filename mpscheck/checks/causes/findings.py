"""The doctor's checks on a paste's facts: which findings to keep (only where the paste shows the
check's inputs), and the cause ids that failing checks and a pasted report's failing rows stand for.
"""

from __future__ import annotations

from mpscheck.facts import Facts
from mpscheck.model import Finding, Status
from mpscheck.probes.paste.model import Paste

# ---- the doctor's checks on the paste's facts ----------------------------------------------------------


def check_inputs() -> dict[str, tuple[str, ...]]:
    """Each check judged from text, and the facts a paste must show for its finding to be kept
    (others would judge unknowns): declared on the check itself (``@check(..., reads=...)``)."""
    from mpscheck.checks import REGISTRY

    return {c.id: c.reads for c in REGISTRY.values() if c.reads}


def check_cause(check_id: str) -> str | None:
    """The cause id a failure of *check_id* stands for (``@check(..., cause=...)``); None: no id of
    its own, so explain names it as "doctor-check-failed" with the check's id."""
    from mpscheck.checks import REGISTRY

    found = REGISTRY.get(check_id)
    return found.cause if found else None


def relevant_findings(paste: Paste, facts: Facts | None = None) -> list[Finding]:
    """The doctor's findings on the paste's facts (or *facts* read from it), for the checks whose inputs it shows."""
    from mpscheck.checks.diagnose import diagnose

    report = diagnose(paste.facts if facts is None else facts)
    shown = {o.fact for o in paste.observations}
    inputs = check_inputs()
    keep = []
    for finding in report.findings:
        needs = inputs.get(finding.id)
        if needs and all(n in shown for n in needs) and finding.status is not Status.SKIP:
            keep.append(finding)
    return keep
