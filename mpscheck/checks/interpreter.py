"""Checks of the target interpreter: did it answer, is it native arm64, does it see the real macOS."""

from __future__ import annotations

import os
import shlex

from mpscheck.checks.installing import NATIVE_VENV, conda_arm64_create
from mpscheck.checks.machine import intel_mac, rosetta
from mpscheck.checks.registry import Context, Outcome, check, failed, fix, passed, skipped, warned
from mpscheck.checks.wording import first_line, seconds_or_limit
from mpscheck.facts import InterpreterFacts
from mpscheck.knowledge.versions import last_intel_mac_torch, parse_version
from mpscheck.model import Remediation

MINIFORGE_ARM64 = "https://github.com/conda-forge/miniforge/releases/latest/download/Miniforge3-MacOSX-arm64.sh"


@check("interpreter", "Interpreter")
def interpreter(ctx: Context) -> Outcome:
    target, info = ctx.facts.target, ctx.interpreter
    if info is not None:
        where = (info.executable or "an unknown path") + (
            f" ({target.chosen_because})" if target.chosen_because else ""
        )
        name = " ".join(part for part in (info.implementation, info.version) if part) or "Python of unknown version"
        return passed(f"{name} at {where}", f"platform: {info.platform or 'unknown'}")
    run = target.run
    if run.status == "ok":  # a paste or a saved report that holds no interpreter facts: nothing was probed
        return skipped("not determined: no facts about the interpreter")
    path = shlex.quote(target.requested or (run.command[0] if run.command else "python3"))
    tail = run.stderr_tail.strip().splitlines()
    evidence = [f"last line on stderr: {first_line(tail[-1])}"] if tail else []
    if run.status == "timeout":
        return failed(
            f"{path} gave no answer within {seconds_or_limit(run.timeout)}",
            fix(
                "Check that the interpreter starts, then allow more time.",
                f"{path} -c 'import sys; print(sys.version)'",
                f"mpscheck doctor --python {path} --timeout {max(120, int((run.timeout or 60) * 2))}",
            ),
            *evidence,
        )
    return failed(
        f"{path} could not be probed: {run.message or run.status}",
        fix("Check that this interpreter runs.", f"{path} -c 'import sys; print(sys.version)'"),
        *evidence,
    )


def _shown(value: str) -> str:
    """A value read from the interpreter, quoted; 'unknown' when it was not read."""
    return repr(value) if value else "unknown"


def is_rosetta(ctx: Context, info: InterpreterFacts) -> bool:
    return rosetta(ctx.host, info)  # checks/machine.py: the one reading, shared with the paste rules


@check(
    "python-arch",
    "Python architecture",
    where="macos",
    needs=("interpreter",),
    reads=("interpreter.machine",),
    cause="rosetta-python",
)
def python_arch(ctx: Context) -> Outcome:
    info = ctx.interpreter
    if info is None:
        return skipped("not determined: the interpreter did not report")
    evidence = (
        f"sysctl.proc_translated: {'unknown' if info.proc_translated is None else info.proc_translated}",
        f"platform.machine(): {_shown(info.machine)}, platform.processor(): {_shown(info.processor)}",
        f"executable slices: {', '.join(info.binary_archs or []) or 'unknown'}",
    )
    if is_rosetta(ctx, info):
        cause, remedy = rosetta_cause(ctx, info)
        return failed(
            f"x86_64 Python under Rosetta 2 on {ctx.host.cpu_brand or 'Apple silicon'}: {cause}; x86_64 torch "
            f"stops at {last_intel_mac_torch()} and Lightning sees processor {_shown(info.processor)}",
            remedy,
            *evidence,
        )
    if info.machine == "arm64":
        return passed("arm64, native (not translated by Rosetta)", *evidence)
    if intel_mac(ctx.host) and info.machine == "x86_64":
        return passed("x86_64, native on an Intel Mac", *evidence)
    return skipped(
        f"architecture not determined (machine {info.machine or 'unknown'}, Apple silicon "
        f"{'unknown' if ctx.host.arm64_hardware is None else ctx.host.arm64_hardware})",
        *evidence,
    )


def rosetta_cause(ctx: Context, info: InterpreterFacts) -> tuple[str, Remediation]:
    """Why this Python runs translated, and the fix for that very cause."""
    archs = info.binary_archs or []
    runner = ctx.env.get("GITHUB_ACTIONS") == "true" and ctx.env.get("RUNNER_ARCH") == "X64"
    if runner and ctx.env.get("RUNNER_ENVIRONMENT") != "github-hosted":
        # actions/runner#805: a runner started under Rosetta starts every job's processes under it too.
        return (
            "a GitHub Actions self-hosted runner installed as x64: it runs under Rosetta, and so does every job it "
            "starts (actions/runner#805)",
            Remediation(
                "Reinstall the runner from its actions-runner-osx-arm64 package (actions/runner's releases), from a "
                "native shell; until then, force arm64 in the job with arch.",
                (f"arch -arm64 {ctx.python} -c 'import platform; print(platform.machine())'",),
            ),
        )
    if info.conda_prefix and (info.conda_subdir == "osx-64" or (archs and "arm64" not in archs)):
        return _conda_cause(ctx, info)
    if "arm64" in archs:
        launcher = ctx.env.get("__CFBundleIdentifier") or ctx.env.get("TERM_PROGRAM") or "the terminal or IDE"
        return (
            f"a universal2 Python started from an x86_64 process ({launcher} runs under Rosetta)",
            Remediation(
                f"Start Python natively: untick 'Open using Rosetta' in {launcher}'s Get Info, or install the Apple "
                "silicon build of the IDE; until then, force arm64 with arch.",
                (f"arch -arm64 {ctx.python} -c 'import platform; print(platform.machine())'",),
            ),
        )
    if info.real_executable.startswith("/usr/local/"):
        return (
            f"an Intel Homebrew Python ({info.real_executable})",
            Remediation(
                "Use the arm64 Homebrew in /opt/homebrew (install it from a native terminal) and make the venv "
                "with its Python.",
                (
                    '/bin/bash -c "$(curl -fsSL https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh)"',
                    "/opt/homebrew/bin/brew install python@3.12",
                    NATIVE_VENV,
                ),
            ),
        )
    return (
        f"an x86_64-only Python build ({info.real_executable or info.executable or 'path unknown'})",
        Remediation(
            "Install an arm64 (or universal2) Python, such as python.org's macOS installer or Homebrew in "
            "/opt/homebrew, and recreate the venv with it.",
            (
                "/opt/homebrew/bin/brew install python@3.12",
                NATIVE_VENV,
            ),
        ),
    )


def _conda_cause(ctx: Context, info: InterpreterFacts) -> tuple[str, Remediation]:
    env = ctx.env.get("CONDA_DEFAULT_ENV") or os.path.basename(info.conda_prefix or "") or "torch"
    new_env = shlex.quote(f"{env}-arm64" if env != "base" else "torch-arm64")
    version = ".".join(info.version.split(".")[:2]) or "3.12"
    if info.conda_base_archs and "arm64" not in info.conda_base_archs:  # None: the conda install was not read
        base = os.path.dirname(os.path.dirname(ctx.env.get("CONDA_PYTHON_EXE", ""))) or "conda"
        return (
            f"an Intel (x86_64) Anaconda/Miniconda install ({base}) made the env {info.conda_prefix}",
            Remediation(
                "Install the arm64 Miniforge and recreate the env with it (the Intel conda can only make osx-64 envs "
                "by default).",
                (
                    f"curl -LO {MINIFORGE_ARM64} && bash Miniforge3-MacOSX-arm64.sh",
                    f"~/miniforge3/bin/conda create -n {new_env} python={version}",
                    f"conda activate {new_env} && python -m pip install torch",
                ),
            ),
        )
    return (
        f"the conda env {info.conda_prefix} was created with Intel (osx-64) packages",
        Remediation(
            "Recreate the env with arm64 packages and pin its subdir so it stays arm64.",
            (
                conda_arm64_create(new_env, version),
                f"conda activate {new_env} && conda config --env --set subdir osx-arm64",
                "python -m pip install torch",
            ),
        ),
    )


@check(
    "python-macos-compat",
    "macOS seen by Python",
    where="macos",
    needs=("interpreter",),
    reads=("interpreter.mac_ver", "host.macos_version"),
)
def python_macos_compat(ctx: Context) -> Outcome:
    info = ctx.interpreter
    if info is None:
        return skipped("not determined: the interpreter did not report")
    seen, real = parse_version(info.mac_ver), parse_version(ctx.host.macos_version)
    if seen is None or real is None:
        return skipped(
            f"not compared (platform.mac_ver(): {info.mac_ver or 'unknown'}, "
            f"sw_vers: {ctx.host.macos_version or 'unknown'})"
        )
    compat = (seen[:2] == (10, 16) and real[0] >= 11) or (seen[0] == 16 and real[0] >= 26)
    if not compat:
        return passed(f"platform.mac_ver() agrees with sw_vers: {info.mac_ver}")
    summary = (
        f"platform.mac_ver() says {info.mac_ver} on macOS {ctx.host.macos_version}: this Python sees the "
        "old-SDK compatibility version, so tools that read it get the wrong macOS"
    )
    if ctx.env.get("SYSTEM_VERSION_COMPAT") == "1":
        return warned(
            summary + " (SYSTEM_VERSION_COMPAT=1 is set)",
            fix("Unset SYSTEM_VERSION_COMPAT before starting Python.", "unset SYSTEM_VERSION_COMPAT"),
        )
    return warned(
        summary + " (the interpreter was built with an older macOS SDK)",
        fix(
            "Install a Python built with a current SDK (a recent python.org or Homebrew release); meanwhile "
            "SYSTEM_VERSION_COMPAT=0 makes it see the real version.",
            "export SYSTEM_VERSION_COMPAT=0",
        ),
    )
