"""Run the user's own command: output streams live, signals are forwarded, the exit code is kept.

This is the one subprocess without a timeout, by design: it is the user's training run, which may
take as long as it takes (mpscheck's own probes go through ``process.run_command``). SIGINT and
SIGTERM that reach mpscheck are passed on to the child and mpscheck waits for it to end. When the
child shares a terminal with us, a Ctrl-C from that terminal already reached it (the whole
foreground process group gets it), so that SIGINT is not sent a second time.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Mapping, Sequence

from mpscheck.probes import startup_hook

HOOK_SOURCE = Path(startup_hook.__file__).resolve()
FORWARDED_SIGNALS = ("SIGINT", "SIGTERM")


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
) -> ChildResult:
    """Start *argv*, stream its output, forward SIGINT/SIGTERM, and wait for it however long it runs.

    *stdout*: where the child's stdout goes (None: ours, inherited; 2: our stderr). *on_stderr_line*: when given,
    the child's stderr is read through a pipe, copied to ours as it arrives, and each line passed
    to this callback (used by ``run --trace`` to read torch's fallback warnings and tables).
    """
    started = time.perf_counter()
    try:
        proc = subprocess.Popen(
            list(argv),
            env=dict(env),
            stdout=stdout,
            stderr=subprocess.PIPE if on_stderr_line else None,
        )
    except OSError as exc:
        return ChildResult(tuple(argv), None, time.perf_counter() - started, start_error=str(exc))
    forwarded: list[str] = []
    previous = _forward_signals(proc, forwarded)
    tee = None
    if on_stderr_line is not None and proc.stderr is not None:
        tee = threading.Thread(target=_tee_lines, args=(proc.stderr, on_stderr_line), daemon=True)
        tee.start()
    try:
        returncode = _wait(proc)
    finally:
        _restore_signals(previous)
    if tee is not None:
        tee.join(timeout=10)  # the pipe closes when the child (and any helper holding it) ends
    return ChildResult(tuple(argv), returncode, time.perf_counter() - started, signals_forwarded=tuple(forwarded))


def _wait(proc: subprocess.Popen[bytes]) -> int:
    while True:
        try:
            return proc.wait()
        except KeyboardInterrupt:  # only if a handler could not be installed: keep waiting for the child
            continue


def _terminal_already_told(proc: subprocess.Popen[bytes]) -> bool:
    """True when a terminal Ctrl-C reached the child directly: it is in our foreground group."""
    try:
        if not os.isatty(0):
            return False
        return os.tcgetpgrp(0) == os.getpgrp() == os.getpgid(proc.pid)
    except (OSError, AttributeError):
        return False


def _forward_signals(proc: subprocess.Popen[bytes], forwarded: list[str]) -> dict[int, Any]:
    previous: dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous  # signal handlers can only be set from the main thread

    def forward(signum: int, frame: object) -> None:
        name = signal.Signals(signum).name
        forwarded.append(name)
        if signum == signal.SIGINT and _terminal_already_told(proc):
            return
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signum)

    for name in FORWARDED_SIGNALS:
        number = getattr(signal, name, None)
        if number is None:
            continue
        try:
            previous[number] = signal.signal(number, forward)
        except (OSError, ValueError):
            continue
    return previous


def _restore_signals(previous: dict[int, Any]) -> None:
    for number, handler in previous.items():
        try:
            signal.signal(number, handler)
        except (OSError, ValueError, TypeError):
            continue


def _tee_lines(stream: IO[bytes], on_line: Callable[[str], None]) -> None:
    out = getattr(sys.stderr, "buffer", None)
    for raw in iter(stream.readline, b""):
        if out is not None:
            out.write(raw)
            out.flush()
        else:
            sys.stderr.write(raw.decode("utf-8", "replace"))
            sys.stderr.flush()
        try:
            on_line(raw.decode("utf-8", "replace").rstrip("\r\n"))
        except Exception:  # a parser bug must never stop the user's output
            continue
    stream.close()
