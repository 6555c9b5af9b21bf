"""The work behind `mpscheck ops` and `mpscheck run`, kept out of the click layer.

`ops`: record the command, choose the release and macOS, predict, build the report.
`run`: the doctor as a gate, then the command with the chosen environment, and on request a
trace (on a Mac: torch's own fallback warnings and profiler table; elsewhere: the `ops` prediction).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from typing import Mapping

from mpscheck.model import Report, Requirement
from mpscheck.ops import prediction as predictor
from mpscheck.ops.prediction import (
    CoverageTable,
    ReleaseError,
    choose_macos,
    choose_release,
    lookup,
    predict,
)
from mpscheck.ops.recording import RecordingError
from mpscheck.ops.render import OpsReport, render_text, to_dict
from mpscheck.ops.session import record_command, run_with_hook

FALLBACK_VARIABLE = "PYTORCH_ENABLE_MPS_FALLBACK"
_PYTHON_NAME = re.compile(r"^(python|pypy)[0-9.]*[tmd]?(\.exe)?$", re.IGNORECASE)
OFF_MAC_NOTE = (
    "Not a Mac: --trace cannot watch torch fall back here, so this is the prediction from recording "
    "the run (as `mpscheck ops` does), not a trace."
)


class OpsUsageError(ValueError):
    """Bad --torch/--macos/--op, or a command that cannot start: exit 2."""


def lookup_lines(name: str) -> list[str]:
    try:
        return lookup(name, _table())
    except ReleaseError as exc:
        raise OpsUsageError(str(exc)) from exc


def _table() -> CoverageTable:
    try:
        return predictor.default_table()  # looked up at call time, so a test can swap the table
    except ImportError as exc:
        raise OpsUsageError(f"the op coverage table is not installed with this mpscheck ({exc})") from exc


def ops_report(
    argv: list[str],
    torch_release: str | None,
    macos: str | None,
    *,
    script_stdout_to_stderr: bool = False,
    environ: Mapping[str, str] | None = None,
    note: str | None = None,
) -> OpsReport:
    """Validate the options first (before spending a run), then record, then predict."""
    table = _table()
    environ = os.environ if environ is None else environ
    try:
        if torch_release:
            choose_release(table, torch_release, None)
        if macos:
            choose_macos(macos, table.known_releases()[-1])
    except ReleaseError as exc:
        raise OpsUsageError(str(exc)) from exc
    run = record_command(argv, environ, stdout=2 if script_stdout_to_stderr else None)
    if run.child.start_error:
        raise OpsUsageError(f"cannot start {argv[0]}: {run.child.start_error}")
    release, release_why = choose_release(table, torch_release, run.recording.torch_version)
    version, macos_why = choose_macos(macos, release)
    prediction = predict(run.recording, table, release, version, macos_why)
    return OpsReport(prediction, run.recording, run.child, release_why, note, run.last_words)


def target_python(argv: list[str], requested: str | None) -> str | None:
    """The interpreter the doctor should check: --python, else the command's own if it is a Python."""
    if requested:
        return requested
    if argv and _PYTHON_NAME.match(os.path.basename(argv[0])):
        return shutil.which(argv[0]) or argv[0]
    return None


def gate(argv: list[str], python: str | None, require: Requirement, smoke: bool, timeout: float) -> Report:
    from mpscheck.pipeline import doctor_report

    return doctor_report(target_python(argv, python), require=require, smoke=smoke, timeout=timeout)


def child_environment(environ: Mapping[str, str], fallback: bool) -> dict[str, str]:
    env = dict(environ)
    if fallback:
        env[FALLBACK_VARIABLE] = "1"
    return env


def run_after_gate(argv: list[str], *, fallback: bool, trace: bool, fmt: str) -> tuple[int, str | None]:
    """Run the command; return its exit code and, with --trace, the summary to print."""
    env = child_environment(os.environ, fallback)
    if not trace:
        from mpscheck.probes.command import run_user_command

        child = run_user_command(argv, env)
        _say_if_not_started(argv, child.start_error)
        return child.exit_code, None
    if sys.platform == "darwin":
        return _trace_on_mac(argv, env, fmt)
    report = ops_report(argv, None, None, environ=env, note=OFF_MAC_NOTE)
    text = (
        (_json(to_dict(report)) if fmt == "json" else render_text(report))
        if report.prediction.ops
        else OFF_MAC_NOTE + "\n"
    )
    return report.child.exit_code, text


def _trace_on_mac(argv: list[str], env: dict[str, str], fmt: str) -> tuple[int, str]:
    from mpscheck.ops.trace import PROFILE_ENV, TraceReader, profile_value, render_trace

    reader = TraceReader()
    extra = {PROFILE_ENV: profile_value(env.get(PROFILE_ENV))}
    child = run_with_hook(argv, env, warn_always=True, extra_env=extra, on_stderr_line=reader.feed)
    _say_if_not_started(argv, child.start_error)
    if fmt == "json":
        return child.exit_code, _json({"kind": "mpscheck-trace", "schema_version": 1, **reader.summary.to_dict()})
    return child.exit_code, render_trace(reader.summary)


def _say_if_not_started(argv: list[str], error: str | None) -> None:
    if error:
        sys.stderr.write(f"mpscheck: cannot start {argv[0]}: {error}\n")


def _json(data: object) -> str:
    import json

    return json.dumps(data, indent=2) + "\n"


__all__ = ["OpsUsageError", "RecordingError", "gate", "lookup_lines", "ops_report", "run_after_gate"]
