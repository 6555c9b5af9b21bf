"""Every process a probe starts ends with it, whatever ends mpscheck.

Each net has a hole the next one covers:

- the process group (the command runs in its own session): one ``killpg`` reaches every process
  that did not leave it;
- the tree seen while it runs (psutil): it remembers a child that called ``setsid``;
- a marker: the command and its descendants inherit ``MPSCHECK_RUN_TOKEN=<this run's token>``, so
  at the end a daemon that double-forked out of both (re-parented to init before any scan saw it)
  is still found, by its environment, among the processes started since the run began (readable
  for our own user on Linux and macOS; unreadable ones are not ours to kill anyway);
- a control pipe, for when mpscheck is killed outright (SIGKILL from a CI timeout or the OOM
  killer) and can clean nothing: the command inherits the read end (its number in
  ``MPSCHECK_CONTROL_FD``); the agent watches it from a thread and, at end-of-file, kills its own
  process group and exits (probes/agent/watchdog.py).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

MARKER_ENV = "MPSCHECK_RUN_TOKEN"
CONTROL_FD_ENV = "MPSCHECK_CONTROL_FD"  # read by probes/agent/watchdog.py

# The signals whose default action ends mpscheck and that a handler can catch: each one must end
# the command too (probes) or reach it (the user's own command in `run`/`ops`). SIGKILL and SIGSTOP
# cannot be caught; the job-control, fault and informational signals are left alone.
TERMINATING_SIGNALS = (
    "SIGINT",
    "SIGTERM",
    "SIGHUP",
    "SIGQUIT",
    "SIGUSR1",
    "SIGUSR2",
    "SIGALRM",
    "SIGVTALRM",
    "SIGPROF",
    "SIGXCPU",
    "SIGXFSZ",
    "SIGPWR",
)


def terminating_signals() -> list[int]:
    """The numbers of TERMINATING_SIGNALS on this platform (SIGPWR is Linux only)."""
    return [getattr(signal, name) for name in TERMINATING_SIGNALS if hasattr(signal, name)]


def new_token() -> str:
    return os.urandom(12).hex()  # what secrets.token_hex(12) returns, without hmac's and OpenSSL's import


class Tree:
    """The command's descendants: those seen while it runs, and at the end those carrying the marker.

    A process is only killed if it is still the one that was seen (psutil checks the start time).
    """

    def __init__(self, pid: int, token: str | None = None) -> None:
        self.pid = pid
        self.token = token
        self.since = time.time() - 1.0  # create_time has coarse resolution on some systems
        self.seen: dict[int, Any] = {}  # pid -> psutil.Process

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

    def find_marked(self) -> None:
        """Add every process started since the run began whose environment carries this run's token."""
        if not self.token:
            return
        me = os.getpid()
        if LINUX_PROC.is_dir():  # the kernel's own table: a few microseconds a process, not psutil's fifty
            marked = linux_marked(self.token, self.since, skip={me, *self.seen})
            if not marked:  # the usual end: psutil is not even imported
                return
            try:
                import psutil
            except ImportError:
                return
            for pid in marked:
                with contextlib.suppress(psutil.Error, OSError):
                    self.seen[pid] = psutil.Process(pid)  # kill() checks it is still this process
            return
        try:
            import psutil
        except ImportError:
            return
        for process in psutil.process_iter(["create_time"]):
            created = process.info.get("create_time")
            if process.pid == me or process.pid in self.seen or created is None or created < self.since:
                continue
            with contextlib.suppress(psutil.Error, OSError):
                if has_marker(process, self.token):
                    self.seen[process.pid] = process

    def kill(self) -> None:
        if not self.seen:
            return
        try:
            import psutil
        except ImportError:
            return
        for process in self.seen.values():
            with contextlib.suppress(psutil.Error, OSError):
                process.kill()


LINUX_PROC = Path("/proc/self") if sys.platform.startswith("linux") else Path("/nonexistent")


def linux_marked(token: str, since: float, skip: set[int]) -> list[int]:
    """The pids started at or after *since* (epoch seconds) whose environment holds this run's token.

    Reads /proc directly: the start time from ``/proc/<pid>/stat`` (clock ticks since boot), and the
    environment only of the processes that started since the run began; a host with thousands of
    processes costs milliseconds. Unreadable entries (other users, a process that just ended) are
    not ours to kill and are passed over.
    """
    boot = _boot_time()
    if boot is None:
        return []
    ticks = os.sysconf("SC_CLK_TCK")
    wanted = f"{MARKER_ENV}={token}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in skip:
            continue
        try:
            started = boot + _start_ticks(name) / ticks
            if started < since:
                continue
            with open(f"/proc/{name}/environ", "rb") as handle:
                environ = handle.read()
        except (OSError, ValueError, IndexError):
            continue
        if wanted in environ.split(b"\0"):
            found.append(int(name))
    return found


def linux_start_time(pid: int) -> float | None:
    """When *pid* started, in epoch seconds, as psutil's create_time() computes it on Linux (boot
    time plus the start in clock ticks); None where /proc cannot tell (the process is gone)."""
    boot = _boot_time()
    try:
        return None if boot is None else boot + _start_ticks(str(pid)) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _start_ticks(pid: str) -> int:
    """Field 22 of /proc/<pid>/stat, counted after the command name (which may hold spaces and ')')."""
    with open(f"/proc/{pid}/stat", "rb") as handle:
        stat = handle.read()
    return int(stat[stat.rindex(b")") + 2 :].split()[19])


def _boot_time() -> float | None:
    try:
        with open("/proc/stat", "rb") as handle:
            for line in handle:
                if line.startswith(b"btime "):
                    return float(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def has_marker(process: Any, token: str) -> bool:
    """True when *process*'s environment (psutil reads it from the kernel) holds this run's token."""
    return bool(process.environ().get(MARKER_ENV) == token)


class ControlPipe:
    """The pipe whose closing tells the agent that mpscheck is gone: mpscheck holds the only write end."""

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()  # neither inheritable (PEP 446) until pass_fds says so

    def child_env(self) -> dict[str, str]:
        return {CONTROL_FD_ENV: str(self.read_fd)}

    def started(self) -> None:
        """The child has its copy of the read end; ours must go, or our own death would not close it."""
        self._close("read_fd")

    def close(self) -> None:
        self._close("read_fd")
        self._close("write_fd")

    def _close(self, attr: str) -> None:
        fd = getattr(self, attr)
        if fd is not None:
            setattr(self, attr, None)
            with contextlib.suppress(OSError):
                os.close(fd)
