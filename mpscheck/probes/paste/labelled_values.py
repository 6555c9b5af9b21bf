"""One result printed on two lines whose labels differ in the device alone, with different values: the user's own
comparison of the CPU and mps, printed as ``label: value`` ("CPU: True" above "MPS: False", pytorch#87402;
``cpu loss: 0.6931`` above ``mps loss: 2.3026``). What tensor_values.py reads for printed tensors and device_blocks.py
for blocks of numbers under a label, read for one value after its label.

A label is the text before a line's first ``:`` or ``=`` (sixty characters at most) that names exactly one of ``cpu``
and ``mps``; two labels pair when the rest of them is the same and the lines are at most two apart. Their values must
be of one kind: both ``True``/``False``, both one number, or both a printed ``tensor(...)`` or ``[...]`` of as many
numbers. A value with a unit or a word ("Apple M1 Pro", "8 cores", "12.3s") is no result, nor is one under a label of
timings or of the machine ("mps time", "cpu cores", "mps memory", "MPS available"): those differ between devices by
nature. Numbers differ as tensor_values.py says (more than rounding). Recorded as ``paste.values_differ`` on the mps
line. String operations and one bounded pattern: linear on any line.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, observe
from mpscheck.probes.paste.tensor_values import NUMBER, TAIL, Printed, _differ

KIND = "output"
MAX_LABEL = 60
DEVICE = re.compile(r"(?i)(?<![\w.-])(mps|cpu)(?![\w-])")
# Labels of what differs between two devices by nature: a timing, the machine, an availability flag.
NOT_A_RESULT = re.compile(
    r"(?i)\b(?:times?|timings?|speed|secs?|seconds?|ms|took|elapsed|duration|fps|latency|throughput|benchmarks?"
    r"|cores?|threads?|memory|ram|gb|usage|utili[sz]ation|temperature|power|count|name|model|brand|type"
    r"|available|availability|built|supported|enabled|device|backend|version)\b"
)
BOOLS = {"true": True, "false": False}
VALUE = re.compile(r"^(?:tensor\(|\[)?[-\d\s.,e+\[\]infa]{1,2000}\)?$")  # numbers, brackets, commas only
MAX_LINES = 5000  # lines read per paste: bounds the work on any input


def parse(lines: list[str]) -> list[Observation]:
    labelled: list[tuple[int, str, str, str]] = []  # (line, device, rest of the label, value)
    for number, line in enumerate(lines[:MAX_LINES], start=1):
        if (split := _split(line)) is not None:
            labelled.append((number, *split))
    for (first, device_a, rest_a, value_a), (second, device_b, rest_b, value_b) in zip(labelled, labelled[1:]):
        if second - first > 2 or {device_a, device_b} != {"cpu", "mps"} or rest_a != rest_b:
            continue
        if _apart(value_a, value_b):
            return [observe(KIND, lines, first if device_a == "mps" else second, "paste.values_differ", True)]
    return []


def _split(line: str) -> tuple[str, str, str] | None:
    """(device, rest of the label, value) of a ``label: value`` line whose label names one device, or None."""
    cut = min((i for i in (line.find(":"), line.find("=")) if i > 0), default=-1)
    if cut < 0 or cut > MAX_LABEL:
        return None
    label, value = line[:cut], line[cut + 1 :].strip()
    devices = DEVICE.findall(label)
    if len(devices) != 1 or not value or NOT_A_RESULT.search(label):
        return None
    rest = " ".join(DEVICE.sub(" ", label).lower().replace("#", " ").split())
    return devices[0].lower(), rest, value


def _apart(first: str, second: str) -> bool:
    low_a, low_b = (_bare(value).lower() for value in (first, second))
    if low_a in BOOLS and low_b in BOOLS:
        return BOOLS[low_a] != BOOLS[low_b]
    if not (VALUE.match(low_a) and VALUE.match(low_b)):
        return False
    numbers_a = tuple(float(n) for n in NUMBER.findall(low_a))
    numbers_b = tuple(float(n) for n in NUMBER.findall(low_b))
    if not numbers_a or len(numbers_a) != len(numbers_b):
        return False
    return _differ(Printed(0, "cpu", numbers_a), Printed(0, "mps", numbers_b))


def _bare(value: str) -> str:
    """A printed tensor without its keywords ("tensor([0.], device='mps:0')" is "tensor([0.])")."""
    tail = TAIL.search(value)
    return value[: tail.start()] + ")" if tail and value.startswith("tensor(") else value
