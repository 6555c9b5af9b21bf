"""One recorded run of the user's command: hook folder, environment, the child, its recordings.

The temporary folder holds the start-up hook (as sitecustomize.py) and the per-process recording
files; it is removed afterwards. The recording is read even when the script failed, so the ops it
ran before it failed are still judged; the last lines the script wrote to stderr are kept (a bounded
tail) so a report on a script that died can show its last words.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Mapping, Sequence

from mpscheck.ops.recording import Recording, load_recordings
from mpscheck.probes.command import ChildResult, hook_environment, make_hook_dir, run_user_command
from mpscheck.probes.relay import Relay
from mpscheck.probes.scratch import scratch

RECORD_PREFIX = "ops"
TAIL_LINES = 12
TAIL_LINE_CHARS = 400


@dataclass
class RecordedRun:
    child: ChildResult
    recording: Recording
    last_words: tuple[str, ...] = field(default_factory=tuple)  # the script's last stderr lines


class StderrTail:
    """The last few lines a child wrote to stderr, each cut to a bounded length, control bytes dropped."""

    def __init__(self, lines: int = TAIL_LINES, chars: int = TAIL_LINE_CHARS) -> None:
        self._lines: deque[str] = deque(maxlen=lines)
        self._chars = chars

    def feed(self, line: str) -> None:
        cleaned = "".join(ch for ch in line[: self._chars * 2] if ch.isprintable() or ch == "\t")
        cut = cleaned[: self._chars] + (" [cut]" if len(cleaned) > self._chars else "")
        if cut.strip():
            self._lines.append(cut)

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(self._lines)


def record_command(
    argv: Sequence[str],
    environ: Mapping[str, str],
    *,
    stdout: IO[Any] | int | None = None,
    extra_env: Mapping[str, str] | None = None,
    warn_always: bool = False,
    on_stderr_line: Callable[[str], None] | None = None,
) -> RecordedRun:
    """Run *argv* with the recording hook and return how it ended, every op it ran, and its last words."""
    tail = StderrTail()

    def each_line(line: str) -> None:
        tail.feed(line)
        if on_stderr_line is not None:
            on_stderr_line(line)

    # The relay outlives the folder: a signal is forwarded to the script, or held until the folder is gone.
    with Relay() as relay, scratch("mpscheck-ops-") as folder:
        hook_dir = make_hook_dir(folder)
        env = hook_environment(environ, hook_dir, record_prefix=f"{folder}/{RECORD_PREFIX}", warn_always=warn_always)
        env.update(extra_env or {})
        child = run_user_command(argv, env, stdout=stdout, on_stderr_line=each_line, relay=relay)
        recording = load_recordings(folder, RECORD_PREFIX)
    return RecordedRun(child, recording, tail.lines)


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
