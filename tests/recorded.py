"""Outputs recorded on real Macs (and on Linux by mpscheck's own probe), each with its source.

Nobody on the team has a Mac: every string here was printed by a real machine and published; the
comment above it says where. Where a source gave only part of an output, only that part is kept
(a missing BuildVersion line, say), never filled in. ../shared/mps-facts.md cites the torch texts.
"""

from __future__ import annotations

# ---- sw_vers -------------------------------------------------------------------------------------
# rosesecurity's macOS enumeration notes (code index): `sw_vers` on a Mac with Apple silicon.
SW_VERS_14_5 = "ProductName:\t\tmacOS\nProductVersion:\t\t14.5\nBuildVersion:\t\t23F79\n"
# A Go test's recorded output, with the Rapid Security Response line (code index, swVersWithRSR).
SW_VERS_14_4_1_RSR = (
    "ProductName:\t\tmacOS\nProductVersion:\t\t14.4.1\nProductVersionExtra:\t(a)\nBuildVersion:\t\t23E224\n"
)
# Same Go test, swVersNoRSR.
SW_VERS_13_5 = "ProductName:\t\tmacOS\nProductVersion:\t\t13.5\nBuildVersion:\t\t22G74\n"
# A benchmark log from an M1 Max (Darwin 23.6.0, RELEASE_ARM64_T6000).
SW_VERS_14_6_1 = "ProductName:\t\tmacOS\nProductVersion:\t\t14.6.1\nBuildVersion:\t\t23G93\n"
# A blog post from a 2025 MacBook Air M4.
SW_VERS_15_6 = "ProductName:\t\tmacOS\nProductVersion:\t\t15.6\nBuildVersion:\t\t24G84\n"
# A GitHub-hosted runner, 'Apple M1 (Virtual)', 7 GiB RAM (hbmartin/Trace-Agent-Sessions notes).
SW_VERS_15_7_9 = "ProductName:\t\tmacOS\nProductVersion:\t\t15.7.9\nBuildVersion:\t\t24G830\n"
# A Japanese benchmark note from an M1 Pro (single-tab layout of older macOS).
SW_VERS_12_6 = "ProductName:\tmacOS\nProductVersion:\t12.6\nBuildVersion:\t21G115\n"
# pytorch/pytorch#139425: torch 2.5.1 on macOS 12.7.6. The issue gives the version, not the build.
SW_VERS_12_7_6 = "ProductName:\t\tmacOS\nProductVersion:\t\t12.7.6\n"
# pytorch/pytorch#164943: 2.10 nightly on macOS 13.7.4 ("macOS-13.7.4-arm64-arm-64bit"). No build given.
SW_VERS_13_7_4 = "ProductName:\t\tmacOS\nProductVersion:\t\t13.7.4\n"
# openai/codex#10199: MPS under the Codex sandbox on macOS 26.2 / M3. No build given.
SW_VERS_26_2 = "ProductName:\t\tmacOS\nProductVersion:\t\t26.2\n"

# ---- system_profiler SPDisplaysDataType -json ------------------------------------------------------
# A Go project's Apple-silicon GPU parser test, comment: "Example ... output" of an M1 (7-core GPU).
DISPLAYS_M1 = """{
  "SPDisplaysDataType" : [
    {
      "spdisplays_vendor" : "sppci_vendor_Apple",
      "sppci_bus" : "spdisplays_builtin",
      "sppci_cores" : "7",
      "sppci_device_type" : "spdisplays_gpu",
      "sppci_model" : "Apple M1"
    }
  ]
}"""
# A Python project's test, "LIVE_SYSTEM_PROFILER_SP_DISPLAYS_JSON": an M3 Max with a 40-core GPU.
DISPLAYS_M3_MAX = """{
  "SPDisplaysDataType" : [
    {
      "_name" : "Apple M3 Max",
      "spdisplays_metal" : "spdisplays_supported",
      "spdisplays_vendor" : "sppci_vendor_Apple",
      "sppci_bus" : "spdisplays_builtin",
      "sppci_cores" : "40",
      "sppci_device_type" : "spdisplays_gpu",
      "sppci_model" : "Apple M3 Max"
    }
  ]
}"""
# A Go test: "trimmed from real `system_profiler SPDisplaysDataType -json` output on a Mac mini M4".
DISPLAYS_M4 = """{
  "SPDisplaysDataType" : [
    {
      "_name" : "Apple M4",
      "spdisplays_mtlgpufamilysupport" : "spdisplays_metal4",
      "spdisplays_vendor" : "sppci_vendor_Apple",
      "sppci_bus" : "spdisplays_builtin",
      "sppci_cores" : "10",
      "sppci_device_type" : "spdisplays_gpu",
      "sppci_model" : "Apple M4"
    }
  ]
}"""
# A Swift project's test of an M1 Pro (16-core GPU) with its built-in display listed.
DISPLAYS_M1_PRO = """{
  "SPDisplaysDataType" : [
    {
      "_name" : "Apple M1 Pro",
      "spdisplays_vendor" : "sppci_vendor_Apple",
      "sppci_cores" : "16",
      "sppci_device_type" : "spdisplays_gpu",
      "sppci_model" : "Apple M1 Pro",
      "spdisplays_ndrvs" : [
        { "_name" : "Color LCD", "_spdisplays_pixels" : "3024 x 1964" }
      ]
    }
  ]
}"""
# A Rust project's test: an Intel Mac with two GPUs (no Apple GPU, no core count).
DISPLAYS_INTEL_TWO_GPUS = (
    '{"SPDisplaysDataType":[{"_name":"Intel Iris Pro","sppci_model":"Intel Iris Pro",'
    '"spdisplays_vram_shared":"1536 MB"},{"_name":"kHW_NVidiaGeForceGT750MItem",'
    '"sppci_model":"NVIDIA GeForce GT 750M","spdisplays_vram":"2 GB"}]}'
)

# ---- sysctl -n values --------------------------------------------------------------------------------
# A Python project's recorded `sysctl` of an M1 (perflevels 4+4, hw.optional.arm64: 1).
SYSCTL_M1 = {
    "machdep.cpu.brand_string": "Apple M1",
    "hw.optional.arm64": "1",
    "hw.perflevel0.physicalcpu": "4",
    "hw.perflevel1.physicalcpu": "4",
}
# A CPU-report sample of an M2 Max: "core types: 8 perf, 4 eff", "Memory: 64.0 GiB", Darwin 24.6.0.
SYSCTL_M2_MAX = {
    "machdep.cpu.brand_string": "Apple M2 Max",
    "hw.optional.arm64": "1",
    "hw.perflevel0.physicalcpu": "8",
    "hw.perflevel1.physicalcpu": "4",
    "hw.ncpu": "12",
    "hw.memsize": str(64 * 1024**3),
}
# A test of a hardware-report parser: `Chip: Apple M2 Pro`, `Memory: 16 GB` from system_profiler.
SYSCTL_M2_PRO = {"machdep.cpu.brand_string": "Apple M2 Pro", "hw.optional.arm64": "1", "hw.memsize": str(16 * 1024**3)}
# comfy-cli#568 (Comfy-Org): an M3 Max under Rosetta: brand string stays Apple, hw.optional.arm64 = 1.
SYSCTL_M3_MAX = {"machdep.cpu.brand_string": "Apple M3 Max", "hw.optional.arm64": "1"}
# Goldziher/basemind#28: `uname -m` = x86_64 but the brand string is "Apple M4".
SYSCTL_M4 = {"machdep.cpu.brand_string": "Apple M4", "hw.optional.arm64": "1", "hw.memsize": str(16 * 1024**3)}
# A Python project's recorded Intel MacBook Pro (i7-9750H). hw.optional.arm64 is an unknown oid there.
SYSCTL_INTEL = {"machdep.cpu.brand_string": "Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz", "hw.ncpu": "12"}
# A hosted runner's notes name the chip "Apple M1 (Virtual)" with 7 GiB (hbmartin/Trace-Agent-Sessions);
# dotnet/macios#25580 gives hw.model VirtualMac2,1; macadmins/nudge#621: kern.hv_vmm_present 1 is a VM.
# Whether machdep.cpu.brand_string itself carries "(Virtual)" is UNCONFIRMED: checks rely on "Apple M1".
SYSCTL_VM = {
    "machdep.cpu.brand_string": "Apple M1 (Virtual)",
    "hw.optional.arm64": "1",
    "kern.hv_vmm_present": "1",
    "hw.model": "VirtualMac2,1",
    "hw.memsize": str(7 * 1024**3),
}

# ---- platform strings inside the target --------------------------------------------------------------
# pytorch/pytorch#164943: platform.platform() of a native arm64 Python on macOS 13.7.4.
PLATFORM_NATIVE_13_7_4 = "macOS-13.7.4-arm64-arm-64bit"
# Native arm64 CPython: machine 'arm64', processor 'arm' (Lightning's rule relies on it).
NATIVE = {"machine": "arm64", "processor": "arm"}
# Lightning-AI/pytorch-lightning#14634 ("my M1 Pro reports platform i386") and comfy-cli#568.
ROSETTA = {"machine": "x86_64", "processor": "i386"}

# ---- torch's own messages ----------------------------------------------------------------------------
# EmptyTensor.cpp MPS_ERROR_RUNTIME_TOO_LOW as quoted in pytorch/pytorch#139425 / #164943 / #177819.
MPS_TOO_LOW_12_3 = "The MPS backend is supported on MacOS 12.3+.Current OS version can be queried using `sw_vers`"
MPS_TOO_LOW_13_0 = "The MPS backend is supported on MacOS 13.0+.Current OS version can be queried using `sw_vers`"
MPS_TOO_LOW_14_0 = "The MPS backend is supported on macOS 14.0+. Current OS version can be queried using `sw_vers`"
# actions/runner-images#9918: a hosted macOS arm64 runner, is_available() True, first allocation fails.
VM_ALLOCATION_ERROR = (
    "MPS backend out of memory (MPS allocated: 0 bytes, other allocations: 0 bytes, max allowed: 7.93 GB). "
    "Tried to allocate 256 bytes on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper "
    "limit for memory allocations (may cause system failure)."
)
# mps-facts.md 3.3, a real out-of-memory with sizes.
REAL_OOM = (
    "MPS backend out of memory (MPS allocated: 17.36 GB, other allocations: 613.56 MB, max allowed: 18.13 GB). "
    "Tried to allocate 192.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper "
    "limit for memory allocations (may cause system failure)."
)
# invoke-ai/InvokeAI#2152: arm64 Python importing an x86_64 torch wheel.
WRONG_ARCH_IMPORT = (
    "OSError: dlopen(/Users/masonjames/Sites/invokeai/.venv/lib/python3.10/site-packages/torch/lib/"
    "libtorch_global_deps.dylib, 0x000A): tried: '/Users/masonjames/Sites/invokeai/.venv/lib/python3.10/"
    "site-packages/torch/lib/libtorch_global_deps.dylib' (mach-o file, but is an incompatible architecture "
    "(have 'x86_64', need 'arm64'))"
)
# MPSFallback.mm up to 2.5, verbatim from pytorch/pytorch#86195 (mps-facts.md 3.1).
FALLBACK_OFF_ERROR = (
    "The operator 'aten::_slow_conv2d_forward' is not currently implemented for the MPS device. If you want "
    "this op to be added in priority during the prototype phase of this feature, please comment on "
    "https://github.com/pytorch/pytorch/issues/77764. As a temporary fix, you can set the environment variable "
    "`PYTORCH_ENABLE_MPS_FALLBACK=1` to use the CPU as a fallback for this op. WARNING: this will be slower than "
    "running natively on MPS."
)
# EmptyTensor.cpp / OperationUtils.mm: float64 on MPS.
FLOAT64_ERROR = (
    "Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64. "
    "Please use float32 instead."
)
# torch 2.3-2.9 on macOS 13 (EmptyTensor.cpp), pytorch/pytorch#104191 lineage.
BF16_MACOS13_ERROR = "MPS BFloat16 is only supported on MacOS 14 or newer"
# Recorded by mpscheck's own probe: torch 2.13.0+cpu on Linux x86-64, torch.empty(1, device="mps").
LINUX_NOT_BUILT = (
    "Could not run 'aten::empty.memory_format' with arguments from the 'MPS' backend. This could be because "
    "the operator doesn't exist for this backend, or was omitted during the selective/custom build process "
    "(if using custom build)."
)
