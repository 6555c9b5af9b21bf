"""Typed, versioned, JSON-serialisable facts: what the probes saw, and nothing judged yet.

``None`` always means "could not be determined"; why is kept next to it (``errors``, ``ProbeRun``).
A saved report carries these facts, so today's checks can be re-run on a report from another Mac.
This module keeps ``Optional[...]``/``List[...]`` spellings because ``typing.get_type_hints`` must
evaluate them on Python 3.9 when a saved report is loaded.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

FACTS_SCHEMA_VERSION = 2
INT_LIMIT = 2**63  # no fact is larger (byte counts included); a bigger one is a corrupt report


class FactsError(ValueError):
    """Raised when saved facts cannot be read back (corrupt or foreign report)."""


@dataclass
class HostFacts:
    """The machine, read by mpscheck itself: the same whichever interpreter is diagnosed."""

    system: str = ""  # platform.system(): Darwin, Linux, Windows
    release: str = ""  # kernel release
    machine: str = ""  # of mpscheck's own process (x86_64 under Rosetta)
    macos_version: Optional[str] = None  # sw_vers -productVersion, the real version
    macos_build: Optional[str] = None  # sw_vers -buildVersion
    cpu_brand: Optional[str] = None  # machdep.cpu.brand_string: "Apple M1 Pro", also under Rosetta
    arm64_hardware: Optional[bool] = None  # hw.optional.arm64: the CPU, regardless of Rosetta
    hypervisor: Optional[bool] = None  # kern.hv_vmm_present: running inside a virtual machine
    model: Optional[str] = None  # hw.model: "Mac14,5", "VirtualMac2,1"
    performance_cores: Optional[int] = None  # hw.perflevel0.physicalcpu
    efficiency_cores: Optional[int] = None  # hw.perflevel1.physicalcpu
    cpu_count: Optional[int] = None
    memory_bytes: Optional[int] = None
    gpu_name: Optional[str] = None  # system_profiler SPDisplaysDataType: sppci_model
    gpu_cores: Optional[int] = None  # system_profiler SPDisplaysDataType: sppci_cores
    nvidia_driver: Optional[str] = None  # Linux: first line of /proc/driver/nvidia/version; None: none seen
    # Linux: True when /proc/driver/nvidia, nvidia-smi on PATH or libcuda is there; False when none is;
    # None when not looked for (not Linux, no /proc, or a report saved before this fact existed).
    nvidia_driver_seen: Optional[bool] = None
    clang_version: Optional[str] = None  # first line of `clang --version`, as collect_env reports
    cmake_version: Optional[str] = None
    errors: Dict[str, str] = field(default_factory=dict)  # fact name -> why it is None


@dataclass
class ProbeRun:
    """How the subprocess in the target interpreter went; the evidence when it did not."""

    status: str = "ok"  # ok | not-found | timeout | crashed | bad-output | failed
    command: List[str] = field(default_factory=list)
    workload: str = "none"  # none (--no-smoke) | quick (doctor) | full (smoke-test)
    returncode: Optional[int] = None
    seconds: Optional[float] = None
    timeout: Optional[float] = None
    running_stage: Optional[str] = None  # the stage that had started and not finished
    stderr_tail: str = ""
    message: str = ""


@dataclass
class InterpreterFacts:
    """The Python that will run the training, read from inside it."""

    executable: str = ""
    real_executable: str = ""
    version: str = ""
    implementation: str = ""
    machine: str = ""  # platform.machine(): arm64, or x86_64 under Rosetta
    processor: str = ""  # platform.processor(): arm, or i386 under Rosetta (Lightning reads this)
    platform: str = ""  # platform.platform()
    mac_ver: str = ""  # platform.mac_ver()[0]: 10.16 / 16.0 in old-SDK compat mode
    proc_translated: Optional[int] = None  # sysctl.proc_translated of this very process
    binary_archs: Optional[List[str]] = None  # Mach-O slices of the executable; None: not read
    prefix: str = ""
    base_prefix: str = ""
    conda_prefix: Optional[str] = None  # set when the interpreter lives in a conda env
    conda_subdir: Optional[str] = None  # the python package's subdir in conda-meta: osx-64, osx-arm64
    conda_base_archs: Optional[List[str]] = None  # of $CONDA_PYTHON_EXE: the conda install's arch; None: not read
    packages: Optional[Dict[str, Optional[str]]] = None  # frameworks' and libraries' versions; None: not checked
    has_pip: Optional[bool] = None  # pip importable in this interpreter (a uv venv has none)
    venv_tool: Optional[str] = None  # uv | virtualenv | venv (from pyvenv.cfg); None: not a venv, or not read
    uv_project: Optional[str] = None  # the folder holding uv.lock beside this venv: a uv project
    site_packages_writable: Optional[bool] = None  # False: a read-only interpreter (a Nix store path)
    home: Optional[str] = None  # shown as ~ in reports meant for pasting
    env: Optional[Dict[str, str]] = None  # allowlisted environment variables only; None: not captured


@dataclass
class CudaDevice:
    name: str = ""
    memory_bytes: Optional[int] = None
    capability: Optional[str] = None


@dataclass
class TorchFacts:
    """torch as imported inside the target interpreter."""

    installed: bool = False
    version: Optional[str] = None
    location: Optional[str] = None
    debug_build: Optional[bool] = None
    import_error: Optional[str] = None
    import_seconds: Optional[float] = None
    mps_built: Optional[bool] = None
    mps_available: Optional[bool] = None
    mps_device_name: Optional[str] = None
    mps_core_count: Optional[int] = None
    mps_error: Optional[str] = None  # torch's own message when an allocation on mps is refused
    cuda_built: Optional[str] = None  # torch.version.cuda
    cuda_available: Optional[bool] = None
    cuda_devices: List[CudaDevice] = field(default_factory=list)
    cuda_error: Optional[str] = None


@dataclass
class SmokeStep:
    """One timed step of the workload on the device: what happened, never whether it was right."""

    name: str = ""
    outcome: str = "ran"  # ran | raised | skipped
    seconds: Optional[float] = None
    values: Dict[str, Any] = field(default_factory=dict)  # observations: errors against the CPU, counts, losses
    error: Optional[str] = None
    error_type: Optional[str] = None
    note: Optional[str] = None


@dataclass
class SmokeFacts:
    """The workload's run: which device, why, and each step's outcome."""

    requested: str = "auto"
    device: Optional[str] = None
    reason: str = ""
    mode: str = "quick"  # quick (doctor) | full (smoke-test)
    steps: List[SmokeStep] = field(default_factory=list)


@dataclass
class BenchNumerics:
    """One workload's answer on the device against the CPU, on a small instance (mpscheck bench)."""

    name: str = ""  # matmul-float32 | matmul-float16 | matmul-bfloat16 | copy | resnet50 | bert-base | vgg16
    device: str = ""
    status: str = "ok"  # ok | unsupported (the dtype raised) | error (the check raised) | reference (on the CPU)
    errors: Dict[str, Any] = field(default_factory=dict)  # relative errors ("inf": not finite), or counts
    values: Dict[str, Any] = field(default_factory=dict)
    size: Dict[str, Any] = field(default_factory=dict)
    error: Optional[str] = None
    error_type: Optional[str] = None
    seconds: Optional[float] = None


@dataclass
class BenchTiming:
    """One timed workload: the median of synchronised samples, after warm-up (mpscheck bench)."""

    name: str = ""
    device: str = ""  # where it ran: the bench device, or cpu for a training workload's baseline
    status: str = "ok"  # ok | error
    value: Optional[float] = None  # work / median(sample_seconds)
    unit: str = ""  # TFLOP/s | GB/s (bytes read + written) | samples/s
    sample_seconds: List[float] = field(default_factory=list)  # seconds per op, one entry per sample
    repeats: Optional[int] = None  # ops per sample
    warmup: Optional[int] = None
    size: Dict[str, Any] = field(default_factory=dict)
    peak_memory_bytes: Optional[int] = None
    memory_note: Optional[str] = None
    error: Optional[str] = None
    error_type: Optional[str] = None
    seconds: Optional[float] = None


@dataclass
class BenchFacts:
    """What mpscheck bench measured in the target interpreter: observations only, no verdicts."""

    requested: str = "auto"
    device: Optional[str] = None
    reason: str = ""
    mode: str = "full"  # full | quick | tiny (tests)
    device_name: Optional[str] = None  # torch.cuda.get_device_name() / torch.backends.mps.get_name()
    core_count: Optional[int] = None  # GPU cores (mps) or multiprocessors (cuda)
    settings: Dict[str, Any] = field(default_factory=dict)  # threads, TF32 switches, matmul precision
    numerics: List[BenchNumerics] = field(default_factory=list)
    timings: List[BenchTiming] = field(default_factory=list)


@dataclass
class TargetFacts:
    """Everything read inside the target interpreter, and how that went."""

    requested: Optional[str] = None  # --python as given, or how the default was chosen
    chosen_because: str = ""
    run: ProbeRun = field(default_factory=ProbeRun)
    interpreter: Optional[InterpreterFacts] = None
    torch: Optional[TorchFacts] = None
    smoke: Optional[SmokeFacts] = None
    bench: Optional[BenchFacts] = None


@dataclass
class SeenError:
    """An error or warning the input shows (a pasted traceback line, a warning): the text as written,
    its line, and what the reader pulled out of it (op, dtype, sizes, numbers). Observed, not judged:
    which known error it is, and what it means, is the checks' (checks/signatures.py)."""

    text: str
    line: Optional[int] = None  # 1-based line in the paste; None when it came from elsewhere
    severity: str = "error"  # error | warning
    values: Dict[str, str] = field(default_factory=dict)  # op, dtype, allocated, requested, macos...


@dataclass
class Facts:
    schema_version: int = FACTS_SCHEMA_VERSION
    mpscheck_version: str = ""
    collected_at: str = ""
    host: HostFacts = field(default_factory=HostFacts)
    target: TargetFacts = field(default_factory=TargetFacts)
    # The errors and warnings the input shows (a paste, a saved paste diagnosis); optional in schema 2:
    # a report without it reads back as "none seen", which no check takes for a pass.
    errors: List[SeenError] = field(default_factory=list)


def to_dict(facts: Any) -> Any:
    """Plain JSON-ready data for any facts dataclass."""
    return dataclasses.asdict(facts)


_T = typing.TypeVar("_T")


def from_dict(cls: type[_T], data: Any, path: str = "facts") -> _T:
    """Rebuild a facts dataclass from JSON data; unknown keys are ignored so newer reports still load."""
    if not isinstance(data, dict):
        raise FactsError(f"{path}: expected an object, got {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name in data:
            kwargs[f.name] = _convert(hints[f.name], data[f.name], f"{path}.{f.name}")
    return cls(**kwargs)


def _convert(hint: Any, value: Any, path: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any:
        return value
    if origin is typing.Union:  # Optional[X]
        if value is None:
            return None
        inner = [a for a in args if a is not type(None)]
        return _convert(inner[0], value, path)
    if dataclasses.is_dataclass(hint):
        return from_dict(hint, value, path)  # type: ignore[arg-type]
    if origin in (list, List):
        if not isinstance(value, list):
            raise FactsError(f"{path}: expected a list")
        return [_convert(args[0], v, f"{path}[{i}]") for i, v in enumerate(value)]
    if origin in (dict, Dict):
        if not isinstance(value, dict):
            raise FactsError(f"{path}: expected an object")
        return {str(k): _convert(args[1], v, f"{path}.{k}") for k, v in value.items()}
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        if not -INT_LIMIT < value < INT_LIMIT:
            raise FactsError(f"{path}: {str(value)[:20]}... is out of range")
        return float(value)
    if hint in (str, int, float, bool) and not _is_exactly(value, hint):
        raise FactsError(f"{path}: expected {hint.__name__}, got {type(value).__name__}")
    if hint is int and not -INT_LIMIT < value < INT_LIMIT:
        raise FactsError(f"{path}: {str(value)[:20]}... is out of range")
    if hint is float and not math.isfinite(value):
        raise FactsError(f"{path}: {value} is not a finite number")
    return value


def _is_exactly(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)
