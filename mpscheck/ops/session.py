"""One recorded run of the user's command: hook folder, environment, the child, its recordings.

The temporary folder holds the start-up hook (as sitecustomize.py) and the per-process recording
files; it is removed afterwards. The recording is read even when the script failed, so the ops it
ran before it failed are still judged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any, Callable, Mapping, Sequence

from mpscheck.ops.recording import Recording, load_recordings
from mpscheck.probes.command import ChildResult, hook_environment, make_hook_dir, run_user_command
from mpscheck.probes.relay import Relay
from mpscheck.probes.scratch import scratch

RECORD_PREFIX = "ops"


@dataclass
class RecordedRun:
    child: ChildResult
    recording: Recording


def record_command(
    argv: Sequence[str],
    environ: Mapping[str, str],
    *,
    stdout: IO[Any] | int | None = None,
    extra_env: Mapping[str, str] | None = None,
    warn_always: bool = False,
    on_stderr_line: Callable[[str], None] | None = None,
) -> RecordedRun:
    """Run *argv* with the recording hook and return how it ended and every op it ran."""
    # The relay outlives the folder: a signal is forwarded to the script, or held until the folder is gone.
    with Relay() as relay, scratch("mpscheck-ops-") as folder:
        hook_dir = make_hook_dir(folder)
        env = hook_environment(environ, hook_dir, record_prefix=f"{folder}/{RECORD_PREFIX}", warn_always=warn_always)
        env.update(extra_env or {})
        child = run_user_command(argv, env, stdout=stdout, on_stderr_line=on_stderr_line, relay=relay)
        recording = load_recordings(folder, RECORD_PREFIX)
    return RecordedRun(child, recording)


def run_with_hook(
    argv: Sequence[str],
    environ: Mapping[str, str],
    *,
    warn_always: bool,
    extra_env: Mapping[str, str] | None = None,
    on_stderr_line: Callable[[str], None] | None = None,
) -> ChildResult:
    """Run *argv* with only the warn-always part of the hook (``run --trace`` on a Mac)."""
    with Relay() as relay, scratch("mpscheck-run-") as folder:
        hook_dir = make_hook_dir(folder)
        env = hook_environment(environ, hook_dir, warn_always=warn_always)
        env.update(extra_env or {})
        return run_user_command(argv, env, on_stderr_line=on_stderr_line, relay=relay)
