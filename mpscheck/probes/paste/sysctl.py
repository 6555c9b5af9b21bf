"""`sysctl` lines (machdep.cpu.brand_string, hw.optional.arm64, sysctl.proc_translated, hw.memsize,
kern.hv_vmm_present, hw.model) and `system_profiler SPHardwareDataType` (Chip, Memory, Model Identifier;
also its `-json` form and SPDisplaysDataType's sppci_model / sppci_cores: "Apple Paravirtual device" is a VM).

sysctl.proc_translated in a paste is that of the shell that ran sysctl: 1 means the terminal itself
runs under Rosetta, so a Python started from it defaults to x86_64; so do x86 flags (SSE2, MMX) in
machdep.cpu.features next to an Apple chip. ``sysctl -n KEY`` prints the value on the next line.
"""

from __future__ import annotations

import math
import re

from mpscheck.probes.paste.model import Observation, observe

KIND = "sysctl"
SYSCTL = re.compile(r"^\s*(?P<key>[a-z_]+(?:\.[a-z0-9_]+)+)\s*[:=]\s*(?P<value>\S(?:.*\S)?)\s*$")
PROFILER = re.compile(
    r"^\s*(?P<key>Chip|Processor Name|Memory|Model Identifier|Total Number of Cores)\s*:\s*(?P<value>\S(?:.*\S)?)\s*$"
)
MEMORY = re.compile(r"^(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>GB|GiB|TB|TiB|MB|MiB)$")
UNITS = {"MB": 1024**2, "MiB": 1024**2, "GB": 1024**3, "GiB": 1024**3, "TB": 1024**4, "TiB": 1024**4}
_INTS = {
    "hw.memsize": "host.memory_bytes",
    "hw.ncpu": "host.cpu_count",
    "hw.perflevel0.physicalcpu": "host.performance_cores",
    "hw.perflevel1.physicalcpu": "host.efficiency_cores",
}


def memory_bytes(text: str) -> int | None:
    """'32 GB' -> bytes (Apple's GB on these pages are GiB); None when it is not a size."""
    match = MEMORY.match(text.strip())
    if not match:
        return None
    size = float(match["n"]) * UNITS[match["unit"]]
    return int(size) if math.isfinite(size) else None  # 400 digits are not a Mac's memory


PROFILER_JSON = re.compile(
    r'^\s*"(?P<key>sppci_model|sppci_cores|chip_type|physical_memory|machine_model)"\s*:\s*"(?P<value>[^"]*)"'
)
SYSCTL_N = re.compile(r"sysctl -n (?P<key>[a-z_]+(?:\.[a-z0-9_]+)+)\s*$")


def parse(lines: list[str]) -> list[Observation]:
    out: list[Observation] = []
    for number, line in enumerate(lines, start=1):
        if (match := SYSCTL_N.search(line)) and number < len(lines) and lines[number].strip():
            out += _sysctl(lines, number + 1, match["key"], lines[number].strip(), number)
        elif match := SYSCTL.match(line):
            out += _sysctl(lines, number, match["key"], match["value"])
        elif match := PROFILER_JSON.match(line):
            out += _profiler_json(lines, number, match["key"], match["value"])
        elif match := PROFILER.match(line):
            out += _profiler(lines, number, match["key"], match["value"])
    return out


def _sysctl(lines: list[str], number: int, key: str, value: str, command: int | None = None) -> list[Observation]:
    def seen(fact: str, val: object) -> list[Observation]:
        return [observe(KIND, lines, number, fact, val, command)]

    if key == "machdep.cpu.brand_string":
        return seen("host.cpu_brand", value)
    if key in _INTS and value.isdigit():
        return seen(_INTS[key], int(value))
    if key == "hw.optional.arm64" and value in ("0", "1"):
        return seen("host.arm64_hardware", value == "1")
    if key == "kern.hv_vmm_present" and value in ("0", "1"):
        return seen("host.hypervisor", value == "1")
    if key == "hw.model" and re.fullmatch(r"\A(?:[A-Za-z]+\d+,\d+)", value):
        return seen("host.model", value)
    if key == "sysctl.proc_translated" and value in ("0", "1"):
        return seen("paste.shell_translated", int(value))
    if key == "machdep.cpu.features" and re.search(r"\b(?:SSE2|MMX|FPU)\b", value):
        return seen("paste.x86_cpu_features", True)  # what Rosetta reports to a translated process
    if key == "kern.osproductversion" and re.fullmatch(r"\A(?:\d+(?:\.\d+)*)", value):
        return seen("host.macos_version", value)
    return []


def _profiler_json(lines: list[str], number: int, key: str, value: str) -> list[Observation]:
    """`system_profiler SPDisplaysDataType -json` / `SPHardwareDataType -json` fields."""

    def seen(fact: str, val: object) -> list[Observation]:
        return [observe(KIND, lines, number, fact, val), observe(KIND, lines, number, "host.system", "Darwin")]

    if key == "sppci_model" and value:
        found = seen("host.gpu_name", value)
        if value == "Apple Paravirtual device":  # the Metal device of macOS VMs (ggml-org/llama.cpp#6628)
            found.append(observe(KIND, lines, number, "host.hypervisor", True))
        return found
    if key == "sppci_cores" and value.isdigit():
        return seen("host.gpu_cores", int(value))
    if key == "chip_type" and re.match(r"\A(?:Apple M\d)", value):
        return seen("host.cpu_brand", value)
    if key == "physical_memory" and (size := memory_bytes(value)):
        return seen("host.memory_bytes", size)
    if key == "machine_model" and re.fullmatch(r"\A(?:[A-Za-z]+\d+,\d+)", value):
        return seen("host.model", value)
    return []


def _profiler(lines: list[str], number: int, key: str, value: str) -> list[Observation]:
    def seen(fact: str, val: object) -> list[Observation]:
        return [observe(KIND, lines, number, fact, val)]

    if key in ("Chip", "Processor Name") and re.match(r"\A(?:Apple M\d|Apple silicon|[^\n]{0,200}?Intel)", value):
        return seen("host.cpu_brand", value)
    if key == "Memory" and (size := memory_bytes(value)):
        return seen("host.memory_bytes", size)
    if key == "Model Identifier" and re.fullmatch(r"\A(?:[A-Za-z]+\d+,\d+)", value):
        return seen("host.model", value)
    return []
