"""Run the user's own command: output streams live, signals are forwarded, the exit code is kept.

This is the one subprocess without a timeout, by design: it is the user's training run, which may
take as long as it takes (mpscheck's own probes go through ``process.run_command``). Every
terminating signal that reaches mpscheck is passed on to the child and mpscheck waits for it to
end (probes/relay.py); a terminal's Ctrl-C already reached a child in our foreground group, so
that SIGINT is not sent a second time. SIGKILL cannot be passed on: a watcher process ends the
command when mpscheck dies without letting go of it (probes/lifeline.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Mapping, Sequence

from mpscheck.probes import startup_hook
from mpscheck.probes.lifeline import Lifeline
from mpscheck.probes.relay import Relay

HOOK_SOURCE = Path(startup_hook.__file__).resolve()


@dataclass(frozen=True)
class ChildResult:
    """How the user's command ended. ``returncode`` is None when it could not be started."""

    argv: tuple[str, ...]
    returncode: int | None
    seconds: float
    start_error: str | None = None
    signals_forwarded: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        """The shell's convention: a child killed by signal N exits 128+N; one that never ran, 127."""
        if self.returncode is None:
            return 127
        if self.returncode < 0:
            return 128 - self.returncode
        return self.returncode


def make_hook_dir(parent: str) -> str:
    """A folder holding the start-up hook as ``sitecustomize.py``, to put first on PYTHONPATH."""
    folder = tempfile.mkdtemp(prefix="mpscheck-hook-", dir=parent)
    shutil.copyfile(HOOK_SOURCE, os.path.join(folder, "sitecustomize.py"))
    shutil.copyfile(HOOK_SOURCE.with_name("hook_pacing.py"), os.path.join(folder, startup_hook.PACING_FILE))
    return folder


def hook_environment(
    environ: Mapping[str, str],
    hook_dir: str,
    *,
    record_prefix: str | None = None,
    warn_always: bool = False,
) -> dict[str, str]:
    """The child's environment: the user's own, with the hook folder first on PYTHONPATH."""
    env = dict(environ)
    existing = env.get("PYTHONPATH")
    env["PYTHONPATH"] = hook_dir + (os.pathsep + existing if existing else "")
    env[startup_hook.HOOK_DIR_ENV] = hook_dir
    if record_prefix:
        env[startup_hook.RECORD_ENV] = record_prefix
    if warn_always:
        env[startup_hook.WARN_ALWAYS_ENV] = "1"
    return env


def run_user_command(
    argv: Sequence[str],
    env: Mapping[str, str],
    *,
    stdout: IO[Any] | int | None = None,
    on_stderr_line: Callable[[str], None] | None = None,
    relay: Relay | None = None,
) -> ChildResult:
    """Start *argv*, stream its output, forward every terminating signal, and wait for it however long it runs.

    *stdout*: where the child's stdout goes (None: ours, inherited; 2: our stderr). *on_stderr_line*: when given,
    the child's stderr is read through a pipe, copied to ours as it arrives, and each line passed
    to this callback (used by ``run --trace`` to read torch's fallback warnings and tables).
    *relay*: the caller's, when it holds temporary folders that must outlive the command (probes/relay.py).
    """
    if relay is None:
        with Relay() as own:
            return _run(argv, env, stdout, on_stderr_line, own)
    return _run(argv, env, stdout, on_stderr_line, relay)


def _run(
    argv: Sequence[str],
    env: Mapping[str, str],
    stdout: IO[Any] | int | None,
    on_stderr_line: Callable[[str], None] | None,
    relay: Relay,
) -> ChildResult:
    started = time.perf_counter()
    try:
        proc = subprocess.Popen(
            list(argv),
            env=dict(env),
            stdout=stdout,
            stderr=subprocess.PIPE if on_stderr_line else None,
        )
    except (OSError, ValueError) as exc:  # ValueError: an argument with a NUL byte
        return ChildResult(tuple(argv), None, time.perf_counter() - started, start_error=str(exc))
    relay.attach(proc)
    lifeline = Lifeline.attach(proc.pid)  # for when mpscheck is killed outright and the relay cannot act
    tee = None
    if on_stderr_line is not None and proc.stderr is not None:
        tee = threading.Thread(target=_tee_lines, args=(proc.stderr, on_stderr_line), daemon=True)
        tee.start()
    try:
        returncode = _wait(proc)
    finally:
        relay.detach()
        lifeline.close(release=proc.returncode is not None)  # still running: mpscheck is leaving, so is it
    if tee is not None:
        tee.join(timeout=10)  # the pipe closes when the child (and any helper holding it) ends
    return ChildResult(tuple(argv), returncode, time.perf_counter() - started, signals_forwarded=tuple(relay.forwarded))


def _wait(proc: subprocess.Popen[bytes]) -> int:
    while True:
        try:
            return proc.wait()
        except KeyboardInterrupt:  # only if a handler could not be installed: keep waiting for the child
            continue


TEE_LINE_LIMIT = 65536  # a longer line is copied in pieces: the child's bytes all pass, mpscheck's memory stays bounded


def _tee_lines(stream: IO[bytes], on_line: Callable[[str], None]) -> None:
    """Copy the child's stderr to ours as it comes; when ours cannot be written, keep draining the
    pipe, so the child never blocks on a full pipe because mpscheck's stderr went away."""
    copy = True
    for raw in iter(lambda: stream.readline(TEE_LINE_LIMIT), b""):
        if copy:
            try:
                _copy_to_stderr(raw)
            except Exception:  # a closed or full stderr (StreamError, OSError): the child goes on
                copy = False
        try:
            on_line(raw.decode("utf-8", "replace").rstrip("\r\n"))
        except Exception:  # a parser bug must never stop the user's output
            continue
    stream.close()


def _copy_to_stderr(raw: bytes) -> None:
    out = getattr(sys.stderr, "buffer", None)
    if out is not None:
        out.write(raw)
        out.flush()
    else:
        sys.stderr.write(raw.decode("utf-8", "replace"))
        sys.stderr.flush()
