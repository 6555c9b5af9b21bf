#!/usr/bin/env python3
"""Maintainer script: read every message torch's MPS code can raise or warn from torch's released
macOS wheels, and write mpscheck/knowledge/torch_messages.json.

Run by hand (never in CI, never at run time), after tools/build_knowledge.py, with the standard library:

    python tools/build_messages.py --cache ~/.cache/torch-wheels

The releases are those of mpscheck/knowledge/torch_releases.json (2.0.0 to the newest, arm64), each
downloaded with tools/build_knowledge.py's `download` (`pip download torch==X --no-deps
--only-binary=:all: --platform <its wheel tag> --python-version 3.11`) into --cache. From each wheel:

- the printable strings of torch/lib/libtorch_cpu.dylib, in the binary's order. The linker lays out the C
  strings of one object file together, and each TORCH_CHECK names its source file (__FILE__), so a string
  belongs to the source file whose path precedes it. Kept: the strings of the MPS source files
  (aten/src/ATen/mps/, aten/src/ATen/native/mps/, .../sparse/mps/, *mps* files), plus any string in
  libtorch_cpu, libc10 or libtorch_python that mentions MPS, Metal or the mps device. The pieces of one
  TORCH_CHECK are separate strings ("Trying to convert " and " to the MPS backend ..."); adjacent pieces
  are joined with a `{}` placeholder where the value went;
- the messages raised or warned by torch/mps/*.py and torch/backends/mps/*.py (ast: string arguments of
  raise and warnings.warn; f-string fields become `{}`).

Each message gets the releases it appears in, the release it disappears from (`fixed_in`), a likely
rewording in the next release (`reworded_as`, by word similarity), the condition it guards, the dtype and
macOS it names, a cause id of docs/explain.md, and its source file when known. Output is sorted and has no
timestamps: two runs on the same wheels write identical bytes.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import difflib
import hashlib
import json
import os
import re
import sys
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_knowledge as bk

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "mpscheck" / "knowledge" / "torch_messages.json"
RELEASES_JSON = ROOT / "mpscheck" / "knowledge" / "torch_releases.json"
CHECKED_JSON = Path(__file__).resolve().parent / "message_sources.json"
PYTHON = "3.11"  # the wheels torch_releases.json was read from are cp311
FORMAT = 1
READER_VERSION = 1  # bump when read_wheel_messages' output changes, so cached readings are redone
CONTENT_LIBS = ("torch/lib/libtorch_cpu.dylib", "torch/lib/libc10.dylib", "torch/lib/libtorch_python.dylib")
PY_DIRS = ("torch/mps/", "torch/backends/mps/")

# ---------------------------------------------------------------------------------------------
# Strings -> MPS messages (each function takes plain strings, so tests run them on recorded excerpts)

SOURCE_PATH = re.compile(
    r"^/\S*?/((?:build/)?(?:aten/src|torch/csrc|c10|caffe2|third_party)/\S+\.(?:cpp|mm|m|cc|c|h|hpp))$"
)
SOURCE_FILE = re.compile(r"\.(?:cpp|mm|m|cc|c)$")
MPS_SOURCE = re.compile(r"/mps/|mps[^/]*$|MPS[^/]*$", re.IGNORECASE)
# Third-party C code linked right after the last MPS object names no source path; its first strings end
# the last MPS file's strings.
FOREIGN = re.compile(r"^pytorch_qnnp_|QNNPACK|XNNPACK|^xnn_|cpuinfo|sysctlbyname\(")
# Strings of libraries inlined into MPS objects (fmt, pybind11), generated signatures and type names.
NOT_MPS = re.compile(
    r"argument indexing|format string|format specifier|type specifier|reference count|pybind11|overloading a "
    r"method|scoped_acquire|fully_qualified_type_name|number is too big|precision not allowed|missing '\}'|"
    r"caster arg|Python \{\} instance|C\+\+ type|return_value_policy|fill character|negative width|"
    r"negative precision|invalid precision|string pointer is null|argument not found|"
    r"\w\((?:Tensor|int|float|bool|Scalar|SymInt)\b.*\)(?: ->|$)|\[with \w+ =|\[T = "
)
MENTIONS_MPS = re.compile(r"\bMPS|MPS\b|\bmps\b|_mps\b|\bmps:|Metal\b|\bMTL[A-Z]|MPSGraph")
PRINTF = re.compile(r"%[-+ #0-9.]*(?:hh|h|ll|l|z|j|t)?[diouxXfFeEgGcsp]")
ASSERT_AT = re.compile(r'( INTERNAL ASSERT FAILED at ")/\S*?/((?:build/)?(?:aten/src|torch/csrc|c10)/[^"]+)":\d+')
ASSERTED_FILE = re.compile(r'INTERNAL ASSERT FAILED at "\{\}([^"]+)":')
CODE = re.compile(
    r"\[\[|;\s*$|[{}]\s*$|^\s*(?:#|//|kernel |template|using |constant |device |struct |return |inline |static |"
    r"threadgroup |uint\d? |float\d? |half\d? |int\d? |auto |for ?\(|if ?\()|\{\{|\}\}|^\s{2,}"
)


def source_of(text: str) -> str | None:
    """'/Users/runner/work/pytorch/pytorch/pytorch/aten/src/ATen/mps/MPSDevice.mm' -> 'aten/src/ATen/mps/MPSDevice.mm'
    (None for any other string)."""
    match = SOURCE_PATH.match(text)
    return match.group(1) if match else None


def is_mps_source(path: str) -> bool:
    return bool(MPS_SOURCE.search(path))


def attribute(strings: Iterable[str]) -> list[tuple[str | None, str]]:
    """(source file, string) for every string that is not a path: the file is the last source file (not
    header) whose path came before it. Headers inlined into an object do not change its file."""
    current: str | None = None
    out: list[tuple[str | None, str]] = []
    for text in strings:
        path = source_of(text)
        if path is not None:
            if SOURCE_FILE.search(path):
                current = path
            continue
        out.append((current, text))
    return out


def is_code(text: str) -> bool:
    """Metal shader source and other code lines compiled into the binary as strings."""
    return bool(CODE.search(text))


def is_piece(text: str) -> bool:
    """A string that can be (part of) a printed message: words and spaces, not a symbol, path, type
    encoding, cache key or line of code."""
    if len(text) > 600 or is_code(text) or "@?" in text or "^{" in text or text.startswith(("_Z", "__Z")):
        return False
    if re.search(r"^/\S+$|^[-+]\[\w", text) or NOT_MPS.search(text):
        return False
    return bool(re.search(r"[A-Za-z]{2}", text)) and (" " in text or text.endswith(":"))


# A piece ending so is followed by a value (", got " + dtype), not by the next literal of the sentence.
VALUE_NEXT = re.compile(
    r"\b(?:got|was|is|are|be|of|for|at|but|found|expected|given|received|to|with|and|than|in|on|from|as|by|"
    r"size|type|dtype|value|index|dim|shape|device|op|operator|kernel|tensor)\s$",
    re.IGNORECASE,
)


def joins(left: str, right: str) -> str | None:
    """How two adjacent pieces make one message: "{}" when torch prints a value between them, "" when
    they are two literals of one call (a sentence going on after a space), None when they are not one."""
    if left.endswith((" ", "'", '"', "(", "[", "=")) and right.startswith((" ", "'", '"', ".", ",", ")", "]")):
        return "{}"
    if "INTERNAL ASSERT" in left or "INTERNAL ASSERT" in right:
        return None
    if VALUE_NEXT.search(left):
        return None
    if (re.search(r"[A-Za-z,`] $", left) and right[:1].islower()) or (left.endswith(". ") and right[:1].isupper()):
        return ""
    return None


def to_format(text: str) -> str:
    """A message's format: printf directives become {}, an assert's build path and line become {}."""
    text = ASSERT_AT.sub(lambda m: f'{m.group(1)}{{}}{m.group(2)}":{{}}', text)
    return PRINTF.sub("{}", text)


def words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z][A-Za-z0-9_]+", text)


def finish(pieces: Sequence[str], glue: Sequence[str]) -> str:
    """One message from its adjacent pieces and the glue between them (see joins): '{}' where a value
    goes, at the joints and where the first piece starts or the last ends with a space or quote."""
    text = pieces[0] + "".join(g + p for g, p in zip(glue, pieces[1:]))
    if pieces[0][:1] in (" ", "'", ".", ",", ")", "]", ":"):
        text = "{}" + text
    if pieces[-1].endswith((" ", "'", "(", "[", "=")):
        text = text + "{}"
    return to_format(re.sub(r"\s+", " ", text).strip())


def is_message(fmt: str) -> bool:
    """Enough words to be told apart: at least two words of two or more letters and 12 literal chars."""
    literal = fmt.replace("{}", "")
    return len(words(literal)) >= 2 and len(literal.strip()) >= 12


def mps_messages(strings: Sequence[str], by_file: bool = True) -> dict[str, str | None]:
    """{message format: source file or None} of one dylib's strings in the binary's order: every message
    of an MPS source file, and every other message that mentions MPS, Metal or the mps device.

    by_file=False: by content only (libtorch_python and libc10, where other objects' strings follow an
    MPS file's without a path of their own: the linker kept only the first copy of each path).
    """
    found: dict[str, str | None] = {}
    run: list[str] = []
    glue: list[str] = []
    run_file: str | None = None
    foreign = False
    previous_file: str | None = None

    def flush() -> None:
        if run:
            fmt = finish(run, glue)
            if is_message(fmt) and ((run_file and is_mps_source(run_file)) or MENTIONS_MPS.search(fmt)):
                found.setdefault(fmt, run_file if run_file and is_mps_source(run_file) else None)
            run.clear()
            glue.clear()

    for file, text in attribute(strings):
        file = file if by_file else None
        if file != previous_file:
            foreign, previous_file = False, file
        if file and is_mps_source(file) and FOREIGN.search(text):
            foreign = True
        here = None if foreign else file
        if not is_piece(text):
            flush()
            continue
        joint = joins(run[-1], text) if run and here == run_file else None
        if run and joint is None:
            flush()
        if run and joint is not None:
            glue.append(joint)
        if not run:
            run_file = here
        run.append(text)
    flush()
    return found


# ---------------------------------------------------------------------------------------------
# Python modules


RAISERS = {"warn", "RuntimeError", "ValueError", "TypeError", "AssertionError", "NotImplementedError", "Exception"}


def _string_of(node: ast.AST) -> str | None:
    """The text a string expression prints, with {} for each f-string field."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}" for v in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _string_of(node.left), _string_of(node.right)
        if left is not None or right is not None:
            return (left if left is not None else "{}") + (right if right is not None else "{}")
    return None


def python_messages(source: str) -> list[str]:
    """Formats of the messages a Python module raises or warns: the first string argument of a call to
    warnings.warn or an exception class (raise X("...") and X("...") passed on)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in RAISERS:
            text = _string_of(node.args[0])
            if text is not None:
                fmt = re.sub(r"\s+", " ", text).strip()
                if is_message(fmt):
                    found.add(fmt)
    return sorted(found)


# ---------------------------------------------------------------------------------------------
# One wheel


def mentions_mps(text: str) -> bool:
    """MENTIONS_MPS, after a cheap substring test (the regex alone is slow on a dylib's 700,000 strings)."""
    low = text.lower()
    return ("mps" in low or "metal" in low or "MTL" in text) and MENTIONS_MPS.search(text) is not None


def relevant_strings(strings: Sequence[str], context: int = 3) -> list[str]:
    """The part of a dylib's strings (in order) that mps_messages reads: the strings of MPS source files
    with their paths, and each string of another file that mentions MPS with `context` neighbours each
    side, after its file's path (repeated before each such window, so windows never touch)."""
    paths = [source_of(t) if t.startswith("/") else None for t in strings]
    mentions = [paths[i] is None and mentions_mps(t) for i, t in enumerate(strings)]
    next_mention = [len(strings) + context + 1] * (len(strings) + 1)
    for i in range(len(strings) - 1, -1, -1):
        next_mention[i] = i if mentions[i] else next_mention[i + 1]
    out: list[str] = []
    path: str | None = None
    mps = False
    keep_until = -1
    for index, text in enumerate(strings):
        found = paths[index]
        if found is not None:
            if SOURCE_FILE.search(found):
                path, mps = text, is_mps_source(found)
                if mps:
                    out.append(text)
            elif mps:
                out.append(text)
            continue
        if mps:
            out.append(text)
            continue
        if index <= keep_until or next_mention[index] <= index + context:
            if index > keep_until:
                out.append(path if path is not None else "/-/aten/src/ATen/unknown.cpp")  # a break: no join spans it
            out.append(text)
            if mentions[index]:
                keep_until = index + context
    return out


def read_wheel_messages(path: Path) -> dict[str, Any]:
    """{"strings": {lib: relevant_strings}, "python": {module: formats}} of one wheel."""
    found: dict[str, Any] = {"wheel": path.name, "strings": {}, "python": {}}
    with zipfile.ZipFile(path) as wheel:
        names = set(wheel.namelist())
        for lib in CONTENT_LIBS:
            if lib in names:
                found["strings"][lib] = relevant_strings(list(bk.printable_strings(wheel.read(lib))))
        for name in sorted(n for n in names if n.startswith(PY_DIRS) and n.endswith(".py")):
            found["python"][name] = python_messages(wheel.read(name).decode("utf-8"))
    return found


def wheel_messages(read: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{format: {"file": source or None, "lib": where it was read}} from read_wheel_messages' output."""
    messages: dict[str, dict[str, Any]] = {}
    for lib, strings in sorted(read["strings"].items()):
        for fmt, file in mps_messages(strings, by_file=lib.endswith("libtorch_cpu.dylib")).items():
            messages.setdefault(fmt, {"file": file, "lib": lib})
    for module, formats in sorted(read["python"].items()):
        for fmt in formats:
            messages.setdefault(fmt, {"file": module, "lib": module})
    return messages


def read_cached(path: Path) -> dict[str, Any]:
    """read_wheel_messages, memoised in <cache>/facts/ (the maintainer's cache, not the repository's)."""
    memo = path.parent / "facts" / f"{path.name}.messages.v{READER_VERSION}.json"
    if memo.exists():
        cached: dict[str, Any] = json.loads(memo.read_text(encoding="utf-8"))
        return cached
    facts = read_wheel_messages(path)
    memo.parent.mkdir(exist_ok=True)
    memo.write_text(json.dumps(facts, sort_keys=True), encoding="utf-8")
    return facts


# ---------------------------------------------------------------------------------------------
# Classification: the condition a message guards, and its cause id (docs/explain.md "Cause ids")

DTYPES = (
    ("complex", r"[Cc]omplex"),
    ("float64", r"float64|[Ff]loat ?64|\b[Dd]ouble\b|kDouble"),
    ("bfloat16", r"[Bb][Ff]loat16|\bbf16\b"),
    ("float16", r"\b[Ff]loat16\b|\b[Hh]alf\b"),
    ("float8", r"[Ff]loat8"),
    ("int64", r"int64|\b[Ll]ong\b|kLong"),
    ("uint8", r"\buint8\b|\b[Bb]yte\b"),
    ("int32", r"\bint32\b"),
    ("bool", r"\b[Bb]ool(?:ean)?\b"),
    ("quantized", r"[Qq]uantized|\bqint"),
)
MACOS = re.compile(r"[Mm]ac ?OS[ _]?(?:version )?(\d{2}(?:[._]\d)?)")
CONDITIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "availability",
        re.compile(
            r"MPS backend is (?:supported on|unavailable|only supported|not available)|no supported Metal GPU|"
            r"not linked with support for mps|not compiled with MPS|MPS is not available|[Nn]o MPS device|"
            r"Failed to get MPS device|Metal device|MPS device (?:is )?not (?:available|found)|without (?:the )?MPS "
            r"backend|without ATen_mps|not linked to the build|requires MPS\.|Current OS version can be queried"
        ),
    ),
    (
        "memory",
        re.compile(
            r"out of memory|[Ww]atermark|Invalid buffer size|[Ff]ailed to allocate|[Aa]llocat(?:e|ion) failed|"
            r"memory (?:leak|limit)|heap"
        ),
    ),
    (
        "fallback",
        re.compile(
            r"fall ?back|[Ff]alling back|performance implications|PYTORCH_ENABLE_MPS_FALLBACK|"
            r"is not currently implemented for"
        ),
    ),
    ("macos-version", MACOS),
    (
        "device-mismatch",
        re.compile(
            r"same device|[Dd]evice mismatch|Placeholder storage has not been allocated|is_mps\(\)|"
            r"(?:be|on|an?) MPS (?:tensor|device)|to be MPS|Passed CPU tensor|expected .{0,40}(?:on|be) (?:the )?mps|"
            r"different devices|must be on|[Ee]xpected .{0,40}device"
        ),
    ),
    (
        "size-limit",
        re.compile(
            r"INT_MAX|UINT32_MAX|2\*\*3[12]|2\^3[12]|larger than|exceeds?|too (?:large|big|many)|"
            r"dims? (?:larger|greater)|dimensions? <=|up to \d+ dim|more than \d+|[Mm]ax(?:imum)? (?:number|size)|"
            r"[Ll]imit|must be less than|supports tensors with|64-bit indexing"
        ),
    ),
    (
        "dtype",
        re.compile(
            r"[Dd]type|data ?type|scalar type|[Cc]omplex|float64|[Dd]ouble|[Bb][Ff]loat16|float16|\b[Hh]alf\b|int64|"
            r"[Ii]ntegral|floating(?: point)? types?|[Qq]uantized|non-floating|supports? float32|float32 only"
        ),
    ),
    (
        "unimplemented",
        re.compile(
            r"not (?:yet )?(?:implemented|supported)|[Uu]nsupported|isn't supported|is not available|"
            r"doesn't support|does not support|only supports?|[Nn]ot implemented|only implemented"
        ),
    ),
)
# torch's own log output for MPS (allocator debug logs, profiler tables, macOS version probes), printed when
# asked for (PYTORCH_DEBUG_MPS_ALLOCATOR, torch.mps.profiler) or as a note: not an error.
DIAGNOSTIC = re.compile(
    r"^\{?\}? ?(?:Allocated|Released|Releasing|Reusing|Garbage collected|Initializing|Pinning|Attempting to release)|"
    r"heap #|#heaps|use#|retain#|gc#|[Pp]rofiling|\((?:ms)\)|CPU\(ms\)|GPU\(ms\)|KRNL\(ms\)|Operation Name|"
    r"Copy Overhead|\b(?:id|run|cpu|gpu|len)=\{|Can't check whether running on|returning (?:one|false)|"
    r"unexpected MacOS|"
    r"watermark memory allocation limit|pool \(|\((?:current allocated|requested|offset|heap size):|[Ss]ignpost|"
    r"called without a stream|logged for profiling|fflush failed|cannot write to file|Failed to start capture"
)
INTERNAL = re.compile(
    r"INTERNAL ASSERT FAILED|please report a bug to PyTorch|[Ff]ailed to (?:create|compile)|"
    r"command buffer execution failed"
)


SUPPORTED_LIST = re.compile(
    r"only (?:supports?\b|implemented for|works (?:on|with))|supports only|only .{0,30}(?:are|is) supported"
)


def dtype_named(fmt: str) -> str | None:
    """The dtype a message says is not supported; None when it names only the supported ones."""
    if SUPPORTED_LIST.search(fmt):
        return None
    for name, pattern in DTYPES:
        if re.search(pattern, fmt):
            return name
    return None


def macos_named(fmt: str) -> str | None:
    match = MACOS.search(fmt)
    if not match:
        return None
    version = match.group(1).replace("_", ".")
    return version if "." in version else version + ".0"


def condition_of(fmt: str) -> str:
    if INTERNAL.search(fmt) or (DIAGNOSTIC.search(fmt) and not re.search(r"out of memory|[Ii]nvalid", fmt)):
        return "other"
    for name, pattern in CONDITIONS:
        if pattern.search(fmt):
            return name
    return "other"


def cause_of(fmt: str, condition: str, dtype: str | None, macos: str | None) -> str:
    """The cause id (docs/explain.md) a message points to."""
    if condition == "availability":
        if "unified memory" in fmt:
            return "intel-mac"
        if re.search(
            r"not linked with support for mps|not compiled with MPS|without|not linked to the build|requires",
            fmt,
        ):
            return "torch-not-built-with-mps"
        return "no-metal-device"
    if condition == "memory":
        invalid = re.search(r"[Ww]atermark|WATERMARK", fmt) and "invalid" in fmt
        return "watermark-invalid" if invalid else "out-of-memory"
    if condition == "fallback":
        return "op-not-implemented" if "not currently implemented" in fmt else "op-fallback-warning"
    if condition == "macos-version":
        if dtype == "int64":
            return "int64-op-needs-newer-macos"
        if re.search(r"natively|please upgrade|[Ff]alling back", fmt):
            return "op-fallback-warning"  # torch warns and runs the op on the CPU
        if dtype in ("bfloat16", "complex") and macos == "14.0":
            return "dtype-needs-macos14"
        return "op-needs-newer-macos"
    if condition == "device-mismatch":
        return "device-mismatch"
    if condition == "size-limit":
        return "mps-size-limit"
    if condition == "dtype":
        if dtype == "int64" and re.search(r"op with int64 input", fmt):
            return "int64-op-needs-newer-macos"  # torch 2.0-2.8 raise it below macOS 13.3 (signatures.py's int64-op)
        if dtype == "float64":
            return "float64-unsupported"
        return "dtype-unsupported"  # complex included: one cause id, the dtype is in the message's values
    if condition == "unimplemented":
        return "mps-unsupported-feature"
    if INTERNAL.search(fmt):
        return "metal-bug-fixed-later"
    if DIAGNOSTIC.search(fmt) and not re.search(r"[Ii]nvalid|\bexpect|must|not supported", fmt):
        return "mps-diagnostic-output"
    return "invalid-argument"


def classify(fmt: str) -> dict[str, Any]:
    condition = condition_of(fmt)
    dtype = dtype_named(fmt)
    macos = macos_named(fmt)
    return {"condition": condition, "dtype": dtype, "macos": macos, "cause": cause_of(fmt, condition, dtype, macos)}


# ---------------------------------------------------------------------------------------------
# The table


def message_id(fmt: str) -> str:
    """A stable id from the text alone: the same message in two runs gets the same id."""
    return "m" + hashlib.sha256(fmt.encode("utf-8")).hexdigest()[:10]


def runs(present: Sequence[bool], releases: Sequence[str]) -> list[list[str]]:
    """[[first, last], ...] of the consecutive releases where present."""
    out: list[list[str]] = []
    for index, here in enumerate(present):
        if here and (index == 0 or not present[index - 1]):
            out.append([releases[index], releases[index]])
        elif here:
            out[-1][1] = releases[index]
    return out


BOILERPLATE = re.compile(
    r" INTERNAL ASSERT FAILED at \"\{\}.*|to be true, but got false\. \(Could this error message be improved\?.*"
)


def distinctive(fmt: str) -> str:
    """A message less the words torch adds to every assert and TORCH_CHECK without a message."""
    return BOILERPLATE.sub("", fmt)


def similarity(old: str, new: str) -> float:
    """How much of the old message's words the new one keeps, in order (0..1); 0 unless the two also
    share half their words overall (difflib's ratio), so a short message is not 'reworded' as every
    longer one that contains it."""
    a, b = words(distinctive(old).lower()), words(distinctive(new).lower())
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if not a or matcher.ratio() < 0.5:
        return 0.0
    return sum(block.size for block in matcher.get_matching_blocks()) / len(a)


def rewordings(gone: str, arrived: Sequence[str], threshold: float = 0.8) -> list[str]:
    """Messages new in the release where `gone` disappears that keep most of its words."""
    condition = condition_of(gone)
    same = [new for new in arrived if condition_of(new) == condition]
    scored = sorted(((similarity(gone, new), new) for new in same), key=lambda p: (-p[0], p[1]))
    return [new for score, new in scored if score >= threshold][:3]


SOURCES = {
    "format": "printable strings (>= 6 ASCII chars) of torch/lib/libtorch_cpu.dylib (and libc10, libtorch_python) "
    "in each release's macOS arm64 wheel, in the binary's order; adjacent pieces of one message joined, '{}' "
    "where torch prints a value (a joint, a printf directive, an assert's build path and line); messages of "
    "torch/mps/*.py and torch/backends/mps/*.py: string arguments of warnings.warn and exception calls (ast)",
    "selection": "a string belongs to the source file whose path (__FILE__, named by TORCH_CHECK) precedes it in "
    "the binary; kept: the messages of aten/src/ATen/mps/, aten/src/ATen/native/mps/, native/sparse/mps/ and "
    "other *mps* source files, and any message mentioning MPS, Metal or the mps device",
    "releases": "[[first, last], ...]: runs of consecutive releases whose wheel holds the message",
    "fixed_in": "the release after the last one holding it (null while the newest release still holds it); "
    "see reworded_as: a message may have been reworded rather than removed",
    "reworded_as": "ids of (at most 3) messages new in the fixed_in release that keep >= 80 % of its words in order "
    "and share >= 50 % of all words (difflib), with the same condition; assert and TORCH_CHECK boilerplate left out",
    "source": "file: the source file whose path precedes the message in the binary (how: wheel-layout), the "
    "file an internal assert names (wheel-assert), or the Python module (python-module); null when unknown. "
    "checked: the repository and commit where the text was read in that file (tools/message_sources.json)",
    "condition": "what the message guards, from its words: availability, memory, fallback, macos-version, "
    "device-mismatch, size-limit, dtype, unimplemented, other",
    "cause": "the cause id of docs/explain.md ('Cause ids') the message points to",
}


def checked_sources(path: Path = CHECKED_JSON) -> dict[tuple[str, str], str]:
    """{(format, file): "repo@commit"} of the source files confirmed by reading them (message_sources.json)."""
    if not path.exists():
        return {}
    found = {}
    for check in json.loads(path.read_text(encoding="utf-8"))["checked"]:
        for fmt in check["formats"]:
            found[(fmt, check["path"])] = f"{check['repo']}@{check['commit']}"
    return found


def messages_table(
    per_release: dict[str, dict[str, Any]], releases: Sequence[str], checked: dict[tuple[str, str], str] | None = None
) -> dict[str, Any]:
    """mpscheck/knowledge/torch_messages.json from {release: read_wheel_messages output}."""
    checked = checked_sources() if checked is None else checked
    formats = sorted(set().union(*(set(per_release[r]["messages"]) for r in releases)))
    newest = releases[-1]
    entries: dict[str, dict[str, Any]] = {}
    first_seen: dict[str, list[str]] = {r: [] for r in releases}
    for fmt in formats:
        present = [fmt in per_release[r]["messages"] for r in releases]
        first_seen[releases[present.index(True)]].append(fmt)
    for fmt in formats:
        present = [fmt in per_release[r]["messages"] for r in releases]
        spans = runs(present, releases)
        last = spans[-1][1]
        fixed_in = None if last == newest else releases[releases.index(last) + 1]
        holder = next(per_release[r]["messages"][fmt] for r in reversed(releases) if fmt in per_release[r]["messages"])
        file = holder["file"]
        how = "python-module" if file and file.endswith(".py") else "wheel-layout" if file else None
        assert_file = ASSERTED_FILE.search(fmt)
        if assert_file:
            file, how = assert_file.group(1), "wheel-assert"
        entry = {
            "id": message_id(fmt),
            "format": fmt,
            "releases": spans,
            "fixed_in": fixed_in,
            "reworded_as": [message_id(n) for n in rewordings(fmt, first_seen[fixed_in])] if fixed_in else [],
            "source": {
                "file": file,
                "how": how,
                **({"checked": checked[(fmt, file)]} if (fmt, file) in checked else {}),
            }
            if file
            else None,
            "read_from": holder["lib"],
            **classify(fmt),
        }
        entries[entry["id"]] = entry
    return {
        "format": FORMAT,
        "releases": list(releases),
        "messages": [entries[k] for k in sorted(entries, key=lambda k: (entries[k]["format"], k))],
        "sources": SOURCES,
    }


def known_releases() -> list[tuple[str, str]]:
    """(version, wheel platform tag) of every arm64 release mpscheck's releases table was read from."""
    table = json.loads(RELEASES_JSON.read_text(encoding="utf-8"))
    return sorted(((v, r["platform_tag"]) for v, r in table["releases"].items()), key=lambda p: bk.version_key(p[0]))


FIXTURE_RELEASES = ("2.0.0", "2.8.0", "2.9.0", "2.15.0")
FIXTURE_FILES = (
    "aten/src/ATen/mps/EmptyTensor.cpp",
    "aten/src/ATen/mps/MPSAllocator.mm",
    "aten/src/ATen/mps/MPSFallback.mm",
    "aten/src/ATen/native/mps/OperationUtils.mm",
)


def string_excerpt(strings: Sequence[str], files: Sequence[str] = FIXTURE_FILES) -> list[str]:
    """relevant_strings' output for a few source files: each file's path and the strings after it, up to
    the next source path (real strings, in the binary's order)."""
    out: list[str] = []
    keep = False
    for text in strings:
        path = source_of(text)
        if path is not None and SOURCE_FILE.search(path):
            keep = path in files
        if keep:
            out.append(text)
    return out


def write_fixtures(cache: Path, dest: Path) -> None:
    """The extractor tests' inputs: real excerpts of the cached wheels, with a SOURCE.txt citing each."""
    for version in FIXTURE_RELEASES:
        wheel = Path(sorted(cache.glob(f"torch-{version}-*arm64.whl"))[0])
        out = dest / version
        out.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheel) as zf:
            strings = relevant_strings(list(bk.printable_strings(zf.read(CONTENT_LIBS[0]))))
            (out / "libtorch_cpu.mps.strings.txt").write_text("\n".join(string_excerpt(strings)) + "\n", "ascii")
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        source = [
            f"Real excerpt of {wheel.name} (sha256 {digest}), the macOS arm64 wheel of torch {version} on PyPI",
            f"(pip download torch=={version} --no-deps --only-binary=:all: --platform <its tag>",
            "--python-version 3.11).",
            "libtorch_cpu.mps.strings.txt: the printable strings (>= 6 chars) of torch/lib/libtorch_cpu.dylib that",
            "tools/build_messages.py's relevant_strings keeps, in the binary's order, from the source paths of",
            ", ".join(FIXTURE_FILES) + " to the next source path each.",
            "Regenerate: python tools/build_messages.py --cache DIR --write-fixtures tests/fixtures/messages",
        ]
        (out / "SOURCE.txt").write_text("\n".join(source) + "\n", encoding="utf-8")


def reclassified(table: dict[str, Any]) -> dict[str, Any]:
    """The stored table with every message's class read again by classify(): no wheel, no network."""
    messages = []
    for message in table["messages"]:
        messages.append({**message, **classify(message["format"])})
    return {**table, "messages": messages}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cache", type=Path, help="wheel cache directory, outside the repository")
    parser.add_argument(
        "--reclassify", action="store_true", help="only classify the messages of --out again (offline, no wheels)"
    )
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON file to write")
    parser.add_argument("--jobs", type=int, default=2, help="wheels read in parallel")
    parser.add_argument("--write-fixtures", type=Path, help="only write test fixtures from the cached wheels here")
    args = parser.parse_args(argv)
    if args.reclassify:
        table = reclassified(json.loads(args.out.read_text(encoding="utf-8")))
        args.out.write_text(bk.dump(table), encoding="utf-8")
        print(f"reclassified {args.out} ({len(table['messages'])} messages)", file=sys.stderr)
        return 0
    if args.cache is None:
        parser.error("--cache is required (or --reclassify)")
    args.cache.mkdir(parents=True, exist_ok=True)
    if args.write_fixtures:
        write_fixtures(args.cache, args.write_fixtures)
        return 0
    wanted = known_releases()
    wheels = {version: bk.download(version, args.cache, platform, PYTHON) for version, platform in wanted}
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {version: pool.submit(read_cached, wheel) for version, wheel in wheels.items()}
        per_release = {version: {"messages": wheel_messages(future.result())} for version, future in futures.items()}
    releases = [version for version, _ in wanted]
    args.out.write_text(bk.dump(messages_table(per_release, releases)), encoding="utf-8")
    print(f"wrote {args.out} ({len(releases)} wheels)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    sys.exit(main())
