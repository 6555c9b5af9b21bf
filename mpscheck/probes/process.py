"""Run a command with a hard timeout and keep whatever it printed, even when it hangs or crashes.

Every subprocess mpscheck starts goes through here, so nothing can hang the doctor: on timeout
the whole process group is killed (torch may have started helpers) and the partial output kept.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Mapping, Sequence


@dataclass(frozen=True)
class Completed:
    argv: tuple[str, ...]
    returncode: int | None  # None: timed out, or could not start
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    start_error: str | None = None  # set when the program could not be started at all


def run_command(
    argv: Sequence[str],
    timeout: float,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
) -> Completed:
    """Run *argv*; never raises for the program's own failures, never waits past *timeout*."""
    started = time.perf_counter()
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            start_new_session=True,  # its own process group, so a timeout kills helpers too
        )
    except OSError as exc:
        return Completed(tuple(argv), None, "", "", time.perf_counter() - started, start_error=str(exc))
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:  # a helper left the group and holds the pipes open
            out, err = b"", b""
        timed_out = True
    return Completed(
        argv=tuple(argv),
        returncode=None if timed_out else proc.returncode,
        stdout=out.decode("utf-8", "replace"),
        stderr=err.decode("utf-8", "replace"),
        seconds=time.perf_counter() - started,
        timed_out=timed_out,
    )


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    killpg = getattr(os, "killpg", None)  # POSIX only; elsewhere the process alone is killed
    try:
        if killpg is None:
            raise ProcessLookupError
        killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
