"""Run a command with a hard timeout and keep what it printed, bounded, even when it hangs or crashes.

Every subprocess mpscheck starts goes through here, so nothing can hang the doctor. The command
runs in its own session; its descendants are tracked while it runs, and at its end, on a timeout,
and on any terminating signal to mpscheck, the whole tree is killed (probes/children.py: the
process group, the children seen, the processes carrying this run's marker; a control pipe ends
the agent when mpscheck is killed outright). Output is read as it comes, line by line for a
callback (the progress display); what is kept is bounded whatever the command writes (the head of
stdout, where the protocol is, and the tail of stderr), and a cut is said aloud (``stdout_cut``).
The deadline holds however fast the command writes.
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
from typing import IO, Any, Callable, Mapping, Sequence

from mpscheck.probes.children import MARKER_ENV, ControlPipe, Tree, new_token, terminating_signals

SCAN_SECONDS = 0.2  # how often the process tree is listed while the command runs
EXIT_GRACE_SECONDS = 1.0  # after the command exits: how long a helper may still hold its output open
DRAIN_SECONDS = 0.5  # after the kill: how long to wait for the last bytes in the pipes

STDOUT_LIMIT = 8 * 1024 * 1024  # bytes of stdout kept (its head): the agent's protocol is a few KB
STDERR_LIMIT = 256 * 1024  # bytes of stderr kept (its tail): the report shows its last 2,000 characters
CALLBACK_LINE_LIMIT = 64 * 1024  # a longer stdout line reaches the callback cut to this
CALLBACK_QUEUE = 1024  # lines waiting for the callback; past that they are dropped (progress only)

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
    stdout_cut: int = 0  # bytes of stdout past STDOUT_LIMIT, not kept
    stderr_cut: int = 0  # bytes of stderr before its last STDERR_LIMIT, not kept


def run_command(
    argv: Sequence[str],
    timeout: float,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    on_line: LineCallback | None = None,
    on_start: Callable[[], None] | None = None,
) -> Completed:
    """Run *argv*; never raises for the program's own failures, never waits long past *timeout*.

    *on_line* gets each complete line of stdout as it arrives (the last one even without a newline);
    *on_start* is called once the program has started (or failed to start).
    """
    started = time.perf_counter()
    deadline = started + timeout
    token = new_token()
    control = ControlPipe()
    child_env = dict(os.environ if env is None else env)
    child_env.update({MARKER_ENV: token, **control.child_env()})
    with _SignalGuard() as guard:  # set before the start: a signal never finds the tree unguarded
        try:
            proc = subprocess.Popen(
                list(argv),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=child_env,
                cwd=cwd,
                start_new_session=True,  # its own session and group: a Ctrl-C is ours to pass on
                pass_fds=(control.read_fd,) if os.name == "posix" else (),  # Windows has no pass_fds
            )
        except (OSError, ValueError) as exc:  # ValueError: an argument with a NUL byte
            control.close()
            if on_start:
                on_start()
            guard.raise_pending()
            return Completed(tuple(argv), None, "", "", time.perf_counter() - started, start_error=str(exc))
        control.started()
        if on_start:
            on_start()
        tree = Tree(proc.pid, token)
        lines: queue.Queue[bytes | None] = queue.Queue(maxsize=CALLBACK_QUEUE)  # None: stdout closed
        stdout_closed = threading.Event()
        out, err = _Head(STDOUT_LIMIT), _Tail(STDERR_LIMIT)
        try:
            guard.arm()  # from here a signal raises at once; one that came during the start raises now
            assert proc.stdout is not None and proc.stderr is not None
            readers = [_reader(proc.stdout, out, lines, stdout_closed), _reader(proc.stderr, err, None, None)]
            finished = _follow(proc, lines, stdout_closed, on_line, deadline, tree)
        finally:  # a timeout, a signal or an exception in the callback: the tree goes in every case
            guard.disarm()  # a second signal must not cut the cleanup short; it is raised after it
            _end(proc, tree)
            control.close()
        guard.raise_pending()
    drained_by = time.perf_counter() + DRAIN_SECONDS  # one allowance for both pipes, not one each
    for reader in readers:
        reader.join(timeout=max(0.0, drained_by - time.perf_counter()))
    if on_line is not None:
        _deliver_rest(lines, on_line)
    return Completed(
        argv=tuple(argv),
        returncode=proc.returncode if finished else None,
        stdout=out.text(),
        stderr=err.text(),
        seconds=time.perf_counter() - started,
        timed_out=not finished,
        stdout_cut=out.cut,
        stderr_cut=err.cut,
    )


class _Head:
    """The first *limit* bytes of a stream; the rest is counted, not kept."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept: list[bytes] = []
        self.size = 0
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        room = max(0, self.limit - self.size)
        if room:
            self.kept.append(chunk[:room])
            self.size += min(room, len(chunk))
        self.dropped += max(0, len(chunk) - room)

    @property
    def cut(self) -> int:
        return self.dropped

    def text(self) -> str:
        return b"".join(list(self.kept)).decode("utf-8", "replace")


class _Tail(_Head):
    """The last *limit* bytes of a stream; what came before is counted, not kept."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.buffer = bytearray()

    def add(self, chunk: bytes) -> None:
        self.buffer += chunk
        if len(self.buffer) > 2 * self.limit:  # trimmed in halves: linear however small the chunks
            extra = len(self.buffer) - self.limit
            self.dropped += extra
            del self.buffer[:extra]

    @property
    def cut(self) -> int:
        return self.dropped + max(0, len(self.buffer) - self.limit)

    def text(self) -> str:
        data = bytes(self.buffer)
        return data[max(0, len(data) - self.limit) :].decode("utf-8", "replace")


def _follow(
    proc: subprocess.Popen[bytes],
    lines: queue.Queue[bytes | None],
    stdout_closed: threading.Event,
    on_line: LineCallback | None,
    deadline: float,
    tree: Tree,
) -> bool:
    """Pass lines on until the command exits and its stdout closes; False when the deadline came first."""
    exited_at: float | None = None
    # The first listing of the tree after one interval, not at once: a command just started has no
    # children yet, and a command that ends first (the doctor's target without torch) never costs
    # psutil's import; a child that left the group before then still carries the marker.
    next_scan = time.perf_counter() + SCAN_SECONDS
    while True:
        now = time.perf_counter()
        if exited_at is None and proc.poll() is not None:
            exited_at = now
        if exited_at is not None and (
            (stdout_closed.is_set() and lines.empty()) or now - exited_at > EXIT_GRACE_SECONDS
        ):
            return True
        if now >= deadline:
            return False
        if now >= next_scan and exited_at is None:
            tree.scan()
            next_scan = now + SCAN_SECONDS
        wait = max(0.001, min(SCAN_SECONDS, deadline - now))
        if stdout_closed.is_set() and lines.empty():  # nothing more can arrive: wait for the exit itself
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=min(wait, 0.05))
            continue
        try:
            line = lines.get(timeout=min(wait, 0.05))
        except queue.Empty:
            continue
        if line is None:  # the reader's word that stdout closed: look at the exit now, not 50 ms on
            continue
        if on_line is not None:
            on_line(line.decode("utf-8", "replace").rstrip("\r\n"))


def _reader(
    stream: IO[bytes], kept: _Head, lines: queue.Queue[bytes | None] | None, closed: threading.Event | None
) -> threading.Thread:
    """A daemon thread that keeps what *kept* bounds and, for stdout, queues whole lines (bounded) for the callback."""

    def pump() -> None:
        pending = b""
        overlong = False  # the current line passed CALLBACK_LINE_LIMIT: its rest is skipped
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            kept.add(chunk)
            if lines is None:
                continue
            *complete, rest = (pending + chunk).split(b"\n")
            for line in complete:
                if not overlong:
                    _offer(lines, line)
                overlong = False
            if complete or not overlong:
                pending = rest
            if len(pending) > CALLBACK_LINE_LIMIT:
                _offer(lines, pending[:CALLBACK_LINE_LIMIT])
                pending, overlong = b"", True
        if lines is not None and pending and not overlong:
            _offer(lines, pending)
        if closed is not None:
            closed.set()
        if lines is not None:  # wakes _follow, which may be waiting for a line that will never come
            _offer(lines, None)
        with contextlib.suppress(OSError):
            stream.close()

    thread = threading.Thread(target=pump, name="mpscheck-pipe-reader", daemon=True)
    thread.start()
    return thread


def _offer(lines: queue.Queue[bytes | None], line: bytes | None) -> None:
    """Queue a line for the callback; when the callback lags far behind, the line is dropped (never the kept output)."""
    with contextlib.suppress(queue.Full):
        lines.put_nowait(line)


def _deliver_rest(lines: queue.Queue[bytes | None], on_line: LineCallback) -> None:
    while True:
        try:
            line = lines.get_nowait()
        except queue.Empty:
            return
        if line is not None:
            on_line(line.decode("utf-8", "replace").rstrip("\r\n"))


def _end(proc: subprocess.Popen[bytes], tree: Tree) -> None:
    """Kill the command, its process group, every descendant seen and every one marked; reap the command."""
    if proc.poll() is None:
        tree.scan()
    _kill_group(proc)
    tree.find_marked()
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
    """Every terminating signal (children.TERMINATING_SIGNALS) ends mpscheck through the command's cleanup.

    The command runs in its own session, so a signal to mpscheck never reaches it by itself: it is
    turned into an exception (KeyboardInterrupt for SIGINT, SystemExit(128 + n) otherwise) that
    unwinds through the cleanup. Outside the armed region (the start, the cleanup) a signal is
    held and raised once that region is over. Handlers can only be set from the main thread; host
    probes in threads are short and bounded.
    """

    def __init__(self) -> None:
        self.armed = False
        self.pending: int | None = None
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> _SignalGuard:
        if threading.current_thread() is threading.main_thread():
            for number in terminating_signals():
                with contextlib.suppress(OSError, ValueError):
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
