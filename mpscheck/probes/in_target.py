"""Runs inside the target interpreter and reports what it sees, one JSON line per stage.

This file is executed by path with the Python being diagnosed, which may be older than mpscheck's
own (3.8 syntax, standard library only) and never imports mpscheck. Stages: ``interpreter`` (arch,
Rosetta, platform strings, allowlisted env vars), ``torch`` (import, MPS/CUDA state), then an
optional workload (``workload.py`` beside this file). Each stage writes ``start`` before it runs and
``done`` after, flushed at once, so a hang or an abort inside Metal still leaves the finished stages
and names the one that was running. The real stdout is kept for the protocol; everything else,
torch's own prints included, goes to stderr.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time

PROTOCOL_VERSION = 1

# Environment variables the report may show. Everything else stays private: tokens and keys live
# in the environment, and reports get pasted into public issues.
ENV_ALLOWED_PREFIXES = ("PYTORCH_", "CONDA_", "TORCH_", "MPS_", "ACCELERATE_", "PL_")
ENV_ALLOWED_NAMES = (
    "VIRTUAL_ENV",
    "PYTHONPATH",
    "PYTHONHOME",
    "SYSTEM_VERSION_COMPAT",
    "ARCHPREFERENCE",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "__CFBundleIdentifier",
    "HOMEBREW_PREFIX",
    "CUDA_VISIBLE_DEVICES",
    "KMP_DUPLICATE_LIB_OK",
    "OMP_NUM_THREADS",
    "USE_MPS_DEVICE",
    "CI",
    "GITHUB_ACTIONS",
    "RUNNER_OS",
    "RUNNER_ARCH",
    "RUNNER_ENVIRONMENT",
)
# Even an allowed prefix never shows a name that looks like a credential (CONDA_TOKEN, ...).
ENV_SECRET_MARKERS = ("TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "COOKIE")

# Frameworks whose MPS decision the doctor compares with torch's, and the libraries that
# torch.utils.collect_env lists for a bug report.
DISTRIBUTIONS = (
    "lightning",
    "pytorch-lightning",
    "transformers",
    "accelerate",
    "torch",
    "torchvision",
    "torchaudio",
    "numpy",
)

# Mach-O constants from <mach-o/loader.h> and <mach-o/fat.h>.
_FAT_MAGIC = 0xCAFEBABE
_MH_MAGIC_64 = 0xFEEDFACF
_CPU_TYPES = {0x01000007: "x86_64", 0x0100000C: "arm64", 7: "i386"}


def allowed_env(environ):
    """The allowlisted part of an environment: never a secret, whatever the prefix."""
    shown = {}
    for name, value in environ.items():
        if any(marker in name.upper() for marker in ENV_SECRET_MARKERS):
            continue
        if name in ENV_ALLOWED_NAMES or name.startswith(ENV_ALLOWED_PREFIXES):
            shown[name] = value
    return shown


def read_sysctl(name, kind="int"):
    """sysctlbyname() of *this* process, as Apple documents for sysctl.proc_translated.

    Returns (value, error). A missing key (ENOENT) is an error string "ENOENT": for
    sysctl.proc_translated that means "not translated" (Intel Macs, older macOS).
    """
    if sys.platform != "darwin":
        return None, "not macOS"
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        size = ctypes.c_size_t(0)
        key = name.encode()
        if libc.sysctlbyname(key, None, ctypes.byref(size), None, ctypes.c_size_t(0)) != 0:
            err = ctypes.get_errno()
            return None, "ENOENT" if err == 2 else "errno %d" % err
        buf = ctypes.create_string_buffer(max(size.value, 1))
        if libc.sysctlbyname(key, buf, ctypes.byref(size), None, ctypes.c_size_t(0)) != 0:
            return None, "errno %d" % ctypes.get_errno()
        raw = buf.raw[: size.value]
        if kind == "int":
            return int.from_bytes(raw, sys.byteorder), None
        return raw.rstrip(b"\0").decode("utf-8", "replace"), None
    except Exception as exc:  # ctypes can fail in odd ways on odd builds; the fact is then unknown
        return None, "%s: %s" % (type(exc).__name__, exc)


def macho_archs(path):
    """The CPU slices of a Mach-O file: ['arm64'], ['x86_64'] or both for universal2."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(8)
            if len(head) < 8:
                return []
            if int.from_bytes(head[:4], "big") == _FAT_MAGIC:
                count = int.from_bytes(head[4:8], "big")
                archs = []
                for _ in range(min(count, 16)):
                    entry = handle.read(20)  # struct fat_arch: cputype, cpusubtype, offset, size, align
                    archs.append(_CPU_TYPES.get(int.from_bytes(entry[:4], "big"), "other"))
                return archs
            if int.from_bytes(head[:4], "little") == _MH_MAGIC_64:
                return [_CPU_TYPES.get(int.from_bytes(head[4:8], "little"), "other")]
    except OSError:
        pass
    return []


def conda_python_subdir(prefix):
    """The conda platform (osx-64, osx-arm64) the env's python package was built for, if conda."""
    meta = os.path.join(prefix, "conda-meta")
    try:
        names = os.listdir(meta)
    except OSError:
        return None
    for name in sorted(names):
        if name.startswith("python-") and name[7:8].isdigit() and name.endswith(".json"):
            try:
                with open(os.path.join(meta, name)) as handle:
                    record = json.load(handle)
            except (OSError, ValueError, RecursionError):
                return None
            subdir = record.get("subdir") if isinstance(record, dict) else None
            return subdir if isinstance(subdir, str) and subdir else None  # null, 64, [] mean unknown
    return None


def _conda_base_archs():
    """Slices of the conda installation's own Python: x86_64 means an Intel Anaconda/Miniconda."""
    base_python = os.environ.get("CONDA_PYTHON_EXE")
    return macho_archs(base_python) if base_python and sys.platform == "darwin" else []


def _normalise(name):
    return name.lower().replace("-", "_").replace(".", "_")


def distribution_versions(names):
    """Versions of installed distributions, from the *.dist-info folder names on sys.path.

    One listing per path entry, first match wins as for imports: much cheaper than one
    importlib.metadata scan per name, and this runs on the doctor's critical path.
    """
    wanted = {_normalise(name): name for name in names}
    found = dict.fromkeys(names)
    for entry in sys.path:
        try:
            listing = os.listdir(entry or os.curdir)
        except OSError:
            continue
        for item in listing:
            if not item.endswith((".dist-info", ".egg-info")):
                continue
            stem = item.rsplit(".", 1)[0]
            name, _, version = stem.partition("-")
            key = _normalise(name)
            if key in wanted and found[wanted[key]] is None and version:
                found[wanted[key]] = version
    return found


def interpreter_facts():
    import platform

    prefix = sys.prefix
    is_conda = os.path.isdir(os.path.join(prefix, "conda-meta"))
    translated, why = read_sysctl("sysctl.proc_translated")
    if why == "ENOENT":
        translated = 0  # Apple: the key is absent where Rosetta cannot apply
    real = os.path.realpath(sys.executable)
    return {
        "executable": sys.executable,
        "real_executable": real,
        "version": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "platform": platform.platform(),
        "mac_ver": platform.mac_ver()[0] if sys.platform == "darwin" else "",
        "proc_translated": translated,
        "binary_archs": macho_archs(real) if sys.platform == "darwin" else [],
        "prefix": prefix,
        "base_prefix": getattr(sys, "base_prefix", prefix),
        "conda_prefix": prefix if is_conda else None,
        "conda_subdir": conda_python_subdir(prefix) if is_conda else None,
        "conda_base_archs": _conda_base_archs() if is_conda else [],
        "packages": distribution_versions(DISTRIBUTIONS),
        "home": os.path.expanduser("~"),
        "env": allowed_env(os.environ),
    }


def _error_text(exc):
    text = "%s: %s" % (type(exc).__name__, exc)
    return text if len(text) <= 2000 else text[:2000] + "..."


def torch_facts():
    """Import torch and read MPS/CUDA state. Returns (facts, torch module or None)."""
    import importlib.util

    facts = {"installed": importlib.util.find_spec("torch") is not None}
    if not facts["installed"]:
        return facts, None
    start = time.perf_counter()
    try:
        import torch
    except BaseException as exc:  # an import can raise anything, SystemExit included
        facts["import_error"] = _error_text(exc)
        facts["import_seconds"] = round(time.perf_counter() - start, 3)
        return facts, None
    facts["import_seconds"] = round(time.perf_counter() - start, 3)
    facts["version"] = getattr(torch, "__version__", None)
    facts["location"] = os.path.dirname(getattr(torch, "__file__", "") or "")
    facts["debug_build"] = getattr(getattr(torch, "version", None), "debug", None)
    facts.update(_mps_facts(torch))
    facts.update(_cuda_facts(torch))
    return facts, torch


def _mps_facts(torch):
    mps = getattr(getattr(torch, "backends", None), "mps", None)
    if mps is None:
        return {"mps_built": False, "mps_available": False}
    out = {"mps_built": bool(mps.is_built()), "mps_available": bool(mps.is_available())}
    if out["mps_available"]:
        for key, attr in (("mps_device_name", "get_name"), ("mps_core_count", "get_core_count")):
            if hasattr(mps, attr):  # get_core_count: torch 2.9+
                try:
                    out[key] = getattr(mps, attr)()
                except Exception:
                    continue
    else:
        try:  # torch's own reason, which the report judges rather than repeats
            torch.empty(1, device="mps")
        except Exception as exc:
            out["mps_error"] = str(exc)[:2000]
    return out


def _cuda_facts(torch):
    cuda = getattr(torch, "cuda", None)
    out = {"cuda_built": getattr(getattr(torch, "version", None), "cuda", None), "cuda_devices": []}
    if cuda is None:
        return out
    try:
        out["cuda_available"] = bool(cuda.is_available())
        for index in range(cuda.device_count() if out["cuda_available"] else 0):
            props = cuda.get_device_properties(index)
            out["cuda_devices"].append(
                {
                    "name": props.name,
                    "memory_bytes": int(props.total_memory),
                    "capability": "%d.%d" % (props.major, props.minor),
                }
            )
    except Exception as exc:
        out["cuda_error"] = _error_text(exc)
    return out


def pick_device(torch, requested, facts):
    """The usual selection: mps, then cuda, then cpu; 'gpu' never settles for the cpu."""
    if requested == "cpu":
        return "cpu", "requested with --device cpu"
    if requested in ("mps", "cuda"):
        if facts.get(requested + "_available"):
            return requested, "requested with --device %s" % requested
        return None, "--device %s was requested and torch cannot use %s here" % (requested, requested)
    if facts.get("mps_available"):
        return "mps", "torch.backends.mps.is_available() is True"
    if facts.get("cuda_available"):
        return "cuda", "MPS is not available and CUDA is"
    if requested == "gpu":
        return None, "neither MPS nor CUDA is available"
    return "cpu", "neither MPS nor CUDA is available"


class Channel:
    """The protocol stream: the process's real stdout, kept away from stray prints."""

    def __init__(self):
        self._out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)  # C-level writes to fd 1 (torch, Metal logs) now land on stderr
        sys.stdout = sys.stderr

    def emit(self, event, stage, data=None):
        record = {"v": PROTOCOL_VERSION, "event": event, "stage": stage}
        if data is not None:
            record["data"] = _json_safe(data)
        self._out.write(json.dumps(record, allow_nan=False) + "\n")
        self._out.flush()


def _json_safe(value):
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def load_workload():
    """workload.py beside this file, loaded by path: no sys.path change, no bytecode written."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "workload.py")
    spec = importlib.util.spec_from_file_location("mpscheck_target_workload", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv):
    import argparse

    parser = argparse.ArgumentParser(prog="in_target")
    parser.add_argument("--workload", choices=("none", "quick", "full"), default="none")
    parser.add_argument("--device", choices=("auto", "gpu", "mps", "cuda", "cpu"), default="auto")
    args = parser.parse_args(argv)
    fallback_env = os.environ.get("PYTORCH_ENABLE_MPS_FALLBACK")  # as the process started with it
    channel = Channel()
    channel.emit("start", "interpreter")
    channel.emit("done", "interpreter", interpreter_facts())
    channel.emit("start", "torch")
    facts, torch = torch_facts()
    channel.emit("done", "torch", facts)
    if torch is not None and args.workload != "none":
        device, reason = pick_device(torch, args.device, facts)
        channel.emit(
            "done",
            "device",
            {"requested": args.device, "device": device, "reason": reason, "mode": args.workload},
        )
        if device is not None:
            load_workload().run(torch, device, args.workload, channel.emit, fallback_env)
    channel.emit("done", "end", {})
    return 0


if __name__ == "__main__":
    # Older Pythons put this file's folder first on sys.path; it must not shadow anything torch imports.
    _here = os.path.dirname(os.path.abspath(__file__))
    if sys.path and os.path.abspath(sys.path[0] or os.curdir) == _here:
        del sys.path[0]
    sys.dont_write_bytecode = True  # the doctor changes nothing on the user's machine
    sys.exit(main(sys.argv[1:]))
