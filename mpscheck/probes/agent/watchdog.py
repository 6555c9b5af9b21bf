"""End the agent, and every process in its group, when mpscheck is gone.

mpscheck holds the only write end of a pipe whose read end this process inherited (its number in
MPSCHECK_CONTROL_FD). Nothing is ever written to it: end-of-file means every write end closed, that
is, mpscheck ended, however it ended (SIGKILL from a CI timeout or the OOM killer included), and
cannot kill the probe itself. A daemon thread waits for that and then kills the agent's process
group (the agent leads its own session, so that is the agent and what it started) and exits.
Stdlib only, like the rest of the agent; it works the same on Linux and macOS.
"""

from __future__ import annotations

import os
import signal
import threading

CONTROL_FD_ENV = "MPSCHECK_CONTROL_FD"  # set by mpscheck's probes/children.py


def start(environ=None):
    """Watch the control pipe named in the environment; returns the thread, or None without one."""
    environ = os.environ if environ is None else environ
    raw = environ.pop(CONTROL_FD_ENV, None)  # torch's own subprocesses need not see it
    try:
        fd = int(raw)
        os.set_inheritable(fd, False)  # nor inherit it: only the agent watches
    except (TypeError, ValueError, OSError):
        return None
    thread = threading.Thread(target=_watch, args=(fd,), name="mpscheck-watchdog", daemon=True)
    thread.start()
    return thread


def _watch(fd):
    while True:
        try:
            data = os.read(fd, 1)
        except InterruptedError:
            continue
        except OSError:
            return  # not a pipe we can read: no watchdog, mpscheck's own cleanup still holds
        if not data:
            break
    _end_group()


def _end_group():
    try:
        if os.getpgrp() == os.getpid():  # our own group: the agent and what it started, nothing else
            os.killpg(os.getpid(), signal.SIGKILL)
    finally:
        os._exit(137)
