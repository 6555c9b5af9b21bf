"""Check outcomes pinned whole where the mutation run found a returned field nobody compared
(checks/bench.py, errors.py, system.py): the bench summary's chip name and core count from each of
their sources, a step that raised an out-of-memory error read by its numbers (the VM cap and the
other readings, with the device named), CUDA claimed where the host shows no NVIDIA driver, an Intel
Mac's last torch (its numpy pin, or the Pythons it has wheels for), torch 2.2 on macOS 14.4+ on each
architecture, and a conda env of Intel packages (which conda made it, the env's new name and Python).

Expected values are written out (summaries, fixes, commands) or taken from the generated tables with
plain code; every field of an Outcome or a summary is compared.
"""

from __future__ import annotations

from dataclasses import replace

from mpscheck.checks import REGISTRY, Context
from mpscheck.checks.bench import BenchSummary, bench_summary, summarise
from mpscheck.checks.errors import raised_outcome
from mpscheck.checks.interpreter import rosetta_cause
from mpscheck.checks.registry import Outcome
from mpscheck.facts import SmokeStep
from mpscheck.knowledge import releases
from mpscheck.knowledge.peaks import match_chip
from mpscheck.knowledge.versions import last_intel_mac_torch
from mpscheck.model import Remediation, Status
from tests import recorded as rec
from tests.scenarios import CUDA_SMOKE, H100, PHYSICAL, _linux, facts, interpreter, mac_host, torch_facts
from tests.test_bench import H100_NAME, bench_facts, observed
from tests.test_bench_judgements import on_a_mac, on_mps
from tests.test_host_contradiction import CUDA
from tests.test_paste import OOM

LAST = last_intel_mac_torch()
PYTHON = "/Users/dev/.venvs/torch/bin/python"  # the interpreter's executable in tests/scenarios.py
VM = (
    "cannot allocate on {device} ('MPS allocated: 0 bytes'): a paravirtual GPU in a macOS VM, such as a hosted CI "
    "runner, where is_available() is True and nothing works"
)
VM_FIX = Remediation(
    "Run MPS work on a physical Mac (a self-hosted runner in CI); in a hosted macOS VM, test on the CPU.",
    ("mpscheck doctor --require none",),
)


# ---- the bench summary: rows, peak, chip and cores -------------------------------------------------------


def test_the_bench_summary_carries_the_benchs_own_chip_name_and_core_count() -> None:
    found = on_a_mac(on_mps("Apple M3 Max", 40), rec.SYSCTL_M3_MAX, None)
    summary = bench_summary(found)
    assert summary == BenchSummary(tuple(summarise(found)), match_chip("Apple M3 Max", 40), "Apple M3 Max", 40)
    assert (summary.chip, summary.cores) == ("Apple M3 Max", 40)
    assert summary.peak is not None and summary.peak.chip == "Apple M3 Max"


def test_the_bench_summary_takes_the_chip_from_torch_then_the_host() -> None:
    by_torch = on_a_mac(on_mps(), {"hw.optional.arm64": "1"}, None, torch_name="Apple M4", torch_cores=10)
    assert (bench_summary(by_torch).chip, bench_summary(by_torch).cores) == ("Apple M4", 10)
    by_host = on_a_mac(on_mps(), rec.SYSCTL_M3_MAX, rec.DISPLAYS_M3_MAX)
    assert (bench_summary(by_host).chip, bench_summary(by_host).cores) == ("Apple M3 Max", 40)
    unknown = on_a_mac(on_mps(), {"hw.optional.arm64": "1"}, None, torch=False)
    assert bench_summary(unknown) == BenchSummary(tuple(summarise(unknown)), None, None, None)


def test_a_cuda_bench_summary_names_the_device_and_no_core_count() -> None:
    bench = observed()  # the CUDA bench's own device name (tests/test_bench.py)
    bench.core_count = 132  # a core count is not read for CUDA chips
    found = bench_facts(bench)
    summary = bench_summary(found)
    assert (summary.chip, summary.cores) == (H100_NAME, None)
    assert summary.peak == match_chip(H100_NAME, None) and summary.peak is not None


# ---- a step that raised an out-of-memory error -----------------------------------------------------------


def raised(error: str) -> SmokeStep:
    return SmokeStep(name="matmul", outcome="raised", error=error, error_type="RuntimeError")


def test_an_oom_under_the_cap_with_nothing_else_allocated_is_the_vm_on_the_device_named() -> None:
    error = OOM.format(a="1.02 GB", o="0 bytes", m="15.87 GB", r="256 bytes")
    outcome = raised_outcome(Context(facts=bench_facts(None)), raised(error), "mps")
    assert outcome.status is Status.FAIL
    assert outcome.summary == (
        "the matmul step "
        + VM.format(device="mps")
        + " (torch was refused 256 bytes although it fits under the cap, with no other allocations (torch holds "
        "1.02 GB, other allocations 0 bytes, cap 15.87 GB, asked for 256 bytes; this Mac has 128.00 GiB))"
    )
    assert outcome.details == (f"RuntimeError: {error}",)
    assert outcome.fix == VM_FIX
    assert outcome.blocked_by is None
    other = raised_outcome(Context(facts=bench_facts(None)), raised(error), "mps:1")
    assert other.summary.startswith("the matmul step " + VM.format(device="mps:1") + " (")


def test_an_oom_with_zero_bytes_allocated_is_the_vm_rows_own_words() -> None:
    error = OOM.format(a="0 bytes", o="0 bytes", m="7.93 GB", r="256 bytes")
    outcome = raised_outcome(Context(facts=bench_facts(None)), raised(error), "mps")
    assert (outcome.status, outcome.summary) == (Status.FAIL, "the matmul step " + VM.format(device="mps"))
    assert (outcome.details, outcome.fix) == ((f"RuntimeError: {error}",), VM_FIX)


# ---- CUDA claimed where the host shows no NVIDIA driver --------------------------------------------------


def test_cuda_claimed_without_a_driver_on_the_host_fails_with_the_command_that_shows_the_driver() -> None:
    facts = _linux(replace(CUDA, cuda_devices=[H100]), CUDA_SMOKE)
    facts.host.nvidia_driver_seen = False
    outcome = REGISTRY["cuda"].run(Context(facts=facts))
    assert outcome.status is Status.FAIL
    assert outcome.summary == (
        "the target reports CUDA 13.0: 1 device: NVIDIA H100 80GB HBM3 (79.6 GiB), but this host shows no NVIDIA "
        "driver (no /proc/driver/nvidia, no nvidia-smi on PATH, no libcuda): the two disagree, so CUDA is not "
        "counted as working"
    )
    assert outcome.fix == Remediation(
        "Check that the driver is loaded here and that --python runs on this machine.", ("nvidia-smi",)
    )
    assert outcome.details == ()


# ---- an Intel Mac: the last torch, with numpy's pin or the Pythons it has wheels for ---------------------


def intel_chip(version: str | None) -> Outcome:
    host = mac_host({**rec.SYSCTL_INTEL, **PHYSICAL}, rec.SW_VERS_14_5)
    info = interpreter(rec.ROSETTA, archs=("x86_64",), version=version)
    return REGISTRY["chip"].run(Context(facts=facts(host, info, torch_facts(LAST))))


INTEL_SUMMARY = (
    f"Intel Mac ({rec.SYSCTL_INTEL['machdep.cpu.brand_string']}): torch has no macOS x86_64 wheels after {LAST}, "
    "and MPS on AMD GPUs is no longer supported by PyTorch; MPS is available here (device name not reported), "
    "unofficially"
)


def test_an_intel_mac_with_a_python_the_last_torch_has_a_wheel_for_gets_the_pins() -> None:
    assert releases.release_facts(LAST, "x86_64").numpy_modules == ("numpy.core._multiarray_umath",)  # numpy 1.x
    for version in ("3.11.9", None):  # a Python the wheels cover, or one not reported
        assert intel_chip(version) == Outcome(
            Status.WARN,
            INTEL_SUMMARY,
            (),
            Remediation(
                f"Use a Mac with Apple silicon for MPS; on this Mac, torch {LAST} is the last release and needs "
                "numpy<2 (it was built against numpy 1.x).",
                (f"{PYTHON} -m pip install torch=={LAST} 'numpy<2'",),
            ),
        )


def test_an_intel_mac_with_a_python_the_last_torch_has_no_wheel_for_is_told_which_pythons() -> None:
    minors = sorted(int(tag[3:]) for tag in releases.release_facts(LAST, "x86_64").install if tag[3:].isdigit())
    assert intel_chip("3.13.1") == Outcome(
        Status.WARN,
        INTEL_SUMMARY,
        (),
        Remediation(
            f"Use a Mac with Apple silicon for MPS; on this Mac, torch {LAST}, the last release, has no wheel for "
            f"Python 3.13: it needs Python 3.{minors[0]} - 3.{minors[-1]}.",
            (f"{PYTHON} -c 'import sys; print(sys.version)'",),
        ),
    )


# ---- torch 2.2 on macOS 14.4 and later: silently wrong results -----------------------------------------------


def macos_check(arch: dict[str, str], archs: tuple[str, ...]) -> Outcome:
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_14_5)
    info = interpreter(arch, archs=archs, translated=None)
    return REGISTRY["macos-version"].run(Context(facts=facts(host, info, torch_facts("2.2.2"))))


def test_torch_2_2_on_macos_14_5_is_upgraded_on_arm64_and_run_on_the_cpu_on_x86_64() -> None:
    assert macos_check(rec.NATIVE, ("arm64",)) == Outcome(
        Status.FAIL,
        "torch 2.2.2 on macOS 14.5 (23F79) gives silently wrong results on MPS (pytorch/pytorch#122016)",
        (),
        Remediation("Upgrade torch to 2.3 or later.", (f"{PYTHON} -m pip install --upgrade 'torch>=2.3'",)),
        cause="metal-bug-fixed-later",  # a torch bug macOS 14.4 exposed, fixed in 2.3 (round 46): not an old macOS
    )
    assert macos_check(rec.ROSETTA, ("x86_64",)) == Outcome(
        Status.FAIL,
        "torch 2.2.2 on macOS 14.5 (23F79) gives silently wrong results on MPS (pytorch/pytorch#122016), and "
        f"torch {LAST} is the last release for an x86_64 Mac",
        (),
        Remediation(
            "Run on the CPU device on this Mac (or use a Mac with Apple silicon, where torch 2.3+ installs).",
            ("mpscheck doctor --require none",),
        ),
    )


# ---- a conda env of Intel packages: which conda made it, and the env to make instead ------------------------

PREFIX = "/Users/dev/miniconda3/envs/ml"


def conda_cause(env: dict[str, str], **changes: object) -> tuple[str, Remediation]:
    info = interpreter(rec.ROSETTA, archs=("x86_64",), conda_prefix=PREFIX, conda_subdir="osx-64", env=env)
    info = replace(info, **changes)
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_14_5)
    return rosetta_cause(Context(facts=facts(host, info, torch_facts("2.2.2"))), info)


def recreate(new_env: str, python: str) -> Remediation:
    return Remediation(
        "Recreate the env with arm64 packages and pin its subdir so it stays arm64.",
        (
            f"CONDA_SUBDIR=osx-arm64 conda create -n {new_env} python={python}",
            f"conda activate {new_env} && conda config --env --set subdir osx-arm64",
            "python -m pip install torch",
        ),
    )


def test_an_env_of_intel_packages_is_recreated_under_its_own_name_with_arm64() -> None:
    said = f"the conda env {PREFIX} was created with Intel (osx-64) packages"
    assert conda_cause({}) == (said, recreate("ml-arm64", "3.11"))
    assert conda_cause({"CONDA_DEFAULT_ENV": "vision"}) == (said, recreate("vision-arm64", "3.11"))
    assert conda_cause({"CONDA_DEFAULT_ENV": "base"}) == (said, recreate("torch-arm64", "3.11"))
    assert conda_cause({}, version="") == (said, recreate("ml-arm64", "3.12"))  # no version: 3.12
    assert conda_cause({}, conda_base_archs=["arm64", "x86_64"]) == (said, recreate("ml-arm64", "3.11"))


def test_an_env_made_by_an_intel_conda_is_fixed_with_the_arm64_miniforge() -> None:
    env = {"CONDA_PYTHON_EXE": "/opt/anaconda3/bin/python"}
    said, remedy = conda_cause(env, conda_base_archs=["x86_64"])
    assert said == f"an Intel (x86_64) Anaconda/Miniconda install (/opt/anaconda3) made the env {PREFIX}"
    assert remedy == Remediation(
        "Install the arm64 Miniforge and recreate the env with it (the Intel conda can only make osx-64 envs by "
        "default).",
        (
            "curl -LO https://github.com/conda-forge/miniforge/releases/latest/download/Miniforge3-MacOSX-arm64.sh "
            "&& bash Miniforge3-MacOSX-arm64.sh",
            "~/miniforge3/bin/conda create -n ml-arm64 python=3.11",
            "conda activate ml-arm64 && python -m pip install torch",
        ),
    )
    said, _ = conda_cause({}, conda_base_archs=["x86_64"])
    assert said == f"an Intel (x86_64) Anaconda/Miniconda install (conda) made the env {PREFIX}"
