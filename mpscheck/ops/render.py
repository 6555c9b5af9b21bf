"""Print an ops report: text and markdown put the problems first with counts and fixes; JSON is the
contract (``kind: mpscheck-ops``, ``schema_version``, an ``ops`` list). Renderers decide nothing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from mpscheck.knowledge.versions import show
from mpscheck.ops.prediction import FALLBACK_ENV, SIDE_WHY, OpPrediction, Prediction
from mpscheck.ops.recording import Recording
from mpscheck.probes.command import ChildResult

OPS_SCHEMA_VERSION = 1
OPS_KIND = "mpscheck-ops"


@dataclass
class OpsReport:
    """Everything `mpscheck ops` says: the prediction, the recording behind it, how the script ended."""

    prediction: Prediction
    recording: Recording
    child: ChildResult
    release_why: str
    note: str | None = None  # e.g. run --trace off a Mac: "a prediction from a recording, not a trace"
    last_words: tuple[str, ...] = field(default_factory=tuple)  # the script's last stderr lines

    @property
    def script_completed(self) -> bool:
        """The script ran to its end (exit 0): only then does the recording cover the whole program."""
        return self.child.start_error is None and self.child.exit_code == 0

    @property
    def ready(self) -> bool:
        """What checks/policy.py decided: every op would run on MPS, and the script ran to its end."""
        from mpscheck.checks.policy import decide_ops
        from mpscheck.model import ExitCode

        return decide_ops(self.prediction.ready, self.script_completed) is ExitCode.READY

    @property
    def exit_code(self) -> int:
        from mpscheck.checks.policy import decide_ops  # the one verdict rule; renderers only print it

        return int(decide_ops(self.prediction.ready, self.script_completed))

    @property
    def headline(self) -> str:
        p = self.prediction
        where = f"torch {p.release} on macOS {show(p.macos)}"
        if not self.script_completed:
            seen = f"{len(p.problems)} problem op(s)" if p.problems else "no problem"
            seen += " among the ops it ran"
            return (
                f"The script did not run to its end (exit {self.child.exit_code}): nothing is predicted for the "
                f"rest of it; {seen} with {where}"
            )
        if not p.ops:
            return f"No ops recorded: nothing to judge for {where} (did the script import torch?)"
        if p.ready:
            return f"Every recorded op would run on MPS with {where}"
        problems = p.problems
        calls = sum(op.calls for op in problems)
        return f"{len(problems)} op(s) ({calls} calls) would not run on MPS with {where}"


def to_dict(report: OpsReport) -> dict[str, Any]:
    p = report.prediction
    return {
        "kind": OPS_KIND,
        "schema_version": OPS_SCHEMA_VERSION,
        "torch": p.release,
        "torch_why": report.release_why,
        "macos": show(p.macos),
        "macos_why": p.macos_why,
        "recorded_with_torch": report.recording.torch_version,
        "processes": report.recording.processes,
        "command": list(report.child.argv),
        "script_exit_code": report.child.exit_code,
        "script_start_error": report.child.start_error,
        "script_completed": report.script_completed,
        "script_last_words": list(report.last_words),
        "ready": report.ready,
        "exit_code": report.exit_code,
        "headline": report.headline,
        "note": report.note,
        "counts": p.counts(),
        "ops": [op.to_dict() for op in p.ops],
        "cpu_side_rule": p.cpu_side_rule,
        "python_path_notes": list(p.path_notes),
        "known_silent_bugs": list(p.silent_bugs),
        "cpu_side_ops": [dict(use.to_dict(), why=SIDE_WHY.get(use.side, SIDE_WHY[None])) for use in p.cpu_side],
        "recording": recording_dict(report.recording),
        "ignored": list(p.dropped),
    }


def recording_dict(recording: Recording) -> dict[str, Any]:
    """How the recording was paced: whether every call was counted, and what ran unrecorded."""
    return {
        "paused": recording.paused,
        "compiled_graphs": recording.compiled_graphs,
        "processes": list(recording.pacing),
    }


def pacing_lines(recording: Recording) -> list[str]:
    """One line on what the calls counted cover; one on compiled code, when torch.compile built graphs."""
    lines = []
    if recording.paused:
        events = [e for p in recording.pacing for e in p.get("events", ())]
        first = next(e for e in events if e.get("event") == "paused")
        rearmed = sum(1 for e in events if e.get("event") == "re-armed")
        lines.append(
            f"Recording paused after {first.get('after_steps')} optimizer step(s) and {first.get('after_batches')} "
            f"batch(es) with no new op signature ({first.get('why')}); re-armed {rearmed} time(s) at phase changes "
            "(a new DataLoader, the end of a DataLoader loop, a first eval()/train()). Calls are counted while "
            "it recorded; an op first reached only while paused is not seen (MPSCHECK_RECORD_ALL=1 records every call)."
        )
    graphs = recording.compiled_graphs
    if graphs:
        lines.append(
            f"torch.compile built {graphs} graph(s): their fused kernels ran unrecorded (only the ops they call "
            "out to were seen); run once without torch.compile to see every op."
        )
    return lines


def render_json(report: OpsReport, verbose: bool = False) -> str:
    return json.dumps(to_dict(report), indent=2) + "\n"


def _script_line(report: OpsReport) -> str:
    child = report.child
    command = " ".join(child.argv)
    if child.start_error:
        return f"The command could not start: {child.start_error}"
    ended = "exit 0" if child.exit_code == 0 else f"FAILED with exit {child.exit_code}; ops seen before it failed"
    return f"Recorded {command} ({ended}), {report.recording.processes} Python process(es)"


def _last_words(report: OpsReport) -> list[str]:
    """The script's last stderr lines, when it did not run to its end."""
    if report.script_completed or not report.last_words:
        return []
    return ["The script's last words (stderr):", *(f"  | {line}" for line in report.last_words)]


def _site(site: str) -> str:
    """A call site relative to the current folder when it lies below it (shorter to read)."""
    path, _, line = site.rpartition(":")
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return site
    return f"{relative}:{line}" if path and not relative.startswith("..") else site


def _dtypes(op: OpPrediction) -> str:
    return ",".join(op.dtypes) or "-"


def _silent_lines(p: Prediction) -> list[str]:
    """Known wrong-result bugs the recorded ops meet: shown, not counted as problems (most need a shape)."""
    if not p.silent_bugs:
        return []
    lines = [f"Known silent-correctness bugs these ops may meet in torch {p.release} (wrong results, no error):"]
    for bug in p.silent_bugs:
        when = f" when {bug['when']}" if bug.get("when") else ""
        lines.append(f"  [{bug['id']}] {', '.join(bug['ops'])}: {bug['what']}{when}")
        lines.append(f"      {bug['issue']}; fix: {bug['fix']}")
    return [*lines, ""]


def render_text(report: OpsReport, verbose: bool = False) -> str:
    p = report.prediction
    lines = [
        f"mpscheck ops: torch {p.release} ({report.release_why}), macOS {show(p.macos)} ({p.macos_why})",
        _script_line(report),
        *_last_words(report),
    ]
    if report.note:
        lines.append(report.note)
    lines.extend(pacing_lines(report.recording))
    lines.append(f"How ops were judged: {p.cpu_side_rule}.")
    lines.extend(f"Note: {note}." for note in p.path_notes)
    if p.cpu_side:
        lines.append(f"Not judged, they stay on the CPU on a Mac too: {len(p.cpu_side)} op(s)")
        for why in dict.fromkeys(use.side for use in p.cpu_side):
            names = [use.name for use in p.cpu_side if use.side == why]
            shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
            lines.append(f"  {SIDE_WHY.get(why, SIDE_WHY[None])}: {shown}")
    lines.append("")
    problems = p.problems
    if problems:
        lines.append(f"Problems: {len(problems)} op(s), {sum(op.calls for op in problems)} call(s)")
        for op in problems:
            lines.append(f"  [{op.status}] {op.name}  {op.calls} call(s)  dtypes {_dtypes(op)}")
            lines.append(f"      {op.reason}")
            if op.mapped_from:
                lines.append(f"      (recorded as {', '.join(op.mapped_from)})")
            if op.first_site:
                lines.append(f"      first reached at {_site(op.first_site)}")
            if op.fix:
                lines.append(f"      fix: {op.fix}")
        lines.append("")
    lines.extend(_silent_lines(p))
    fine = [op for op in p.ops if op not in problems]
    counts = p.counts()
    if fine:
        lines.append(
            f"Fine on MPS: {len(fine)} op(s), {sum(op.calls for op in fine)} call(s) "
            f"({counts['mps']} with an MPS kernel, {counts['composite']} composite)"
        )
        if verbose:
            lines.extend(f"  [{op.status}] {op.name}  {op.calls} call(s)  dtypes {_dtypes(op)}" for op in fine)
    if any(op.status == "fallback" for op in problems):
        lines.append(f"Without {FALLBACK_ENV} the first of these raises NotImplementedError on MPS.")
    lines.append(report.headline)
    return "\n".join(lines) + "\n"


def render_markdown(report: OpsReport, verbose: bool = False) -> str:
    p = report.prediction
    lines = [
        f"## mpscheck ops: torch {p.release}, macOS {show(p.macos)}",
        "",
        f"**{report.headline}**",
        "",
        _script_line(report) + ".",
        "",
    ]
    words = _last_words(report)
    if words:
        lines += [words[0], "", "```", *(line[4:] for line in words[1:]), "```", ""]
    if report.note:
        lines += [report.note, ""]
    lines += [*pacing_lines(report.recording), f"How ops were judged: {p.cpu_side_rule}.", ""]
    lines += [line for note in p.path_notes for line in (f"Note: {note}.", "")]
    if p.cpu_side:
        lines += [f"{len(p.cpu_side)} op(s) not judged: they stay on the CPU on a Mac too.", ""]
    problems = p.problems
    if problems:
        lines += ["| status | op | calls | dtypes | why | fix | first reached at |", "|---|---|---:|---|---|---|---|"]
        for op in problems:
            site = f"`{_site(op.first_site)}`" if op.first_site else ""
            lines.append(
                f"| {op.status} | `{op.name}` | {op.calls} | {_dtypes(op)} | {op.reason} | {op.fix or ''} | {site} |"
            )
        lines.append("")
    fine = [op for op in p.ops if op not in problems]
    if fine:
        lines.append(f"{len(fine)} other op(s), {sum(op.calls for op in fine)} call(s), would run on MPS.")
        if verbose:
            lines += ["", "| status | op | calls | dtypes |", "|---|---|---:|---|"]
            lines += [f"| {op.status} | `{op.name}` | {op.calls} | {_dtypes(op)} |" for op in fine]
    return "\n".join(lines) + "\n"


RENDERERS = {"text": render_text, "json": render_json, "markdown": render_markdown}
