"""Which conda platform built the env's Python, and the architecture of the conda install itself.

An osx-64 env on Apple silicon runs under Rosetta; an Intel Anaconda/Miniconda makes osx-64 envs
by default. Both are read from files, never by running conda (slow, and it may not be on PATH).
"""

from __future__ import annotations

import json
import os
import sys

from .macho import macho_archs


def conda_python_subdir(prefix):
    """The subdir (osx-64, osx-arm64) of the env's python package record in conda-meta, or None."""
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
            except (OSError, ValueError, RecursionError):  # RecursionError: "[[[[..." nested too deep
                return None
            subdir = record.get("subdir") if isinstance(record, dict) else None
            return subdir if isinstance(subdir, str) and subdir else None  # null, 64, [] mean unknown
    return None


def conda_base_archs(environ):
    """Slices of the conda installation's own Python ($CONDA_PYTHON_EXE): x86_64 means an Intel conda.

    None when there is no such variable to read, which is not the same as an empty answer.
    """
    base_python = environ.get("CONDA_PYTHON_EXE")
    if not base_python or sys.platform != "darwin":
        return None
    return macho_archs(base_python)
