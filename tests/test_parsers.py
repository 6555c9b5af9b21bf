"""Parsers and pure helpers on recorded outputs: sw_vers, system_profiler, sysctl, versions,
torch's error texts, Mach-O headers, conda-meta records, the env allowlist."""

from __future__ import annotations

import json
import struct

import pytest

from mpscheck.checks.signatures import recognise
from mpscheck.knowledge.versions import at_least, macos_floor, parse_version, torch_pin_for_macos
from mpscheck.probes.agent.allowlist import allowed_env
from mpscheck.probes.agent.conda import conda_python_subdir
from mpscheck.probes.agent.macho import macho_archs
from mpscheck.probes.agent.sysctl import read_sysctl
from mpscheck.probes.host import parse_displays_json, parse_sw_vers, probe_host
from mpscheck.redact import ENV_POLICY
from tests import recorded as rec
from tests.scenarios import mac_host


@pytest.mark.parametrize(
    ("text", "version", "build"),
    [
        (rec.SW_VERS_14_5, "14.5", "23F79"),
        (rec.SW_VERS_14_4_1_RSR, "14.4.1", "23E224"),
        (rec.SW_VERS_13_5, "13.5", "22G74"),
        (rec.SW_VERS_12_6, "12.6", "21G115"),
        (rec.SW_VERS_15_7_9, "15.7.9", "24G830"),
        (rec.SW_VERS_12_7_6, "12.7.6", None),
    ],
)
def test_sw_vers(text: str, version: str, build: str | None) -> None:
    parsed = parse_sw_vers(text)
    assert parsed["ProductName"] == "macOS"
    assert parsed["ProductVersion"] == version
    assert parsed.get("BuildVersion") == build


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (rec.DISPLAYS_M1, ("Apple M1", 7)),
        (rec.DISPLAYS_M3_MAX, ("Apple M3 Max", 40)),
        (rec.DISPLAYS_M4, ("Apple M4", 10)),
        (rec.DISPLAYS_M1_PRO, ("Apple M1 Pro", 16)),
        (rec.DISPLAYS_INTEL_TWO_GPUS, ("Intel Iris Pro", None)),
        ("not json", None),
        ('{"SPDisplaysDataType": []}', None),
    ],
)
def test_system_profiler_displays(text: str, expected) -> None:
    assert parse_displays_json(text) == expected


def test_host_probe_on_recorded_m2_max() -> None:
    host = mac_host(rec.SYSCTL_M2_MAX, rec.SW_VERS_15_6, None)
    assert (host.cpu_brand, host.arm64_hardware, host.performance_cores, host.efficiency_cores) == (
        "Apple M2 Max",
        True,
        8,
        4,
    )
    assert host.memory_bytes == 64 * 1024**3 and host.cpu_count == 12
    assert (host.macos_version, host.macos_build) == ("15.6", "24G84")
    assert host.gpu_cores is None and "system_profiler" in host.errors["gpu_cores"]
    assert host.hypervisor is None and "kern.hv_vmm_present" in host.errors


def test_host_probe_on_intel_mac_without_arm64_key() -> None:
    host = mac_host(rec.SYSCTL_INTEL, rec.SW_VERS_13_5, rec.DISPLAYS_INTEL_TWO_GPUS)
    assert host.arm64_hardware is None and host.cpu_brand.startswith("Intel(R) Core(TM) i7-9750H")
    assert host.gpu_name == "Intel Iris Pro" and host.gpu_cores is None


def test_host_probe_on_this_linux_machine() -> None:
    host = probe_host()
    assert host.system == "Linux"
    assert host.memory_bytes and host.memory_bytes > 0 and host.cpu_count and host.cpu_count > 0
    assert host.macos_version is None


def test_sysctl_is_not_read_off_macos() -> None:
    assert read_sysctl("sysctl.proc_translated") == (None, "not macOS")


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("2.5.1+cpu", (2, 5, 1)),
        ("2.10.0.dev20251008", (2, 10, 0)),
        ("14.4.1", (14, 4, 1)),
        ("26.2", (26, 2)),
        ("", None),
        (None, None),
        ("abc", None),
    ],
)
def test_parse_version(text, version) -> None:
    assert parse_version(text) == version


@pytest.mark.parametrize(
    ("torch", "floor"),
    [
        ((1, 12), (12, 3)),
        ((2, 4, 1), (12, 3)),
        ((2, 5, 1), (13, 0)),
        ((2, 8, 0), (13, 0)),
        ((2, 9, 1), (14, 0)),  # "supported on MacOS 14.0+" in torch 2.9's own libtorch_cpu.dylib
        ((2, 10, 0), (14, 0)),
        ((2, 13), (14, 0)),
        ((2, 15, 0), (15, 0)),
    ],
)
def test_macos_floor_per_torch_release(torch, floor) -> None:
    assert macos_floor(torch) == floor


def test_torch_pin_for_old_macos() -> None:
    # floors read from the wheels (mpscheck/knowledge/torch_releases.json): 2.9 needs macOS 14, 2.15 macOS 15
    assert torch_pin_for_macos((13, 7, 4)) == "torch<2.9"
    assert torch_pin_for_macos((12, 7, 6)) == "torch<2.5"
    assert torch_pin_for_macos((14, 0)) == "torch<2.15"
    assert torch_pin_for_macos((15, 0)) is None
    assert torch_pin_for_macos((12, 0)) is None  # nothing runs MPS there
    assert at_least((14,), (14, 0)) and not at_least((13, 7), (14, 0))


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        (rec.MPS_TOO_LOW_12_3, "no-metal-device"),
        (rec.MPS_TOO_LOW_13_0, "no-metal-device"),
        (rec.MPS_TOO_LOW_14_0, "no-metal-device"),
        (rec.VM_ALLOCATION_ERROR, "virtual-machine"),
        (rec.REAL_OOM, "out-of-memory"),
        (rec.WRONG_ARCH_IMPORT, "wrong-arch-wheel"),
        (rec.FALLBACK_OFF_ERROR, "op-not-implemented"),
        (rec.FLOAT64_ERROR, "float64-unsupported"),
        (rec.BF16_MACOS13_ERROR, "dtype-needs-macos14"),
        (rec.LINUX_NOT_BUILT, "torch-not-built-with-mps"),
        ("PyTorch is not linked with support for mps devices", "torch-not-built-with-mps"),
        ("invalid high watermark ratio 2.5", "watermark-invalid"),
        ("something new and unknown", None),
    ],
)
def test_error_signatures(text: str, cause: str | None) -> None:
    found = recognise(text)
    assert (found.cause if found else None) == cause


def test_signature_details() -> None:
    assert recognise(rec.REAL_OOM).detail == "MPS allocated 17.36 GB, other allocations 613.56 MB"
    assert recognise(rec.WRONG_ARCH_IMPORT).detail == "have x86_64, need arm64"
    # The 2022 dyld wording seen in a VS Code issue: "(have (x86_64), need (arm64e))"
    assert recognise("incompatible architecture (have (x86_64), need (arm64e))").detail == "have x86_64, need arm64e"


def _fat_header(*cpu_types: int) -> bytes:
    head = struct.pack(">II", 0xCAFEBABE, len(cpu_types))
    return head + b"".join(struct.pack(">iiIII", t, 0, 0, 0, 0) for t in cpu_types)


def test_macho_slices(tmp_path) -> None:
    """Headers laid out as <mach-o/fat.h> and <mach-o/loader.h> define them."""
    universal = tmp_path / "universal2"
    universal.write_bytes(_fat_header(0x01000007, 0x0100000C))
    thin_arm = tmp_path / "arm64"
    thin_arm.write_bytes(struct.pack("<Ii", 0xFEEDFACF, 0x0100000C) + b"\0" * 24)
    thin_x86 = tmp_path / "x86_64"
    thin_x86.write_bytes(struct.pack("<Ii", 0xFEEDFACF, 0x01000007) + b"\0" * 24)
    assert macho_archs(str(universal)) == ["x86_64", "arm64"]
    assert macho_archs(str(thin_arm)) == ["arm64"]
    assert macho_archs(str(thin_x86)) == ["x86_64"]
    assert macho_archs("/bin/sh") == []  # an ELF file on this Linux machine
    assert macho_archs(str(tmp_path / "missing")) == []


def test_conda_meta_python_record(tmp_path) -> None:
    """conda-meta records carry the package's index.json fields, subdir included (conda docs, pkg-specs)."""
    meta = tmp_path / "conda-meta"
    meta.mkdir()
    (meta / "python-dateutil-2.9.0-pyhd8ed1ab_0.json").write_text(json.dumps({"subdir": "noarch"}))
    (meta / "python-3.11.9-h932a869_0_cpython.json").write_text(
        json.dumps({"name": "python", "version": "3.11.9", "subdir": "osx-64", "platform": "osx", "arch": "x86_64"})
    )
    assert conda_python_subdir(str(tmp_path)) == "osx-64"
    assert conda_python_subdir(str(tmp_path / "nowhere")) is None


def test_env_allowlist_keeps_torch_vars_and_drops_secrets() -> None:
    environ = {
        "PYTORCH_ENABLE_MPS_FALLBACK": "1",
        "CONDA_PREFIX": "/opt/conda",
        "VIRTUAL_ENV": "/v",
        "HF_TOKEN": "x",
        "AWS_SECRET_ACCESS_KEY": "y",
        "GITHUB_TOKEN": "z",
        "CONDA_TOKEN": "t",
        "PYTORCH_API_KEY": "k",
        "HOME": "/home/me",
        "PATH": "/bin",
        "OPENAI_API_KEY": "o",
    }
    assert allowed_env(environ, ENV_POLICY) == {
        "PYTORCH_ENABLE_MPS_FALLBACK": "1",
        "CONDA_PREFIX": "/opt/conda",
        "VIRTUAL_ENV": "/v",
    }


def test_sysctl_output_is_read_by_name_and_unknown_keys_are_absent() -> None:
    """Without -n, sysctl(8) prints 'NAME: value' per key (the value 'Apple M1 Pro' as in spack/spack#30077);
    an unknown key prints "sysctl: unknown oid '...'" (electron/build-tools#306), or nothing with -i."""
    from mpscheck.probes.host import parse_sysctl

    text = "machdep.cpu.brand_string: Apple M1 Pro\nhw.memsize: 17179869184\nhw.optional.arm64: 1\n"
    assert parse_sysctl(text) == {
        "machdep.cpu.brand_string": "Apple M1 Pro",
        "hw.memsize": "17179869184",
        "hw.optional.arm64": "1",
    }
    assert parse_sysctl("sysctl: unknown oid 'hw.perflevel0.physicalcpu'\n") == {}


def test_one_version_reader_for_the_tables_and_the_rules() -> None:
    from mpscheck.knowledge import releases
    from mpscheck.knowledge.versions import parse_version

    for text in ("2.5.1+cpu", "v2.6", "14.4.1", "2.10.0.dev20251008", "", None, "nightly"):
        assert releases.parse(text) == parse_version(text)
    assert parse_version("v2.6") == (2, 6)
