"""Facts about the machine that do not depend on the interpreter: chip, macOS, memory, VM.

Read by mpscheck itself, while the target interpreter imports torch. Cheap sources first
(one ``sysctl`` run, one ``sw_vers``); ``system_profiler`` only for the GPU core count,
under a timeout. The readers are injectable, so tests feed recorded output from real Macs.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from mpscheck.probes.process import Completed, run_command

if TYPE_CHECKING:  # the facts' classes load once the target runs, in this probe's own thread
    from mpscheck.facts import HostFacts

# name -> the value as `sysctl -n name` prints it, or None when the key does not exist
Sysctl = Callable[[str], Optional[str]]
Runner = Callable[[Sequence[str], float], Completed]

_STRING_KEYS = ("machdep.cpu.brand_string", "hw.model")
_INT_KEYS = (
    "hw.optional.arm64",
    "kern.hv_vmm_present",
    "hw.perflevel0.physicalcpu",
    "hw.perflevel1.physicalcpu",
    "hw.ncpu",
    "hw.memsize",
)


def command_sysctl(run: Runner) -> Sysctl:
    """Every host key in one `sysctl -i` run (-i: unknown keys are skipped, not fatal).

    These keys describe the machine, not a process, so the command's answer is the machine's; the
    per-process Rosetta flag is read inside the target (probes/agent/sysctl.py).
    """
    done = run(["sysctl", "-i", *_STRING_KEYS, *_INT_KEYS], 10)
    return parse_sysctl(done.stdout).get  # partial output is still good output


def parse_sysctl(text: str) -> dict[str, str]:
    """`sysctl name ...` prints 'name: value' lines (e.g. 'hw.memsize: 17179869184')."""
    out = {}
    for line in text.splitlines():
        name, sep, value = line.partition(": ")
        if sep and "." in name and " " not in name.strip():  # OIDs are dotted; error lines are not
            out[name.strip()] = value.strip()
    return out


def _run(argv: Sequence[str], timeout: float) -> Completed:
    return run_command(argv, timeout)


def probe_host(
    system: str | None = None,
    sysctl: Sysctl | None = None,
    run: Runner = _run,
    gpu: bool = True,
    toolchain: bool = True,
) -> HostFacts:
    """All host facts; with gpu=False the slow system_profiler read is left to read_gpu(), with
    toolchain=False the clang and cmake commands to read_toolchain()."""
    from mpscheck.facts import HostFacts

    system = system or platform.system()
    facts = HostFacts(system=system, release=platform.release(), machine=platform.machine())
    if system == "Darwin":
        _read_macos(facts, sysctl or command_sysctl(run), run)
        if gpu:
            add_gpu(facts, read_gpu(run))
    else:
        _read_other(facts)
    if toolchain:
        _read_toolchain(facts, system, run)
    return facts


GpuReading = tuple[Optional[str], Optional[int], Optional[str]]  # name, cores, why not


def read_gpu(run: Runner = _run) -> GpuReading:
    """The Apple GPU's name and core count from system_profiler (about a second; run it in parallel)."""
    displays = run(["system_profiler", "SPDisplaysDataType", "-json"], 15)
    gpu = parse_displays_json(displays.stdout) if displays.returncode == 0 else None
    if gpu:
        return gpu[0], gpu[1], None
    return None, None, _why(displays, "system_profiler SPDisplaysDataType")


def add_gpu(facts: HostFacts, reading: GpuReading) -> None:
    facts.gpu_name, facts.gpu_cores, why = reading
    if why:
        facts.errors["gpu_cores"] = why


def read_toolchain(system: str | None = None, run: Runner = _run) -> HostFacts:
    """Only the clang and cmake versions (two commands: gather.py runs them beside the rest)."""
    from mpscheck.facts import HostFacts

    facts = HostFacts()
    _read_toolchain(facts, system or platform.system(), run)
    return facts


def _read_toolchain(facts: HostFacts, system: str, run: Runner) -> None:
    """clang and cmake versions, as torch.utils.collect_env lists them for bug reports."""
    # On a Mac without the Command Line Tools, /usr/bin/clang is a stub that pops up an installer.
    has_clt = any(os.path.isdir(p) for p in ("/Library/Developer/CommandLineTools", "/Applications/Xcode.app"))
    for attr, tool in (("clang_version", "clang"), ("cmake_version", "cmake")):
        if shutil.which(tool) and (system != "Darwin" or tool != "clang" or has_clt):
            done = run([tool, "--version"], 10)
            if done.returncode == 0 and done.stdout.strip():
                setattr(facts, attr, done.stdout.strip().splitlines()[0])


def _read_macos(facts: HostFacts, sysctl: Sysctl, run: Runner) -> None:
    raw = {key: sysctl(key) for key in (*_STRING_KEYS, *_INT_KEYS)}
    facts.cpu_brand = raw["machdep.cpu.brand_string"]
    facts.model = raw["hw.model"]
    facts.arm64_hardware = _flag(raw["hw.optional.arm64"])
    facts.hypervisor = _flag(raw["kern.hv_vmm_present"])
    facts.performance_cores = _int(raw["hw.perflevel0.physicalcpu"])
    facts.efficiency_cores = _int(raw["hw.perflevel1.physicalcpu"])
    facts.cpu_count = _int(raw["hw.ncpu"])
    facts.memory_bytes = _int(raw["hw.memsize"])
    for key in ("machdep.cpu.brand_string", "hw.memsize", "kern.hv_vmm_present"):
        if raw[key] is None:
            facts.errors[key] = "sysctl key not readable"

    versions = run(["sw_vers"], 10)
    parsed = parse_sw_vers(versions.stdout) if versions.returncode == 0 else {}
    facts.macos_version = parsed.get("ProductVersion")
    facts.macos_build = parsed.get("BuildVersion")
    if facts.macos_version is None:
        facts.errors["macos_version"] = _why(versions, "sw_vers")


NVIDIA_DRIVER = "/proc/driver/nvidia/version"  # present where the NVIDIA kernel driver is loaded
# Where the user-space driver library libcuda.so lives when no loader cache names it: WSL2 (which has no
# /proc/driver/nvidia), the CUDA forward-compatibility package.
LIBCUDA_FOLDERS = ("/usr/lib/wsl/lib", "/usr/local/cuda/compat")
LOADER_CACHE = "/etc/ld.so.cache"


def nvidia_driver_seen(
    exists: Callable[[str], bool] = os.path.exists,
    which: Callable[[str], Optional[str]] = shutil.which,
    loader_cache: str = LOADER_CACHE,
) -> Optional[bool]:
    """On Linux: is any sign of the NVIDIA driver here? None when /proc itself is not there to look in."""
    if exists("/proc/driver/nvidia") or which("nvidia-smi"):
        return True
    if any(exists(os.path.join(folder, "libcuda.so.1")) for folder in LIBCUDA_FOLDERS):
        return True
    try:
        with open(loader_cache, "rb") as handle:
            if b"libcuda.so" in handle.read(16 * 1024 * 1024):  # the loader's cache names every library it finds
                return True
    except OSError:
        pass
    return False if exists("/proc/self") else None


def _read_other(facts: HostFacts) -> None:
    try:
        with open(NVIDIA_DRIVER, encoding="utf-8", errors="replace") as handle:
            facts.nvidia_driver = handle.readline().strip() or None
    except OSError as exc:
        facts.errors["nvidia_driver"] = f"{NVIDIA_DRIVER}: {exc.strerror or exc}"
    if facts.system == "Linux":
        facts.nvidia_driver_seen = nvidia_driver_seen()

    facts.cpu_count, facts.memory_bytes = _linux_cpu_and_memory() if facts.system == "Linux" else (None, None)
    if facts.cpu_count is None or facts.memory_bytes is None:
        import psutil

        facts.cpu_count = psutil.cpu_count(logical=True)
        facts.memory_bytes = int(psutil.virtual_memory().total)
    facts.cpu_brand = _linux_cpu_model()


def _linux_cpu_and_memory() -> tuple[int | None, int | None]:
    """Online CPUs and MemTotal, from where psutil reads them on Linux (sysconf, /proc/meminfo), without
    psutil's import (tens of ms of the doctor's time when the target answers at once)."""
    try:
        cpus: int | None = int(os.sysconf("SC_NPROCESSORS_ONLN"))
    except (ValueError, OSError):
        cpus = None
    try:
        with open("/proc/meminfo", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return cpus, int(line.split()[1]) * 1024  # the kernel writes kB
    except (OSError, ValueError, IndexError):
        pass
    return cpus, None


def _linux_cpu_model() -> str | None:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        return None
    return None


def parse_sw_vers(text: str) -> dict[str, str]:
    """`sw_vers` prints 'ProductVersion:\\t14.5' lines (tabs vary by release)."""
    out = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and value.strip():
            out[key.strip()] = value.strip()
    return out


def parse_displays_json(text: str) -> tuple[str | None, int | None] | None:
    """(model, GPU cores) of the first Apple GPU in `system_profiler SPDisplaysDataType -json`."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    gpus = data.get("SPDisplaysDataType") if isinstance(data, dict) else None
    for gpu in gpus if isinstance(gpus, list) else []:
        if isinstance(gpu, dict) and "sppci_model" in gpu:
            model = gpu.get("sppci_model")
            cores = _int(gpu.get("sppci_cores"))  # sppci_cores is a string: "16"
            return model if isinstance(model, str) else None, cores if cores is None or cores > 0 else None
    return None


def _flag(value: str | None) -> bool | None:
    number = _int(value)
    return None if number is None else number != 0


def _int(value: object) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _why(done: Completed, what: str) -> str:
    if done.start_error:
        return f"{what}: {done.start_error}"
    if done.timed_out:
        return f"{what}: timed out"
    return f"{what}: exit {done.returncode}: {done.stderr.strip()[-200:]}"
