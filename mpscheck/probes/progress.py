"""The progress line on a terminal while the target interpreter works: which stage, for how long.

A cold ``import torch`` after an install, or a first Metal shader compile, can take a minute; a
silent terminal for that long looks hung. The agent's own ``start`` records (probes/agent/protocol.py) name
the stage, so this only reads them. Drawn on stderr only when it is a terminal, and erased after.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import Callable, TextIO

SLOW_SECONDS = 10.0
LABELS = {"interpreter": "reading the interpreter", "torch": "importing torch"}
SLOW_NOTES = {
    "torch": "a first import after an install is slow",
    "step:": "a first run on the GPU compiles its kernels",
}


def label(stage: str) -> str:
    if stage.startswith("step:"):
        return f"running the {stage[5:]} step"
    return LABELS.get(stage, stage)


class Progress:
    """One self-rewriting line: ``importing torch… 12 s``, with a note once a stage is slow."""

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic, interval: float = 1.0) -> None:
        self.stream = stream
        self.clock = clock
        self.interval = interval
        self.stage = ""
        self.since = clock()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def on_line(self, line: str) -> None:
        """A stdout line of the probe: a ``start`` record moves the line to that stage."""
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            return
        if isinstance(record, dict) and record.get("event") == "start" and isinstance(record.get("stage"), str):
            with self._lock:
                self.stage, self.since = record["stage"], self.clock()
            self.draw()

    def text(self) -> str:
        elapsed = self.clock() - self.since
        what = label(self.stage) if self.stage else "starting the interpreter"
        note = next((n for prefix, n in SLOW_NOTES.items() if self.stage.startswith(prefix)), None)
        slow = f" ({note})" if note and elapsed >= SLOW_SECONDS else ""
        return f"mpscheck: {what}… {int(elapsed)} s{slow}"

    def draw(self) -> None:
        with self._lock:
            self.stream.write("\r\x1b[K" + self.text())
            self.stream.flush()

    def __enter__(self) -> Progress:
        self.draw()
        self._thread = threading.Thread(target=self._tick, name="mpscheck-progress", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        with self._lock:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self.draw()


def terminal_progress(stream: TextIO | None = None, is_tty: Callable[[], bool] | None = None) -> Progress | None:
    """A Progress on *stream* (stderr) when it is a terminal; None otherwise (CI logs, pipes, files)."""
    stream = sys.stderr if stream is None else stream
    if os.environ.get("TERM") == "dumb":  # it would print the escape codes literally
        return None
    try:
        tty = is_tty() if is_tty is not None else stream.isatty()
    except (AttributeError, ValueError):
        return None
    return Progress(stream) if tty else None
