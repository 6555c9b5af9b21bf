"""Run a command with a hard timeout and keep whatever it printed, even when it hangs or crashes.

Every subprocess mpscheck starts goes through here, so nothing can hang the doctor. The command
runs in its own session; its descendants are tracked while it runs (psutil), so that on a timeout,
on SIGINT/SIGTERM/SIGHUP to mpscheck, and at its end, the whole tree is killed: the process group
and the children that left it with setsid. Output is read as it comes, line by line for a callback
(the progress display), and the partial output is kept when the run is cut short.
"""

from __future__ import annotations

import contextlib
import math
import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import IO, Any, Callable, Mapping, Optional, Sequence

SCAN_SECONDS = 0.2  # how often the process tree is listed while the command runs
EXIT_GRACE_SECONDS = 1.0  # after the command exits: how long a helper may still hold its output open
DRAIN_SECONDS = 0.5  # after the kill: how long to wait for the last bytes in the pipes

LineCallback = Callable[[str], None]
MAX_TIMEOUT_SECONDS = 86400.0  # a day: anything longer is a typo, and 1e308 would overflow the clocks


def timeout_problem(seconds: float) -> str | None:
    """Why *seconds* cannot be a timeout (nan, inf, zero, negative, absurdly long), or None."""
    if not math.isfinite(seconds) or not 0 < seconds <= MAX_TIMEOUT_SECONDS:
        return f"must be a number of seconds above 0 and at most {MAX_TIMEOUT_SECONDS:g}, not {seconds:g}"
    return None


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
    on_line: LineCallback | None = None,
) -> Completed:
    """Run *argv*; never raises for the program's own failures, never waits long past *timeout*.

    *on_line* gets each complete line of stdout as it arrives (the last one even without a newline).
    """
    started = time.perf_counter()
    deadline = started + timeout
    with _SignalGuard() as guard:  # set before the start: a signal never finds the tree unguarded
        try:
            proc = subprocess.Popen(
                list(argv),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=dict(env) if env is not None else None,
                cwd=cwd,
                start_new_session=True,  # its own session and group: a Ctrl-C is ours to pass on
            )
        except OSError as exc:
            guard.raise_pending()
            return Completed(tuple(argv), None, "", "", time.perf_counter() - started, start_error=str(exc))
        tree = _Tree(proc.pid)
        lines: queue.Queue[Optional[bytes]] = queue.Queue()
        out: list[bytes] = []
        err: list[bytes] = []
        try:
            guard.arm()  # from here a signal raises at once; one that came during the start raises now
            assert proc.stdout is not None and proc.stderr is not None
            readers = [_reader(proc.stdout, out, lines), _reader(proc.stderr, err, None)]
            finished = _follow(proc, lines, on_line, deadline, tree)
        finally:  # a timeout, a signal or an exception in the callback: the tree goes in every case
            guard.disarm()  # a second signal must not cut the cleanup short; it is raised after it
            _end(proc, tree)
        guard.raise_pending()
    drained_by = time.perf_counter() + DRAIN_SECONDS  # one allowance for both pipes, not one each
    for reader in readers:
        reader.join(timeout=max(0.0, drained_by - time.perf_counter()))
    if on_line is not None:
        _deliver_rest(lines, on_line)
    return Completed(
        argv=tuple(argv),
        returncode=proc.returncode if finished else None,
        stdout=b"".join(list(out)).decode("utf-8", "replace"),
        stderr=b"".join(list(err)).decode("utf-8", "replace"),
        seconds=time.perf_counter() - started,
        timed_out=not finished,
    )


def _follow(
    proc: subprocess.Popen[bytes],
    lines: queue.Queue[Optional[bytes]],
    on_line: LineCallback | None,
    deadline: float,
    tree: _Tree,
) -> bool:
    """Pass lines on until the command exits and its stdout closes; False when the deadline came first."""
    stdout_closed = False
    exited_at: float | None = None
    next_scan = 0.0
    while True:
        now = time.perf_counter()
        if exited_at is None and proc.poll() is not None:
            exited_at = now
        if exited_at is not None and (stdout_closed or now - exited_at > EXIT_GRACE_SECONDS):
            return True
        if now >= deadline:
            return False
        if now >= next_scan and exited_at is None:
            tree.scan()
            next_scan = now + SCAN_SECONDS
        wait = max(0.001, min(SCAN_SECONDS, deadline - now))
        if stdout_closed:  # nothing more can arrive on the queue: wait for the exit itself, not a timeout
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=wait)
            continue
        try:
            line = lines.get(timeout=wait)
        except queue.Empty:
            continue
        if line is None:
            stdout_closed = True
        elif on_line is not None:
            on_line(line.decode("utf-8", "replace").rstrip("\r\n"))


def _reader(stream: IO[bytes], chunks: list[bytes], lines: queue.Queue[Optional[bytes]] | None) -> threading.Thread:
    """A daemon thread that keeps every byte of *stream* and, for stdout, queues whole lines."""

    def pump() -> None:
        pending = b""
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            chunks.append(chunk)
            if lines is not None:
                pending += chunk
                *complete, pending = pending.split(b"\n")
                for line in complete:
                    lines.put(line)
        if lines is not None:
            if pending:
                lines.put(pending)
            lines.put(None)
        with contextlib.suppress(OSError):
            stream.close()

    thread = threading.Thread(target=pump, name="mpscheck-pipe-reader", daemon=True)
    thread.start()
    return thread


def _deliver_rest(lines: queue.Queue[Optional[bytes]], on_line: LineCallback) -> None:
    while True:
        try:
            line = lines.get_nowait()
        except queue.Empty:
            return
        if line is not None:
            on_line(line.decode("utf-8", "replace").rstrip("\r\n"))


class _Tree:
    """The command's descendants seen so far: a child that calls setsid leaves the process group
    but not this list, and a process is only killed if it is still the one that was seen."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.seen: dict[int, Any] = {}  # pid -> psutil.Process, which remembers its start time

    def scan(self) -> None:
        try:
            import psutil

            for child in psutil.Process(self.pid).children(recursive=True):
                self.seen.setdefault(child.pid, child)
            for process in list(self.seen.values()):  # children of a child whose parent has exited
                with contextlib.suppress(psutil.Error):
                    for child in process.children(recursive=True):
                        self.seen.setdefault(child.pid, child)
        except Exception:  # psutil can fail on odd platforms; the process group is still killed
            return

    def kill(self) -> None:
        try:
            import psutil
        except ImportError:
            return
        for process in self.seen.values():
            with contextlib.suppress(psutil.Error, OSError):
                process.kill()  # psutil checks that the pid was not reused


def _end(proc: subprocess.Popen[bytes], tree: _Tree) -> None:
    """Kill the command, its process group and every descendant seen; reap the command."""
    if proc.poll() is None:
        tree.scan()
    _kill_group(proc)
    tree.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=2)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    killpg = getattr(os, "killpg", None)  # POSIX only; elsewhere the process alone is killed
    try:
        if killpg is None:
            raise ProcessLookupError
        killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(OSError):
            proc.kill()


class _SignalGuard:
    """SIGINT, SIGTERM and SIGHUP end mpscheck through the command's cleanup, never around it.

    The command runs in its own session, so a signal to mpscheck never reaches it by itself: it is
    turned into an exception (KeyboardInterrupt for SIGINT, SystemExit(128 + n) otherwise) that
    unwinds through the cleanup. Outside the armed region (the start, the cleanup) a signal is
    held and raised once that region is over. Handlers can only be set from the main thread; host
    probes in threads are short and bounded.
    """

    NAMES = ("SIGINT", "SIGTERM", "SIGHUP")

    def __init__(self) -> None:
        self.armed = False
        self.pending: int | None = None
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> _SignalGuard:
        if threading.current_thread() is threading.main_thread():
            for name in self.NAMES:
                if hasattr(signal, name):
                    number = getattr(signal, name)
                    self.previous[number] = signal.signal(number, self._on_signal)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)

    def _on_signal(self, signum: int, _frame: object) -> None:
        if self.armed:
            self._raise(signum)
        self.pending = self.pending or signum

    def arm(self) -> None:
        self.armed = True
        self.raise_pending()

    def disarm(self) -> None:
        self.armed = False

    def raise_pending(self) -> None:
        if self.pending is not None:
            signum, self.pending = self.pending, None
            self._raise(signum)

    @staticmethod
    def _raise(signum: int) -> None:
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + signum)
