"""The same values printed on the CPU and on mps, apart: a paste's proof that mps computed wrong.

A user who doubts mps prints one result twice, once from the CPU and once from mps
(``print(y, y.to('mps'))`` printing ``tensor(1) tensor(0, device='mps:0')``, pytorch#86052;
``print(a.log_softmax(-1))`` then ``print(a.cpu().log_softmax(-1))``, with ``-inf`` only on mps,
pytorch#94043). The mps tensor in such a paste proves nothing works: its values are wrong. Recorded as
``paste.values_differ`` on the mps tensor's line, so that the judge never calls the paste healthy. A printed tensor
of float32 denormals (``2.8026e-45``, ``7.1746e-43``: memory read as floats, pytorch#83015) is recorded as
``paste.garbage_values``; the judge takes it where the paste names mps.

Only printed tensors count (a line that starts with ``tensor(``, or a REPL's ``Out[n]:``), never code that
builds one (``a = tensor([...], device='mps:0')``). Two printed tensors are a pair when they follow each other
with no prompt between (one command's output, or one script's), one on mps and the other with no device (the
CPU), with as many numbers each. They differ when some number differs; and so that a paste printing ``x`` and
then ``x.to('mps') * 2`` (or ``** 2``, where 1 stays 1) is not read as a bug, a pair of several numbers counts
only where at least half of the numbers agree, or where only one side is infinite or NaN. Across a prompt, two
results pair where the two commands call one function (beyond building, moving or compiling tensors) and the later,
on mps, turns infinite or NaN where the earlier was finite: the same computation run eagerly and then compiled, or
on the CPU and then on mps (``torch.special.polygamma(0, x)`` giving ``0.4228`` eagerly and ``-inf`` under
torch.compile on mps, pytorch#152205). Every pattern is linear: bounded runs of one character class.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from mpscheck.probes.paste.model import Observation, observe
from mpscheck.probes.paste.repl import PROMPT

KIND = "repl"
START = re.compile(r"(?:^\s*(?:Out\[\d+\]:\s*)?|\)\s+)tensor\(")  # printed at the start of a line, or after one
NUMBER = re.compile(r"-?(?:inf|nan|\d+(?:\.\d*)?(?:e[+-]?\d+)?)")
DEVICE = re.compile(r"device='(\w+)(?::\d+)?'")
TAIL = re.compile(r",\s*(?:device|dtype|grad_fn|requires_grad)=")
MAX_LINES = 60  # a printed tensor torch abbreviates ("...") long before this
MAX_BODY = 4000  # nor this many characters: an unclosed "tensor(" on every line of a long paste stays cheap
PAREN = re.compile(r"[()]")
MAX_TENSORS = 200  # the printed tensors read per paste (twice that tried): bounds the work on any input
# A float32 under FLT_MIN (1.1755e-38) as torch prints it: a denormal, which no computation of a model leaves in a
# tensor but memory read as floats does (1.4013e-45 is the bit pattern 1). Three in one printed tensor are garbage.
DENORMAL = re.compile(r"(?<![\w.])-?\d\.\d{4}e-(?:39|4[0-5])\b")
GARBAGE = 3
# A number as torch prints a tensor's floats in scientific notation ("1.4013e-45", "5.1088e-03"): a row of one.
PRINTED_NUMBER = re.compile(r"\d\.\d{4}e[+-]\d\d")
# A function a REPL command calls, and the calls that only build, move, print or compile tensors (not a computation).
CALL = re.compile(r"([A-Za-z_]\w{0,40})\(")
PLUMBING = frozenset(
    {"tensor", "to", "cpu", "mps", "cuda", "print", "compile", "float", "half", "device", "randn", "rand", "ones"}
    | {"zeros", "arange", "item", "numpy", "tolist", "detach", "clone", "contiguous", "no_grad", "manual_seed"}
)


@dataclass(frozen=True)
class Printed:
    line: int  # 1-based, where ``tensor(`` starts
    device: str  # "cpu" where torch printed none
    values: tuple[float, ...]


def parse(lines: list[str]) -> list[Observation]:
    printed = _printed(lines)
    out = _garbage(lines)
    for first, second in zip(printed, printed[1:]):
        if _prompt_between(lines, first.line, second.line):
            if _same_call(lines, first.line, second.line) and _turned_infinite(first, second):
                out.append(observe(KIND, lines, second.line, "paste.values_differ", True))
            continue
        if not _differ(first, second):
            continue
        on_mps = first if first.device == "mps" else second
        out.append(observe(KIND, lines, on_mps.line, "paste.values_differ", True))
    return out


def _same_call(lines: list[str], first: int, second: int) -> bool:
    """Two REPL commands that call one function (beyond building, moving or compiling tensors): one computation
    run twice, eagerly and compiled, or on the CPU and on mps."""
    calls = [set(CALL.findall(_command_of(lines, number))) - PLUMBING for number in (first, second)]
    return bool(calls[0] & calls[1])


def _command_of(lines: list[str], number: int) -> str:
    """The prompt line a printed result answers (within a few lines above it), or ''."""
    for at in range(number - 1, max(number - 4, 0), -1):
        if PROMPT.match(lines[at - 1]):
            return lines[at - 1]
    return ""


def _turned_infinite(first: Printed, second: Printed) -> bool:
    """The later result, on mps, is infinite or NaN where the earlier one of as many numbers is finite."""
    if second.device != "mps" or len(first.values) != len(second.values):
        return False
    return any(_special(b) and not _special(a) for a, b in zip(first.values, second.values))


def _garbage(lines: list[str]) -> list[Observation]:
    """The first printed tensor with GARBAGE denormals or more over its rows (``tensor([[ 1.1755e-38,  0.0000e+00,
    2.8026e-45, ...``, pytorch#83015: a tensor copied to mps that came back as memory read as floats). Read whatever
    the paste's shape: after a log's or a notebook's prefix, and over rows that a wrap moved to the margin (a row is
    any line of torch's printed numbers, up to MAX_LINES of them; blanks, where wrapped rows were
    joined, are passed over)."""
    first, count, rows = 0, 0, 0
    for number, line in enumerate(lines, start=1):
        start = _printed_start(line)
        if not line.strip():
            continue  # a blank where the paste reader joined a wrapped row onto the one above
        if start is not None:
            first, count, rows, line = number, 0, 0, line[start:]  # a printed tensor starts: its rows follow
        elif not (first and rows < MAX_LINES and PRINTED_NUMBER.search(line)):
            first = 0
            continue
        rows += 1
        count += len(DENORMAL.findall(line))
        if count >= GARBAGE:
            return [observe(KIND, lines, first, "paste.garbage_values", True)]
    return []


def _printed_start(line: str) -> int | None:
    """Where torch's print of a tensor starts on *line*, or None: after nothing, a log's prefix or ``Out[n]:``, never
    in code that builds one (``x = tensor(``, ``torch.tensor(``, ``print(tensor(``) or on a prompt's line."""
    at = line.find("tensor([")
    if at < 0 or PROMPT.match(line):
        return None
    return None if line[:at].rstrip()[-1:] in ("=", ".", "(", ",") else at


def _printed(lines: list[str]) -> list[Printed]:
    found: list[Printed] = []
    tried = 0
    for number, line in enumerate(lines, start=1):
        if PROMPT.match(line):
            continue
        for match in START.finditer(line):
            tried += 1
            if tried > MAX_TENSORS * 2:  # read or not (unclosed), each costs up to MAX_BODY: the work stays bounded
                return found
            body = _body(lines, number - 1, match.end())
            if body is None:
                continue
            device = DEVICE.search(body)
            data = body[: tail.start()] if (tail := TAIL.search(body)) else body
            values = tuple(float(n) for n in NUMBER.findall(data))
            if values and "..." not in data:
                found.append(Printed(number, device.group(1) if device else "cpu", values))
            if len(found) >= MAX_TENSORS:
                return found
    return found


def _body(lines: list[str], index: int, start: int) -> str | None:
    """The text between ``tensor(`` and its closing parenthesis, over as many lines as it takes (or None, when it
    does not close within MAX_LINES lines and MAX_BODY characters: every printed tensor costs at most that)."""
    depth, parts, column, read = 1, [], start, 0
    for text in lines[index : index + MAX_LINES]:
        segment = text[column : column + MAX_BODY - read]
        for paren in PAREN.finditer(segment):
            depth += 1 if paren.group() == "(" else -1
            if depth == 0:
                parts.append(segment[: paren.start()])
                return " ".join(parts)
        parts.append(segment)
        read += len(segment)
        if read >= MAX_BODY:
            return None
        column = 0
    return None


def _prompt_between(lines: list[str], first: int, second: int) -> bool:
    return any(PROMPT.match(line) for line in lines[first : second - 1])


def _differ(first: Printed, second: Printed) -> bool:
    if {first.device, second.device} != {"cpu", "mps"} or len(first.values) != len(second.values):
        return False
    pairs = list(zip(first.values, second.values))
    apart = [not _close(a, b) for a, b in pairs]
    if not any(apart):
        return False
    if len(pairs) == 1:
        return True
    one_sided = any(_special(a) != _special(b) for a, b in pairs)
    return one_sided or apart.count(False) * 2 >= len(pairs)


def _special(value: float) -> bool:
    return math.isinf(value) or math.isnan(value)


def _close(a: float, b: float) -> bool:
    if _special(a) or _special(b):
        return (math.isnan(a) and math.isnan(b)) or a == b
    return abs(a - b) <= 1e-3 * max(1.0, abs(a), abs(b))
