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
    for (first_device, first, first_label), (second_device, second, second_label) in zip(blocks, blocks[1:]):
        if {first_device, second_device} != {"cpu", "mps"}:
            continue
        if len(blocks) > 2 and _label(first_label) != _label(second_label):
            continue  # of several, only the two whose labels differ in the device alone ("# torch 2.8.0 mps" / cpu)
        if _apart(_numbers(lines[first - 1]), _numbers(lines[second - 1])):
            on_mps = first if first_device == "mps" else second
            out.append(observe(KIND, lines, on_mps, "paste.values_differ", True))
    return out


def _label(line: str) -> str:
    return DEVICE.sub("", line).strip().lower()


def _blocks(lines: list[str]) -> list[tuple[str, int, str]]:
    """(device, first line, label) of each block of numbers right under a line naming one device, or under the line
    before it where a long label was wrapped ("... with mac CPU this is the resulting loss" / "function log")."""
    found: list[tuple[str, int, str]] = []
    for index in range(1, len(lines)):
        if lines[index].lstrip()[:1] not in NUMBER_START or not _names_device(lines[max(0, index - 2) : index]):
            continue  # most lines start no block of numbers, and most have no device named just above
        if _numbers(lines[index - 1]) is not None:
            continue  # a block's next lines are no start
        if _numbers(lines[index]) is None:
            continue
        label = next((d for d in map(label_device, lines[max(0, index - 2) : index][::-1]) if d is not None), None)
        if label is not None:
            found.append((label[0], index + 1, label[1]))
            if len(found) >= MAX_BLOCKS:
                break
    return found


def _names_device(above: list[str]) -> bool:
    low = " ".join(above).lower()
    return "mps" in low or "cpu" in low


def label_device(line: str) -> tuple[str, str] | None:
    """(the one device a label line names, the line), or None."""
    low = line.lower()
    if len(line) >= 400 or ("mps" not in low and "cpu" not in low) or TIMING.search(line):
        return None
    devices = {d.lower() for d in DEVICE.findall(line)}
    return (devices.pop(), line) if len(devices) == 1 else None


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
