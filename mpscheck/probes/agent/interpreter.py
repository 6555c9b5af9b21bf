"""Facts about the interpreter itself: version, architecture, Rosetta, platform strings, conda, env.

platform.machine() is x86_64 under Rosetta and platform.processor() is i386 (what Lightning reads);
sysctl.proc_translated of this very process is Apple's own answer (../shared/mps-facts.md 6).
"""

from __future__ import annotations

import os
import sys

from .allowlist import allowed_env
from .conda import conda_base_archs, conda_python_subdir
from .installer import installer_facts
from .macho import macho_archs
from .packages import distribution_versions
from .sysctl import read_sysctl


def interpreter_facts(env_policy, processor_read=None):
    """*processor_read*: the thread main.py started to call platform.processor() early, joined here so
    that the answer is the cached one, not a second `uname -p`."""
    import platform

    if processor_read is not None:
        processor_read.join()

    prefix = sys.prefix
    is_conda = os.path.isdir(os.path.join(prefix, "conda-meta"))
    translated, why = read_sysctl("sysctl.proc_translated")
    if why == "ENOENT":
        translated = 0  # Apple: the key is absent where Rosetta cannot apply
    real = os.path.realpath(sys.executable)
    on_mac = sys.platform == "darwin"
    facts = {
        "executable": sys.executable,
        "real_executable": real,
        "version": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "platform": platform.platform(),
        "mac_ver": platform.mac_ver()[0] if on_mac else "",
        "proc_translated": translated,
        "binary_archs": macho_archs(real) if on_mac else None,
        "prefix": prefix,
        "base_prefix": getattr(sys, "base_prefix", prefix),
        "conda_prefix": prefix if is_conda else None,
        "conda_subdir": conda_python_subdir(prefix) if is_conda else None,
        "conda_base_archs": conda_base_archs(os.environ) if is_conda else None,
        "packages": distribution_versions(),
        "home": os.path.expanduser("~"),
        "env": allowed_env(os.environ, env_policy),
    }
    facts.update(installer_facts())
    return facts
