"""REPL transcripts and `python -c` one-liners: torch.backends.mps.is_available() / is_built(),
platform.processor() / machine() / platform() / mac_ver(), torch.__version__, sys.version, and a
tensor printed with device='mps:0' (which proves MPS worked).

An expression counts only when the line after it (or the text after ``=``/``:`` on the same line)
has the shape of its value, so a script line such as ``if torch.backends.mps.is_available():``
followed by code observes nothing.
"""

from __future__ import annotations

import re

from mpscheck.probes.paste.model import Observation, observe

KIND = "repl"
BOOL = r"(?P<v>True|False)"
WORD = r"'?(?P<v>[\w.+-]+)'?"
EXPRESSIONS: tuple[tuple[str, str, str], ...] = (
    (r"mps\.is_available\(\)", "torch.mps_available", BOOL),
    (r"mps\.is_built\(\)", "torch.mps_built", BOOL),
    (r"cuda\.is_available\(\)", "torch.cuda_available", BOOL),
    (r"platform\.processor\(\)", "interpreter.processor", WORD),
    (r"platform\.machine\(\)", "interpreter.machine", WORD),
    (r"platform\.mac_ver\(\)(?:\[0\])?", "interpreter.mac_ver", r"\(?'(?P<v>\d+(?:\.\d+)*)'"),
    (r"platform\.platform\(\)", "interpreter.platform", WORD),
    (r"torch\.__version__", "torch.version", r"'?(?P<v>\d+\.\d+[\w.+-]*)'?"),
    (r"sys\.version\b(?!_)", "interpreter.version", r"'?(?P<v>\d+\.\d+\.\d+)"),
    (r"sysconfig\.get_platform\(\)", "interpreter.machine", r"'?macosx-\d+(?:\.\d+)?-(?P<v>x86_64|arm64)'?"),
    (r"mps\.get_name\(\)", "torch.mps_device_name", r"'?(?P<v>Apple [A-Za-z0-9 ]{1,40}?)'?"),
)
PROMPT = re.compile(
    r"^\s*(?:>>>|\.\.\.|In \[\d+\]:|\$|%|\([^\s()]+\)\s*[^\s$%#]*[$%#]|[^\s@]+@[^\s$%#]+(?: [~\w/]*)?\s*[$%#])"
)
OUT_PREFIX = re.compile(r"^\s*(?:Out\[\d+\]:\s*)?")
# torch prints a tensor's device with its index ("device='mps:0'"); code that asks for one writes
# "device='mps'" (`torch.ones(5, device='mps')`, `SentenceTransformer(..., device='mps')` in a `python -c` line),
# which proves nothing ran: only the printed form counts.
MPS_TENSOR = re.compile(r"device='mps:\d+'(?:\)|,\s*(?:dtype|grad_fn|requires_grad)=|,\s*$)")
BANNER = re.compile(r"^\s*\[(?:GCC|Clang)[^\]]*\] on (?P<os>linux|darwin|win32)\s*$")
SYSTEMS = {"linux": "Linux", "darwin": "Darwin", "win32": "Windows"}
UNAME_RESULT = re.compile(r"uname_result\(system='(?P<system>\w+)'.{0,1000}?machine='(?P<machine>\w+)'")
KERNEL = re.compile(r"RELEASE_(?P<kernel>ARM64|X86_64)")
LABELS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"(?i)^\W*(?:is[ _])?mps[ _](?:is[ _])?available\W*(?P<v>True|False)\W*$"),
        "torch.mps_available",
    ),
    (re.compile(r"(?i)^\W*(?:is[ _])?mps[ _](?:is[ _])?built\W*(?P<v>True|False)\W*$"), "torch.mps_built"),
)


# A device printed as a result, not built by torch.device(...) (which prints 'mps' on any machine): a model or
# pipeline that reports it is on mps.
DEVICE_OUT = re.compile(r"^\s*(?:Out\[\d+\]:\s*)?device\(type='mps'(?:, index=\d+)?\)\s*$")
NAN_ROW = re.compile(r"^\s*(?:tensor\()?\[*nan, nan\b")  # a printed tensor whose values are NaN
SHORT_LABEL = re.compile(r"(?i)^\W*mps[ _]avail\W*(?P<v>True|False)\b\s*(?:#.*)?$")  # "MPS avail: True  # ok"


def parse(lines: list[str]) -> list[Observation]:
    out: list[Observation] = []
    for number, line in enumerate(lines, start=1):
        out += _expressions(lines, number, line)
        if MPS_TENSOR.search(line) and not PROMPT.match(line):
            out.append(observe(KIND, lines, number, "paste.mps_tensor", True))
        if match := UNAME_RESULT.search(line):  # platform.uname(): the kernel, and this Python's machine
            out += [
                observe(KIND, lines, number, "host.system", match["system"]),
                observe(KIND, lines, number, "interpreter.machine", match["machine"]),
            ]
            if kernel := KERNEL.search(line):
                out.append(observe(KIND, lines, number, "host.arm64_hardware", kernel["kernel"] == "ARM64"))
        if match := SHORT_LABEL.match(line):
            out.append(observe(KIND, lines, number, "torch.mps_available", match["v"] == "True"))
        if NAN_ROW.match(line):
            out.append(observe(KIND, lines, number, "paste.nan_values", True))
        if DEVICE_OUT.match(line) and "torch.device(" not in _command_before(lines, number):
            out.append(observe(KIND, lines, number, "paste.device_used", "mps"))
        if match := BANNER.match(line):
            out.append(observe(KIND, lines, number, "host.system", SYSTEMS[match["os"]]))
        for pattern, fact in LABELS:
            if match := pattern.match(line):
                out.append(observe(KIND, lines, number, fact, match["v"] == "True"))
    return out


# What may follow a value on its line: nothing, or the writer's note ("# ok", "→ the bug", "<- wrong").
ANNOTATION = r"\s*(?:(?:#|→|←|<-|<--|-->|//)(?:\s.*)?)?$"
ANY_EXPRESSION = re.compile("|".join(expr for expr, _, _ in EXPRESSIONS))  # one scan to skip the other lines


def _expressions(lines: list[str], number: int, line: str) -> list[Observation]:
    if not ANY_EXPRESSION.search(line):
        return []
    found = [(m.start(), m.end(), fact, shape) for expr, fact, shape in EXPRESSIONS for m in re.finditer(expr, line)]
    if not found or line.lstrip().startswith("#"):
        return []
    found.sort()
    out: list[Observation] = []
    # The value printed on the same line: "torch.backends.mps.is_available()=True" or "...: True".
    for _, end, fact, shape in found:
        if tail := re.match(r"\A\s*(?:==|=>|->|[=:])\s*" + shape + ANNOTATION, line[end:]):
            out += _value(lines, number, fact, tail["v"])
    if out:
        return out
    result = _output_line(lines, number)
    if result is None:
        return []
    at, text = result
    values = [text] if len(found) == 1 else re.split(r"[\s,]+", text.strip("() "))
    if len(found) == 1 and not re.fullmatch(r"\A(?:" + found[0][3] + ")", text) and text.split():
        values = [text.split()[-1]]  # print("label:", value)
    if len(values) != len(found):
        return []
    for (_, _, fact, shape), value in zip(found, values):
        if match := re.fullmatch(r"\A(?:" + shape + ")", value.strip()):
            out += _value(lines, at, fact, match["v"], number)
    return out


def _output_line(lines: list[str], number: int) -> tuple[int, str] | None:
    """The first line printed after line *number*, if it is output and not another prompt or code."""
    for at in range(number + 1, min(number + 3, len(lines)) + 1):
        text = lines[at - 1]
        if not text.strip():
            continue
        if PROMPT.match(text):
            return None
        return at, OUT_PREFIX.sub("", text).strip()
    return None


def _value(lines: list[str], number: int, fact: str, raw: str, command: int | None = None) -> list[Observation]:
    value: object = raw == "True" if fact.startswith("torch.mps_") or fact.startswith("torch.cuda_") else raw
    if fact == "torch.mps_device_name":
        value = raw
    found = [observe(KIND, lines, number, fact, value, command)]
    if fact == "interpreter.platform":
        system = next(
            (s for p, s in (("macOS", "Darwin"), ("Linux", "Linux"), ("Windows", "Windows")) if raw.startswith(p)), None
        )
        if system:
            found.append(observe(KIND, lines, number, "host.system", system, command))
    return found


def _command_before(lines: list[str], number: int) -> str:
    """The nearest non-empty line above line *number* (the command that printed it, in a transcript)."""
    for at in range(number - 1, max(number - 4, 0), -1):
        if lines[at - 1].strip():
            return lines[at - 1]
    return ""
