"""How packages get into this interpreter: pip present, a uv-made venv and its project, writable or not.

The doctor's install commands must fit the environment: a uv venv has no pip (`uv pip install
--python ...`), a uv project wants `uv add`, a read-only interpreter (a Nix store path) takes no
install at all. Read from files only: pyvenv.cfg, uv.lock beside the venv, the site-packages mode.
"""

from __future__ import annotations

import importlib.util
import os
import sys


def pyvenv_cfg(prefix):
    """The key = value lines of the venv's pyvenv.cfg, or None when this is no venv."""
    path = os.path.join(prefix, "pyvenv.cfg")
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    out = {}
    for line in lines:
        key, sep, value = line.partition("=")
        if sep:
            out[key.strip()] = value.strip()
    return out


def installer_facts():
    prefix = sys.prefix
    cfg = pyvenv_cfg(prefix)
    project = os.path.dirname(os.path.abspath(prefix))
    purelib = None
    try:
        import sysconfig

        purelib = sysconfig.get_paths().get("purelib")
    except Exception:
        pass
    return {
        "has_pip": importlib.util.find_spec("pip") is not None,
        "venv_tool": None
        if cfg is None
        else ("uv" if "uv" in cfg else "virtualenv" if "virtualenv" in cfg else "venv"),
        "uv_project": project if cfg is not None and os.path.isfile(os.path.join(project, "uv.lock")) else None,
        "site_packages_writable": os.access(purelib, os.W_OK) if purelib and os.path.isdir(purelib) else None,
    }
