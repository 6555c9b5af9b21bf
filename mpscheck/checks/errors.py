"""The errors a run raised, judged: a workload step that raised or a process that died. A raised error
is matched against the one table of known errors (checks/signatures.py over knowledge/errors.py), so the
doctor's smoke test, smoke-test's steps and a paste name the same cause with the same fix.
"""

from __future__ import annotations

from typing import Any, Callable

from mpscheck.checks.environment import FALLBACK
from mpscheck.checks.memory import read_oom
from mpscheck.checks.registry import INPUT, Context, Outcome, check, failed, fix, passed, skipped, warned
from mpscheck.checks.signatures import Signature, recognise
from mpscheck.checks.wording import first_line, plural
from mpscheck.facts import SmokeStep
from mpscheck.knowledge.errors import ERROR, TABLE
from mpscheck.model import Remediation


def step(ctx: Context, name: str) -> SmokeStep | None:
    smoke = ctx.smoke
    return next((s for s in smoke.steps if s.name == name), None) if smoke else None


def died_during(ctx: Context) -> str | None:
    """The step the workload process was in when it hung or died, if it did."""
    run = ctx.facts.target.run
    if run.status != "ok" and run.running_stage and run.running_stage.startswith("step:"):
        return run.running_stage.split(":", 1)[1]
    return None


def report_fix(ctx: Context) -> Remediation:
    return fix(
        "Update torch (and macOS); if it persists, report it to PyTorch with this report attached.",
        ctx.install("torch", upgrade=True),
        "mpscheck smoke-test --format markdown --output mpscheck-smoke.md",
    )


def death_outcome(ctx: Context, name: str, device: str) -> Outcome:
    run = ctx.facts.target.run
    inside = " (an abort inside Metal)" if device == "mps" and run.status == "crashed" else ""
    tail = run.stderr_tail.strip().splitlines()
    return failed(
        f"the {name} step on {device} did not finish: {run.message}{inside}",
        report_fix(ctx),
        *([f"last line on stderr: {first_line(tail[-1])}"] if tail else []),
    )


# How a step that raised says what the table's row means, where the smoke test words it its own way (by
# row: several rows share a cause); any other known row is said in the row's own summary. The fix is the row's.
RAISED = {
    "oom-zero": "cannot allocate on {device} ('MPS allocated: 0 bytes'): a paravirtual GPU in a macOS VM, such "
    "as a hosted CI runner, where is_available() is True and nothing works",
    "op-not-implemented": "hit an op with no MPS kernel while " + FALLBACK + " is off",
    "watermark": "was refused by torch's MPS memory limits: {detail}",
}


def raised_outcome(ctx: Context, result: SmokeStep, device: str) -> Outcome:
    """A step that raised, explained by its error's known signature where there is one.

    The fix comes from the signature table (mpscheck/knowledge/errors.py), the one home of what each known
    error means and how to fix it; an unknown error gets the report-it fix.
    """
    error = result.error or "raised"
    signature = recognise(error)
    evidence = (f"{result.error_type or 'error'}: {first_line(error, 400)}",)
    remedy = signature.remedy(ctx.python) if signature else None
    if signature and signature.kind == "oom":
        return _out_of_memory(ctx, result, device, signature, evidence)
    if signature and remedy and signature.kind in RAISED:
        what = RAISED[signature.kind].format(device=device, detail=signature.detail)
        return failed(f"the {result.name} step {what}", remedy, *evidence)
    if signature and remedy:
        said = f"{signature.summary(ctx.python)} ({signature.cause})"
        return failed(f"the {result.name} step raised on {device}: {said}", remedy, *evidence)
    return failed(f"the {result.name} step raised on {device}: {first_line(error)}", report_fix(ctx), *evidence)


def _out_of_memory(
    ctx: Context, result: SmokeStep, device: str, signature: Signature, evidence: tuple[str, ...]
) -> Outcome:
    """An out-of-memory error read by its numbers (checks/memory.py), as a paste's is."""
    reading = read_oom(dict(signature.groups), ctx.facts)
    if reading.variant == "vm-cap":
        vm = recognise("MPS backend out of memory (MPS allocated: 0 bytes, other allocations: 0 bytes")
        what = RAISED["oom-zero"].format(device=device)
        remedy = vm.remedy(ctx.python) if vm else None
        return failed(f"the {result.name} step {what} ({reading.kind})", remedy or report_fix(ctx), *evidence)
    remedy = reading.remedy or signature.remedy(ctx.python) or report_fix(ctx)
    return failed(
        f"the {result.name} step ran out of MPS memory: {reading.kind} ({reading.numbers})", remedy, *evidence
    )


Rule = Callable[[dict[str, Any]], tuple[str | None, str]]


def judged(ctx: Context, entry: SmokeStep, device: str, rule: Rule) -> Outcome:
    """One step's outcome: raised, or its observations judged by *rule*."""
    if entry.outcome == "raised":
        return raised_outcome(ctx, entry, device)
    if entry.outcome == "skipped":
        return skipped(entry.note or "not applicable")
    problem, description = rule(entry.values)
    took = f"{entry.seconds:.2f} s" if entry.seconds is not None else "untimed"
    if problem:
        return failed(f"the {entry.name} step on {device}: {problem}", report_fix(ctx))
    said = description.replace("{device}", device)  # not format(): saved values may hold braces
    return passed(f"{said} ({took})")


# ---- the errors an input's text shows (a paste, kept in facts.errors) ------------------------------


@check("error-text", "Errors the input shows", suite=INPUT, reads=("error",))
def error_text(ctx: Context) -> Outcome:
    """The first known error among the texts the input showed, by the one table, with the row's fix."""
    known = [(seen, sig) for seen in ctx.facts.errors if (sig := recognise(seen.text)) is not None and sig.row]
    if not known:
        return skipped(f"{plural(len(ctx.facts.errors), 'error line')} shown, none of them a known error")
    known.sort(key=lambda pair: TABLE.index(pair[1].row) if pair[1].row else 0)
    errors = [(seen, sig) for seen, sig in known if sig.row and sig.row.severity == ERROR]
    seen, sig = (errors or known)[0]
    others = [f"line {s.line}: {_meaning(ctx, g)} ({g.cause})" for s, g in known if s is not seen]
    said = f"line {seen.line}: {_meaning(ctx, sig)} ({sig.cause})"
    remedy = _text_remedy(ctx, sig)
    if not errors:  # a warning only, such as an op that falls back to the CPU: slower, not broken
        return warned(said, remedy, *others)
    return failed(said, remedy, *others)


def _meaning(ctx: Context, sig: Signature) -> str:
    if sig.kind == "oom":  # read by its numbers, as the smoke test reads it
        reading = read_oom(dict(sig.groups), ctx.facts)
        if reading.variant == "vm-cap":  # its words hold its numbers already
            return f"MPS ran out of memory: {reading.kind}"
        return f"MPS ran out of memory: {reading.kind} ({reading.numbers})"
    return sig.summary(ctx.python)


def _text_remedy(ctx: Context, sig: Signature) -> Remediation:
    if sig.kind == "oom":
        reading = read_oom(dict(sig.groups), ctx.facts)  # the same reading as the smoke test's
        if reading.remedy is not None:
            return reading.remedy
    return sig.remedy(ctx.python) or report_fix(ctx)
