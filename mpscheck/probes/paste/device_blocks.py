"""The same output printed under a label that names the CPU and under one that names mps, apart: the user's own
comparison, told by labels instead of words ("# torch 2.8.0 mps" above an embedding and "# torch 2.8.0 cpu" above the
CPU's, huggingface/sentence-transformers#3507; "with mac CPU this is the resulting loss function log" and "when using
the MPS, same code and data" above two logs, pytorch#103343).

A block is the lines of numbers right under a label line: a line that names exactly one of ``cpu`` and ``mps``. Lines
of numbers hold numbers only (brackets, commas, ``...`` and ``tensor(x)`` around them), never units: a timing
("12.3s", "4.1 it/s") is no result, nor are numbers under a label of timings ("mps time per step"). Two blocks next to
each other, one under each device (of more than two blocks, only a pair whose labels differ in the device alone),
compare their first lines: with as many numbers each (two or more), they differ where two numbers or more are apart by
more than half the larger (and 0.05), which rounding, float32 against float64 and a kernel's order of sums never give.
Recorded as ``paste.values_differ`` on the mps block's first line, the fact tensor_values.py records for one printed
tensor.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, observe

KIND = "output"
DEVICE = re.compile(r"(?i)(?<![\w.-])(mps|cpu)(?![\w-])")
# What may stand around the numbers of a printed result: brackets, commas, "tensor(" and ")", an ellipsis.
DECOR = re.compile(r"tensor\(|[\[\](),]|\.\.\.")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?")
# A label of timings ("mps time per step", "cpu speed"): numbers apart there are a speed, not a wrong result.
TIMING = re.compile(
    r"(?i)\b(?:times?|timings?|speed|secs?|seconds?|ms|took|elapsed|duration|fps|latency|throughput|benchmarks?)\b"
)
NUMBER_START = tuple("-[(t0123456789")  # how a line of numbers starts ("t" for tensor(): checked whole after)
MAX_BLOCKS = 100  # blocks read per paste: bounds the work on any input
APART, FLOOR = 0.5, 0.05


def parse(lines: list[str]) -> list[Observation]:
    blocks = _blocks(lines)
    out: list[Observation] = []
    for (first_device, first), (second_device, second) in zip(blocks, blocks[1:]):
        if {first_device, second_device} != {"cpu", "mps"}:
            continue
        if len(blocks) > 2 and _label(lines[first - 2]) != _label(lines[second - 2]):
            continue  # of several, only the two whose labels differ in the device alone ("# torch 2.8.0 mps" / cpu)
        if _apart(_numbers(lines[first - 1]), _numbers(lines[second - 1])):
            on_mps = first if first_device == "mps" else second
            out.append(observe(KIND, lines, on_mps, "paste.values_differ", True))
    return out


def _label(line: str) -> str:
    return DEVICE.sub("", line).strip().lower()


def _blocks(lines: list[str]) -> list[tuple[str, int]]:
    """(device, first line) of each block of numbers right under a line naming one device."""
    found: list[tuple[str, int]] = []
    for number, line in enumerate(lines[:-1], start=1):
        low = line.lower()
        if len(line) >= 400 or ("mps" not in low and "cpu" not in low):  # most lines name neither: no regex tried
            continue
        if lines[number].lstrip()[:1] not in NUMBER_START:  # nor is a line of numbers under most of the rest
            continue
        devices = {d.lower() for d in DEVICE.findall(line)}
        if len(devices) != 1 or TIMING.search(line):
            continue
        if _numbers(lines[number]) is not None and _numbers(line) is None:
            found.append((devices.pop(), number + 1))
            if len(found) >= MAX_BLOCKS:
                break
    return found


def _numbers(line: str) -> list[float] | None:
    """The numbers of a line that holds numbers only (two or more), else None."""
    words = DECOR.sub(" ", line).split()
    if len(words) < 2 or len(line) > 4000 or not all(NUMBER.fullmatch(w) for w in words):
        return None
    return [float(w) for w in words]


def _apart(first: list[float] | None, second: list[float] | None) -> bool:
    if first is None or second is None or len(first) != len(second):
        return False
    apart = sum(1 for a, b in zip(first, second) if abs(a - b) > max(FLOOR, APART * max(abs(a), abs(b))))
    return apart >= 2
