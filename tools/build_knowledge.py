#!/usr/bin/env python3
"""Maintainer script: read torch's released macOS wheels and write mpscheck's knowledge tables.

Run by hand (never in CI, never at run time), with the standard library and pyyaml:

    python tools/build_knowledge.py --cache ~/.cache/torch-wheels
    python tools/build_knowledge.py --cache ~/.cache/torch-wheels --add 2.16.0  # one new release (add_release.py)

It lists every torch release from 2.0.0 on the package index with `pip index versions`, downloads
the macOS arm64 wheel of each (and the last x86_64 one) into --cache with `pip download`, and reads
each wheel WITHOUT unpacking all of it:

- printable strings of every torch/lib/*.dylib: the MPS availability texts and the macOS floor they
  state, the macOS- and dtype-gated texts, the fallback, out-of-memory and watermark texts and the
  PYTORCH_*MPS* variable names;
- torch/backends/mps/__init__.py and torch/mps/__init__.py, parsed with ast: the public API names and
  the aten ops registered for MPS from Python;
- *.dist-info/METADATA: Requires-Python and the numpy requirement; the wheel's platform tag;
- torchgen/packaged/ATen/native/native_functions.yaml: the op coverage (mpscheck/knowledge/op_coverage.json);
- with --optim-paths only (tools/optim_paths.py, the wheels already cached): the devices each
  release sends down the optimizers' foreach and fused paths and clip_grad_norm_'s foreach path
  (mpscheck/knowledge/optim_paths.json);
- optionally (when llvm-objdump and llvm-nm are on PATH): the disassembly of the two MPSFallback.mm
  registration functions in libtorch_cpu.dylib, which says how PYTORCH_ENABLE_MPS_FALLBACK is read
  and which ops always run on the CPU.

`pip index versions` over Python 3.8-3.14 and several macOS platform tags gives, per release, which
CPython versions can install it and the oldest macOS its wheel tag allows.

Output: mpscheck/knowledge/torch_releases.json and mpscheck/knowledge/op_coverage.json, sorted and
without timestamps, so two runs on the same wheels and the same index answers write identical bytes.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import email.parser
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

FIRST_RELEASE = (2, 0, 0)
PYTHONS = ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14")
ARM64_PLATFORMS = (
    "macosx_11_0_arm64",
    "macosx_12_0_arm64",
    "macosx_13_0_arm64",
    "macosx_14_0_arm64",
    "macosx_15_0_arm64",
)
X86_PLATFORM = "macosx_10_9_x86_64"
LAST_X86_RELEASE = "2.2.2"
PREFERRED_PYTHON = "3.11"  # has a wheel for every release from 2.0.0 to 2.15.0; any will do
ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "mpscheck" / "knowledge"
MIN_STRING = 6
YAML_PATH = "torchgen/packaged/ATen/native/native_functions.yaml"
API_FILES = {"torch.backends.mps": "torch/backends/mps/__init__.py", "torch.mps": "torch/mps/__init__.py"}
LIBTORCH_CPU = "torch/lib/libtorch_cpu.dylib"

# Which printable strings of torch's dylibs are kept, by category. A string may match several; the
# first category wins. Kept narrow on purpose: the table holds texts torch prints about MPS.
TEXT_CATEGORIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "availability",
        re.compile(r"The MPS backend is supported on|MPS backend is (?:unavailable|only supported|not available)"),
    ),
    ("oom", re.compile(r"MPS backend out of memory")),
    ("watermark", re.compile(r"[Ww]atermark|WATERMARK")),
    (
        "fallback",
        re.compile(
            r"^' is not currently (?:implemented|supported) $|will fall back to run on the CPU"
            r"|PYTORCH_ENABLE_MPS_FALLBACK=1|issues/77764|issues/141287|use the CPU as a fallback"
            r"|^for the MPS device|^on MPS\.$|This may have performance implications"
        ),
    ),
    ("macos-gated", re.compile(r"[Mm]ac ?OS ?1\d")),
    (
        "dtype",
        re.compile(
            r"MPS.{0,80}(?:float64|[Ff]loat64|[Dd]ouble|[Bb][Ff]loat16|[Cc]omplex|dtype)"
            r"|(?:float64|[Bb][Ff]loat16|[Cc]omplex).{0,80}MPS"
        ),
    ),
)
NUMPY_MODULE = re.compile(r"^numpy\.(?:_core|core)\._multiarray_umath$")
ENV_NAME = re.compile(r"\bPYTORCH_[A-Z0-9_]*MPS[A-Z0-9_]*\b")
FLOOR_TEXT = re.compile(r"supported on [Mm]ac ?OS (\d+(?:\.\d+)?)\+")
PRINTABLE = re.compile(rb"[\x20-\x7e\t]{%d,}" % MIN_STRING)


# ---------------------------------------------------------------------------------------------
# The package index


def version_key(version: str) -> tuple[int, ...]:
    """'2.10.0' -> (2, 10, 0), for ordering releases."""
    return tuple(int(part) for part in re.findall(r"\d+", version)[:3])


def pip_index_versions(python: str, platform: str) -> list[str]:
    """Versions of torch that pip would install for this Python and platform (binary wheels only)."""
    cmd = [sys.executable, "-m", "pip", "index", "versions", "torch", "--only-binary=:all:"]
    cmd += ["--platform", platform, "--python-version", python]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    for line in result.stdout.splitlines():
        if line.startswith("Available versions:"):
            return [v.strip() for v in line.split(":", 1)[1].split(",") if v.strip()]
    return []


def installability() -> dict[str, dict[str, list[str]]]:
    """{platform: {python: [versions]}} from pip index, for every probed Python and platform."""
    jobs = [(py, plat) for plat in (*ARM64_PLATFORMS, X86_PLATFORM) for py in PYTHONS]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda job: pip_index_versions(*job), jobs))
    table: dict[str, dict[str, list[str]]] = {}
    for (py, plat), versions in zip(jobs, answers):
        table.setdefault(plat, {})[py] = sorted(versions, key=version_key)
    return table


def platform_macos(platform: str) -> str:
    """'macosx_13_0_arm64' -> '13.0'."""
    parts = platform.split("_")
    return f"{parts[1]}.{parts[2]}"


def install_facts(table: dict[str, dict[str, list[str]]], version: str, arch: str) -> dict[str, str]:
    """{cpython tag: oldest probed macOS whose platform tag pip accepts} for one release and arch.

    pip's --platform macosx_X_0 accepts wheels tagged for macOS X.0 and older, so the first probed
    platform that lists the release bounds the wheel tag's macOS from above (exact for X_0 tags).
    """
    platforms = ARM64_PLATFORMS if arch == "arm64" else (X86_PLATFORM,)
    found: dict[str, str] = {}
    for py in PYTHONS:
        for plat in platforms:
            if version in table.get(plat, {}).get(py, []):
                found["cp" + py.replace(".", "")] = platform_macos(plat)
                break
    return found


def download(version: str, cache: Path, platform: str, python: str) -> Path:
    """The cached wheel of this release for this platform, downloaded with pip if missing."""
    arch = platform.rsplit("_", 1)[-1]
    pattern = f"torch-{version}-*{arch}.whl"
    found = sorted(glob.glob(str(cache / pattern)))
    if not found:
        cmd = [sys.executable, "-m", "pip", "download", f"torch=={version}", "--no-deps", "--only-binary=:all:"]
        cmd += ["--platform", platform, "--python-version", python, "-d", str(cache), "-q"]
        subprocess.run(cmd, check=True, timeout=1800, stdout=sys.stderr)  # stdout: --add's list of releases
        found = sorted(glob.glob(str(cache / pattern)))
    if not found:
        raise SystemExit(f"no wheel for torch {version} {platform} in {cache}")
    return Path(found[0])


# ---------------------------------------------------------------------------------------------
# Extractors (each takes bytes or text, so the tests run them on small real excerpts)


def printable_strings(data: bytes) -> Iterable[str]:
    """Runs of printable ASCII, like `strings -n 6`."""
    for match in PRINTABLE.finditer(data):
        yield match.group().decode("ascii")


def categorize_strings(strings: Iterable[str]) -> tuple[dict[str, set[str]], set[str]]:
    """({category: texts}, PYTORCH_*MPS* names) from a dylib's printable strings.

    Category "numpy-module" holds the numpy extension module names that numpy's import_array() code,
    compiled into torch, tries: numpy 2's headers add 'numpy._core._multiarray_umath'.
    """
    texts: dict[str, set[str]] = {}
    names: set[str] = set()
    for text in strings:
        if "PYTORCH_" in text:
            names.update(ENV_NAME.findall(text))
        if NUMPY_MODULE.match(text):
            texts.setdefault("numpy-module", set()).add(text)
            continue
        if len(text) > 400 or " " not in text or text.startswith(("_", "/")):
            continue  # mangled symbols, paths and Metal source blobs are not messages
        for category, pattern in TEXT_CATEGORIES:
            if pattern.search(text):
                texts.setdefault(category, set()).add(text)
                break
    return texts, names


def stated_floor(text: str) -> str | None:
    """'The MPS backend is supported on MacOS 14.0+. ' -> '14.0'."""
    match = FLOOR_TEXT.search(text)
    return match.group(1) if match else None


def api_names(source: str) -> dict[str, list[str]]:
    """Public top-level functions and __all__ of a Python module's source."""
    tree = ast.parse(source)
    defs = sorted(
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_")
    )
    exported: list[str] = []
    for node in tree.body:
        if not isinstance(node, ast.Assign) or not isinstance(node.value, (ast.List, ast.Tuple)):
            continue
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            exported = [e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return {"defs": defs, "all": sorted(exported)}


def python_mps_impls(source: str) -> list[str]:
    """aten ops that a Python module registers for the MPS key: `lib.impl("op", fn, "MPS")` calls."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "impl":
            consts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            consts += [k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)]
            if consts and "MPS" in consts[1:]:
                found.add(op_key(consts[0]))
    return sorted(found)


def metadata_facts(text: str) -> dict[str, Any]:
    """Requires-Python and the numpy requirements of a METADATA file."""
    message = email.parser.Parser().parsestr(text)
    requires = message.get_all("Requires-Dist") or []
    numpy = sorted(r.strip() for r in requires if re.match(r"\s*numpy\b", r))
    return {"requires_python": message.get("Requires-Python"), "numpy": numpy}


def op_key(name: str) -> str:
    """'add.out' -> 'aten::add.out'; 'aten::x' stays."""
    return name if name.startswith("aten::") else "aten::" + name


def dispatch_keys(entry: dict[str, Any]) -> set[str]:
    keys: set[str] = set()
    for raw in entry.get("dispatch") or {}:
        keys.update(part.strip() for part in str(raw).split(","))
    return keys


COMPOSITE_EXPLICIT = {"CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"}
SPARSE_MPS = {"SparseMPS", "SparseCsrMPS"}


def op_entries(entries: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """{op key: {"keys": dispatch keys, "delegate": structured_delegate or None}} of one yaml.

    `autogen:` names get torchgen-generated kernels registered to CompositeExplicitAutograd
    (torchgen/native_function_generation.py; torch 2.13's _dispatch_dump of an autogen op shows
    CompositeExplicitAutograd[alias]), so they are recorded with that key.
    """
    found: dict[str, dict[str, Any]] = {}
    generated: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if "func" not in entry:
            continue
        key = op_key(str(entry["func"]).split("(", 1)[0].strip())
        delegate = entry.get("structured_delegate")
        found[key] = {
            "keys": sorted(dispatch_keys(entry)) or ([NO_KERNEL] if "dispatch" in entry else []),
            "delegate": op_key(str(delegate)) if delegate else None,
        }
        for name in str(entry.get("autogen") or "").split(","):
            if name.strip():
                generated[op_key(name.strip())] = {"keys": ["CompositeExplicitAutograd"], "delegate": None}
    return {**generated, **found}


NO_KERNEL = "<dispatch: {}>"  # an explicitly empty dispatch section: no kernel is generated at all


def own_kind(keys: Iterable[str]) -> str:
    """The kind a dispatch section alone gives (no delegate)."""
    keys = set(keys)
    if keys == {NO_KERNEL}:
        return "none"
    if "MPS" in keys:
        return "mps"
    if not keys or "CompositeImplicitAutograd" in keys:
        return "composite-implicit"  # torchgen: no dispatch section means CompositeImplicitAutograd
    if keys & COMPOSITE_EXPLICIT:
        return "composite-explicit"
    if keys & SPARSE_MPS:
        return "sparse-mps"
    return "none"


def kinds_of(raw: dict[str, dict[str, Any]]) -> tuple[dict[str, str], dict[str, str]]:
    """({op key: kind}, {op key: delegate}) from op_entries' output.

    A structured op (structured_delegate) runs on dense MPS tensors through its delegate's kernel
    (the generated CompositeExplicitAutogradNonFunctional wrapper calls the .out op), unless it has an
    MPS key of its own; its other keys (Sparse*, Mkldnn*, ZeroTensor, NestedTensor*) are other layouts.
    """
    kinds: dict[str, str] = {}
    delegates: dict[str, str] = {}
    for key, entry in raw.items():
        delegate = entry.get("delegate")
        if delegate and "MPS" not in entry["keys"]:
            delegates[key] = delegate
            target = raw.get(delegate)
            kinds[key] = own_kind(target["keys"]) if target else "none"
        else:
            kinds[key] = own_kind(entry["keys"])
    return kinds, delegates


def op_kinds(entries: Sequence[dict[str, Any]]) -> tuple[dict[str, str], dict[str, str]]:
    """({op key: kind}, {op key: delegate op key}) for one release's native_functions.yaml entries."""
    return kinds_of(op_entries(entries))


def load_yaml(text: str) -> list[dict[str, Any]]:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(text, Loader=loader)


# ---------------------------------------------------------------------------------------------
# Disassembly of MPSFallback.mm's registrations (optional: needs llvm-objdump and llvm-nm)

OBJDUMP_NAMES = (
    "llvm-objdump",
    "llvm-objdump-18",
    "llvm-objdump-17",
    "llvm-objdump-16",
    "llvm-objdump-15",
    "llvm-objdump-14",
)
NM_NAMES = ("llvm-nm", "llvm-nm-18", "llvm-nm-17", "llvm-nm-16", "llvm-nm-15", "llvm-nm-14")
FALLBACK_INIT = re.compile(r"^__ZN2atL\d+TORCH_LIBRARY_IMPL_init___MPS_\d+ERN5torch7LibraryE$")
ATEN_INIT = re.compile(r"^__ZN2atL\d+TORCH_LIBRARY_IMPL_init_aten_MPS_\d+ERN5torch7LibraryE$")
STOI = "__ZNSt3__14stoi"
GET_ENV = "__ZN3c105utils7get_envEPKc"


def find_tool(names: Sequence[str]) -> str | None:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


def run_tool(cmd: list[str]) -> str:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=True).stdout


def stub_names(objdump: str, lib: str) -> dict[int, str]:
    """{stub address: imported symbol} from the Mach-O indirect symbol table."""
    stubs: dict[int, str] = {}
    for line in run_tool([objdump, "--macho", "--indirect-symbols", lib]).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].startswith("0x"):
            stubs[int(parts[0], 16)] = parts[2]
    return stubs


def disassemble(objdump: str, lib: str, symbol: str) -> str:
    """A function's disassembly, followed by that of the `.cold.N` parts the compiler outlined from it
    (2.12 moved the getenv call of MPSFallback.mm's registration into one)."""
    asm = run_tool([objdump, "-d", "--no-show-raw-insn", f"--disassemble-symbols={symbol}", lib])
    cold = sorted(set(re.findall(r"<(" + re.escape(symbol) + r"\.cold\.\d+)>", asm)))
    for part in cold:
        asm += run_tool([objdump, "-d", "--no-show-raw-insn", f"--disassemble-symbols={part}", lib])
    return asm


def called_stubs(asm: str, stubs: dict[int, str]) -> list[str]:
    """Imported functions a disassembled arm64 function calls through stubs, in order."""
    calls = []
    for match in re.finditer(r"\bbl\s+0x([0-9a-f]+)", asm):
        name = stubs.get(int(match.group(1), 16))
        if name:
            calls.append(name)
    return calls


def _page_plus_offset(asm: str, use: str) -> list[int]:
    """Addresses an arm64 function forms as an adrp page plus the offset of a later instruction whose
    regex *use* names the page register (group "base") and the offset (group "offset"), in order."""
    pages: dict[str, int] = {}
    found = []
    for line in asm.splitlines():
        match = re.search(r"\badrp\s+(x\d+),\s*0x([0-9a-f]+)", line)
        if match:
            pages[match.group(1)] = int(match.group(2), 16)
            continue
        match = re.search(use, line)
        if match and match["base"] in pages:
            found.append(pages[match["base"]] + int(match["offset"]))
    return found


def cstring_addresses(asm: str) -> list[int]:
    """Addresses an arm64 function computes with adrp+add (C strings among them), in order."""
    return _page_plus_offset(asm, r"\badd\s+x\d+,\s*(?P<base>x\d+),\s*#(?P<offset>\d+)")


def read_cstring(data: bytes, address: int) -> str | None:
    """The printable C string at a file offset (== vmaddr in a dylib's __TEXT), or None."""
    end = data.find(b"\0", address, address + 200)
    raw = data[address:end] if end > address else b""
    return raw.decode("ascii") if raw and all(32 < c < 127 for c in raw) else None


def read_cstring_spaced(data: bytes, address: int) -> str | None:
    """Like read_cstring, for messages: spaces allowed."""
    end = data.find(b"\0", address, address + 400)
    raw = data[address:end] if end > address else b""
    return raw.decode("ascii") if raw and all(32 <= c < 127 for c in raw) else None


def referenced_cstrings(asm: str, data: bytes) -> list[str]:
    """C strings an arm64 function loads with adrp+add."""
    return [text for text in (read_cstring(data, a) for a in cstring_addresses(asm)) if text]


# The selector MPSDevice's constructor asks MPSGraph about decides on which macOS MPS finds a device
# at all: aten/src/ATen/mps/MPSDevice.mm (pytorch/pytorch) says "Create the MPSGraph and check method
# introduced in 12.3+" (LSTMWithSourceTensor...), "... in 13.0" (cumulativeSumWithTensor...) and
# "... in 14.0" (HermiteanToRealFFTWithTensor...).
SELECTOR_MACOS = {
    "LSTMWithSourceTensor:recurrentWeight:inputWeight:bias:initState:initCell:descriptor:name:": "12.3",
    "cumulativeSumWithTensor:axis:name:": "13.0",
    "HermiteanToRealFFTWithTensor:axes:descriptor:name:": "14.0",
}
MPS_DEVICE_CTOR = "__ZN2at3mps9MPSDeviceC2Ev"


def macho_segments(data: bytes) -> list[tuple[int, int, int]]:
    """(vmaddr, vmsize, fileoff) of each LC_SEGMENT_64 of a 64-bit Mach-O image."""
    import struct

    ncmds = struct.unpack_from("<I", data, 16)[0]
    offset, segments = 32, []
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, offset)
        if cmd == 0x19:  # LC_SEGMENT_64
            vmaddr, vmsize, fileoff = struct.unpack_from("<QQQ", data, offset + 24)
            segments.append((vmaddr, vmsize, fileoff))
        offset += size
    return segments


def pointed_cstring(data: bytes, segments: list[tuple[int, int, int]], address: int) -> str | None:
    """The C string a pointer at `address` points to (a selector reference; chained-fixup rebases keep
    the target in the low 36 bits, plain pointers are the target itself)."""
    import struct

    def offset_of(addr: int) -> int | None:
        for vmaddr, vmsize, fileoff in segments:
            if vmaddr <= addr < vmaddr + vmsize:
                return addr - vmaddr + fileoff
        return None

    at = offset_of(address)
    if at is None:
        return None
    target = offset_of(struct.unpack_from("<Q", data, at)[0] & ((1 << 36) - 1))
    if target is None:
        return None
    end = data.find(b"\0", target, target + 300)
    raw = data[target:end] if end > target else b""
    return raw.decode("ascii") if raw and all(32 < c < 127 for c in raw) else None


def load_addresses(asm: str) -> list[int]:
    """Addresses an arm64 function loads 8-byte values from with adrp+ldr (selector references among them)."""
    return _page_plus_offset(asm, r"\bldr\s+x\d+,\s*\[(?P<base>x\d+),\s*#(?P<offset>\d+)\]")


def respond_to_selectors(asm: str, resolve: Any, stubs: dict[int, str]) -> list[str]:
    """Selectors passed to instancesRespondToSelector: in a disassembled arm64 function.

    Newer builds call `_objc_msgSend$instancesRespondToSelector:` stubs with the argument in x2; older
    ones call `_objc_msgSend` with the selector in x1 and the argument in x2. `resolve(address)` reads
    the selector a selector reference points to.
    """
    pages: dict[str, int] = {}
    regs: dict[str, str | None] = {}
    found = []
    for line in asm.splitlines():
        match = re.search(r"\badrp\s+(x\d+),\s*0x([0-9a-f]+)", line)
        if match:
            pages[match.group(1)] = int(match.group(2), 16)
            continue
        match = re.search(r"\bldr\s+(x[12]),\s*\[(x\d+),\s*#(\d+)\]", line)
        if match and match.group(2) in pages:
            regs[match.group(1)] = resolve(pages[match.group(2)] + int(match.group(3)))
            continue
        match = re.search(r"\bbl\s+0x([0-9a-f]+)(?:\s+<([^>]+)>)?", line)
        if match:
            named = (match.group(2) or "").endswith("$instancesRespondToSelector:")
            plain = (
                stubs.get(int(match.group(1), 16)) == "_objc_msgSend"
                and regs.get("x1") == "instancesRespondToSelector:"
            )
            if (named or plain) and regs.get("x2"):
                found.append(str(regs["x2"]))
            regs = {}
    return found


def enum_versions(asm: str) -> dict[int, tuple[int, int]]:
    """{MacOSVersion value: (major, minor)} from the disassembly of MPSDevice::isMacOS13Plus(MacOSVersion).

    Each version is computed once into a static byte: `mov w0, #major; mov w1, #minor; bl ...;
    adrp/add x8 -> static; strb w0, [x8]`. The switch then reads the byte of each case: `cbz w19, L`
    (case 0) or `cmp w19, #k; b.eq L`, with `ldrb w8, [x8, #static]` at L.
    """
    lines = asm.splitlines()
    stored: dict[int, tuple[int, int]] = {}
    for i, line in enumerate(lines):
        major = re.search(r"\bmov\s+w0,\s*#(\d+)$", line.strip())
        minor = re.search(r"\bmov\s+w1,\s*#(\d+)$", lines[i + 1].strip()) if i + 1 < len(lines) else None
        if not (major and minor):
            continue
        for follow in lines[i + 2 : i + 8]:
            offset = re.search(r"\badd\s+x8,\s*x8,\s*#(\d+)", follow)
            if offset:
                stored[int(offset.group(1))] = (int(major.group(1)), int(minor.group(1)))
                break
    at = {int(m.group(1), 16): i for i, line in enumerate(lines) if (m := re.match(r"\s*([0-9a-f]+):", line))}
    cases: dict[int, int] = {}
    for i, line in enumerate(lines):
        zero = re.search(r"\bcbz\s+w\d+,\s*0x([0-9a-f]+)", line)
        if zero:
            cases.setdefault(0, int(zero.group(1), 16))
        compare = re.search(r"\bcmp\s+w\d+,\s*#(\d+)", line)
        if compare and i + 1 < len(lines):
            equal = re.search(r"\bb\.eq\s+0x([0-9a-f]+)", lines[i + 1])
            if equal:
                cases.setdefault(int(compare.group(1)), int(equal.group(1), 16))
    found: dict[int, tuple[int, int]] = {}
    for case, target in cases.items():
        start = at.get(target)
        for follow in lines[start : start + 3] if start is not None else []:
            load = re.search(r"\bldrb\s+w\d+,\s*\[x8,\s*#(\d+)\]", follow)
            if load and int(load.group(1)) in stored:
                found[case] = stored[int(load.group(1))]
                break
    return found


def unavailable_branches(asm: str, texts: dict[int, str]) -> dict[str, Any] | None:
    """How EmptyTensor.cpp's mps_unavailable_error() picks its message: the MacOSVersion it asks
    is_macos_at_least about, and the texts loaded when the answer is yes and when it is no."""
    lines = asm.splitlines()
    for i, line in enumerate(lines):
        if "is_macos_at_least" not in line or not re.search(r"\bbl\s", line):
            continue
        enum = None
        for previous in reversed(lines[max(0, i - 3) : i]):
            found_enum = re.search(r"\bmov\s+w0,\s*#(\d+)", previous)
            if found_enum:
                enum = int(found_enum.group(1))
                break
        branch = re.search(r"\btbz\s+w0,\s*#0,\s*0x([0-9a-f]+)", lines[i + 1]) if i + 1 < len(lines) else None
        if enum is None or not branch:
            return None
        target = int(branch.group(1), 16)
        rest = "\n".join(lines[i + 2 :])
        addresses = [(int(m.group(1), 16), m.group(0)) for m in re.finditer(r"^\s*([0-9a-f]+):.*$", rest, re.M)]
        yes = "\n".join(text for address, text in addresses if address < target)
        no = "\n".join(text for address, text in addresses if address >= target)
        return {
            "enum": enum,
            "at_least": [texts[a] for a in cstring_addresses(yes) if a in texts],
            "below": [texts[a] for a in cstring_addresses(no) if a in texts],
        }
    return None


def device_check(lib: str) -> dict[str, Any]:
    """The selectors MPSDevice's constructor checks MPSGraph for, and the macOS they mean."""
    objdump = find_tool(OBJDUMP_NAMES)
    if not objdump:
        return {"selectors": None, "macos": None}
    asm = disassemble(objdump, lib, MPS_DEVICE_CTOR)
    with open(lib, "rb") as handle:
        data = handle.read()
    segments = macho_segments(data)
    selectors = respond_to_selectors(asm, lambda a: pointed_cstring(data, segments, a), stub_names(objdump, lib))
    floors = sorted({SELECTOR_MACOS[s] for s in selectors if s in SELECTOR_MACOS}, key=version_key)
    return {
        "selectors": sorted(set(selectors)),
        "macos": floors[-1] if floors else None,
        "unavailable": unavailable_rule(objdump, lib, data),
    }


def unavailable_rule(objdump: str, lib: str, data: bytes) -> dict[str, Any] | None:
    """Which availability message EmptyTensor.cpp's mps_unavailable_error() raises on which macOS
    (torch 2.15 on; older releases raise one text whatever the macOS)."""
    nm = find_tool(NM_NAMES)
    if not nm:
        return None
    symbols = [line.split()[-1] for line in run_tool([nm, "--defined-only", lib]).splitlines() if line.strip()]
    error_sym = next((s for s in symbols if "mps_unavailable_error" in s), None)
    version_sym = next((s for s in symbols if s.startswith("__ZNK2at3mps9MPSDevice13isMacOS13Plus")), None)
    if not error_sym or not version_sym:
        return None
    asm = disassemble(objdump, lib, error_sym)
    texts = {a: t for a in cstring_addresses(asm) if (t := read_cstring_spaced(data, a))}
    branches = unavailable_branches(asm, texts)
    versions = enum_versions(disassemble(objdump, lib, version_sym))
    if branches is None or branches["enum"] not in versions:
        return None
    major, minor = versions[branches["enum"]]

    def messages(found: list[str]) -> list[str]:
        return [t for t in found if " " in t and not t.startswith("/")]

    return {
        "macos": f"{major}.{minor}",
        "at_least": messages(branches["at_least"]),
        "below": messages(branches["below"]),
    }


def classify_reader(calls: Sequence[str], asm: str) -> str | None:
    """'stoi' when the registration calls getenv and std::stoi; 'not-0' when it calls c10::utils::get_env
    and compares a byte with '0' (cmp #48); None otherwise (not recognised)."""
    if "_getenv" in calls and any(c.startswith(STOI) for c in calls):
        return "stoi"
    if GET_ENV in calls and re.search(r"\bcmp\s+w\d+,\s*#48\b", asm):
        return "not-0"
    return None


def fallback_registration(lib: str) -> dict[str, Any]:
    """How MPSFallback.mm reads PYTORCH_ENABLE_MPS_FALLBACK, and the ops it always sends to the CPU."""
    objdump, nm = find_tool(OBJDUMP_NAMES), find_tool(NM_NAMES)
    if not objdump or not nm:
        return {"reader": None, "cpu_always": None, "why": "llvm-objdump/llvm-nm not found"}
    symbols = [line.split()[-1] for line in run_tool([nm, "--defined-only", lib]).splitlines() if line.strip()]
    fallback_syms = sorted(s for s in symbols if FALLBACK_INIT.match(s))
    aten_syms = sorted(s for s in symbols if ATEN_INIT.match(s))
    if len(fallback_syms) != 1 or len(aten_syms) != 1:
        return {
            "reader": None,
            "cpu_always": None,
            "why": f"registration functions not found: {fallback_syms} {aten_syms}",
        }
    stubs = stub_names(objdump, lib)
    asm = disassemble(objdump, lib, fallback_syms[0])
    calls = called_stubs(asm, stubs)
    reader = classify_reader(calls, asm)
    with open(lib, "rb") as handle:
        data = handle.read()
    names = referenced_cstrings(disassemble(objdump, lib, aten_syms[0]), data)
    return {
        "reader": reader,
        "calls": sorted(set(c for c in calls if c in ("_getenv", GET_ENV) or c.startswith(STOI))),
        "cpu_always": sorted(set(names)),
        "symbols": [fallback_syms[0], aten_syms[0]],
    }


# ---------------------------------------------------------------------------------------------
# One wheel


EXTRACTOR_VERSION = 4  # bump when read_wheel's output changes, so cached readings are redone


def read_wheel_cached(path: Path, scratch: Path, disassemble_lib: bool, refresh: bool) -> dict[str, Any]:
    """read_wheel, memoised in <cache>/facts/<wheel>.json (the cache is the maintainer's, not the repo's)."""
    memo = path.parent / "facts" / f"{path.name}.v{EXTRACTOR_VERSION}{'' if disassemble_lib else '.nodis'}.json"
    if memo.exists() and not refresh:
        cached: dict[str, Any] = json.loads(memo.read_text(encoding="utf-8"))
        return cached
    facts = read_wheel(path, scratch, disassemble_lib)
    memo.parent.mkdir(exist_ok=True)
    memo.write_text(json.dumps(facts, sort_keys=True), encoding="utf-8")
    return facts


DEVICE_CHECK_VERSION = 2


def read_device_check_cached(path: Path, scratch: Path, refresh: bool) -> dict[str, Any] | None:
    """device_check of the wheel's libtorch_cpu.dylib (arm64 only), memoised like read_wheel_cached."""
    if not path.name.endswith("arm64.whl"):
        return None
    memo = path.parent / "facts" / f"{path.name}.device.v{DEVICE_CHECK_VERSION}.json"
    if memo.exists() and not refresh:
        cached: dict[str, Any] = json.loads(memo.read_text(encoding="utf-8"))
        return cached
    target = scratch / (path.name + ".device.libtorch_cpu.dylib")
    with zipfile.ZipFile(path) as wheel, wheel.open(LIBTORCH_CPU) as src, open(target, "wb") as dst:
        shutil.copyfileobj(src, dst)
    try:
        found = device_check(str(target))
    finally:
        target.unlink()
    memo.parent.mkdir(exist_ok=True)
    memo.write_text(json.dumps(found, sort_keys=True), encoding="utf-8")
    return found


def read_wheel(path: Path, scratch: Path, disassemble_lib: bool) -> dict[str, Any]:
    """Every fact this script reads from one wheel, as plain data."""
    facts: dict[str, Any] = {"wheel": path.name, "platform_tag": path.name[:-4].rsplit("-", 1)[-1]}
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        texts: dict[str, dict[str, set[str]]] = {}
        env: dict[str, set[str]] = {}
        for name in sorted(n for n in names if n.startswith("torch/lib/") and n.endswith(".dylib")):
            categories, found = categorize_strings(printable_strings(wheel.read(name)))
            for category, items in categories.items():
                for text in items:
                    texts.setdefault(text, {}).setdefault(category, set()).add(name)
            for var in found:
                env.setdefault(var, set()).add(name)
        facts["texts"] = {
            text: {"category": sorted(cats)[0], "files": sorted(set().union(*cats.values()))}
            for text, cats in texts.items()
        }
        facts["env_vars"] = {var: sorted(files) for var, files in env.items()}
        facts["api"] = {}
        facts["python_mps_impls"] = []
        for module, file in API_FILES.items():
            if file in names:
                source = wheel.read(file).decode("utf-8")
                facts["api"][module] = api_names(source)
                facts["python_mps_impls"] += python_mps_impls(source)
        meta = [n for n in names if n.endswith(".dist-info/METADATA")]
        facts["metadata"] = metadata_facts(wheel.read(meta[0]).decode("utf-8")) if meta else {}
        facts["ops"] = None
        if YAML_PATH in names:
            facts["ops"] = op_entries(load_yaml(wheel.read(YAML_PATH).decode("utf-8")))
        facts["fallback"] = None
        if disassemble_lib and LIBTORCH_CPU in names and facts["platform_tag"].endswith("arm64"):
            target = scratch / (path.name + ".libtorch_cpu.dylib")
            with wheel.open(LIBTORCH_CPU) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
            try:
                facts["fallback"] = fallback_registration(str(target))
            finally:
                target.unlink()
    return facts


# ---------------------------------------------------------------------------------------------
# Tables

READ_STRINGS = "printable strings (>= %d chars) of %s in the wheel"
SOURCES = {
    "texts": "printable strings (>= 6 ASCII chars, like `strings -n 6`) of every torch/lib/*.dylib in the "
    "release's macOS arm64 wheel, kept by category (availability, oom, watermark, fallback, macos-gated, dtype); "
    "'files' names the dylibs that hold each text",
    "macos_floor": "the version in the release's 'The MPS backend is supported on macOS X+' text",
    "env_vars": "PYTORCH_*MPS* names among the same strings",
    "api": "ast of torch/backends/mps/__init__.py and torch/mps/__init__.py in the wheel: public top-level "
    "defs and __all__",
    "metadata": "*.dist-info/METADATA of the wheel: Requires-Python, Requires-Dist entries naming numpy",
    "platform_tag": "the downloaded wheel's file name",
    "numpy_modules": "numpy extension module names among the strings of torch/lib/*.dylib: numpy's import_array() "
    "from numpy 1.x headers tries only 'numpy.core._multiarray_umath'; numpy 2 headers (which build modules that "
    "run on numpy 1 and 2) add 'numpy._core._multiarray_umath'. Only the former: the release needs numpy<2",
    "install": "`pip index versions torch --only-binary=:all: --platform P --python-version V` for V in "
    + ", ".join(PYTHONS)
    + " and P in "
    + ", ".join((*ARM64_PLATFORMS, X86_PLATFORM))
    + ": per CPython tag, the oldest probed macOS whose platform tag lists the release",
    "device_check_selectors": "disassembly (llvm-objdump) of at::mps::MPSDevice::MPSDevice() in "
    "torch/lib/libtorch_cpu.dylib: the selectors it asks [MPSGraph instancesRespondToSelector:] about (read "
    "through __objc_selrefs); without that method no MPS device is picked",
    "device_check_macos": "the macOS that selector needs, from the comments of aten/src/ATen/mps/MPSDevice.mm "
    "(pytorch/pytorch): 'check method introduced in 12.3+' (LSTMWithSourceTensor:...), 'in 13.0' "
    "(cumulativeSumWithTensor:axis:name:), 'in 14.0' (HermiteanToRealFFTWithTensor:axes:descriptor:name:); "
    "null when the constructor asks about none",
    "unavailable_messages": "disassembly of at::detail::mps_unavailable_error() (aten/src/ATen/mps/EmptyTensor.cpp) "
    "and at::mps::MPSDevice::isMacOS13Plus(MacOSVersion): the macOS it asks is_macos_at_least about, the texts "
    "it raises at or above that macOS ('at_least') and below it ('below'); null where the function is absent "
    "(one text whatever the macOS)",
    "fallback_reader": "disassembly (llvm-objdump) of at::TORCH_LIBRARY_IMPL_init___MPS_N, the "
    "TORCH_LIBRARY_IMPL(_, MPS) block of aten/src/ATen/mps/MPSFallback.mm, in torch/lib/libtorch_cpu.dylib: "
    "'stoi' = it calls getenv and std::stoi (a non-integer value throws at import; 0 disables); "
    "'not-0' = it calls c10::utils::get_env and compares a 1-byte value with '0' (cmp #48): any value but "
    "unset or '0' enables the fallback",
}


def releases_table(per_release: dict[str, dict[str, Any]], install: dict[str, dict[str, list[str]]]) -> dict[str, Any]:
    """mpscheck/knowledge/torch_releases.json."""
    ordered = sorted(per_release, key=lambda r: version_key(r.split("/")[0]))
    texts: dict[tuple[str, str], dict[str, Any]] = {}
    releases: dict[str, Any] = {}
    x86: dict[str, Any] = {}
    for label in ordered:
        facts = per_release[label]
        version, arch = label.split("/")
        for text, info in facts["texts"].items():
            entry = texts.setdefault(
                (text, arch), {"text": text, "category": info["category"], "arch": arch, "files": set(), "releases": []}
            )
            entry["files"].update(info["files"])
            entry["releases"].append(version)
        floors = sorted(
            {stated_floor(t) for t, i in facts["texts"].items() if i["category"] == "availability"} - {None},
            key=version_key,
        )
        fallback = facts.get("fallback") or {}
        numpy_modules = sorted(t for t, i in facts["texts"].items() if i["category"] == "numpy-module")
        record = {
            "numpy_modules": numpy_modules,
            "wheel": facts["wheel"],
            "platform_tag": facts["platform_tag"],
            "requires_python": facts["metadata"].get("requires_python"),
            "numpy": facts["metadata"].get("numpy", []),
            "macos_floor": floors[-1] if floors else None,
            "api": facts["api"],
            "env_vars": sorted(facts["env_vars"]),
            "python_mps_impls": facts["python_mps_impls"],
            "install": install_facts(install, version, arch),
        }
        device = facts.get("device_check") or {}
        record["device_check_selectors"] = device.get("selectors")
        record["device_check_macos"] = device.get("macos")
        record["unavailable_messages"] = device.get("unavailable")
        if arch == "arm64":
            record["fallback_reader"] = fallback.get("reader")
            record["fallback_calls"] = fallback.get("calls")
            releases[version] = record
        else:
            x86[version] = record
    return {
        "format": 1,
        "releases": releases,
        "x86_64": x86,
        "texts": sorted(
            ({**e, "files": sorted(e["files"])} for e in texts.values()),
            key=lambda e: (e["category"], e["text"], e["arch"]),
        ),
        "sources": SOURCES,
    }


def transitions(values: Sequence[tuple[str, Any]]) -> list[list[Any]]:
    """[[release, value], ...] keeping only the releases where the value changes."""
    out: list[list[Any]] = []
    for release, value in values:
        if not out or out[-1][1] != value:
            out.append([release, value])
    return out


OPS_SOURCES = {
    "kinds": "torchgen/packaged/ATen/native/native_functions.yaml of each release's macOS arm64 wheel. "
    "mps: a dispatch key 'MPS' (alone or in a list such as 'CPU, CUDA, MPS'); composite-implicit: "
    "CompositeImplicitAutograd, or no dispatch section (torchgen's default; an explicit empty 'dispatch: {}' "
    "registers no kernel and counts as none); composite-explicit: "
    "CompositeExplicitAutograd(NonFunctional), and every name listed under autogen: (torchgen registers "
    "generated kernels to CompositeExplicitAutograd; of the autogen variants of CompositeImplicitAutograd ops, "
    "torch 2.13.0 registers 4 of 17, with CompositeExplicitAutograd kernels, and not the others); "
    "sparse-mps: SparseMPS/SparseCsrMPS but no MPS nor "
    "composite key; none: dispatch entries, none for MPS nor composite (on MPS it falls back to the CPU or "
    "raises); absent: not in that release. Priority when several apply: mps, composite-implicit, "
    "composite-explicit, sparse-mps, none. An op with a structured_delegate and no MPS key of its own takes "
    "its delegate's kind (its other keys serve other layouts); 'delegate' names the .out op, as torch's "
    "fallback warning prints it.",
    "cpu_always": "disassembly (llvm-objdump) of at::TORCH_LIBRARY_IMPL_init_aten_MPS_N, the "
    "TORCH_LIBRARY_IMPL(aten, MPS) block of aten/src/ATen/mps/MPSFallback.mm, in torch/lib/libtorch_cpu.dylib: "
    "the op names it passes to m.impl, less _slow_conv2d_forward, which MPSFallback.mm registers to "
    "slow_conv2d_forward_mps (a device check), not to the CPU fallback (pytorch/pytorch "
    "aten/src/ATen/mps/MPSFallback.mm at commit 035290b77d8b4bd106cf5f9a728516d4335d5a42)",
    "python_mps": "ast of torch/backends/mps/__init__.py and torch/mps/__init__.py: calls lib.impl('op', fn, 'MPS') "
    "(registered from Python when torch.backends.mps._init() runs)",
}
NOT_CPU_FALLBACK = {"aten::_slow_conv2d_forward"}


def ops_table(per_release: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """mpscheck/knowledge/op_coverage.json (format 1)."""
    releases = sorted((label.split("/")[0] for label in per_release if label.endswith("/arm64")), key=version_key)
    facts = {r: per_release[r + "/arm64"] for r in releases}
    derived = {r: kinds_of(facts[r]["ops"] or {}) for r in releases}
    names = sorted(set().union(*(set(kinds) for kinds, _ in derived.values())))
    ops: dict[str, Any] = {}
    for name in names:
        history = transitions([(r, derived[r][0].get(name, "absent")) for r in releases])
        entry: dict[str, Any] = {"history": history}
        for release in reversed(releases):
            delegate = derived[release][1].get(name)
            if delegate:
                entry["delegate"] = delegate
                break
        ops[name] = entry
    cpu_always = []
    for release in releases:
        fallback = facts[release].get("fallback") or {}
        listed = fallback.get("cpu_always")
        value = None if listed is None else sorted({op_key(n) for n in listed} - NOT_CPU_FALLBACK)
        cpu_always.append((release, value))
    python_mps = [(r, facts[r]["python_mps_impls"]) for r in releases]
    return {
        "format": 1,
        "releases": releases,
        "ops": ops,
        "cpu_always": {"history": transitions(cpu_always), "source": OPS_SOURCES["cpu_always"]},
        "python_mps": {"history": transitions(python_mps), "source": OPS_SOURCES["python_mps"]},
        "sources": OPS_SOURCES,
    }


def dump(table: dict[str, Any]) -> str:
    """Deterministic JSON: sorted keys, one top-level op per line, no timestamps."""
    return json.dumps(table, sort_keys=True, indent=0, separators=(",", ":"), ensure_ascii=True) + "\n"


def write(path: Path, table: dict[str, Any]) -> None:
    path.write_text(dump(table), encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# Test fixtures: small real excerpts of a few wheels (tests/fixtures/wheels/<version>/)

FIXTURE_RELEASES = ("2.2.2/x86_64", "2.3.0/arm64", "2.7.1/arm64", "2.8.0/arm64", "2.9.0/arm64", "2.15.0/arm64")
FIXTURE_OPS = (
    "add.Tensor",
    "add_.Tensor",
    "add.out",
    "roll",
    "linalg_svd",
    "linalg_svd.U",
    "embedding_renorm_",
    "col2im",
    "abs",
    "abs_",
    "abs.out",
    "_efficientzerotensor",
    "_efficientzerotensor.out",
    "dropout",
    "native_group_norm",
    "_to_dense",
    "relu",
    "upsample_nearest3d.vec",
    "_foreach_add.Scalar",
    "_foreach_add.Scalar_out",
    "zeros_like",
    "softmax.int",
    "_sparse_mm_reduce_impl",
    "angle",
    "angle.out",
)


def string_excerpt(strings: Sequence[str], context: int = 1, limit: int = 400) -> list[str]:
    """The kept strings of a dylib with `context` neighbours each side, in the binary's order."""
    keep = set()
    for index, text in enumerate(strings):
        categories, names = categorize_strings([text])
        if categories or names:
            keep.update(range(max(0, index - context), min(len(strings), index + context + 1)))
    return [strings[i] for i in sorted(keep) if "\n" not in strings[i] and len(strings[i]) < 400][:limit]


def yaml_excerpt(text: str, ops: Sequence[str]) -> str:
    """The native_functions.yaml entries (verbatim, comments dropped) whose func: names one of `ops`."""
    blocks, current = [], []
    for line in text.splitlines():
        if line.startswith("- func:"):
            if current:
                blocks.append(current)
            current = [line]
        elif current and line.strip() and not line.lstrip().startswith("#"):
            current.append(line)
    if current:
        blocks.append(current)
    wanted = set(ops)
    chosen = [b for b in blocks if b[0][len("- func:") :].strip().split("(", 1)[0] in wanted]
    return "\n\n".join("\n".join(b) for b in chosen) + "\n"


def trim_asm(asm: str) -> str:
    """A disassembly without llvm-objdump's `<nearest symbol+offset>` guesses on adrp lines (noise)."""
    return "".join(
        re.sub(r"\s+<[^>]*>$", "", line) if "adrp" in line else line for line in asm.splitlines(keepends=True)
    )


def write_disassembly(wheel: Path, out: Path, objdump: str, nm: str) -> None:
    """The disassembly excerpts the fallback-reader tests read (arm64 wheels only)."""
    with tempfile.TemporaryDirectory() as tmp:
        lib = str(Path(tmp) / "libtorch_cpu.dylib")
        with zipfile.ZipFile(wheel) as zf, zf.open(LIBTORCH_CPU) as src, open(lib, "wb") as dst:
            shutil.copyfileobj(src, dst)
        symbols = [line.split()[-1] for line in run_tool([nm, "--defined-only", lib]).splitlines() if line.strip()]
        fallback_sym = next(s for s in symbols if FALLBACK_INIT.match(s))
        aten_sym = next(s for s in symbols if ATEN_INIT.match(s))
        fallback_asm = disassemble(objdump, lib, fallback_sym)
        aten_asm = disassemble(objdump, lib, aten_sym)
        stubs = stub_names(objdump, lib)
        called = {int(m.group(1), 16) for m in re.finditer(r"\bbl\s+0x([0-9a-f]+)", fallback_asm + aten_asm)}
        stub_lines = [f"0x{addr:016x} 0 {stubs[addr]}" for addr in sorted(called) if addr in stubs]
        (out / "fallback_init.asm.txt").write_text(trim_asm(fallback_asm), encoding="utf-8")
        (out / "aten_init.asm.txt").write_text(trim_asm(aten_asm), encoding="utf-8")
        data = Path(lib).read_bytes()
        segments = macho_segments(data)
        ctor_asm = disassemble(objdump, lib, MPS_DEVICE_CTOR)
        (out / "device_ctor.asm.txt").write_text(trim_asm(ctor_asm), encoding="utf-8")
        selrefs = []
        for address in sorted(set(load_addresses(ctor_asm))):
            selector = pointed_cstring(data, segments, address)
            if selector:
                selrefs.append(f"0x{address:x} {selector}")
        (out / "selrefs.txt").write_text("\n".join(selrefs) + "\n", encoding="utf-8")
        ctor_called = {int(m.group(1), 16) for m in re.finditer(r"\bbl\s+0x([0-9a-f]+)", ctor_asm)}
        stub_lines += [f"0x{addr:016x} 0 {stubs[addr]}" for addr in sorted(ctor_called - called) if addr in stubs]
        (out / "stubs.txt").write_text("\n".join(sorted(stub_lines)) + "\n", encoding="utf-8")
        if "mps_unavailable_error" in " ".join(symbols):
            error_sym = next(s for s in symbols if "mps_unavailable_error" in s)
            error_asm = trim_asm(disassemble(objdump, lib, error_sym))
            (out / "mps_unavailable_error.asm.txt").write_text(error_asm, encoding="utf-8")
            texts = [f"0x{a:x} {t}" for a in cstring_addresses(error_asm) if (t := read_cstring_spaced(data, a))]
            (out / "mps_unavailable_error.cstrings.txt").write_text("\n".join(texts) + "\n", encoding="utf-8")
            version_sym = next((s for s in symbols if s.startswith("__ZNK2at3mps9MPSDevice13isMacOS13Plus")), None)
            if version_sym:
                version_asm = trim_asm(disassemble(objdump, lib, version_sym))
                (out / "is_macos_13_plus.asm.txt").write_text(version_asm, encoding="utf-8")
        lines = [f"0x{a:x} {t}" for a in cstring_addresses(aten_asm) if (t := read_cstring(data, a))]
        (out / "cstrings.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_fixtures(cache: Path, dest: Path) -> None:
    """Write the extractor tests' inputs: real excerpts, each directory with a SOURCE.txt citing the wheel."""
    import hashlib

    for label in FIXTURE_RELEASES:
        version, arch = label.split("/")
        wheel = Path(sorted(glob.glob(str(cache / f"torch-{version}-*{arch}.whl")))[0])
        out = dest / (version if arch == "arm64" else f"{version}-{arch}")
        out.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        with zipfile.ZipFile(wheel) as zf:
            names = zf.namelist()
            lib = zf.read(LIBTORCH_CPU)
            strings = list(printable_strings(lib))
            (out / "libtorch_cpu.strings.txt").write_text("\n".join(string_excerpt(strings)) + "\n", encoding="ascii")
            py_lib = "torch/lib/libtorch_python.dylib"
            numpy_lines = [t for t in printable_strings(zf.read(py_lib)) if NUMPY_MODULE.match(t)]
            (out / "libtorch_python.numpy.txt").write_text("\n".join(sorted(set(numpy_lines))) + "\n", encoding="ascii")
            meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
            head = zf.read(meta).decode("utf-8").split("\n\n", 1)[0] + "\n"
            (out / "METADATA").write_text(head, encoding="utf-8")
            (out / "backends_mps_init.py.txt").write_text(
                zf.read(API_FILES["torch.backends.mps"]).decode(), encoding="utf-8"
            )
            if API_FILES["torch.mps"] in names:
                (out / "mps_init.py.txt").write_text(zf.read(API_FILES["torch.mps"]).decode(), encoding="utf-8")
            if YAML_PATH in names:
                excerpt = yaml_excerpt(zf.read(YAML_PATH).decode("utf-8"), FIXTURE_OPS)
                (out / "native_functions.excerpt.yaml").write_text(excerpt, encoding="utf-8")
        objdump, nm = find_tool(OBJDUMP_NAMES), find_tool(NM_NAMES)
        if arch == "arm64" and objdump and nm:
            write_disassembly(wheel, out, objdump, nm)
        tag = wheel.name[:-4].rsplit("-", 1)[-1]
        source = [
            f"Real excerpts of {wheel.name} (sha256 {digest}), the macOS {arch} wheel of torch {version} on PyPI",
            f"(pip download torch=={version} --no-deps --only-binary=:all: --platform {tag}).",
            "libtorch_cpu.strings.txt: printable strings (>= 6 chars) of torch/lib/libtorch_cpu.dylib that",
            "tools/build_knowledge.py keeps, with one neighbour each side, in the binary's order.",
            "libtorch_python.numpy.txt: the numpy module names among the strings of",
            "torch/lib/libtorch_python.dylib.",
            "METADATA: the header of the wheel's *.dist-info/METADATA (the long description dropped).",
            "backends_mps_init.py.txt, mps_init.py.txt: torch/backends/mps/__init__.py and",
            "torch/mps/__init__.py verbatim. native_functions.excerpt.yaml: entries of",
            "torchgen/packaged/ATen/native/native_functions.yaml, comments dropped.",
            "fallback_init.asm.txt, aten_init.asm.txt: `llvm-objdump -d --no-show-raw-insn --disassemble-symbols=S`",
            "(the `<symbol+offset>` guesses llvm-objdump appends to adrp lines dropped)",
            "of the MPSFallback.mm registration functions in libtorch_cpu.dylib; stubs.txt: the lines of",
            "`llvm-objdump --macho --indirect-symbols` for the stubs they call; cstrings.txt: the C strings",
            "aten_init loads (address, text), read from the dylib at the address adrp+add computes.",
            "device_ctor.asm.txt: the same of at::mps::MPSDevice::MPSDevice(); selrefs.txt: the selectors its",
            "selector references point to. mps_unavailable_error.asm.txt (2.15 on): the function that picks",
            "the availability message EmptyTensor.cpp raises; .cstrings.txt: the texts it loads;",
            "is_macos_13_plus.asm.txt: at::mps::MPSDevice::isMacOS13Plus(MacOSVersion), which maps the enum",
            "to the (major, minor) it asks NSProcessInfo about.",
            "Regenerate: python tools/build_knowledge.py --cache DIR --write-fixtures tests/fixtures/wheels",
        ]
        (out / "SOURCE.txt").write_text("\n".join(source) + "\n", encoding="utf-8")
        print(f"fixtures for {label} in {out}", file=sys.stderr)


def wheel_choice(version: str, install: dict[str, dict[str, list[str]]]) -> tuple[str, str]:
    """(platform, python) of the arm64 wheel read for a release: the oldest tag, PREFERRED_PYTHON if it has one."""
    platform = next((p for p in ARM64_PLATFORMS if any(version in vs for vs in install.get(p, {}).values())), None)
    if platform is None:
        raise SystemExit(f"the package index lists no macOS arm64 wheel of torch {version}")
    pythons = [py for py in PYTHONS if version in install[platform].get(py, [])]
    return platform, PREFERRED_PYTHON if PREFERRED_PYTHON in pythons else pythons[-1]


def index_answers(cache: Path, fresh: bool) -> dict[str, dict[str, list[str]]]:
    """installability(), memoised in <cache>/facts/pip-index.json unless *fresh*."""
    memo = cache / "facts" / "pip-index.json"
    if memo.exists() and not fresh:
        cached: dict[str, dict[str, list[str]]] = json.loads(memo.read_text(encoding="utf-8"))
        return cached
    install = installability()
    memo.parent.mkdir(exist_ok=True)
    memo.write_text(json.dumps(install, sort_keys=True), encoding="utf-8")
    return install


def add_releases(args: argparse.Namespace) -> int:
    """--add / --add-missing: read only the new releases' wheels and merge them into the committed tables."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import add_release  # tools/add_release.py: the merge, tested on the recorded fixtures

    install = index_answers(args.cache, fresh=True)  # a new release is what the memo cannot know
    releases_path, ops_path = args.out / "torch_releases.json", args.out / "op_coverage.json"
    table = json.loads(releases_path.read_text(encoding="utf-8"))
    ops = json.loads(ops_path.read_text(encoding="utf-8"))
    listed = {v for plat in ARM64_PLATFORMS for vs in install.get(plat, {}).values() for v in vs}
    versions = add_release.missing(sorted(listed), table, FIRST_RELEASE, version_key) if args.add_missing else args.add
    scratch = Path(tempfile.mkdtemp(prefix="build_knowledge-", dir=args.cache))
    try:
        for version in versions:
            platform, python = wheel_choice(version, install)
            wheel = download(version, args.cache, platform, python)
            facts = read_wheel_cached(wheel, scratch, not args.no_disassembly, args.refresh)
            if not args.no_disassembly:
                facts["device_check"] = read_device_check_cached(wheel, scratch, args.refresh)
            table = add_release.merge_releases(table, releases_table({f"{version}/arm64": facts}, install), version_key)
            kinds, delegates = kinds_of(facts["ops"] or {})
            listed_cpu = (facts.get("fallback") or {}).get("cpu_always")
            cpu = None if listed_cpu is None else sorted({op_key(n) for n in listed_cpu} - NOT_CPU_FALLBACK)
            ops = add_release.merge_ops(
                ops, version, kinds, delegates, cpu, facts["python_mps_impls"], version_key, transitions
            )
            print(version)  # stdout: the releases added, one a line (the weekly workflow reads them)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    write(releases_path, table)
    write(ops_path, ops)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True, help="wheel cache directory, outside the repository")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="where to write the two JSON files")
    parser.add_argument("--no-disassembly", action="store_true", help="skip llvm-objdump (fallback reader, cpu_always)")
    parser.add_argument("--jobs", type=int, default=2, help="wheels read in parallel")
    parser.add_argument("--refresh", action="store_true", help="re-read wheels already read into <cache>/facts")
    parser.add_argument("--write-fixtures", type=Path, help="only write test fixtures from the cached wheels here")
    parser.add_argument(
        "--optim-paths", action="store_true", help="only write optim_paths.json from the wheels already cached"
    )
    parser.add_argument(
        "--add",
        metavar="VERSION",
        action="append",
        default=[],
        help="read only this release's wheel and merge it into the tables in --out (repeatable)",
    )
    parser.add_argument(
        "--add-missing", action="store_true", help="--add every release the package index lists and the table lacks"
    )
    args = parser.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    if args.optim_paths:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from optim_paths import build  # tools/optim_paths.py: reads the cache, never downloads

        print(build(args.cache, args.out))
        return 0
    if args.write_fixtures:
        write_fixtures(args.cache, args.write_fixtures)
        return 0
    if args.add or args.add_missing:
        return add_releases(args)

    install = index_answers(args.cache, fresh=args.refresh)
    arm64 = sorted(
        {
            v
            for plat in ARM64_PLATFORMS
            for vs in install.get(plat, {}).values()
            for v in vs
            if version_key(v) >= FIRST_RELEASE
        },
        key=version_key,
    )
    if not arm64:
        raise SystemExit("pip index listed no torch release; is the package index reachable?")
    wanted = [(f"{version}/arm64", *wheel_choice(version, install)) for version in arm64]
    wanted.append((f"{LAST_X86_RELEASE}/x86_64", X86_PLATFORM, PREFERRED_PYTHON))
    scratch = Path(tempfile.mkdtemp(prefix="build_knowledge-", dir=args.cache))
    per_release: dict[str, dict[str, Any]] = {}
    wheels = [
        (label, download(label.split("/")[0], args.cache, platform, python)) for label, platform, python in wanted
    ]
    try:
        with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
            futures = {
                label: pool.submit(read_wheel_cached, wheel, scratch, not args.no_disassembly, args.refresh)
                for label, wheel in wheels
            }
            checks = {}
            if not args.no_disassembly:
                checks = {
                    label: pool.submit(read_device_check_cached, wheel, scratch, args.refresh)
                    for label, wheel in wheels
                }
            for label, future in futures.items():
                per_release[label] = future.result()
                if label in checks:
                    per_release[label]["device_check"] = checks[label].result()
                print(f"read {label}", file=sys.stderr)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    args.out.mkdir(parents=True, exist_ok=True)
    write(args.out / "torch_releases.json", releases_table(per_release, install))
    write(args.out / "op_coverage.json", ops_table(per_release))
    print(f"wrote {args.out}/torch_releases.json and op_coverage.json ({len(per_release)} wheels)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    sys.exit(main())
