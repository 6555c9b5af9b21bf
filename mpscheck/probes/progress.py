"""Progress while the target interpreter works: which stage, in words, how far along, for how long.

A cold ``import torch`` after an install, a first Metal shader compile, or a bench's training run
can take a minute; silence that long looks hung, on a terminal and in a CI log alike. The agent's
own ``start`` records (probes/agent/protocol.py) name the stage and, where it knows, its place
(``{"n": 2, "of": 18}``), so this only reads them. On a terminal one self-rewriting line on stderr,
erased after; on any other real stream (a CI log, a pipe, a file) one plain line when a stage has
run for a few seconds and one with its time when it ends, so quick stages stay silent (but never
all of them for more than ten seconds: a bench's run of short stages still shows where it is).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import Any, Callable, TextIO

SLOW_SECONDS = 10.0
PLAIN_AFTER_SECONDS = 5.0  # a stage quicker than this prints nothing in a log...
PLAIN_SILENCE_SECONDS = 10.0  # ...unless the log has been silent this long through many quick ones
LABELS = {"": "starting the interpreter", "interpreter": "reading the interpreter", "torch": "importing torch"}
SLOW_NOTES = {
    "torch": "a first import after an install is slow",
    "step:": "a first run on the GPU compiles its kernels",
}
MODELS = {"resnet50": "ResNet-50", "bert-base": "BERT-base", "vgg16": "VGG16"}
DEVICE_STAGES = ("device", "bench-device")  # their done record names the device the work runs on


def _workload(name: str) -> str:
    if name.startswith("matmul-"):
        return f"{name[7:]} matmul"
    return MODELS.get(name, name)


def _bench_label(rest: str, device: str) -> str:
    kind, _, name = rest.partition(":")
    if kind == "info":
        return "reading the device" if device == "the device" else f"reading the {device} device"
    if kind == "numerics":
        return f"checking {_workload(name)} on {device} against the CPU"
    if kind != "time":
        return "bench:" + rest
    if name.endswith(":cpu"):
        return f"training {_workload(name[:-4])} on the CPU (the baseline)"
    if name in MODELS:
        return f"training {MODELS[name]} on {device}"
    return f"timing {'copies' if name == 'copy' else _workload(name)} on {device}"


def label(stage: str, device: str | None = None) -> str:
    """A stage id in words: ``bench:time:resnet50`` -> ``training ResNet-50 on cuda``."""
    where = device or "the device"
    if stage.startswith("step:"):
        return f"running the {stage[5:]} step" + (f" on {device}" if device else "")
    if stage.startswith("bench:"):
        return _bench_label(stage[6:], where)
    return LABELS.get(stage, stage)


def _count(data: Any) -> str:
    """``, 2 of 18`` from a start record's place, when it has a readable one."""
    if not isinstance(data, dict):
        return ""
    n, of = data.get("n"), data.get("of")
    if type(n) is int and type(of) is int and 0 < n <= of:
        return f", {n} of {of}"
    return ""


class Progress:
    """One self-rewriting line: ``training ResNet-50 on cuda, 2 of 6… 12 s``, with a note once slow."""

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic, interval: float = 1.0) -> None:
        self.stream = stream
        self.clock = clock
        self.interval = interval
        self.stage = ""
        self.place = ""
        self.device: str | None = None
        self.between = False  # a stage ended and the next has not started (the plain lines' pause)
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
        if not isinstance(record, dict) or not isinstance(record.get("stage"), str):
            return
        stage, data = record["stage"], record.get("data")
        if record.get("event") == "done":
            if stage in DEVICE_STAGES and isinstance(data, dict) and isinstance(data.get("device"), str):
                self.device = data["device"]
            self.stage_done(stage)
            return
        if record.get("event") == "start":
            self.stage_ended()
            with self._lock:
                self.stage, self.place, self.since = stage, _count(data), self.clock()
                self.between = False
            self.draw()

    def stage_done(self, stage: str) -> None:
        """A ``done`` record: the terminal line waits for the next start; a log says the time."""

    def stage_ended(self) -> None:
        """The stage shown so far has given way to another (or the run ended)."""

    def words(self) -> str:
        return label(self.stage, self.device) + self.place

    def text(self) -> str:
        elapsed = self.clock() - self.since
        note = next((n for prefix, n in SLOW_NOTES.items() if self.stage.startswith(prefix)), None)
        slow = f" ({note})" if note and elapsed >= SLOW_SECONDS else ""
        return f"mpscheck: {self.words()}… {int(elapsed)} s{slow}"

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
        self.finish()

    def finish(self) -> None:
        with self._lock:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self.draw()


class PlainProgress(Progress):
    """For logs: ``mpscheck: importing torch…`` once a stage has run a few seconds, then its time."""

    def __init__(
        self,
        stream: TextIO,
        clock: Callable[[], float] = time.monotonic,
        interval: float = 0.5,
        after: float = PLAIN_AFTER_SECONDS,
    ) -> None:
        super().__init__(stream, clock, interval)
        self.after = after
        self.announced = False  # this stage's first line is out; its time follows when it ends
        self.last_line = self.since

    def draw(self) -> None:
        with self._lock:
            now = self.clock()
            if self.announced or self.between:
                return
            if now - self.since < self.after and now - self.last_line < PLAIN_SILENCE_SECONDS:
                return
            self.announced = True
            self._write(f"mpscheck: {self.words()}…")

    def stage_done(self, stage: str) -> None:
        if stage == self.stage:
            self.stage_ended()

    def stage_ended(self) -> None:
        with self._lock:
            if self.announced:
                self._write(f"mpscheck: {self.words()}: {self.clock() - self.since:.1f} s")
            self.announced = False
            self.between = True

    def finish(self) -> None:
        with self._lock:
            if self.announced:  # the run ended inside this stage: a timeout or a crash
                self._write(f"mpscheck: {self.words()}: stopped after {self.clock() - self.since:.1f} s")
            self.announced = False

    def _write(self, line: str) -> None:
        self.last_line = self.clock()
        self.stream.write(line + "\n")
        self.stream.flush()


def terminal_progress(stream: TextIO | None = None, is_tty: Callable[[], bool] | None = None) -> Progress | None:
    """The progress for *stream* (stderr): drawn on a terminal, plain lines on any other real stream
    (a CI log, a pipe, a file); None for a stream with no file behind it (a test's capture)."""
    stream = sys.stderr if stream is None else stream
    try:
        tty = is_tty() if is_tty is not None else stream.isatty()
        if is_tty is None:
            stream.fileno()
    except (AttributeError, ValueError, OSError):  # io.UnsupportedOperation is both
        return None
    if tty and os.environ.get("TERM") != "dumb":  # a dumb terminal would print the escape codes literally
        return Progress(stream)
    return PlainProgress(stream)
