"""The same output line printed under a label that names the CPU and under one that names mps, with NaN only under mps:
the user's own comparison, told by labels, of a result that is no line of numbers ("Testing for NaNs on cpu..." above
"Has NaNs: False - Range: -4.285 to 4.419 - output", "Testing for NaNs on mps..." above "Has NaNs: True - Range: nan to
nan - output", pytorch#151667). device_blocks.py reads lines of numbers only; this reads lines of words and numbers.

A block is the lines right under a label line (a line that names exactly one of ``cpu`` and ``mps``, as in
device_blocks.py), up to the next blank line, the next label or MAX_LINES lines. Two blocks next to each other, one
under each device: a line of the mps block that shows ``nan`` and a line of the CPU block with none, the same line once
numbers, NaNs and true/false are set aside, is the same output apart. Recorded as ``paste.values_differ`` on the mps
block's line, the fact device_blocks.py records.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.device_blocks import MAX_BLOCKS, label_device
from mpscheck.probes.paste.model import Observation, observe

KIND = "output"
NAN = re.compile(r"(?i)(?<![\w.])[-+]?nan(?![\w(])")  # a NaN printed, never "NaNs" or torch.nan or nan_to_num(
# What the same line holds apart from its values: numbers, NaNs and booleans set aside.
VALUE = re.compile(r"(?i)(?<![\w.])[-+]?(?:nan|inf|true|false|\d+(?:\.\d+)?(?:e[+-]?\d+)?)(?![\w(])")
MAX_LINES = 6  # lines read under a label: a check's few lines of output, never a log
# A line of code is no output: a statement, or an assignment (never "tensor([nan], device='mps:0')", a result).
CODE = re.compile(r"^\s*(?:(?:import|from|def|print|for|if|with|return)\b|[\w.\[\]]+\s*=[^=])")


def parse(lines: list[str]) -> list[Observation]:
    blocks = _blocks(lines)
    out: list[Observation] = []
    for (first_device, first), (second_device, second) in zip(blocks, blocks[1:]):
        if {first_device, second_device} != {"cpu", "mps"}:
            continue
        on_mps, on_cpu = (first, second) if first_device == "mps" else (second, first)
        clean = {_shape(lines[n - 1]) for n in on_cpu if not NAN.search(lines[n - 1])}
        for number in on_mps:
            if NAN.search(lines[number - 1]) and _shape(lines[number - 1]) in clean:
                out.append(observe(KIND, lines, number, "paste.values_differ", True))
                break
    return out


def _shape(line: str) -> str:
    return VALUE.sub("#", line).strip().lower()


def _blocks(lines: list[str]) -> list[tuple[str, list[int]]]:
    """(device, 1-based line numbers of the output under it) of each label naming one device with output under it."""
    found: list[tuple[str, list[int]]] = []
    for index, line in enumerate(lines):
        if "mps" not in line.lower() and "cpu" not in line.lower():
            continue  # most lines name no device: no label
        label = label_device(line)
        if label is None or CODE.search(line):
            continue
        under: list[int] = []
        for number in range(index + 1, min(len(lines), index + 1 + MAX_LINES)):
            text = lines[number]
            if not text.strip() or label_device(text) is not None:
                break
            if not CODE.search(text):
                under.append(number + 1)
        if under:
            found.append((label[0], under))
            if len(found) >= MAX_BLOCKS:
                break
    return found
