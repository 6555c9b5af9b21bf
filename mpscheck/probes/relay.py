"""Pass every terminating signal on to the user's command, and keep mpscheck alive to clean up after it.

`run` and `ops` run the user's own program, which decides what a signal means (a training script
saves a checkpoint on SIGTERM, prints a summary on SIGUSR1). So a catchable terminating signal
(children.TERMINATING_SIGNALS: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, ...) that reaches
mpscheck while the command runs is forwarded to it, and mpscheck waits for the command to end and
then removes its temporary folders; its exit code is the command's. The relay is installed before
the folders are made and removed after they are gone: a signal that comes while no command runs
(before the start, after the end) is held and raised once the cleanup is done (KeyboardInterrupt
for SIGINT, SystemExit(128 + n) otherwise), and one held before the start is forwarded as soon as
the command exists. A terminal's Ctrl-C (SIGINT) or Ctrl-\\ (SIGQUIT) already reached a command
in our foreground process group, so it is not sent twice.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from typing import Any

from mpscheck.probes.children import terminating_signals

TERMINAL_KEYS = ("SIGINT", "SIGQUIT")  # the signals a terminal sends to its whole foreground group


class Relay:
    """A context manager; ``attach(proc)`` once the command started, ``detach()`` once it ended."""

    def __init__(self) -> None:
        self.child: subprocess.Popen[bytes] | None = None
        self.forwarded: list[str] = []
        self.pending: list[int] = []
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> Relay:
        if threading.current_thread() is not threading.main_thread():
            return self  # handlers can only be set from the main thread
        for number in terminating_signals():
            with contextlib.suppress(OSError, ValueError):
                self.previous[number] = signal.signal(number, self._on_signal)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, handler in self.previous.items():
            with contextlib.suppress(OSError, ValueError, TypeError):
                signal.signal(number, handler)
        self.previous = {}
        if self.pending and exc[0] is None:
            raise_for(self.pending[0])

    def attach(self, proc: subprocess.Popen[bytes]) -> None:
        """The command runs: held signals go to it now, later ones as they come."""
        self.child = proc
        held, self.pending = self.pending, []
        for signum in held:
            self._forward(signum)

    def detach(self) -> None:
        self.child = None

    def _on_signal(self, signum: int, _frame: object) -> None:
        if self.child is None or self.child.poll() is not None:
            self.pending.append(signum)
            return
        self._forward(signum)

    def _forward(self, signum: int) -> None:
        proc = self.child
        if proc is None:
            return
        self.forwarded.append(signal.Signals(signum).name)
        if signal.Signals(signum).name in TERMINAL_KEYS and _terminal_already_told(proc):
            return
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signum)


def raise_for(signum: int) -> None:
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise SystemExit(128 + signum)


def _terminal_already_told(proc: subprocess.Popen[bytes]) -> bool:
    """True when a terminal's key reached the child directly: it is in our foreground group."""
    try:
        if not os.isatty(0):
            return False
        return os.tcgetpgrp(0) == os.getpgrp() == os.getpgid(proc.pid)
    except (OSError, AttributeError):
        return False
