"""The machine, interpreter and torch checks on variations of recorded facts, one fact changed at a time.

Each test starts from a recorded situation of tests/scenarios.py (a healthy M1, the Linux box of
the CUDA scenarios) and changes the one fact a rule reads, then names the status, summary and
command the finding must hold.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from mpscheck.checks.diagnose import diagnose
from mpscheck.facts import CudaDevice, Facts, ProbeRun, TorchFacts
from mpscheck.model import Finding, Remediation, Requirement, Status
from tests import recorded as rec
from tests.scenarios import H100, PHYSICAL, _linux, facts, interpreter, mac_host, quick_smoke, torch_facts

PY = "/Users/dev/.venvs/torch/bin/python"
LINUX_PY = "/opt/venv/bin/python"


def m1(sysctl: dict[str, str] | None = None, sw_vers: str = rec.SW_VERS_14_5, **torch_changes: Any) -> Facts:
    host = mac_host({**rec.SYSCTL_M1, **PHYSICAL, **(sysctl or {})}, sw_vers, rec.DISPLAYS_M1)
    torch = torch_facts(**{"mps_device_name": "Apple M1", **torch_changes})
    return facts(host, interpreter(), torch, quick_smoke())


def linux(torch: TorchFacts | None) -> Facts:
    return _linux(torch, None)


def doctor(facts_: Facts) -> dict[str, Finding]:
    return {f.id: f for f in diagnose(facts_, require=Requirement.MPS).findings}


def show(finding: Finding) -> tuple[str, str, tuple[str, ...]]:
    return finding.status.value, finding.summary, finding.fix.commands if finding.fix else ()


# ---- platform and CUDA off macOS ------------------------------------------------------------------

CUDA = torch_facts("2.11.0+cu130", mps_built=False, available=False, cuda_built="13.0", cuda_available=True)
NO_MPS = "Linux x86_64: MPS cannot be used here, it needs macOS on Apple silicon; "
REPORT_ONLY = "mpscheck doctor --require none"


def test_platform_and_cuda_with_two_cuda_devices() -> None:
    torch = replace(CUDA, cuda_devices=[H100, CudaDevice("NVIDIA A100", None)])
    found = doctor(linux(torch))
    devices = "CUDA 13.0: 2 devices: NVIDIA H100 80GB HBM3 (79.6 GiB), NVIDIA A100 (unknown)"
    assert show(found["platform"]) == ("fail", NO_MPS + devices, ("mpscheck doctor --require gpu",))
    assert show(found["cuda"]) == ("pass", devices, ())
    one = doctor(linux(replace(CUDA, cuda_devices=[H100])))
    assert one["cuda"].summary == "CUDA 13.0: 1 device: NVIDIA H100 80GB HBM3 (79.6 GiB)"


def test_a_cuda_build_that_sees_no_device() -> None:
    torch = replace(CUDA, cuda_available=False, cuda_error="CUDA driver initialization failed")
    found = doctor(linux(torch))
    words = "torch 2.11.0+cu130 is a CUDA 13.0 build but sees no CUDA device"
    assert show(found["platform"]) == ("fail", NO_MPS + words, (REPORT_ONLY,))
    assert show(found["cuda"]) == ("fail", words, ("nvidia-smi",))
    assert found["cuda"].details == ("torch says: CUDA driver initialization failed",)
    assert found["cuda"].fix is not None and found["cuda"].fix.summary == (
        "Check that the NVIDIA driver sees a GPU and CUDA_VISIBLE_DEVICES does not hide it."
    )
    available_but_empty = doctor(linux(replace(CUDA, cuda_devices=[])))
    assert available_but_empty["cuda"].status is Status.FAIL
    assert available_but_empty["cuda"].details == ()


def test_a_cpu_only_torch_on_linux() -> None:
    found = doctor(linux(torch_facts("2.13.0+cpu", mps_built=False, available=False)))
    words = "CPU only (torch 2.13.0+cpu is a CPU-only build)"
    assert show(found["platform"]) == ("fail", NO_MPS + words, (REPORT_ONLY,))
    assert show(found["cuda"]) == (
        "fail",
        words,
        (f"{LINUX_PY} -m pip install --force-reinstall --no-cache-dir torch", "nvidia-smi"),
    )


@pytest.mark.parametrize(
    ("torch", "words", "cuda"),
    [
        (
            TorchFacts(installed=True, import_error="ImportError: libcudnn.so.9: cannot open shared object file"),
            "torch could not be imported, so CUDA was not checked",
            "skip",
        ),
        (TorchFacts(installed=False), "torch is not installed, so CUDA was not checked", "skip"),
        (torch_facts("2.13.0", cuda_available=None), "CUDA unknown", "skip"),
    ],
)
def test_platform_says_why_cuda_is_unknown(torch: TorchFacts, words: str, cuda: str) -> None:
    found = doctor(linux(torch))
    assert show(found["platform"]) == ("fail", NO_MPS + words, (REPORT_ONLY,))
    assert found["cuda"].status.value == cuda
    if torch.cuda_available is None and torch.installed and not torch.import_error:
        assert found["cuda"].summary == "not determined: torch did not report on CUDA"


def test_platform_when_torch_was_not_probed_or_the_os_is_unknown() -> None:
    unprobed = linux(None)
    unprobed.target.run = ProbeRun(status="timeout", message="no answer within 60 s")
    assert doctor(unprobed)["platform"].summary == (
        NO_MPS + "torch was not probed (no answer within 60 s), so CUDA is unknown"
    )
    unprobed.target.run = ProbeRun(status="not-found")
    assert doctor(unprobed)["platform"].summary == NO_MPS + "torch was not probed (not-found), so CUDA is unknown"
    unknown = m1()
    unknown.host.system = ""
    assert show(doctor(unknown)["platform"]) == ("skip", "operating system not determined", ())
    bare = m1()
    bare.host.machine = ""
    assert doctor(bare)["platform"].summary == "macOS (architecture unknown): MPS applies here"


# ---- the chip, and virtualisation -------------------------------------------------------------------


def test_chip_description_uses_what_is_known() -> None:
    host_only = m1({"hw.memsize": str(8 * 1024**3)})
    host_only.host.performance_cores = None
    host_only.host.cpu_count = 8
    host_only.host.gpu_cores = None
    host_only.target.torch = torch_facts(mps_core_count=8)
    assert doctor(host_only)["chip"].summary == "Apple M1, 8-core GPU, 8 CPU cores, 8 GiB unified memory"
    bare = m1()
    bare.host.performance_cores = bare.host.efficiency_cores = bare.host.cpu_count = None
    bare.host.memory_bytes = bare.host.gpu_cores = None
    bare.host.model = "Macmini9,1"
    bare.target.torch = None
    chip = doctor(bare)["chip"]
    assert (chip.status, chip.summary, chip.details[0]) == (Status.PASS, "Apple M1", "hw.model: Macmini9,1")
    assert "pytorch/pytorch#195163" in chip.details[1]  # the M1/M2 large inner dimension hazard
    vm = m1({"kern.hv_vmm_present": "1"})
    assert doctor(vm)["chip"].summary.startswith("Apple M1 (virtual), 7-core GPU")
    named = m1({"machdep.cpu.brand_string": "Apple M1 (Virtual)", "kern.hv_vmm_present": "1"})
    assert doctor(named)["chip"].summary.startswith("Apple M1 (Virtual), 7-core GPU")


@pytest.mark.parametrize(
    ("sysctl", "status", "summary"),
    [
        (
            {"machdep.cpu.brand_string": "", "hw.optional.arm64": "1"},
            "skip",
            "chip not determined (Apple silicon: hw.optional.arm64 = 1): no brand string",
        ),
        ({"machdep.cpu.brand_string": "", "hw.optional.arm64": ""}, "skip", "chip not determined: no brand string"),
        (
            {"machdep.cpu.brand_string": "Apple Z9"},
            "warn",
            "unrecognised chip 'Apple Z9': MPS needs Apple silicon",
        ),
        (
            {"machdep.cpu.brand_string": "", "hw.optional.arm64": "0"},
            "fail",
            "Intel Mac (model unknown; hw.optional.arm64 = 0): torch has no macOS x86_64 wheels after 2.2.2, "
            "and MPS on AMD GPUs is no longer supported by PyTorch",
        ),
    ],
)
def test_chip_not_recognised(sysctl: dict[str, str], status: str, summary: str) -> None:
    facts_ = m1(sysctl, available=False)
    chip = doctor(facts_)["chip"]
    assert (chip.status.value, chip.summary) == (status, summary)
    if status == "warn":
        assert chip.fix is not None
        assert chip.fix.commands == ("mpscheck doctor --format markdown --output mpscheck-report.md",)
    if status == "fail":
        assert chip.fix is not None
        assert chip.fix.commands == (f"{PY} -m pip install torch==2.2.2 'numpy<2'",)


def test_intel_mac_with_mps_is_a_warning_that_names_the_device() -> None:
    intel = m1({"machdep.cpu.brand_string": rec.SYSCTL_INTEL["machdep.cpu.brand_string"]}, mps_device_name=None)
    chip = doctor(intel)["chip"]
    assert chip.status is Status.WARN
    assert chip.summary.endswith("; MPS is available here (device name not reported), unofficially")
    named = m1({"machdep.cpu.brand_string": rec.SYSCTL_INTEL["machdep.cpu.brand_string"]}, mps_device_name="AMD Radeon")
    assert doctor(named)["chip"].summary.endswith("; MPS is available here (AMD Radeon), unofficially")


def test_virtual_machine_unknown_physical_or_virtual() -> None:
    unknown = m1()
    unknown.host.hypervisor = None
    unknown.host.errors["kern.hv_vmm_present"] = "sysctl: unknown oid"
    assert show(doctor(unknown)["virtual-machine"]) == ("skip", "not determined: sysctl: unknown oid", ())
    unknown.host.errors.clear()
    assert doctor(unknown)["virtual-machine"].summary == "not determined: kern.hv_vmm_present unreadable"
    vm = m1({"kern.hv_vmm_present": "1"})
    vm.host.model = None
    finding = doctor(vm)["virtual-machine"]
    assert show(finding) == (
        "warn",
        "macOS virtual machine (model unknown; a hypervisor present): its GPU is a paravirtual device, and "
        "Apple's Virtualization framework does not support MPS",
        (REPORT_ONLY,),
    )


# ---- torch: import, built, available ----------------------------------------------------------------

REINSTALL = f"{PY} -m pip install --force-reinstall --no-cache-dir torch"


def with_run(facts_: Facts, **run: Any) -> Facts:
    facts_.target.run = ProbeRun(**{"workload": "quick", **run})
    return facts_


def test_torch_import_failure_without_a_known_signature() -> None:
    error = "ImportError: cannot import name 'x' from 'torch._C'\n  more\n" + "y" * 2000
    found = doctor(m1_torch(TorchFacts(installed=True, import_error=error)))
    torch = found["torch-import"]
    assert show(torch) == (
        "fail",
        "import torch failed: ImportError: cannot import name 'x' from 'torch._C'",
        (REINSTALL,),
    )
    assert torch.details == (error[:1000],)
    assert torch.fix is not None and torch.fix.summary == "Reinstall torch into this interpreter."


def test_torch_import_failure_of_the_wrong_architecture() -> None:
    torch = doctor(m1_torch(TorchFacts(installed=True, import_error=rec.WRONG_ARCH_IMPORT)))["torch-import"]
    assert torch.summary == (
        "import torch failed: torch's libraries do not match this Python (have x86_64, need arm64): "
        "the wheel was installed by a Python of the other architecture"
    )
    assert torch.details == (rec.WRONG_ARCH_IMPORT,)
    assert torch.fix is not None and torch.fix.commands == (REINSTALL,)


def m1_torch(torch: TorchFacts | None) -> Facts:
    facts_ = m1()
    facts_.target.torch = torch
    return facts_


def test_import_torch_dying_or_hanging() -> None:
    timeout = with_run(m1_torch(None), status="timeout", running_stage="torch", timeout=60.0, message="no answer")
    torch = doctor(timeout)["torch-import"]
    assert show(torch) == (
        "fail",
        "import torch did not finish within 60 s",
        ("mpscheck doctor --timeout 180", REINSTALL),
    )
    long = with_run(m1_torch(None), status="timeout", running_stage="torch", timeout=100.0)
    assert doctor(long)["torch-import"].fix.commands[0] == "mpscheck doctor --timeout 300"
    crashed = with_run(m1_torch(None), status="crashed", running_stage="torch", message="killed by SIGSEGV")
    assert show(doctor(crashed)["torch-import"]) == (
        "fail",
        "import torch crashed the interpreter: killed by SIGSEGV",
        (REINSTALL,),
    )
    bad_fallback = with_run(m1_torch(None), status="crashed", running_stage="torch", message="killed by SIGABRT")
    assert bad_fallback.target.interpreter is not None
    bad_fallback.target.interpreter.env = {"PYTORCH_ENABLE_MPS_FALLBACK": "yes"}
    torch = doctor(bad_fallback)["torch-import"]
    assert show(torch) == (
        "fail",
        "import torch died (killed by SIGABRT); PYTORCH_ENABLE_MPS_FALLBACK='yes': std::stoi throws "
        "std::invalid_argument on it while torch loads",
        ("export PYTORCH_ENABLE_MPS_FALLBACK=1",),
    )
    other_stage = with_run(m1_torch(None), status="failed", running_stage="interpreter", message="exited with 1")
    assert show(doctor(other_stage)["torch-import"]) == ("skip", "torch was not probed: exited with 1", ())
    no_message = with_run(m1_torch(None), status="bad-output")
    assert doctor(no_message)["torch-import"].summary == "torch was not probed: bad-output"


def test_torch_import_pass_names_version_time_and_location() -> None:
    torch = doctor(m1())["torch-import"]
    assert torch.summary == "torch 2.5.1 imports in 1.2 s"
    untimed = m1(import_seconds=None)
    assert doctor(untimed)["torch-import"].summary == "torch 2.5.1 imports"


def test_torch_not_installed_on_linux_with_an_nvidia_driver() -> None:
    facts_ = linux(TorchFacts(installed=False))
    facts_.host.nvidia_driver = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15"
    torch = doctor(facts_)["torch-import"]
    assert show(torch) == ("fail", f"torch is not installed in {LINUX_PY}", (f"{LINUX_PY} -m pip install torch",))
    assert torch.fix is not None and torch.fix.summary.startswith("Install torch into the interpreter you run (PyPI")


def test_torch_not_installed_on_a_current_mac() -> None:
    torch = doctor(m1_torch(TorchFacts(installed=False)))["torch-import"]
    # macOS 14.5: a plain install resolves to 2.15.0, whose MPS needs macOS 15 (knowledge table).
    assert show(torch) == ("fail", f"torch is not installed in {PY}", (f"{PY} -m pip install 'torch<2.15'",))
    assert torch.fix is not None and torch.fix.summary.startswith(
        "Install torch into the interpreter you run (torch<2.15"
    )


def test_mps_built_when_the_version_is_unknown() -> None:
    unknown = doctor(m1(version=None))
    assert show(unknown["mps-built"]) == (
        "pass",
        "torch.backends.mps.is_built() is True (torch version unknown)",
        (),
    )
    not_built = doctor(m1(version=None, mps_built=False, available=False))
    assert show(not_built["mps-built"]) == (
        "skip",
        "torch.backends.mps.is_built() is False (torch version unknown)",
        (),
    )
    not_reported = doctor(m1(mps_built=None))
    assert show(not_reported["mps-built"]) == ("skip", "not determined: torch was not imported", ())


def test_mps_available_not_reported() -> None:
    found = doctor(m1(available=None))
    assert show(found["mps-available"]) == ("skip", "not determined: torch was not imported", ())


def test_mps_unavailable_in_a_vm_or_where_the_cause_is_unknown() -> None:
    vm = m1({"kern.hv_vmm_present": "1"}, available=False, mps_error=rec.MPS_TOO_LOW_14_0)
    finding = doctor(vm)["mps-available"]
    assert show(finding) == (
        "fail",
        "no usable Metal device inside this virtual machine (torch's macOS wording does not mean the OS is too old)",
        (REPORT_ONLY,),
    )
    assert finding.details == (f"torch says: {rec.MPS_TOO_LOW_14_0}",)
    unknown_vm = m1(available=False)
    unknown_vm.host.hypervisor = None
    finding = doctor(unknown_vm)["mps-available"]
    assert finding.status is Status.FAIL
    assert finding.summary == (
        "torch sees no Metal device; whether this is a VM is unknown, so the cause is one of: a macOS older than "
        "this torch needs, a virtual machine, or a sandbox"
    )
    assert finding.details == ("torch gave no reason",)
    assert finding.fix is not None and finding.fix.commands == (
        "sw_vers -productVersion",
        f"{PY} -c 'import torch; print(torch.backends.mps.is_available())'",
    )
    unknown_os = m1(sw_vers="", available=False)
    finding = doctor(unknown_os)["mps-available"]
    assert finding.summary.startswith("torch sees no Metal device; whether this macOS is new enough is unknown")


def test_mps_available_on_a_paravirtual_device_is_a_warning() -> None:
    found = doctor(m1(mps_device_name="Apple Paravirtual device", mps_core_count=4))
    assert show(found["mps-available"]) == (
        "warn",
        "MPS reports available on 'Apple Paravirtual device': a VM's GPU, where allocations often fail",
        ("mpscheck smoke-test --device mps",),
    )
    named = doctor(m1(mps_device_name=None, mps_core_count=8))
    assert named["mps-available"].summary == "MPS available: device name not reported by this torch, 8 GPU cores"


# ---- macOS against the installed torch ----------------------------------------------------------------


def on_macos(macos: str | None, build: str | None = None, **torch_changes: Any) -> Facts:
    facts_ = m1(**torch_changes)
    facts_.host.macos_version, facts_.host.macos_build = macos, build
    return facts_


@pytest.mark.parametrize(
    ("version", "torch", "status", "summary", "fix"),
    [
        (
            "14.5",
            "2.2.0",
            "fail",
            "torch 2.2.0 on macOS 14.5 gives silently wrong results on MPS (pytorch/pytorch#122016)",
            (f"{PY} -m pip install --upgrade 'torch>=2.3'",),
        ),
        ("14.3", "2.2.2", "pass", "macOS 14.3 meets torch 2.2.2's floor of macOS 12.3", ()),
        ("14.4", "2.3.0", "pass", "macOS 14.4 meets torch 2.3.0's floor of macOS 12.3", ()),
        ("14.0", "2.10.0", "pass", "macOS 14.0 meets torch 2.10.0's floor of macOS 14.0", ()),
        (
            "13.7",
            "2.9.1",
            "fail",
            "macOS 13.7 is older than macOS 14.0, which torch 2.9.1 needs for MPS (torch then finds no MPS device)",
            ("softwareupdate --list", f"{PY} -m pip install 'torch<2.9'"),
        ),
        (
            "12.2",
            "2.4.1",
            "fail",
            "macOS 12.2 is older than macOS 12.3, which torch 2.4.1 needs for MPS (torch then finds no MPS device)",
            ("softwareupdate --list",),
        ),
        (
            "14.5",
            "1.11.0",
            "fail",
            "torch 1.11.0 predates MPS (it first shipped in torch 1.12): no MPS on any macOS",
            (f"{PY} -m pip install --upgrade 'torch<2.15'",),
        ),
        ("13.5", "1.12.0", "pass", "macOS 13.5 meets torch 1.12.0's floor of macOS 12.3", ()),  # no bf16 on MPS then
        (
            "12.6",
            "1.11.0",
            "fail",
            "torch 1.11.0 predates MPS (it first shipped in torch 1.12): no MPS on any macOS",
            (f"{PY} -m pip install --upgrade 'torch<2.5'",),
        ),
    ],
)
def test_macos_against_the_torch_floor(version: str, torch: str, status: str, summary: str, fix: tuple) -> None:
    finding = doctor(on_macos(version, version=torch))["macos-version"]
    assert show(finding) == (status, summary, fix)


def test_macos_fix_sentences() -> None:
    old = doctor(on_macos("12.6", version="2.5.1"))["macos-version"]
    assert old.fix is not None
    assert (
        old.fix.summary
        == "Upgrade macOS to 13.0 or later, or install the newest torch that still runs here (torch<2.5: a plain "
        "`pip install torch` resolves to torch 2.11.0 here, whose MPS needs macOS 14.0+; torch 2.4.1 is the newest "
        "with MPS on macOS 12.6)."
    )
    ancient = doctor(on_macos("12.2", version="2.4.1"))["macos-version"]
    assert ancient.fix is not None and ancient.fix.summary == (
        "Upgrade macOS to 12.3 or later; no torch with MPS installs on this macOS with this Python (no torch release "
        "that Python 3.11 can install on macOS 12.2 has MPS there)."
    )
    bf16 = doctor(on_macos("13.7", version="2.8.0"))["macos-version"]  # the bf16/complex texts exist in 2.3-2.8
    assert bf16.fix is not None
    assert bf16.fix.summary == "Upgrade macOS to 14 or later for bfloat16 and complex; until then use float16/float32."
    wrong = doctor(on_macos("14.5", version="2.2.0"))["macos-version"]
    assert wrong.fix is not None and wrong.fix.summary == "Upgrade torch to 2.3 or later."


@pytest.mark.parametrize(
    ("version", "status", "summary", "fix"),
    [
        (
            "12.2",
            "fail",
            "macOS 12.2: no torch release that Python 3.11 can install on macOS 12.2 has MPS there",
            ("softwareupdate --list",),
        ),
        (
            "12.3",
            "warn",
            "macOS 12.3: MPS here needs torch<2.5 (torch 2.4.1); a plain `pip install torch` resolves to torch 2.11.0, "
            "which needs macOS 14.0+ for MPS",
            ("softwareupdate --list", f"{PY} -m pip install 'torch<2.5'"),
        ),
        (
            "14.0",
            "warn",
            "macOS 14.0: MPS here needs torch<2.15 (torch 2.14.1); a plain `pip install torch` resolves to torch "
            "2.15.0, which needs macOS 15.0+ for MPS",
            ("softwareupdate --list", f"{PY} -m pip install 'torch<2.15'"),
        ),
    ],
)
def test_macos_without_torch_is_judged_against_the_torch_that_would_be_installed(
    version: str, status: str, summary: str, fix: tuple
) -> None:
    facts_ = on_macos(version)
    facts_.target.torch = TorchFacts(installed=False)
    assert show(doctor(facts_)["macos-version"]) == (status, summary, fix)
    broken = on_macos(version)
    broken.target.torch = TorchFacts(installed=True, import_error="ImportError: boom")
    assert show(doctor(broken)["macos-version"]) == (status, summary, fix)


def test_macos_version_unknown_or_torch_version_unknown() -> None:
    unknown = on_macos(None)
    unknown.host.errors["macos_version"] = "sw_vers: command not found"
    assert show(doctor(unknown)["macos-version"]) == (
        "skip",
        "macOS version not determined: sw_vers: command not found",
        (),
    )
    assert doctor(on_macos(None))["macos-version"].summary == "macOS version not determined: sw_vers gave nothing"
    no_version = doctor(on_macos("14.5", "23F79", version=None))["macos-version"]
    assert show(no_version) == (
        "skip",
        "macOS 14.5 (23F79); the installed torch's version is unknown, so its floor is too",
        (),
    )
    assert doctor(on_macos("14.5", "23F79"))["macos-version"].summary == (
        "macOS 14.5 (23F79) meets torch 2.5.1's floor of macOS 13.0"
    )


# ---- the interpreter --------------------------------------------------------------------------------


def unprobed(**run: Any) -> Facts:
    facts_ = m1()
    facts_.target.interpreter = None
    facts_.target.torch = None
    facts_.target.run = ProbeRun(**{"workload": "quick", **run})
    return facts_


def test_an_interpreter_that_gives_no_answer() -> None:
    hung = unprobed(status="timeout", timeout=60.0, stderr_tail="starting\nstill starting\n")
    finding = doctor(hung)["interpreter"]
    assert show(finding) == (
        "fail",
        f"{PY} gave no answer within 60 s",
        (f"{PY} -c 'import sys; print(sys.version)'", f"mpscheck doctor --python {PY} --timeout 120"),
    )
    assert finding.details == ("last line on stderr: still starting",)
    assert finding.fix is not None and finding.fix.summary == "Check that the interpreter starts, then allow more time."
    slow = unprobed(status="timeout", timeout=90.0)
    assert doctor(slow)["interpreter"].fix.commands[1] == f"mpscheck doctor --python {PY} --timeout 180"


def test_an_interpreter_that_cannot_be_probed() -> None:
    missing = unprobed(status="not-found", message="no such file")
    missing.target.requested = "/opt/my python/bin/python"
    finding = doctor(missing)["interpreter"]
    path = "'/opt/my python/bin/python'"
    assert show(finding) == (
        "fail",
        f"{path} could not be probed: no such file",
        (f"{path} -c 'import sys; print(sys.version)'",),
    )
    assert finding.details == ()
    by_command = unprobed(status="failed", command=["/usr/bin/python3", "-c", "..."])
    by_command.target.requested = ""
    assert doctor(by_command)["interpreter"].summary == "/usr/bin/python3 could not be probed: failed"
    nothing = unprobed(status="failed")
    nothing.target.requested = ""
    assert doctor(nothing)["interpreter"].summary == "python3 could not be probed: failed"


def test_interpreter_pass_says_why_it_was_chosen() -> None:
    facts_ = m1()
    assert doctor(facts_)["interpreter"].summary == f"CPython 3.11.9 at {PY} (--python)"
    facts_.target.chosen_because = ""
    assert doctor(facts_)["interpreter"].summary == f"CPython 3.11.9 at {PY}"


def rosetta(archs: tuple[str, ...] = ("x86_64",), env: dict[str, str] | None = None, **interp: Any) -> Facts:
    facts_ = m1()
    interp.setdefault("translated", 1)
    facts_.target.interpreter = interpreter(rec.ROSETTA, archs=archs, env=env or {}, **interp)
    return facts_


def test_rosetta_causes_and_their_fixes() -> None:
    brew = doctor(rosetta(real_executable="/usr/local/Cellar/python@3.12/3.12.4/bin/python3.12"))["python-arch"]
    assert brew.status is Status.FAIL
    assert brew.summary == (
        "x86_64 Python under Rosetta 2 on Apple M1: an Intel Homebrew Python "
        "(/usr/local/Cellar/python@3.12/3.12.4/bin/python3.12); x86_64 torch stops at 2.2.2 and Lightning sees "
        "processor 'i386'"
    )
    assert brew.fix == Remediation(
        "Use the arm64 Homebrew in /opt/homebrew (install it from a native terminal) and make the venv with its "
        "Python.",
        (
            '/bin/bash -c "$(curl -fsSL https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh)"',
            "/opt/homebrew/bin/brew install python@3.12",
            "/opt/homebrew/bin/python3.12 -m venv ~/.venvs/torch && ~/.venvs/torch/bin/python -m pip install torch",
        ),
    )
    plain = doctor(rosetta(real_executable="/Library/Frameworks/Python.framework/Versions/3.8/bin/python3"))
    assert plain["python-arch"].summary.startswith(
        "x86_64 Python under Rosetta 2 on Apple M1: an x86_64-only Python build "
        "(/Library/Frameworks/Python.framework/Versions/3.8/bin/python3)"
    )
    assert plain["python-arch"].fix == Remediation(
        "Install an arm64 (or universal2) Python, such as python.org's macOS installer or Homebrew in "
        "/opt/homebrew, and recreate the venv with it.",
        (
            "/opt/homebrew/bin/brew install python@3.12",
            "/opt/homebrew/bin/python3.12 -m venv ~/.venvs/torch && ~/.venvs/torch/bin/python -m pip install torch",
        ),
    )
    terminal = doctor(rosetta(("x86_64", "arm64"), {"TERM_PROGRAM": "iTerm.app"}))["python-arch"]
    assert "a universal2 Python started from an x86_64 process (iTerm.app runs under Rosetta)" in terminal.summary
    default = doctor(rosetta(("x86_64", "arm64")))["python-arch"]
    assert "(the terminal or IDE runs under Rosetta)" in default.summary
    assert default.fix is not None
    assert default.fix.summary.startswith("Start Python natively: untick 'Open using Rosetta' in the terminal or IDE's")


def test_rosetta_in_conda_names_the_env_and_the_conda_install() -> None:
    prefix = "/Users/dev/miniconda3/envs/base"
    env_only = rosetta(conda_prefix="/Users/dev/miniforge3/envs/vision", conda_subdir=None, version="3.10.14")
    arch = doctor(env_only)["python-arch"]
    assert "the conda env /Users/dev/miniforge3/envs/vision was created with Intel (osx-64) packages" in arch.summary
    assert arch.fix is not None and arch.fix.commands[0] == (
        "CONDA_SUBDIR=osx-arm64 conda create -n vision-arm64 python=3.10"
    )
    base = rosetta(
        env={"CONDA_DEFAULT_ENV": "base"}, conda_prefix=prefix, conda_subdir="osx-64", conda_base_archs=["x86_64"]
    )
    arch = doctor(base)["python-arch"]
    assert "an Intel (x86_64) Anaconda/Miniconda install (conda) made the env" in arch.summary
    assert arch.fix is not None and arch.fix.commands[1:] == (
        "~/miniforge3/bin/conda create -n torch-arm64 python=3.11",
        "conda activate torch-arm64 && python -m pip install torch",
    )
    universal_env = rosetta(("x86_64", "arm64"), conda_prefix=prefix, conda_subdir="osx-arm64")
    assert "a universal2 Python" in doctor(universal_env)["python-arch"].summary


def test_rosetta_read_from_the_machine_when_the_process_flag_is_unknown() -> None:
    translated = rosetta(translated=None)
    assert doctor(translated)["python-arch"].status is Status.FAIL
    assert doctor(translated)["python-arch"].details[0] == "sysctl.proc_translated: unknown"
    intel = m1({"machdep.cpu.brand_string": rec.SYSCTL_INTEL["machdep.cpu.brand_string"], "hw.optional.arm64": "0"})
    intel.target.interpreter = interpreter({"machine": "x86_64", "processor": "i386"}, translated=None, archs=())
    arch = doctor(intel)["python-arch"]
    assert show(arch) == ("pass", "x86_64, native on an Intel Mac", ())
    assert arch.details == (
        "sysctl.proc_translated: unknown",
        "platform.machine(): 'x86_64', platform.processor(): 'i386'",
        "executable slices: unknown",
    )


def test_architecture_not_determined() -> None:
    facts_ = m1()
    facts_.host.arm64_hardware = None
    facts_.target.interpreter = interpreter({"machine": "", "processor": ""}, translated=None)
    arch = doctor(facts_)["python-arch"]
    assert show(arch) == ("skip", "architecture not determined (machine unknown, Apple silicon unknown)", ())
    assert arch.details[1] == "platform.machine(): unknown, platform.processor(): unknown"
    facts_.host.arm64_hardware = True
    assert doctor(facts_)["python-arch"].summary == "architecture not determined (machine unknown, Apple silicon True)"
    facts_.target.interpreter = interpreter({"machine": "x86_64", "processor": "i386"}, translated=0)
    assert doctor(facts_)["python-arch"].summary == "architecture not determined (machine x86_64, Apple silicon True)"


@pytest.mark.parametrize(
    ("seen", "real", "status"),
    [
        ("10.16", "11.7", "warn"),
        ("10.16", "14.5", "warn"),
        ("16.0", "26.2", "warn"),
        ("16.0", "15.6", "pass"),
        ("10.15", "14.5", "pass"),
        ("14.5", "14.5", "pass"),
    ],
)
def test_old_sdk_compatibility_version(seen: str, real: str, status: str) -> None:
    facts_ = on_macos(real)
    assert facts_.target.interpreter is not None
    facts_.target.interpreter.mac_ver = seen
    finding = doctor(facts_)["python-macos-compat"]
    assert finding.status.value == status
    if status == "pass":
        assert finding.summary == f"platform.mac_ver() agrees with sw_vers: {seen}"


def test_old_sdk_compatibility_forced_by_the_environment_or_not_compared() -> None:
    facts_ = m1()
    assert facts_.target.interpreter is not None
    facts_.target.interpreter.mac_ver = "10.16"
    facts_.target.interpreter.env = {"SYSTEM_VERSION_COMPAT": "1"}
    finding = doctor(facts_)["python-macos-compat"]
    assert show(finding) == (
        "warn",
        "platform.mac_ver() says 10.16 on macOS 14.5: this Python sees the old-SDK compatibility version, so tools "
        "that read it get the wrong macOS (SYSTEM_VERSION_COMPAT=1 is set)",
        ("unset SYSTEM_VERSION_COMPAT",),
    )
    facts_.target.interpreter.mac_ver = ""
    assert show(doctor(facts_)["python-macos-compat"]) == (
        "skip",
        "not compared (platform.mac_ver(): unknown, sw_vers: 14.5)",
        (),
    )
    facts_.host.macos_version = None
    facts_.target.interpreter.mac_ver = "14.5"
    assert doctor(facts_)["python-macos-compat"].summary == "not compared (platform.mac_ver(): 14.5, sw_vers: unknown)"


# ---- frameworks -----------------------------------------------------------------------------------------


def with_packages(packages: dict[str, str | None] | None, **torch_changes: Any) -> Facts:
    facts_ = m1(**torch_changes)
    assert facts_.target.interpreter is not None
    facts_.target.interpreter.packages = packages
    return facts_


def test_frameworks_agree_or_are_not_compared() -> None:
    agree = doctor(with_packages({"lightning": "2.4.0", "transformers": "4.57.0", "numpy": "2.1"}))["frameworks"]
    assert show(agree) == ("pass", "lightning 2.4.0, transformers 4.57.0 agree with torch: MPS available", ())
    down = doctor(with_packages({"accelerate": "1.15.0"}, available=False))["frameworks"]
    assert show(down) == ("pass", "accelerate 1.15.0 agree with torch: MPS not available", ())
    unchecked = doctor(with_packages(None))["frameworks"]
    assert show(unchecked) == ("skip", "not determined: installed frameworks were not checked", ())
    absent = doctor(with_packages({"lightning": None}))["frameworks"]
    assert show(absent) == ("skip", "none of Lightning, transformers, accelerate is installed", ())
    unknown = doctor(with_packages({"lightning": "2.4.0"}, available=None))["frameworks"]
    assert show(unknown) == ("skip", "not compared: torch's own answer on MPS is unknown", ())


def test_frameworks_that_decide_differently_from_torch() -> None:
    not_built = doctor(with_packages({"transformers": "4.57.0", "accelerate": "1.15.0"}, mps_built=False))
    finding = not_built["frameworks"]
    assert show(finding) == (
        "warn",
        "transformers, accelerate decide differently from torch (MPS available)",
        (f"{PY} -m pip install --upgrade transformers accelerate",),
    )
    old_torch = doctor(with_packages({"accelerate": "0.20.0", "transformers": "4.30.0"}, version="1.11.0"))
    assert old_torch["frameworks"].summary == "accelerate decide differently from torch (MPS available)"
    lightning = with_packages({"pytorch-lightning": "1.9.0"})
    assert lightning.target.interpreter is not None
    lightning.target.interpreter.processor = "i386"
    assert doctor(lightning)["frameworks"].summary.startswith(
        "torch says MPS is available but pytorch-lightning will say it is not: platform.processor() is 'i386'"
    )


def test_conda_cause_wins_over_a_universal_binary_in_an_osx64_env() -> None:
    facts_ = rosetta(("x86_64", "arm64"), conda_prefix="/Users/dev/miniforge3/envs/old", conda_subdir="osx-64")
    arch = doctor(facts_)["python-arch"]
    assert "the conda env /Users/dev/miniforge3/envs/old was created with Intel (osx-64) packages" in arch.summary
    assert arch.fix == Remediation(
        "Recreate the env with arm64 packages and pin its subdir so it stays arm64.",
        (
            "CONDA_SUBDIR=osx-arm64 conda create -n old-arm64 python=3.11",
            "conda activate old-arm64 && conda config --env --set subdir osx-arm64",
            "python -m pip install torch",
        ),
    )


@pytest.mark.parametrize(
    ("env", "prefix", "version", "command"),
    [
        ({"CONDA_DEFAULT_ENV": "research"}, "/opt/envs/research-2024", "3.11.9", "-n research-arm64 python=3.11"),
        ({}, "/opt/envs/research-2024", "3.11.9", "-n research-2024-arm64 python=3.11"),
        ({}, "/opt/conda/", "3.11.9", "-n torch-arm64 python=3.11"),
        ({}, "/opt/envs/my env", "", "-n 'my env-arm64' python=3.12"),
    ],
)
def test_the_new_conda_env_is_named_after_the_old_one(env: dict, prefix: str, version: str, command: str) -> None:
    facts_ = rosetta(env=env, conda_prefix=prefix, conda_subdir="osx-64", version=version)
    arch = doctor(facts_)["python-arch"]
    assert arch.fix is not None and arch.fix.commands[0] == f"CONDA_SUBDIR=osx-arm64 conda create {command}"


def test_an_intel_conda_install_is_named_by_its_python() -> None:
    facts_ = rosetta(
        env={"CONDA_PYTHON_EXE": "/Users/dev/anaconda3/bin/python"},
        conda_prefix="/Users/dev/anaconda3/envs/ml",
        conda_subdir="osx-64",
        conda_base_archs=["x86_64"],
    )
    arch = doctor(facts_)["python-arch"]
    assert "an Intel (x86_64) Anaconda/Miniconda install (/Users/dev/anaconda3) made the env " in arch.summary
    assert arch.fix is not None and arch.fix.summary == (
        "Install the arm64 Miniforge and recreate the env with it (the Intel conda can only make osx-64 envs by "
        "default)."
    )


def test_import_died_quotes_at_most_40_characters_of_the_fallback_value() -> None:
    crashed = with_run(m1_torch(None), status="crashed", running_stage="torch", message="killed by SIGABRT")
    assert crashed.target.interpreter is not None
    crashed.target.interpreter.env = {"PYTORCH_ENABLE_MPS_FALLBACK": "y" * 50}
    torch = doctor(crashed)["torch-import"]
    assert torch.summary.startswith(
        f"import torch died (killed by SIGABRT); PYTORCH_ENABLE_MPS_FALLBACK={'y' * 40!r}: "
    )
    assert torch.fix == Remediation(
        "Set PYTORCH_ENABLE_MPS_FALLBACK to 1 (or unset it).", ("export PYTORCH_ENABLE_MPS_FALLBACK=1",)
    )
    other = with_run(m1_torch(None), status="crashed", running_stage="torch", message="killed by SIGSEGV")
    assert doctor(other)["torch-import"].fix == Remediation(
        "Reinstall torch; if it still crashes, report it with this report attached.", (REINSTALL,)
    )
    hung = with_run(m1_torch(None), status="timeout", running_stage="torch", timeout=10.0)
    assert doctor(hung)["torch-import"].fix == Remediation(
        "A first import after installing can be slow; allow more time, and reinstall if it still hangs.",
        ("mpscheck doctor --timeout 180", REINSTALL),
    )


def test_a_timeout_without_its_recorded_limit_is_a_finding_not_a_crash() -> None:
    interp = unprobed(status="timeout")
    assert doctor(interp)["interpreter"].status is Status.FAIL
    torch = with_run(m1_torch(None), status="timeout", running_stage="torch")
    assert doctor(torch)["torch-import"].status is Status.FAIL


def test_install_commands_per_platform() -> None:
    facts_ = linux(TorchFacts(installed=False))
    facts_.host.nvidia_driver = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15"
    assert doctor(facts_)["torch-import"].fix == Remediation(
        "Install torch into the interpreter you run (PyPI's Linux wheel is a CUDA build; the NVIDIA driver is "
        "loaded here).",
        (f"{LINUX_PY} -m pip install torch",),
    )
    facts_.host.nvidia_driver = None
    assert doctor(facts_)["torch-import"].fix == Remediation(
        "Install torch into the interpreter you run: no NVIDIA driver is loaded here, so the CPU-only build "
        "(PyPI's default Linux wheel is a multi-GB CUDA build).",
        (f"{LINUX_PY} -m pip install --index-url https://download.pytorch.org/whl/cpu torch",),
    )
    facts_.host.system = "FreeBSD"
    assert doctor(facts_)["torch-import"].fix == Remediation(
        "Install torch into the interpreter you run.", (f"{LINUX_PY} -m pip install torch",)
    )


def test_macos_too_old_for_any_torch_says_what_to_upgrade_to() -> None:
    facts_ = on_macos("12.2")
    facts_.target.torch = TorchFacts(installed=False)
    assert doctor(facts_)["macos-version"].fix == Remediation(
        "Upgrade macOS to 14 or later.", ("softwareupdate --list",)
    )
    facts_.host.macos_version = "13.5"
    assert doctor(facts_)["macos-version"].fix == Remediation(
        "Upgrade macOS, or install torch<2.9.",
        ("softwareupdate --list", f"{PY} -m pip install 'torch<2.9'"),
    )


def test_mps_unavailable_is_blocked_by_the_chip_or_a_rosetta_python() -> None:
    intel = m1({"machdep.cpu.brand_string": rec.SYSCTL_INTEL["machdep.cpu.brand_string"]}, available=False)
    intel.host.macos_version = "14.3"
    found = doctor(intel)
    assert found["chip"].status is Status.FAIL
    assert (found["mps-available"].status, found["mps-available"].blocked_by) == (Status.SKIP, "chip")
    translated = rosetta(real_executable="/usr/local/bin/python3")
    translated.host.macos_version = "14.3"
    assert translated.target.torch is not None
    translated.target.torch.version, translated.target.torch.mps_available = "2.2.2", False
    found = doctor(translated)
    assert found["macos-version"].status is Status.PASS
    assert (found["mps-available"].status, found["mps-available"].blocked_by) == (Status.SKIP, "python-arch")


def test_mps_unavailable_fix_sentences() -> None:
    vm = m1({"kern.hv_vmm_present": "1"}, available=False)
    assert doctor(vm)["mps-available"].fix == Remediation("Run MPS work on a physical Mac.", (REPORT_ONLY,))
    unknown_vm = m1(available=False)
    unknown_vm.host.hypervisor = None
    fix = doctor(unknown_vm)["mps-available"].fix
    assert fix is not None and fix.summary == (
        "Compare with a run from a normal Terminal window, and check the macOS version."
    )
    sandbox = doctor(m1(available=False))["mps-available"]
    assert sandbox.summary == (
        "this process sees no Metal device although macOS 14.5 is new enough: typically a sandbox (Codex CLI, "
        "App Sandbox, some remote runners)"
    )
    assert sandbox.fix == Remediation(
        "Run it outside the sandbox, e.g. from a normal Terminal window, and compare.",
        (f"{PY} -c 'import torch; print(torch.backends.mps.is_available())'",),
    )
    assert sandbox.details == ("torch gave no reason",)


def test_frameworks_boundaries() -> None:
    both = with_packages({"lightning": "2.4.0", "pytorch-lightning": "1.9.0"})
    assert both.target.interpreter is not None
    both.target.interpreter.processor = "i386"
    assert doctor(both)["frameworks"].summary.startswith(
        "torch says MPS is available but lightning, pytorch-lightning will say it is not"
    )
    native = doctor(with_packages({"pytorch-lightning": "1.9.0"}))["frameworks"]
    assert show(native) == ("pass", "pytorch-lightning 1.9.0 agree with torch: MPS available", ())
    first_mps = doctor(with_packages({"accelerate": "0.20.0"}, version="1.12.0"))["frameworks"]
    assert first_mps.status is Status.PASS
    differ = doctor(with_packages({"transformers": "4.57.0"}, mps_built=False))["frameworks"]
    assert differ.fix == Remediation(
        "Update them to releases that follow torch.", (f"{PY} -m pip install --upgrade transformers",)
    )


def test_import_crash_with_the_fallback_unset_is_not_blamed_on_it() -> None:
    crashed = with_run(m1_torch(None), status="crashed", running_stage="torch", message="killed by SIGSEGV")
    assert crashed.target.interpreter is not None
    crashed.target.interpreter.env = {}
    assert doctor(crashed)["torch-import"].summary == "import torch crashed the interpreter: killed by SIGSEGV"


def test_more_fix_sentences_and_evidence() -> None:
    hung = unprobed(status="timeout", timeout=60.0, stderr_tail="one\ntwo\nthree\n")
    assert doctor(hung)["interpreter"].details == ("last line on stderr: three",)
    unbranded = rosetta()
    unbranded.host.cpu_brand = None
    assert doctor(unbranded)["python-arch"].summary.startswith("x86_64 Python under Rosetta 2 on Apple silicon: ")
    compat = m1()
    assert compat.target.interpreter is not None
    compat.target.interpreter.mac_ver = "10.16"
    compat.target.interpreter.env = {"SYSTEM_VERSION_COMPAT": "1"}
    assert doctor(compat)["python-macos-compat"].fix == Remediation(
        "Unset SYSTEM_VERSION_COMPAT before starting Python.", ("unset SYSTEM_VERSION_COMPAT",)
    )
    compat.target.interpreter.mac_ver = "10.16.0"
    assert doctor(compat)["python-macos-compat"].status is Status.WARN
    no_brand = m1({"machdep.cpu.brand_string": "", "hw.optional.arm64": ""})
    no_brand.host.errors["machdep.cpu.brand_string"] = "sysctl: unknown oid"
    assert doctor(no_brand)["chip"].summary == "chip not determined: sysctl: unknown oid"
    odd = doctor(m1({"machdep.cpu.brand_string": "Apple Z9"}))["chip"]
    assert odd.fix is not None and odd.fix.summary == "Tell us what this Mac is, with the saved report attached."
    ancient = doctor(on_macos("14.5", version="1.11.0"))["macos-version"]
    assert ancient.fix is not None and ancient.fix.summary.startswith("Upgrade torch (a plain `pip install torch`")


def test_an_interpreter_that_failed_shows_its_last_words() -> None:
    failed = unprobed(status="failed", message="exited with status 1", stderr_tail="Traceback\nSyntaxError: bad\n")
    finding = doctor(failed)["interpreter"]
    assert finding.summary == f"{PY} could not be probed: exited with status 1"
    assert finding.details == ("last line on stderr: SyntaxError: bad",)
