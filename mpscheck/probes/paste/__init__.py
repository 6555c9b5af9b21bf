"""Parsers of pasted text: one module per kind of paste, each turning any text into observations.

``read(text)`` runs every parser over the same lines (one paste may mix kinds: a collect_env block,
a traceback, a line of prose) and returns a Paste whose ``facts`` are the probes' dataclasses with
only what the paste shows. Every parser is total: any text in, observations out, never an exception.
"""

from __future__ import annotations

import importlib
import re
from typing import Callable

from mpscheck.probes.line_breaks import one_break
from mpscheck.probes.paste.model import Observation, Paste

PARSERS = (
    "doctor_report",
    "brew",
    "container",
    "collect_env",
    "sw_vers",
    "uname",
    "sysctl",
    "x86_code",
    "crash_report",
    "shell_prompt",
    "conda",
    "pip",
    "repl",
    "tensor_values",
    "device_blocks",
    "labelled_values",
    "nan_blocks",
    "banner",
    "traceback",
    "cuda_frames",
    "error_line",
    "bare_message",
    "environment",
    "precision",
    "contrast",
    "gpu_off",
    "prose",
    "crash_words",
    "torch_pins",
    "errors",
)
ACCEPTED = (
    "a saved report (mpscheck doctor --format json), or mpscheck's text or markdown report",
    "python -m torch.utils.collect_env",
    "uname -a / uname -m / arch",
    "sysctl (machdep.cpu.brand_string, sysctl.proc_translated, hw.optional.arm64 ...)",
    "sw_vers",
    "brew config",
    "Intel MKL messages (only x86_64 code prints them)",
    "a macOS crash report (Code Type: X86-64 (Translated), OS Version: macOS 13.1 ...)",
    "a shell prompt whose host name is a Mac (user@M1-MacBook-Pro ... %)",
    "Docker's build and compose output (the Python ran in a Linux container)",
    "file / lipo -archs of the python executable",
    "conda info / conda config --show subdir",
    "pip or uv errors (No matching distribution found for torch ...)",
    "a Python REPL or python -c transcript (torch.backends.mps.is_available(), platform.processor() ...)",
    "framework banners (Lightning, Ultralytics, ComfyUI, transformers-cli env)",
    "tracebacks and warnings from torch on MPS",
    "mixed precision asked for (TrainingArguments(fp16=True), accelerate's --mixed_precision fp16)",
    "an error, warning or crash line anywhere (with or without a traceback or an exception prefix)",
    "a torch message quoted bare, in a title or a sentence, with no exception class",
    "a line of prose naming the Mac (e.g. 'on an M2 Max with 32 GB, macOS 14.5')",
)
MAX_LINE = 4000  # longer lines are cut: the patterns never need more, and regexes stay fast


def parser(name: str) -> Callable[[list[str]], list[Observation]]:
    module = importlib.import_module(f"mpscheck.probes.paste.{name}")
    parse: Callable[[list[str]], list[Observation]] = module.parse
    return parse


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # terminal colours copied along with the text
# A quoted reply in an issue thread; never a REPL's >>> prompt, not even inside a quote ("> >>> x" is ">>> x").
QUOTE = re.compile(r"^(?:>(?!>>) ?)+")


BLANKS = re.compile(r"[ \t]{33,}")  # no reader needs more than 32 blanks in a row, and \s* on more is slow


def split(text: str) -> list[str]:
    """The paste's lines, without terminal colour codes or a reply's "> " quote marks; any line too long
    to be output cut to MAX_LINE, any run of blanks to 32."""
    return [_unquote(line) for line in _raw_lines(text)]


def _raw_lines(text: str) -> list[str]:
    text = BLANKS.sub(" " * 32, ANSI.sub("", text))
    lines = one_break(text).split("\n")  # CR CR LF, CR LF and a lone CR are each one break
    return [line if _whole_repr(line) else line[:MAX_LINE] for line in lines]


def _whole_repr(line: str) -> bool:
    """A long line that is a whole paste printed as a Python string (quote, \\n escapes, the same quote): it is
    cut only once normalise has made it the lines it holds, so a long traceback keeps its last line."""
    if len(line) <= MAX_LINE:
        return False
    from mpscheck.probes.paste.normalise import string_literal

    return string_literal(line) is not None


def _unquote(line: str) -> str:
    return QUOTE.sub("", line) if line.startswith(">") and not line.startswith(">>>") else line


def read(text: str) -> Paste:
    """Every parser over the paste's lines, after normalise.py has undone wraps, reprs and annotations."""
    from mpscheck.probes.paste.normalise import normalise

    # Wraps are undone on the lines as the terminal cut them, quote marks and all; then the quotes go.
    normalised = normalise(_raw_lines(text))
    lines = [_unquote(line)[:MAX_LINE] for line in normalised.lines]  # a whole repr's lines are cut here
    observations: list[Observation] = []
    for name in PARSERS:
        observations += parser(name)(lines)
    from mpscheck.probes.paste.wrapped_prose import joined_readings

    observations += joined_readings(lines, observations)  # a sentence of the user's wrapped over two lines
    observations.sort(key=lambda o: o.line)
    return Paste("\n".join(lines), observations, origin=normalised.origin)
