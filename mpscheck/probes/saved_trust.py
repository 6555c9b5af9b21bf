"""Missing or malformed facts of a saved report are unknown, never the default that passes.

The facts dataclasses have defaults made for a live probe: a ProbeRun starts ``ok`` with workload
``none``, a SmokeStep ``ran``. Read back from a saved report that lacks the field (deleted, or written
by hand), those defaults would be a claim nobody made: deleting ``run.workload`` once turned a failed
smoke test into "MPS is ready". This pass runs after the type check (facts.from_dict), on the raw
JSON beside the facts it produced, and rewrites each such default to the value that means "not
known" for the checks: a probe run of unknown status, a workload that was meant to run (so its
absence is judged, not excused), a step whose outcome was not recorded (skipped, with a note), and a
step whose observations are not what the workload writes (skipped likewise).
"""

from __future__ import annotations

import math
from typing import Any

from mpscheck.facts import Facts, ProbeRun, SmokeFacts, SmokeStep

RUN_STATUSES = ("ok", "not-found", "timeout", "crashed", "bad-output", "failed")
WORKLOADS = ("none", "quick", "full")
OUTCOMES = ("ran", "raised", "skipped")
UNKNOWN_STATUS = "unknown"
NOT_RECORDED = "the saved report does not record how this step went"
MALFORMED = "the saved report's observations of this step are missing or malformed ({fields}), so it is not judged"


def _get(data: Any, *keys: str | int) -> Any:
    for key in keys:
        if isinstance(data, dict) and isinstance(key, str):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return None
    return data


def distrust(raw: Any, facts: Facts) -> Facts:
    """*facts* (read from *raw*) with every missing or malformed readiness fact made unknown."""
    raw_run = _get(raw, "target", "run")
    _run(raw_run if isinstance(raw_run, dict) else {}, facts.target.run, facts.target.smoke)
    if facts.target.smoke is not None:
        for index, step in enumerate(facts.target.smoke.steps):
            raw_step = _get(raw, "target", "smoke", "steps", index)
            _step(raw_step if isinstance(raw_step, dict) else {}, step, facts.target.smoke)
    return facts


def _run(raw: dict[str, Any], run: ProbeRun, smoke: SmokeFacts | None) -> None:
    if raw.get("status") not in RUN_STATUSES:
        run.status = UNKNOWN_STATUS
        run.message = run.message or "the saved report does not record how the probe ended"
    if raw.get("workload") not in WORKLOADS:  # meant to run: a missing workload is then judged as not run
        run.workload = "full" if smoke is not None and smoke.mode == "full" else "quick"


def _step(raw: dict[str, Any], step: SmokeStep, smoke: SmokeFacts) -> None:
    if raw.get("outcome") not in OUTCOMES:
        _unknown(step, NOT_RECORDED)
        return
    if step.outcome != "ran":
        return
    bad = _malformed(step, smoke.device)
    if bad:
        _unknown(step, MALFORMED.format(fields=", ".join(bad)))


def _unknown(step: SmokeStep, note: str) -> None:
    step.outcome = "skipped"
    step.note = note


def _malformed(step: SmokeStep, device: str | None) -> list[str]:
    """The observations of a step the doctor's smoke relies on that are not what the workload writes."""
    values = step.values
    bad = []
    if step.name == "allocate":
        elements = values.get("elements")
        if not isinstance(elements, int) or isinstance(elements, bool) or elements <= 0:
            bad.append("elements")
        where = values.get("tensor_device")
        if not isinstance(where, str) or device is None or where.split(":")[0] != device.split(":")[0]:
            bad.append("tensor_device")
    if step.name == "elementwise":
        errors = values.get("max_relative_error")
        if not isinstance(errors, dict) or not errors or not all(_error(e) for e in errors.values()):
            bad.append("max_relative_error")
    return bad


def _error(value: Any) -> bool:
    """A relative error as the workload writes it: a number >= 0, or "inf"/"nan" for a result not finite."""
    if isinstance(value, str):
        return value in ("inf", "nan")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return not math.isfinite(value) or value >= 0
