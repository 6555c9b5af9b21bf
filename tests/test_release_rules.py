"""The release rules at their edges: which torch fits which macOS, Python and architecture, in the user's words.

Each test starts from a recorded situation (tests/scenarios.py, through the helpers of
test_machine_rules.py) and changes the facts one rule reads: the macOS version, the torch version,
the Python version, the interpreter's architecture, a value the probe could not read. It names the
whole status, summary and commands the user gets, so a changed boundary or a changed command shows.
Versions are fact inputs; the releases' floors and wheels come from the table read from torch's wheels.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

from mpscheck.checks.installing import install_command
from mpscheck.checks.policy import decide
from mpscheck.facts import Facts, InterpreterFacts, SmokeStep, TorchFacts
from mpscheck.model import ExitCode, Finding, Remediation, Requirement, Status, Verdict
from tests import recorded as rec
from tests.scenarios import interpreter, quick_smoke
from tests.test_machine_rules import (
    PY,
    REINSTALL,
    doctor,
    m1,
    m1_torch,
    on_macos,
    rosetta,
    show,
    unprobed,
    with_packages,
    with_run,
)

INTEL = {"machdep.cpu.brand_string": rec.SYSCTL_INTEL["machdep.cpu.brand_string"], "hw.optional.arm64": "0"}
INTEL_MAC = (
    "Intel Mac (Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz): torch has no macOS x86_64 wheels after 2.2.2, and MPS on "
    "AMD GPUs is no longer supported by PyTorch"
)
PRINT_VERSION = f"{PY} -c 'import sys; print(sys.version)'"


def intel_mac(python: str = "3.11.9", macos: str | None = "14.5", **torch_changes: Any) -> Facts:
    """The recorded Intel MacBook Pro with a native x86_64 Python (what python-arch passes as native)."""
    facts_ = m1(INTEL, **{"available": False, "mps_device_name": None, **torch_changes})
    facts_.host.macos_version = macos
    native = {"machine": "x86_64", "processor": "i386"}  # what an x86_64 Python reports, native or not
    facts_.target.interpreter = interpreter(native, translated=None, archs=("x86_64",), version=python)
    return facts_


def without_torch(facts_: Facts, python: str | None = None) -> Facts:
    facts_.target.torch = TorchFacts(installed=False)
    if python is not None:
        assert facts_.target.interpreter is not None
        facts_.target.interpreter.version = python
    return facts_


def full(finding: Finding) -> tuple[str, str, Remediation | None, tuple[str, ...]]:
    return finding.status.value, finding.summary, finding.fix, finding.details


# ---- macOS against the installed torch, at each release boundary ------------------------------------

NEWEST_ON_14_5 = (
    "Upgrade macOS to 15.0 or later, or install the newest torch that still runs here (torch<2.15: a plain "
    "`pip install torch` resolves to torch 2.15.0 here, whose MPS needs macOS 15.0+; torch 2.14.1 is the newest "
    "with MPS on macOS 14.5)."
)


def test_torch_2_15_states_macos_15_but_does_not_enforce_it() -> None:
    """2.14.1 runs MPS on macOS 14; 2.15.0 states 15.0 while its device check lets 14 through: a warning."""
    assert show(doctor(on_macos("14.5", version="2.14.1"))["macos-version"]) == (
        "pass",
        "macOS 14.5 meets torch 2.14.1's floor of macOS 14.0",
        (),
    )
    unenforced = doctor(on_macos("14.5", version="2.15.0"))["macos-version"]
    assert full(unenforced) == (
        "warn",
        "macOS 14.5 is older than macOS 15.0, the floor torch 2.15.0 states for MPS; its device check does not "
        "enforce it, so MPS reports available, unsupported",
        Remediation(NEWEST_ON_14_5, ("softwareupdate --list", f"{PY} -m pip install 'torch<2.15'")),
        (),
    )
    refused = doctor(on_macos("14.5", version="2.15.0", available=False))["macos-version"]
    assert show(refused) == (
        "fail",
        "macOS 14.5 is older than macOS 15.0, which torch 2.15.0 needs for MPS (torch then finds no MPS device)",
        ("softwareupdate --list", f"{PY} -m pip install 'torch<2.15'"),
    )
    assert show(doctor(on_macos("15.0", version="2.15.0"))["macos-version"]) == (
        "pass",
        "macOS 15.0 meets torch 2.15.0's floor of macOS 15.0",
        (),
    )


def test_a_torch_newer_than_the_table_is_judged_by_the_newest_release_and_says_so() -> None:
    """The newest release's floor is an assumption for a newer torch: a warning, said in the summary
    (issue 20; it failed when the MPS device was not available, before)."""
    note = (
        "torch 2.16.0 is newer than mpscheck's release table, which ends at 2.15.0: the facts of 2.15.0 apply, assumed"
    )
    newer = doctor(on_macos("14.5", version="2.16.0"))["macos-version"]
    assert full(newer) == (
        "warn",
        f"macOS 14.5 is older than macOS 15.0, which torch 2.16.0 may need for MPS ({note})",
        Remediation(NEWEST_ON_14_5, ("softwareupdate --list", f"{PY} -m pip install 'torch<2.15'")),
        (note,),
    )
    refused = doctor(on_macos("14.5", version="2.16.0", available=False))["macos-version"]
    assert (refused.status, refused.details) == (Status.WARN, (note,))


BF16_FIX = Remediation(
    "Upgrade macOS to 14 or later for bfloat16 and complex; until then use float16/float32.",
    ("softwareupdate --list",),
)


def test_bfloat16_and_complex_need_macos_14_0_exactly() -> None:
    """torch 2.3 - 2.8 refuse bfloat16 and complex on MPS below macOS 14.0; 14.0 itself is enough."""
    assert show(doctor(on_macos("14.0", version="2.8.0"))["macos-version"]) == (
        "pass",
        "macOS 14.0 meets torch 2.8.0's floor of macOS 13.0",
        (),
    )
    assert full(doctor(on_macos("13.7", version="2.8.0"))["macos-version"]) == (
        "warn",
        "macOS 13.7 meets torch 2.8.0's floor of macOS 13.0, but bfloat16 and complex dtypes on MPS need macOS 14",
        BF16_FIX,
        (),
    )
    patch = doctor(on_macos("13.7", version="2.7.2"))["macos-version"]  # a patch the table lacks: 2.7.1's facts
    assert full(patch) == (
        "warn",
        "macOS 13.7 meets torch 2.7.2's floor of macOS 13.0, but bfloat16 and complex dtypes on MPS need macOS 14",
        BF16_FIX,
        ("torch 2.7.2 is not in the table read from torch's wheels: the facts of 2.7.1 apply",),
    )


def test_torch_2_2_is_wrong_on_mps_from_macos_14_4() -> None:
    assert show(doctor(on_macos("14.4", version="2.2.2"))["macos-version"]) == (
        "fail",
        "torch 2.2.2 on macOS 14.4 gives silently wrong results on MPS (pytorch/pytorch#122016)",
        (f"{PY} -m pip install --upgrade 'torch>=2.3'",),
    )


def test_torch_2_2_on_an_intel_mac_has_no_newer_torch_to_go_to() -> None:
    finding = doctor(intel_mac(version="2.2.2"))["macos-version"]
    assert full(finding) == (
        "fail",
        "torch 2.2.2 on macOS 14.5 (23F79) gives silently wrong results on MPS (pytorch/pytorch#122016), and torch "
        "2.2.2 is the last release for an x86_64 Mac",
        Remediation(
            "Run on the CPU device on this Mac (or use a Mac with Apple silicon, where torch 2.3+ installs).",
            ("mpscheck doctor --require none",),
        ),
        (),
    )


def test_a_torch_before_mps_is_upgraded_to_what_this_mac_can_install() -> None:
    intel = doctor(intel_mac(version="1.11.0"))["macos-version"]
    assert full(intel) == (
        "fail",
        "torch 1.11.0 predates MPS (it first shipped in torch 1.12): no MPS on any macOS",
        Remediation(
            "Upgrade torch (torch 2.2.2 is the last release with a macOS x86_64 wheel).",
            (f"{PY} -m pip install --upgrade torch 'numpy<2'",),
        ),
        (),
    )
    stuck = doctor(on_macos("12.2", version="1.11.0"))["macos-version"]
    assert full(stuck) == (
        "fail",
        "torch 1.11.0 predates MPS (it first shipped in torch 1.12): no MPS on any macOS",
        Remediation(
            "No torch with MPS installs here: no torch release that Python 3.11 can install on macOS 12.2 has MPS "
            "there.",
            (),
        ),
        (),
    )


# ---- macOS and the torch that would be installed: Python and architecture decide ---------------------


def test_a_report_without_interpreter_facts_pins_torch_by_macos_alone() -> None:
    """A saved report or paste whose probe ran but holds no interpreter facts: nothing about Python is invented."""
    facts_ = on_macos("14.0")
    facts_.target.interpreter = facts_.target.torch = facts_.target.smoke = None
    found = doctor(facts_)
    assert show(found["interpreter"]) == ("skip", "not determined: no facts about the interpreter", ())
    for check_id in ("python-arch", "python-macos-compat", "torch-import"):
        assert show(found[check_id]) == ("skip", "not determined: the interpreter did not report", ())
    assert full(found["macos-version"]) == (
        "warn",
        "macOS 14.0: MPS here needs torch<2.15 (torch 2.14.1)",
        Remediation(
            "Upgrade macOS, or install torch<2.15.", ("softwareupdate --list", f"{PY} -m pip install 'torch<2.15'")
        ),
        (),
    )


def test_a_python_of_unknown_version_gets_the_pin_of_its_macos() -> None:
    found = doctor(without_torch(on_macos("14.0"), python=""))
    assert show(found["macos-version"]) == (
        "warn",
        "macOS 14.0: MPS here needs torch<2.15 (torch 2.14.1)",
        ("softwareupdate --list", f"{PY} -m pip install 'torch<2.15'"),
    )
    assert found["torch-import"].fix == Remediation(
        "Install torch into the interpreter you run (torch<2.15: torch 2.14.1 is the newest release whose MPS runs "
        "on macOS 14.0).",
        (f"{PY} -m pip install 'torch<2.15'",),
    )


def test_python_3_14_on_macos_13_has_no_torch_with_mps() -> None:
    """cp314 wheels start at torch 2.9, whose MPS needs macOS 14; Python 3.13 still gets torch 2.8 on macOS 13."""
    newest = doctor(without_torch(on_macos("13.5"), python="3.14.0"))
    assert newest["torch-import"].fix == Remediation(
        "No torch with MPS installs into this interpreter: no torch release that Python 3.14 can install on macOS "
        "13.5 has MPS there; use Python 3.8 - 3.13.",
        (PRINT_VERSION,),
    )
    assert full(newest["macos-version"]) == (
        "fail",
        "macOS 13.5: no torch release that Python 3.14 can install on macOS 13.5 has MPS there",
        Remediation("Upgrade macOS to 14 or later.", ("softwareupdate --list",)),
        (),
    )
    older = doctor(without_torch(on_macos("13.5"), python="3.13.1"))
    assert older["torch-import"].fix == Remediation(
        "Install torch into the interpreter you run (torch<2.9: a plain `pip install torch` resolves to torch 2.11.0 "
        "here, whose MPS needs macOS 14.0+; torch 2.8.0 is the newest with MPS on macOS 13.5).",
        (f"{PY} -m pip install 'torch<2.9'",),
    )
    on_14 = doctor(without_torch(on_macos("14.0"), python="3.14.0"))
    assert on_14["torch-import"].fix is not None
    assert on_14["torch-import"].fix.commands == (f"{PY} -m pip install 'torch<2.15'",)


NO_CP315 = "no torch release has a wheel for Python 3.15 on macOS 15.0 (arm64)"
NO_X86_CP313 = "no torch release has a wheel for Python 3.13 on macOS 14.5 (x86_64)"


@pytest.mark.parametrize(
    ("facts_", "python", "macos", "why", "pythons"),
    [
        (lambda: on_macos("15.0"), "3.15.0", "macOS 15.0", NO_CP315, "3.8 - 3.14"),
        (intel_mac, "3.13.1", "macOS 14.5 (23F79)", NO_X86_CP313, "3.8 - 3.12"),
    ],
)
def test_a_python_without_any_torch_wheel_is_no_fault_of_macos(
    facts_: Callable[[], Facts], python: str, macos: str, why: str, pythons: str
) -> None:
    """Python 3.15 (no cp315 wheel in the table) or 3.13 on x86_64 (2.2.2 stops at cp312): the cure is
    another Python, so macos-version asks for no macOS upgrade; torch-import names the Pythons."""
    found = doctor(without_torch(facts_(), python=python))
    assert show(found["macos-version"]) == ("skip", f"{macos}: not judged: {why}", ())
    assert found["torch-import"].fix == Remediation(
        f"No torch with MPS installs into this interpreter: {why}; use Python {pythons}.", (PRINT_VERSION,)
    )


def test_torch_not_installed_where_no_torch_has_mps_says_upgrade_macos() -> None:
    torch = doctor(without_torch(on_macos("12.2")))["torch-import"]
    assert full(torch) == (
        "fail",
        f"torch is not installed in {PY}",
        Remediation(
            "No torch with MPS installs into this interpreter: no torch release that Python 3.11 can install on macOS "
            "12.2 has MPS there; upgrade macOS.",
            ("softwareupdate --list",),
        ),
        (),
    )


def test_torch_not_installed_on_macos_15_needs_no_pin() -> None:
    found = doctor(without_torch(on_macos("15.0")))
    assert found["torch-import"].fix == Remediation(
        "Install torch into the interpreter you run.", (f"{PY} -m pip install torch",)
    )
    assert show(found["macos-version"]) == (
        "pass",
        "macOS 15.0: torch 2.15.0, what `pip install torch` resolves to, runs MPS on macOS 15.0",
        (),
    )


def test_torch_not_installed_on_an_intel_mac_installs_the_last_x86_64_release() -> None:
    found = doctor(without_torch(intel_mac()))
    assert found["torch-import"].fix == Remediation(
        "Install torch into the interpreter you run (torch: torch 2.2.2 is the last release with a macOS x86_64 "
        "wheel).",
        (f"{PY} -m pip install torch 'numpy<2'",),
    )
    too_new = doctor(without_torch(intel_mac(python="3.13.1")))
    assert too_new["torch-import"].fix == Remediation(
        "No torch with MPS installs into this interpreter: no torch release has a wheel for Python 3.13 on macOS 14.5 "
        "(x86_64); use Python 3.8 - 3.12.",
        (PRINT_VERSION,),
    )


# ---- the Intel Mac's own fix: torch 2.2.2 for the CPU, if this Python can install it -------------------

LAST_INTEL = Remediation(
    "Use a Mac with Apple silicon for MPS; on this Mac, torch 2.2.2 is the last release and needs numpy<2 (it was "
    "built against numpy 1.x).",
    (f"{PY} -m pip install torch==2.2.2 'numpy<2'",),
)


def test_intel_mac_with_a_python_that_torch_2_2_2_has_no_wheel_for() -> None:
    chip = doctor(intel_mac(python="3.13.1"))["chip"]
    assert full(chip) == (
        "fail",
        INTEL_MAC,
        Remediation(
            "Use a Mac with Apple silicon for MPS; on this Mac, torch 2.2.2, the last release, has no wheel for Python "
            "3.13: it needs Python 3.8 - 3.12.",
            (PRINT_VERSION,),
        ),
        (),
    )
    assert doctor(intel_mac(python="3.13.1", macos=None))["chip"].fix == chip.fix  # no stand-in macOS is named
    assert doctor(intel_mac(python="3.12.4"))["chip"].fix == LAST_INTEL


@pytest.mark.parametrize("macos", ["10.15", "12.2", None])
def test_intel_mac_below_macos_12_3_still_installs_torch_2_2_2_for_the_cpu(macos: str | None) -> None:
    """torch 2.2.2's x86_64 wheels install from macOS 10.9: a macOS too old for MPS is no reason to refuse it."""
    assert full(doctor(intel_mac(macos=macos))["chip"]) == ("fail", INTEL_MAC, LAST_INTEL, ())


def test_intel_mac_whose_interpreter_did_not_report() -> None:
    facts_ = intel_mac()
    facts_.target.interpreter = None
    assert full(doctor(facts_)["chip"]) == ("fail", INTEL_MAC, LAST_INTEL, ())


# ---- the interpreter: what was not read is said, never invented ------------------------------------


def test_an_interpreter_that_reported_no_path_version_or_platform() -> None:
    facts_ = m1()
    info = facts_.target.interpreter
    assert info is not None
    info.executable = info.implementation = info.version = info.platform = ""
    assert full(doctor(facts_)["interpreter"]) == (
        "pass",
        "Python of unknown version at an unknown path (--python)",
        None,
        ("platform: unknown",),
    )


def test_timeouts_without_their_recorded_limit() -> None:
    """A saved report that lost the limit: the summary says 'its time limit', the retry doubles the default."""
    hung = doctor(unprobed(status="timeout"))["interpreter"]
    assert show(hung) == (
        "fail",
        f"{PY} gave no answer within its time limit",
        (PRINT_VERSION, f"mpscheck doctor --python {PY} --timeout 120"),
    )
    slow_import = doctor(with_run(m1_torch(None), status="timeout", running_stage="torch"))["torch-import"]
    assert show(slow_import) == (
        "fail",
        "import torch did not finish within its time limit",
        ("mpscheck doctor --timeout 180", REINSTALL),
    )


def test_a_torch_that_did_not_report_its_version_still_imports() -> None:
    assert show(doctor(m1(version=None))["torch-import"]) == ("pass", "torch of unknown version imports in 1.2 s", ())


def test_an_empty_fallback_value_kills_import_torch_and_is_quoted_as_empty() -> None:
    """`export PYTORCH_ENABLE_MPS_FALLBACK=` sets it to '': std::stoi('') throws while torch 2.0 - 2.7 load."""
    crashed = with_run(m1_torch(None), status="crashed", running_stage="torch", message="killed by SIGABRT")
    assert crashed.target.interpreter is not None
    crashed.target.interpreter.env = {"PYTORCH_ENABLE_MPS_FALLBACK": ""}
    assert show(doctor(crashed)["torch-import"]) == (
        "fail",
        "import torch died (killed by SIGABRT); PYTORCH_ENABLE_MPS_FALLBACK='': std::stoi throws "
        "std::invalid_argument on it while torch loads",
        ("export PYTORCH_ENABLE_MPS_FALLBACK=1",),
    )


def test_a_long_wrong_architecture_error_is_quoted_up_to_400_characters() -> None:
    # The recorded dlopen error of invoke-ai/InvokeAI#2152, its venv moved to a deeper (longer) directory.
    error = rec.WRONG_ARCH_IMPORT.replace("/Users/masonjames/Sites/invokeai", "/Users/dev/" + "projects/" * 8)
    assert len(error) > 400
    torch = doctor(m1_torch(TorchFacts(installed=True, import_error=error)))["torch-import"]
    assert torch.summary == (
        "import torch failed: torch's libraries do not match this Python (have x86_64, need arm64): the wheel was "
        "installed by a Python of the other architecture"
    )
    assert torch.details == (error[:399] + "…",)


# ---- why a Python runs under Rosetta: the GitHub Actions runner ---------------------------------------

RUNNER = {"GITHUB_ACTIONS": "true", "RUNNER_ARCH": "X64"}
HOMEBREW = "/usr/local/bin/python3"


def test_a_self_hosted_runner_installed_as_x64() -> None:
    arch = doctor(rosetta(env={**RUNNER, "RUNNER_ENVIRONMENT": "self-hosted"}))["python-arch"]
    assert show(arch) == (
        "fail",
        "x86_64 Python under Rosetta 2 on Apple M1: a GitHub Actions self-hosted runner installed as x64: it runs "
        "under Rosetta, and so does every job it starts (actions/runner#805); x86_64 torch stops at 2.2.2 and "
        "Lightning sees processor 'i386'",
        (f"arch -arm64 {PY} -c 'import platform; print(platform.machine())'",),
    )
    assert arch.fix is not None and arch.fix.summary == (
        "Reinstall the runner from its actions-runner-osx-arm64 package (actions/runner's releases), from a native "
        "shell; until then, force arm64 in the job with arch."
    )


@pytest.mark.parametrize(
    "env",
    [
        {**RUNNER, "RUNNER_ENVIRONMENT": "github-hosted"},  # GitHub's own x64 image: the runner is not the cause
        {"GITHUB_ACTIONS": "true", "RUNNER_ARCH": "ARM64", "RUNNER_ENVIRONMENT": "self-hosted"},  # a native runner
        {"RUNNER_ARCH": "X64", "RUNNER_ENVIRONMENT": "self-hosted"},  # not inside a GitHub Actions job
    ],
)
def test_the_runner_is_blamed_only_for_a_self_hosted_x64_runner(env: dict[str, str]) -> None:
    arch = doctor(rosetta(env=env, real_executable=HOMEBREW))["python-arch"]
    assert arch.summary.startswith(f"x86_64 Python under Rosetta 2 on Apple M1: an Intel Homebrew Python ({HOMEBREW})")


@pytest.mark.parametrize(
    ("real", "executable", "shown"),
    [("", "/Users/dev/py/bin/python3", "/Users/dev/py/bin/python3"), ("", "", "path unknown")],
)
def test_an_x86_64_only_build_is_named_by_the_path_that_was_read(real: str, executable: str, shown: str) -> None:
    arch = doctor(rosetta(real_executable=real, executable=executable))["python-arch"]
    assert arch.summary.startswith(f"x86_64 Python under Rosetta 2 on Apple M1: an x86_64-only Python build ({shown});")


# ---- frameworks: Lightning's off switch and an unread processor ---------------------------------------


def test_lightning_switched_off_by_disable_mps() -> None:
    facts_ = with_packages({"lightning": "2.4.0", "pytorch-lightning": "1.9.0", "transformers": "4.57.0"})
    assert facts_.target.interpreter is not None
    facts_.target.interpreter.env = {"DISABLE_MPS": "1"}
    assert full(doctor(facts_)["frameworks"]) == (
        "warn",
        "torch says MPS is available but DISABLE_MPS=1 is set: lightning, pytorch-lightning will not use it (current "
        "Lightning's MPSAccelerator.is_available() reads it; older releases ignore it)",
        Remediation("Unset DISABLE_MPS to let Lightning use MPS.", ("unset DISABLE_MPS",)),
        (),
    )


def test_lightning_is_not_compared_when_the_processor_was_not_read() -> None:
    facts_ = with_packages({"lightning": "2.4.0"})
    assert facts_.target.interpreter is not None
    facts_.target.interpreter.processor = ""
    assert show(doctor(facts_)["frameworks"]) == (
        "skip",
        "not compared: platform.processor(), which Lightning reads, is unknown",
        (),
    )


# ---- install commands in the user's setup, as the checks give them ------------------------------------


def test_upgrades_and_reinstalls_in_each_setup() -> None:
    in_project = with_packages({"transformers": "4.57.0", "accelerate": "1.15.0"}, mps_built=False)
    assert in_project.target.interpreter is not None
    in_project.target.interpreter.venv_tool, in_project.target.interpreter.uv_project = "uv", "/Users/dev/proj"
    assert doctor(in_project)["frameworks"].fix == Remediation(
        "Update them to releases that follow torch.",
        (
            "cd /Users/dev/proj && uv add --upgrade-package transformers --upgrade-package accelerate transformers "
            "accelerate",
        ),
    )
    uv_venv = on_macos("14.5", version="2.2.0")
    assert uv_venv.target.interpreter is not None
    uv_venv.target.interpreter.venv_tool, uv_venv.target.interpreter.has_pip = "uv", False
    assert doctor(uv_venv)["macos-version"].fix == Remediation(
        "Upgrade torch to 2.3 or later.", (f"uv pip install --python {PY} --upgrade 'torch>=2.3'",)
    )
    read_only = on_macos("14.5", version="2.2.0")
    assert read_only.target.interpreter is not None
    read_only.target.interpreter.site_packages_writable = False
    fresh = f"{PY} -m venv ~/.venvs/torch && ~/.venvs/torch/bin/python -m pip install"
    assert doctor(read_only)["macos-version"].fix == Remediation(
        "Upgrade torch to 2.3 or later.", (f"{fresh} --upgrade 'torch>=2.3'",)
    )
    broken = m1_torch(TorchFacts(installed=True, import_error="ImportError: boom"))
    assert broken.target.interpreter is not None
    broken.target.interpreter.site_packages_writable = False
    assert doctor(broken)["torch-import"].fix == Remediation(
        "Reinstall torch into this interpreter.", (f"{fresh} --force-reinstall --no-cache-dir torch",)
    )


@pytest.mark.parametrize(
    ("setup", "command"),
    [
        ({"venv_tool": "uv"}, "uv pip install --python /opt/venv/bin/python --index-url {cpu} torch"),
        (
            {"site_packages_writable": False},
            "/opt/venv/bin/python -m venv ~/.venvs/torch && ~/.venvs/torch/bin/python -m pip install --index-url {cpu} "
            "torch",
        ),
    ],
)
def test_the_cpu_index_reaches_every_setup(setup: dict[str, Any], command: str) -> None:
    from tests.test_machine_rules import linux

    facts_ = linux(TorchFacts(installed=False))
    assert facts_.target.interpreter is not None
    for name, value in setup.items():
        setattr(facts_.target.interpreter, name, value)
    fix = doctor(facts_)["torch-import"].fix
    assert fix is not None and fix.commands == (command.format(cpu="https://download.pytorch.org/whl/cpu"),)


def test_a_uv_project_names_each_package_once_by_its_distribution_name() -> None:
    info = InterpreterFacts(executable=PY, venv_tool="uv", uv_project="/Users/dev/proj")
    assert install_command(info, PY, "torch==2.2.2", "numpy<2", upgrade=True) == (
        "cd /Users/dev/proj && uv add --upgrade-package torch --upgrade-package numpy torch==2.2.2 'numpy<2'"
    )
    assert install_command(info, PY, "torch==2.2.2", "numpy<2", reinstall=True) == (
        "cd /Users/dev/proj && uv sync --reinstall-package torch numpy"
    )


# ---- the workload: a raised step explained by its signature -------------------------------------------


def test_a_low_watermark_refusal_names_the_low_ratio() -> None:
    error = "invalid low watermark ratio 1.4"  # MPSAllocator.mm's TORCH_CHECK text, as in test_paste.py
    facts_ = m1()
    facts_.target.smoke = quick_smoke(
        failing=SmokeStep("allocate", "raised", 0.01, error=error, error_type="RuntimeError")
    )
    smoke = doctor(facts_)["smoke"]
    assert show(smoke) == (
        "fail",
        "the allocate step was refused by torch's MPS memory limits: invalid low watermark ratio",
        (
            "unset PYTORCH_MPS_HIGH_WATERMARK_RATIO PYTORCH_MPS_LOW_WATERMARK_RATIO",
            "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 PYTORCH_MPS_LOW_WATERMARK_RATIO=0.0",
        ),
    )
    assert smoke.details == (f"RuntimeError: {error}",)


# ---- the verdict of mpscheck bench --------------------------------------------------------------------

BENCH_IDS = ("bench-device", "bench-matmul", "bench-copy", "bench-resnet50", "bench-bert-base", "bench-vgg16")


def bench(strict: bool, **statuses: str) -> Verdict:
    found = [Finding(i, i, Status(statuses.get(i.replace("-", "_"), "pass")), f"{i} summary") for i in BENCH_IDS]
    return decide(found, m1(), require=Requirement.MPS, strict=strict, command="bench")


def test_bench_verdict_and_strict_warnings() -> None:
    assert bench(False) == Verdict(ExitCode.READY, True, (), "Bench done: every measured workload matched the CPU")
    assert bench(False, bench_copy="warn").headline == "Bench done: every measured workload matched the CPU (1 warning)"
    assert bench(True, bench_copy="warn") == Verdict(
        ExitCode.PROBLEMS, False, ("bench-copy",), "Not ready: the benchmark failed: bench-copy"
    )


def test_the_fallback_step_is_read_when_the_torch_record_was_unreadable() -> None:
    """The probe keeps each stage on its own: a torch record that failed to parse leaves the workload's steps.

    The release is then unknown, and an unknown release is read as std::stoi reads the value.
    """
    from tests.test_smoke_checks import full_smoke, m1_facts, smoke_findings

    facts_ = m1_facts(full_smoke(fallback="1"))
    facts_.target.torch = None
    _, found = smoke_findings(facts_)
    assert show(found["smoke-fallback"]) == (
        "pass",
        "PYTORCH_ENABLE_MPS_FALLBACK=1 was in effect in the workload's process (std::stoi reads 1)",
        (),
    )
