"""Import torch and read what it says about MPS and CUDA: values and torch's own words, no verdicts."""

from __future__ import annotations

import os
import time


def error_text(exc):
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
        facts["import_error"] = error_text(exc)
        facts["import_seconds"] = round(time.perf_counter() - start, 3)
        return facts, None
    facts["import_seconds"] = round(time.perf_counter() - start, 3)
    facts["version"] = getattr(torch, "__version__", None)
    facts["location"] = os.path.dirname(getattr(torch, "__file__", "") or "")
    facts["debug_build"] = getattr(getattr(torch, "version", None), "debug", None)
    facts.update(mps_facts(torch))
    facts.update(cuda_facts(torch))
    return facts, torch


def mps_facts(torch):
    mps = getattr(getattr(torch, "backends", None), "mps", None)
    if mps is None:
        return {"mps_built": False, "mps_available": False}
    out = {"mps_built": bool(mps.is_built()), "mps_available": bool(mps.is_available())}
    if out["mps_available"]:
        for key, attr in (("mps_device_name", "get_name"), ("mps_core_count", "get_core_count")):
            if hasattr(mps, attr):  # get_name, get_core_count: torch 2.9+
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


def cuda_facts(torch):
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
        out["cuda_error"] = error_text(exc)
    return out
