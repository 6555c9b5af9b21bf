"""Which device the workload runs on: what was asked for, else the usual mps, cuda, cpu order.

This chooses where to run, it does not judge: 'gpu' never settles for the CPU, and the reason is
reported with the choice.
"""

from __future__ import annotations


def pick_device(requested, facts):
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
