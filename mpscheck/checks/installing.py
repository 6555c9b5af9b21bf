"""The install command for the user's own setup: pip, uv in a venv, uv in a project, a pipx app, or a fresh venv.

A uv-made venv has no pip, so `python -m pip` fails there; a uv project keeps torch in its lock, so
`uv add` is what sticks; a read-only interpreter (a Nix store path) cannot take an install at all,
so the command makes a venv from it first. Every check that suggests installing asks here.
"""

from __future__ import annotations

import re
import shlex

from mpscheck.facts import InterpreterFacts

FRESH_VENV = "~/.venvs/torch"
# An app that pipx installed lives in its own venv, .../pipx/venvs/<app>; `pipx runpip <app> install ...` is pipx's way
# to change its packages (pipx docs, "pipx runpip"; insanely-fast-whisper#275 upgrades transformers so).
PIPX_APP = re.compile(r"/pipx/venvs/(?P<app>[^/\s]{1,100})/bin/python[\d.]*$")
# A native arm64 Python's venv (the arm64 Homebrew lives in /opt/homebrew) and a conda env pinned to arm64
# packages: the one spelling of each, for the doctor's checks and the paste rules.
NATIVE_VENV = f"/opt/homebrew/bin/python3.12 -m venv {FRESH_VENV} && {FRESH_VENV}/bin/python -m pip install torch"


def conda_arm64_create(env: str = "torch-arm64", python: str = "3.12") -> str:
    """Create a conda env with arm64 packages even from an Intel-default conda (env already shell-quoted)."""
    return f"CONDA_SUBDIR=osx-arm64 conda create -n {env} python={python}"


def install_command(
    info: InterpreterFacts | None,
    python: str,
    *specs: str,
    upgrade: bool = False,
    reinstall: bool = False,
    index_url: str | None = None,
) -> str:
    """One shell line that installs *specs* into the interpreter *python* (already shell-quoted)."""
    quoted = " ".join(shlex.quote(spec) for spec in specs)
    if info is not None and info.site_packages_writable is False:
        venv_python = f"{FRESH_VENV}/bin/python"
        flags = _pip_flags(upgrade, reinstall, index_url)
        return f"{python} -m venv {FRESH_VENV} && {venv_python} -m pip install {flags}{quoted}"
    if info is not None and (app := PIPX_APP.search(info.executable or "")):
        return f"pipx runpip {shlex.quote(app['app'])} install {_pip_flags(upgrade, reinstall, index_url)}{quoted}"
    if info is not None and info.venv_tool == "uv" and info.uv_project and not index_url:
        project = shlex.quote(info.uv_project)
        if reinstall:
            return f"cd {project} && uv sync --reinstall-package {' '.join(_names(specs))}"
        upgrading = "".join(f" --upgrade-package {name}" for name in _names(specs)) if upgrade else ""
        return f"cd {project} && uv add{upgrading} {quoted}"
    if info is not None and (info.venv_tool == "uv" or info.has_pip is False):
        flags = ("--upgrade " if upgrade else "") + ("--reinstall --no-cache " if reinstall else "")
        flags += f"--index-url {index_url} " if index_url else ""
        return f"uv pip install --python {python} {flags}{quoted}"
    return f"{python} -m pip install {_pip_flags(upgrade, reinstall, index_url)}{quoted}"


def _pip_flags(upgrade: bool, reinstall: bool, index_url: str | None) -> str:
    flags = ("--upgrade " if upgrade else "") + ("--force-reinstall --no-cache-dir " if reinstall else "")
    return flags + (f"--index-url {index_url} " if index_url else "")


def _names(specs: tuple[str, ...]) -> list[str]:
    """'torch>=2.3' -> 'torch': the distribution names of requirement specifiers."""
    out = []
    for spec in specs:
        name = spec
        for mark in "<>=!~;[ ":
            name = name.split(mark, 1)[0]
        out.append(name)
    return out
