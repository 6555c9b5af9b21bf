"""Fact sets that stand for real situations, built from the recorded outputs in recorded.py.

Host facts go through the real host probe (``probe_host``) fed with recorded ``sysctl`` /
``sw_vers`` / ``system_profiler`` output, so the parsers run too. Target facts are what
the agent (probes/agent/) emits, written as data. Paths such as /Users/dev/... are illustrative: they are not
output of a Mac, and no check reads more from them than their prefix (/usr/local, conda).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mpscheck.checks import DOCTOR, checks_for
from mpscheck.facts import (
    CudaDevice,
    Facts,
    HostFacts,
    InterpreterFacts,
    ProbeRun,
    SmokeFacts,
    SmokeStep,
    TargetFacts,
    TorchFacts,
)
from mpscheck.probes.host import probe_host
from mpscheck.probes.process import Completed
from tests import recorded as rec

# kern.hv_vmm_present is 0 on a physical Mac and 1 in a VM (macadmins/nudge#621, munki/munki-facts#34).
PHYSICAL = {"kern.hv_vmm_present": "0"}


def mac_host(sysctl: dict[str, str], sw_vers: str | None, displays: str | None = None) -> HostFacts:
    """HostFacts as the real probe makes them from recorded command output."""

    def run(argv: Any, timeout: float) -> Completed:
        outputs = {"sw_vers": sw_vers, "system_profiler": displays}
        text = outputs.get(argv[0])
        if text is None:
            return Completed(tuple(argv), None, "", "", 0.0, start_error="not recorded")
        return Completed(tuple(argv), 0, text, "", 0.01)

    host = probe_host(system="Darwin", sysctl=sysctl.get, run=run)
    host.machine, host.release = "arm64", ""  # mpscheck's own process; the probe read this Linux box's
    host.clang_version = host.cmake_version = None
    return host


def linux_host() -> HostFacts:
    return HostFacts(system="Linux", release="6.8.0", machine="x86_64", cpu_count=16, memory_bytes=128 * 1024**3)


def interpreter(
    arch: dict[str, str] = rec.NATIVE,
    mac_ver: str = "14.5",
    executable: str = "/Users/dev/.venvs/torch/bin/python",
    translated: int | None = 0,
    archs: tuple[str, ...] = ("arm64",),
    env: dict[str, str] | None = None,
    packages: dict[str, str | None] | None = None,
    **extra: Any,
) -> InterpreterFacts:
    fields = {
        "executable": executable,
        "real_executable": extra.pop("real_executable", executable),
        "version": extra.pop("version", "3.11.9"),
        "implementation": "CPython",
        "machine": arch["machine"],
        "processor": arch["processor"],
        "platform": extra.pop("platform", f"macOS-{mac_ver}-{arch['machine']}-{arch['processor']}-64bit"),
        "mac_ver": mac_ver,
        "proc_translated": translated,
        "binary_archs": list(archs),
        "prefix": extra.pop("prefix", "/Users/dev/.venvs/torch"),
        "env": {"PYTORCH_ENABLE_MPS_FALLBACK": "1"} if env is None else env,
        "packages": packages or {},
        "home": "/Users/dev",
    }
    fields.update(extra)
    return InterpreterFacts(**fields)


def torch_facts(version: str = "2.5.1", available: bool = True, **extra: Any) -> TorchFacts:
    fields: dict[str, Any] = {
        "installed": True,
        "version": version,
        "location": "/Users/dev/.venvs/torch/lib/python3.11/site-packages/torch",
        "import_seconds": 1.2,
        "mps_built": True,
        "mps_available": available,
        "cuda_built": None,
        "cuda_available": False,
    }
    fields.update(extra)
    return TorchFacts(**fields)


def quick_smoke(device: str | None = "mps", failing: SmokeStep | None = None) -> SmokeFacts:
    steps = [
        SmokeStep("allocate", "ran", 0.02, {"elements": 4096, "mismatches": 0, "tensor_device": f"{device}:0"}),
        SmokeStep("elementwise", "ran", 0.05, {"max_relative_error": {"add": 0.0}}),
    ]
    if failing is not None:
        steps = [failing]
    reason = "torch.backends.mps.is_available() is True" if device == "mps" else "neither MPS nor CUDA is available"
    return SmokeFacts(requested="gpu", device=device, reason=reason, mode="quick", steps=steps)


def facts(
    host: HostFacts,
    interp: InterpreterFacts | None,
    torch: TorchFacts | None,
    smoke: SmokeFacts | None = None,
    run: ProbeRun | None = None,
    workload: str = "quick",
) -> Facts:
    target = TargetFacts(
        requested=interp.executable if interp else "/Users/dev/.venvs/torch/bin/python",
        chosen_because="--python",
        run=run or ProbeRun(status="ok", workload=workload, returncode=0, seconds=2.0),
        interpreter=interp,
        torch=torch,
        smoke=smoke,
    )
    return Facts(mpscheck_version="test", collected_at="2026-11-22T00:00:00+00:00", host=host, target=target)


@dataclass
class Scenario:
    name: str
    facts: Facts
    listed: dict[str, str]  # the statuses this situation is about; every other one is derived (see expected)
    require: str = "mps"
    exit_code: int = 0
    mentions: dict[str, list[str]] = field(default_factory=dict)  # id -> words its summary or fix must hold

    @property
    def expected(self) -> dict[str, str]:
        """Every doctor check's status: as listed, else what its declaration implies here, else pass.

        Declared prerequisites decide the rest: a check meant for another OS is skipped, and one whose
        declared need failed (or was skipped because of a failure) is skipped too. So adding a check
        touches no row that is not about it.
        """
        on_macos = self.facts.host.system == "Darwin"
        out: dict[str, str] = {}
        blocked: set[str] = set()
        for item in checks_for(DOCTOR):
            if item.id in self.listed:
                out[item.id] = self.listed[item.id]
            elif (item.where == "macos" and not on_macos) or (item.where == "elsewhere" and on_macos):
                out[item.id] = "skip"
                continue
            elif any(out.get(need) == "fail" or need in blocked for need in item.needs):
                out[item.id] = "skip"
            else:
                out[item.id] = "pass"
            if out[item.id] == "skip" and any(out.get(n) == "fail" or n in blocked for n in item.needs):
                blocked.add(item.id)
        return out


def expect(**changes: str) -> dict[str, str]:
    """The statuses a scenario is about; interpreters without Lightning/transformers skip frameworks."""
    out = {"frameworks": "skip"}
    out.update({key.replace("_", "-"): value for key, value in changes.items()})
    return out


def _linux(torch: TorchFacts, smoke: SmokeFacts | None) -> Facts:
    interp = interpreter(
        rec.NATIVE,
        mac_ver="",
        executable="/opt/venv/bin/python",
        translated=None,
        archs=(),
        env={},
        machine="x86_64",
        processor="x86_64",
        platform="Linux-6.8.0-x86_64-with-glibc2.39",
    )
    return facts(linux_host(), interp, torch, smoke)


# NVIDIA H100 as the device tool's machine reports it (KINDS.md: "NVIDIA H100 80GB HBM3 with 81559 MiB").
H100 = CudaDevice(name="NVIDIA H100 80GB HBM3", memory_bytes=81559 * 1024**2, capability="9.0")
CUDA_SMOKE = SmokeFacts(
    requested="gpu",
    device="cuda",
    reason="MPS is not available and CUDA is",
    mode="quick",
    steps=quick_smoke("cuda").steps,
)


def scenarios() -> list[Scenario]:
    m1 = mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_14_5, rec.DISPLAYS_M1)
    return [
        Scenario(
            "healthy native M1",
            facts(m1, interpreter(), torch_facts(mps_device_name="Apple M1"), quick_smoke()),
            expect(silent_bugs="pass"),
            mentions={
                "chip": ["Apple M1", "7-core GPU", "4P+4E"],
                # no release fixes the rows that apply to 2.5.1 on macOS 14.5: what to avoid, no upgrade
                "silent-bugs": ["2 known", "none is fixed in a release yet", "keep off MPS", "bmm"],
            },
        ),
        Scenario(
            "healthy native M2 Pro, fallback unset, Lightning agrees",
            facts(
                mac_host({**rec.SYSCTL_M2_PRO, **PHYSICAL}, rec.SW_VERS_14_4_1_RSR),
                interpreter(mac_ver="14.4.1", env={}, packages={"lightning": "2.4.0"}),
                torch_facts("2.10.0", mps_device_name="Apple M2 Pro"),
                quick_smoke(),
            ),
            expect(silent_bugs="pass", mps_fallback_env="warn", frameworks="pass"),
            mentions={"chip": ["Apple M2 Pro", "16 GiB"], "mps-fallback-env": ["export PYTORCH_ENABLE_MPS_FALLBACK=1"]},
        ),
        Scenario(
            "healthy native M3 Max with torch's core count and transformers",
            facts(
                mac_host({**rec.SYSCTL_M3_MAX, **PHYSICAL}, rec.SW_VERS_15_6, rec.DISPLAYS_M3_MAX),
                interpreter(mac_ver="15.6", packages={"transformers": "4.57.0", "accelerate": "1.15.0"}),
                torch_facts("2.9.0", mps_device_name="Apple M3 Max", mps_core_count=40),
                quick_smoke(),
            ),
            expect(silent_bugs="pass", frameworks="pass"),
            mentions={"chip": ["40-core GPU"], "mps-available": ["Apple M3 Max", "40 GPU cores"]},
        ),
        Scenario(
            "healthy native M4 on macOS 15.6 with torch 2.13",
            facts(
                mac_host({**rec.SYSCTL_M4, **PHYSICAL}, rec.SW_VERS_15_6, rec.DISPLAYS_M4),
                interpreter(mac_ver="15.6"),
                torch_facts("2.13.0", mps_device_name="Apple M4"),
                quick_smoke(),
            ),
            expect(silent_bugs="warn"),
            mentions={
                "chip": ["Apple M4", "10-core GPU"],
                "macos-version": ["14.0"],
                # knowledge/silent_bugs.json: pytorch/pytorch#188756, fixed in 2.14.0 by PR #187109
                "silent-bugs": ["6 known", "mps-embedding-over-2pow31", "fixed in torch 2.14.0", "'torch>=2.14.0'"],
            },
        ),
        Scenario(
            "Rosetta via an Intel Miniconda: torch 2.2.2 says available, Lightning will not",
            facts(
                mac_host({**rec.SYSCTL_M3_MAX, **PHYSICAL}, rec.SW_VERS_14_4_1_RSR, rec.DISPLAYS_M3_MAX),
                interpreter(
                    rec.ROSETTA,
                    mac_ver="14.4.1",
                    translated=1,
                    archs=("x86_64",),
                    executable="/Users/dev/miniconda3/envs/ml/bin/python",
                    conda_prefix="/Users/dev/miniconda3/envs/ml",
                    conda_subdir="osx-64",
                    conda_base_archs=["x86_64"],
                    env={"CONDA_DEFAULT_ENV": "ml", "CONDA_PYTHON_EXE": "/Users/dev/miniconda3/bin/python"},
                    packages={"lightning": "2.2.0"},
                ),
                torch_facts("2.2.2", mps_device_name=None),
                quick_smoke(),
            ),
            expect(
                silent_bugs="pass", python_arch="fail", macos_version="skip", mps_fallback_env="warn", frameworks="warn"
            ),
            exit_code=1,
            mentions={
                "python-arch": ["Intel (x86_64) Anaconda/Miniconda", "Miniforge3-MacOSX-arm64.sh", "-n ml-arm64"],
                "frameworks": ["'i386'", "MPSAccelerator can not run"],
            },
        ),
        Scenario(
            "conda env built for osx-64 inside an arm64 Miniforge",
            facts(
                m1,
                interpreter(
                    rec.ROSETTA,
                    translated=1,
                    archs=("x86_64",),
                    executable="/Users/dev/miniforge3/envs/old/bin/python",
                    conda_prefix="/Users/dev/miniforge3/envs/old",
                    conda_subdir="osx-64",
                    conda_base_archs=["arm64"],
                    env={"CONDA_DEFAULT_ENV": "old", "PYTORCH_ENABLE_MPS_FALLBACK": "1"},
                ),
                TorchFacts(installed=False),
            ),
            expect(
                silent_bugs="skip",
                python_arch="fail",
                torch_import="skip",
                mps_built="skip",
                mps_available="skip",
                smoke="skip",
            ),
            exit_code=1,
            mentions={
                "python-arch": [
                    "CONDA_SUBDIR=osx-arm64 conda create -n old-arm64 python=3.11",
                    "conda config --env --set subdir osx-arm64",
                ]
            },
        ),
        Scenario(
            "universal2 python.org Python started from an IDE running under Rosetta",
            facts(
                m1,
                interpreter(
                    rec.ROSETTA,
                    translated=1,
                    archs=("x86_64", "arm64"),
                    executable="/Library/Frameworks/Python.framework/Versions/3.11/bin/python3",
                    env={"__CFBundleIdentifier": "com.jetbrains.pycharm", "PYTORCH_ENABLE_MPS_FALLBACK": "1"},
                ),
                torch_facts("2.2.2", available=False, mps_error=rec.MPS_TOO_LOW_12_3),
            ),
            expect(silent_bugs="skip", python_arch="fail", macos_version="skip", mps_available="skip", smoke="skip"),
            exit_code=1,
            mentions={"python-arch": ["com.jetbrains.pycharm", "arch -arm64 /Library/Frameworks/Python.framework"]},
        ),
        Scenario(
            "macOS 12.7.6 with torch 2.5.1 (pytorch/pytorch#139425)",
            facts(
                mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_12_7_6, rec.DISPLAYS_M1),
                interpreter(mac_ver="12.7.6"),
                torch_facts("2.5.1", available=False, mps_error=rec.MPS_TOO_LOW_12_3),
            ),
            expect(silent_bugs="skip", macos_version="fail", mps_available="skip", smoke="skip"),
            exit_code=1,
            mentions={"macos-version": ["older than macOS 13.0", "'torch<2.5'"]},
        ),
        Scenario(
            "macOS 13.7.4 with a torch 2.10 nightly (pytorch/pytorch#164943)",
            facts(
                mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_13_7_4, rec.DISPLAYS_M1),
                interpreter(mac_ver="13.7.4", platform=rec.PLATFORM_NATIVE_13_7_4),
                torch_facts("2.10.0.dev20251008", available=False, mps_error=rec.MPS_TOO_LOW_13_0),
            ),
            expect(silent_bugs="skip", macos_version="fail", mps_available="skip", smoke="skip"),
            exit_code=1,
            mentions={"macos-version": ["older than macOS 14.0", "'torch<2.9'", "the facts of 2.10.0 apply"]},
        ),
        Scenario(
            "Intel Mac, AMD GPU, torch 2.2.2 (no smoke run)",
            facts(
                mac_host(rec.SYSCTL_INTEL, rec.SW_VERS_13_5, None),
                interpreter(
                    {"machine": "x86_64", "processor": "i386"}, mac_ver="13.5", translated=0, archs=("x86_64",)
                ),
                torch_facts("2.2.2"),
                workload="none",
            ),
            # torch 2.2.2's binary has no macOS-14 gate for bfloat16/complex (that text is in 2.3 - 2.8 only)
            expect(silent_bugs="pass", chip="warn", virtual_machine="skip", macos_version="pass", smoke="skip"),
            mentions={"chip": ["Intel Mac", "2.2.2", "unofficially", "numpy<2"]},
        ),
        Scenario(
            "GitHub-hosted macOS arm64 runner: is_available() True, first allocation fails",
            facts(
                mac_host(rec.SYSCTL_VM, rec.SW_VERS_15_7_9, None),
                interpreter(mac_ver="15.7.9", env={"CI": "true", "GITHUB_ACTIONS": "true"}),
                torch_facts("2.5.1", mps_device_name="Apple Paravirtual device"),
                quick_smoke(failing=SmokeStep("allocate", "raised", 0.4, {}, rec.VM_ALLOCATION_ERROR, "RuntimeError")),
            ),
            expect(
                silent_bugs="warn", virtual_machine="warn", mps_available="warn", mps_fallback_env="warn", smoke="fail"
            ),
            exit_code=1,
            mentions={"smoke": ["paravirtual GPU", "--require none"], "virtual-machine": ["VirtualMac2,1"]},
        ),
        Scenario(
            "sandbox with no Metal device on macOS 26.2 (openai/codex#10199)",
            facts(
                mac_host(
                    {"machdep.cpu.brand_string": "Apple M3", "hw.optional.arm64": "1", **PHYSICAL}, rec.SW_VERS_26_2
                ),
                interpreter(mac_ver="26.2"),
                torch_facts("2.10.0", available=False, mps_error=rec.MPS_TOO_LOW_14_0),
            ),
            expect(mps_available="fail", smoke="skip"),
            exit_code=1,
            mentions={"mps-available": ["sandbox", "does not mean the OS is too old"]},
        ),
        Scenario(
            "torch not installed, macOS 13.5: the install command is pinned",
            facts(
                mac_host({**rec.SYSCTL_M1, **PHYSICAL}, rec.SW_VERS_13_5, rec.DISPLAYS_M1),
                interpreter(mac_ver="13.5"),
                TorchFacts(installed=False),
            ),
            expect(macos_version="warn", torch_import="fail", mps_built="skip", mps_available="skip", smoke="skip"),
            exit_code=1,
            mentions={"torch-import": ["-m pip install 'torch<2.9'", "resolves to torch 2.11.0"]},
        ),
        Scenario(
            "torch import fails: x86_64 wheel under an arm64 Python (invoke-ai/InvokeAI#2152)",
            facts(m1, interpreter(), TorchFacts(installed=True, import_error=rec.WRONG_ARCH_IMPORT)),
            # macOS 14.5: a reinstall would resolve to torch 2.15.0, which states macOS 15.0+ (its own binary)
            expect(macos_version="warn", torch_import="fail", mps_built="skip", mps_available="skip", smoke="skip"),
            exit_code=1,
            mentions={"torch-import": ["have x86_64, need arm64", "--force-reinstall --no-cache-dir torch"]},
        ),
        Scenario(
            "torch built without MPS",
            facts(m1, interpreter(), torch_facts("2.5.1", mps_built=False, available=False)),
            expect(mps_built="fail", mps_available="skip", smoke="skip"),
            exit_code=1,
        ),
        Scenario(
            "invalid fallback and watermark values",
            facts(
                m1,
                interpreter(
                    env={
                        "PYTORCH_ENABLE_MPS_FALLBACK": "true",
                        "PYTORCH_MPS_HIGH_WATERMARK_RATIO": "abc",
                        "PYTORCH_MPS_ENABLE_FALLBACK": "1",
                    }
                ),
                torch_facts(mps_device_name="Apple M1"),
                quick_smoke(),
            ),
            expect(silent_bugs="pass", mps_fallback_env="fail", mps_watermark_env="fail", mps_env_vars="warn"),
            exit_code=1,
            mentions={
                "mps-watermark-env": ["reads it as 0", "no memory limit"],
                "mps-env-vars": ["did you mean PYTORCH_ENABLE_MPS_FALLBACK"],
            },
        ),
        Scenario(
            "Python in old-SDK compatibility mode sees macOS 10.16",
            facts(m1, interpreter(mac_ver="10.16"), torch_facts(mps_device_name="Apple M1"), quick_smoke()),
            expect(silent_bugs="pass", python_macos_compat="warn"),
            mentions={"python-macos-compat": ["10.16", "SYSTEM_VERSION_COMPAT=0"]},
        ),
        Scenario(
            "Linux with CUDA, --require mps",
            _linux(
                torch_facts(
                    "2.11.0+cu130",
                    mps_built=False,
                    available=False,
                    mps_error=rec.LINUX_NOT_BUILT,
                    cuda_built="13.0",
                    cuda_available=True,
                    cuda_devices=[H100],
                ),
                CUDA_SMOKE,
            ),
            {"platform": "fail"},
            exit_code=1,
            mentions={"platform": ["NVIDIA H100 80GB HBM3", "--require gpu"], "cuda": ["NVIDIA H100 80GB HBM3"]},
        ),
        Scenario(
            "Linux with CUDA, --require gpu",
            _linux(
                torch_facts(
                    "2.11.0+cu130",
                    mps_built=False,
                    available=False,
                    cuda_built="13.0",
                    cuda_available=True,
                    cuda_devices=[H100],
                ),
                CUDA_SMOKE,
            ),
            {"platform": "fail"},
            require="gpu",
        ),
        Scenario(
            "Linux CPU only, --require gpu",
            _linux(
                torch_facts("2.13.0+cpu", mps_built=False, available=False, mps_error=rec.LINUX_NOT_BUILT),
                quick_smoke(device=None),
            ),
            {"platform": "fail", "cuda": "fail", "smoke": "skip"},
            require="gpu",
            exit_code=1,
            mentions={"cuda": ["CPU-only build", "--force-reinstall --no-cache-dir torch"]},
        ),
        Scenario(
            "Linux without torch: torch-import still says so, with this platform's command",
            _linux(TorchFacts(installed=False), None),
            {"platform": "fail", "torch-import": "fail", "cuda": "skip", "smoke": "skip"},
            exit_code=1,
            mentions={"torch-import": ["-m pip install --index-url https://download.pytorch.org/whl/cpu torch"]},
        ),
        Scenario(
            "Linux CPU only, --require none",
            _linux(torch_facts("2.13.0+cpu", mps_built=False, available=False), quick_smoke(device=None)),
            {"platform": "fail", "cuda": "fail", "smoke": "skip"},
            require="none",
        ),
    ]
