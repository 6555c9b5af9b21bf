"""The watcher that ends the user's command of `run` or `ops` when mpscheck dies without a word.

Run by mpscheck (probes/lifeline.py) as ``python -I -S lifeline_watcher.py FD PID CREATED GRACE PSUTIL_HOME``,
in its own session, with nothing of the user's terminal. It holds the read end FD of a pipe whose only write
end is mpscheck's, and reads it until end-of-file:

- a byte came first: mpscheck saw the command end (or chose to leave it) and let go; exit, touch nothing;
- end-of-file alone: mpscheck ended without letting go (SIGKILL from a CI timeout, the OOM killer),
  so nobody is left to pass a signal on; the command PID gets SIGTERM, as a forwarded signal would
  reach it, and what is still alive of it and its descendants GRACE seconds later gets SIGKILL.

PID is only signalled while it is still the process mpscheck started: CREATED is its start time as
psutil read it before mpscheck could reap it, so a pid reused by another process is left alone.
Stdlib only until there is something to end; then psutil, mpscheck's own dependency, from the
folder mpscheck imported it from (PSUTIL_HOME: the watcher runs without site, to start fast);
it works the same on Linux and macOS, where prctl(PR_SET_PDEATHSIG) does not exist.
"""

from __future__ import annotations

import os
import sys
import time

SAME_START_SECONDS = 0.05  # start times are read from the kernel in clock ticks (10 ms on Linux)


def main(argv: list[str]) -> int:
    try:
        fd, pid, created, grace = int(argv[1]), int(argv[2]), float(argv[3]), float(argv[4])
    except (IndexError, ValueError):
        return 2
    if _released(fd):
        return 0
    if len(argv) > 5 and argv[5]:
        sys.path.insert(0, argv[5])
    _end(pid, created, grace)
    return 0


def _released(fd: int) -> bool:
    """Block until mpscheck lets go (a byte: True) or is gone (end-of-file: False)."""
    while True:
        try:
            data = os.read(fd, 1)
        except InterruptedError:
            continue
        except OSError:
            return True  # not a pipe we can read: do nothing rather than guess
        return bool(data)


def _end(pid: int, created: float, grace: float) -> None:
    try:
        import psutil
    except ImportError:
        return
    try:
        command = psutil.Process(pid)
        if abs(command.create_time() - created) > SAME_START_SECONDS:
            return  # the command ended and its pid now belongs to someone else
        family = [command, *command.children(recursive=True)]
        command.terminate()
    except psutil.Error:
        return
    _, alive = psutil.wait_procs([command], timeout=grace)
    time.sleep(0.05)  # let the command's own handler end its children first
    for process in [*alive, *family[1:], *_descendants(family)]:
        try:
            process.kill()  # psutil checks the start time again: never a reused pid
        except psutil.Error:
            continue


def _descendants(family: list[object]) -> list[object]:
    """Children started by the family after the first look (a handler that spawns on SIGTERM)."""
    found = []
    for process in family:
        try:
            found.extend(process.children(recursive=True))  # type: ignore[attr-defined]
        except Exception:  # psutil.Error: that one is gone
            continue
    return found


if __name__ == "__main__":
    sys.exit(main(sys.argv))
