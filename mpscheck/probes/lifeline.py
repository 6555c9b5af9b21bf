"""The user's command in `run` and `ops` ends when mpscheck is killed outright, on Linux and macOS.

A catchable signal to mpscheck is passed on to the command (probes/relay.py), but SIGKILL (a CI
timeout, the OOM killer) leaves nobody to pass it on: the command would run on, re-parented to
init. The command is the user's program, not a Python mpscheck controls (a shell script, a binary),
so it cannot watch a pipe itself as the probe's agent does (probes/agent/watchdog.py); a small
watcher process does it for it (probes/lifeline_watcher.py). mpscheck holds the only write end of
a pipe whose read end the watcher holds; mpscheck writes one byte when it lets go (the command
ended and was reaped), and closes the pipe. End-of-file without that byte means mpscheck is gone:
the watcher sends the command SIGTERM, and SIGKILL after a grace to what is left of it and its
descendants. prctl(PR_SET_PDEATHSIG) would be Linux only, and tied to the thread that forked.

The watcher runs in its own session (a terminal's Ctrl-C or hang-up is for the command, through
mpscheck), with its standard streams on the null device (it holds none of the command's pipes, so
`run --trace` and a `| tee` see end-of-file when the command ends), and it exits as soon as the pipe
closes. If it cannot start, the command still runs, without this guarantee.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

WATCHER = Path(__file__).resolve().with_name("lifeline_watcher.py")
GRACE_SECONDS = 3.0  # between the SIGTERM a dead mpscheck's command gets and the SIGKILL
RELEASE = b"r"


class Lifeline:
    """``Lifeline.attach(pid)`` once the command started; ``close(release=...)`` once mpscheck is done with it."""

    def __init__(self, write_fd: int | None, watcher: subprocess.Popen[bytes] | None) -> None:
        self._write_fd = write_fd
        self._watcher = watcher

    @classmethod
    def attach(cls, pid: int, grace: float = GRACE_SECONDS) -> Lifeline:
        """Start the watcher for the command *pid* (not yet reaped); a Lifeline that guards nothing if it cannot."""
        created, psutil_home = _start_time(pid)
        if os.name != "posix" or created is None or not sys.executable:
            return cls(None, None)
        read_fd, write_fd = os.pipe()  # neither inheritable (PEP 446): only the watcher gets the read end
        # -I -S: no site, no environment: it starts in a few milliseconds, and loads psutil from
        # where mpscheck found it only if it has something to end.
        argv = [sys.executable, "-I", "-S", str(WATCHER), str(read_fd), str(pid), repr(created), repr(grace)]
        try:
            watcher = subprocess.Popen(
                [*argv, psutil_home],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(read_fd,),
                start_new_session=True,
            )
        except (OSError, ValueError):
            os.close(write_fd)
            return cls(None, None)
        finally:
            os.close(read_fd)
        return cls(write_fd, watcher)

    def close(self, release: bool) -> None:
        """Let go (*release*: the command ended, nothing to do) or not (the watcher ends it now); reap the watcher."""
        fd, self._write_fd = self._write_fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            if release:
                os.write(fd, RELEASE)
        with contextlib.suppress(OSError):
            os.close(fd)
        if self._watcher is not None and release:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._watcher.wait(timeout=5)


def _start_time(pid: int) -> tuple[float | None, str]:
    """The command's start time as psutil reads it (so the watcher can tell it from a later process
    with its pid), and the folder psutil was imported from (for the watcher, which runs without site)."""
    try:
        import psutil

        return float(psutil.Process(pid).create_time()), str(Path(psutil.__file__).resolve().parent.parent)
    except Exception:  # psutil missing, or the process gone and reaped already: nothing to guard
        return None, ""
