"""Rows of the paste readers that no other test compared whole: sysctl's integer keys and x86 feature
flags, system_profiler's JSON and text fields, collect_env's rows of mpscheck's own report, Lightning's
banner per device, conda's subdir off macOS, a wheel per architecture, platform.uname() with and
without its kernel, a platform string of another system, sw_vers' build, lipo of an unknown
architecture, and an observation whose command line is out of the text. Every observation's fact,
value, line and command, in order.

Lines: tests/recorded.py (each dict names its source there) written as sysctl prints them
("key: value"), its recorded system_profiler JSON, and the public formats of each tool; a line built to
reach a branch says so.
"""

from __future__ import annotations

import pytest

from mpscheck.probes.paste.model import observe
from mpscheck.probes.paste.sysctl import memory_bytes
from tests import recorded
from tests.test_paste_readers_exact import read_with

# ---- sysctl --------------------------------------------------------------------------------------------

INT_FACTS = {  # sysctl's integer keys and the facts they are (written here, not read from the reader)
    "hw.memsize": "host.memory_bytes",
    "hw.ncpu": "host.cpu_count",
    "hw.perflevel0.physicalcpu": "host.performance_cores",
    "hw.perflevel1.physicalcpu": "host.efficiency_cores",
}


def _sysctl_lines(values: dict[str, str]) -> list[str]:
    return [f"{key}: {value}" for key, value in values.items()]


@pytest.mark.parametrize("name", ["SYSCTL_M2_MAX", "SYSCTL_VM", "SYSCTL_INTEL", "SYSCTL_M1"])
def test_recorded_sysctl_values_read_exactly(name: str) -> None:
    values: dict[str, str] = getattr(recorded, name)
    expected = []
    for number, (key, value) in enumerate(values.items(), start=1):
        if key == "machdep.cpu.brand_string":
            expected.append(("host.cpu_brand", value, number, None))
        elif key in INT_FACTS:
            expected.append((INT_FACTS[key], int(value), number, None))
        elif key == "hw.optional.arm64":
            expected.append(("host.arm64_hardware", value == "1", number, None))
        elif key == "kern.hv_vmm_present":
            expected.append(("host.hypervisor", value == "1", number, None))
        elif key == "hw.model":
            expected.append(("host.model", value, number, None))
    assert len(expected) == len(values)
    assert read_with("sysctl", _sysctl_lines(values)) == expected


def test_sysctl_edges() -> None:
    lines = [
        "hw.ncpu: twelve",  # built: not a number
        "hw.memsize = 17179869184",  # sysctl's "=" form
        # x86 flags: what Rosetta reports to a translated process (the feature list of an Intel CPU)
        "machdep.cpu.features: FPU VME DE PSE TSC MSR PAE MCE CX8 APIC SEP MTRR PGE MCA CMOV PAT PSE36 CLFSH DS "
        "ACPI MMX FXSR SSE SSE2",
        "machdep.cpu.features: NEON",  # built: no x86 flag
        "machdep.cpu.features: SSE2X",  # built: SSE2 only as part of a longer word
        "hw.optional.arm64: 2",
        "kern.osproductversion: 14.5",
        "sysctl -n hw.ncpu",  # `sysctl -n` prints the value alone on the next line
        "10",
        "sysctl -n hw.model",
        "",  # a blank line after it: no value
    ]
    assert read_with("sysctl", lines) == [
        ("host.memory_bytes", 17179869184, 2, None),
        ("paste.x86_cpu_features", True, 3, None),
        ("host.macos_version", "14.5", 7, None),
        ("host.cpu_count", 10, 9, 8),
    ]


def test_system_profiler_json_fields_read_exactly() -> None:
    lines = [
        *recorded.DISPLAYS_M1.split("\n"),
        '      "sppci_model" : "Apple Paravirtual device",',  # the Metal device of a macOS VM (llama.cpp#6628)
        '      "chip_type" : "Apple M1 Pro",',
        '      "chip_type" : "Intel Core i9",',  # built: not an Apple chip
        '      "physical_memory" : "16 GB",',
        '      "physical_memory" : "lots",',  # built: not a size
        '      "sppci_cores" : "many",',  # built: not a number
        '      "sppci_model" : "",',  # built: empty
    ]
    cores = next(i for i, line in enumerate(lines, 1) if '"sppci_cores" : "7"' in line)
    model = next(i for i, line in enumerate(lines, 1) if '"sppci_model" : "Apple M1"' in line)
    start = len(recorded.DISPLAYS_M1.split("\n"))
    assert read_with("sysctl", lines) == [
        ("host.gpu_cores", 7, cores, None),
        ("host.system", "Darwin", cores, None),
        ("host.gpu_name", "Apple M1", model, None),
        ("host.system", "Darwin", model, None),
        ("host.gpu_name", "Apple Paravirtual device", start + 1, None),
        ("host.system", "Darwin", start + 1, None),
        ("host.hypervisor", True, start + 1, None),
        ("host.cpu_brand", "Apple M1 Pro", start + 2, None),
        ("host.system", "Darwin", start + 2, None),
        ("host.memory_bytes", 16 * 1024**3, start + 4, None),
        ("host.system", "Darwin", start + 4, None),
    ]


def test_system_profiler_text_fields_read_exactly() -> None:
    lines = [
        "      Memory: 16 GB",
        "      Memory: 1e999 GB",  # built: not a size
        "      Processor Name: 6-Core Intel Core i7",  # an Intel Mac's hardware overview
        "      Chip: Apple silicon",
        "      Chip: AMD",  # built: no chip of a Mac
        "      Memory: 64.0 GiB",
        "      Total Number of Cores: 10 (8 performance and 2 efficiency)",
        "      Model Identifier: MacBook Pro",  # built: a name, not an identifier
    ]
    assert read_with("sysctl", lines) == [
        ("host.memory_bytes", 16 * 1024**3, 1, None),
        ("host.cpu_brand", "6-Core Intel Core i7", 3, None),
        ("host.cpu_brand", "Apple silicon", 4, None),
        ("host.memory_bytes", 64 * 1024**3, 6, None),
    ]


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("16 GB", 16 * 1024**3),
        ("16GB", 16 * 1024**3),
        (" 512 MB ", 512 * 1024**2),
        ("1.5 TiB", int(1.5 * 1024**4)),
        ("8 GiB", 8 * 1024**3),
        ("8 gb", None),
        ("8 KB", None),
        ("9" * 400 + " TB", None),  # not finite: no Mac's memory
        ("", None),
    ],
)
def test_memory_bytes(text: str, size: int | None) -> None:
    assert memory_bytes(text) == size


# ---- collect_env rows of mpscheck's own report, Lightning, conda, pip, repl, sw_vers, lipo ----------------


def test_mpscheck_report_rows_gpu_cores_and_mac_ver() -> None:
    lines = [
        "GPU cores: 10",
        "GPU cores: ten",  # built: not a number
        "GPU cores: Could not collect",
        "platform.mac_ver(): 14.5",
        "platform.mac_ver(): 14.x",  # built: not a version
    ]
    assert read_with("collect_env", lines) == [
        ("host.gpu_cores", 10, 1, None),
        ("interpreter.mac_ver", "14.5", 4, None),
    ]


def test_lightning_banner_per_device() -> None:
    lines = [
        "GPU available: True (cuda), used: True",
        "GPU available: True (mps), used: True",
        "GPU available: False, used: False",
        "MPS available but not used. Set `accelerator` and `devices` using `Trainer(accelerator='mps')`.",
    ]
    assert read_with("banner", lines) == [
        ("paste.device_used", "cuda", 1, None),
        ("paste.lightning", True, 1, None),  # a CUDA machine: nothing said of MPS
        ("paste.device_used", "mps", 2, None),
        ("paste.lightning", True, 2, None),
        ("paste.framework_mps_available", True, 2, None),
        ("paste.device_used", "cpu", 3, None),
        ("paste.lightning", True, 3, None),
        ("paste.framework_mps_available", False, 3, None),
        ("paste.device_used", "cpu", 4, None),
        ("paste.framework_mps_available", True, 4, None),
        ("paste.lightning", True, 4, None),
    ]


def test_conda_info_off_macos_and_its_prefix() -> None:
    lines = [
        "          platform : linux-64",
        "          subdir : osx-arm64",
        "    python version : 3.11.5.final.0",
        "  active env location : /opt/miniconda3",
        "  active env location : base",  # built: not a path
    ]
    assert read_with("conda", lines) == [
        ("interpreter.conda_subdir", "linux-64", 1, None),
        ("interpreter.conda_subdir", "osx-arm64", 2, None),
        ("host.system", "Darwin", 2, None),
        ("interpreter.version", "3.11.5", 3, None),
        ("interpreter.conda_prefix", "/opt/miniconda3", 4, None),
    ]


def test_a_wheel_per_architecture() -> None:
    lines = [
        "Downloading torch-2.2.2-cp311-none-macosx_10_9_x86_64.whl (150.8 MB)",
        "Using cached torch-2.0.0-cp39-none-macosx_11_0_universal2.whl",  # built: a universal2 wheel names no arch
        "Collecting torch-2.1.0-cp310-none-macosx_11_0_arm64.whl",
    ]
    assert read_with("pip", lines) == [
        ("paste.wheel_tag", "macosx_10_9_x86_64", 1, None),
        ("interpreter.machine", "x86_64", 1, None),
        ("interpreter.version", "3.11", 1, None),
        ("paste.wheel_tag", "macosx_11_0_universal2", 2, None),
        ("interpreter.version", "3.9", 2, None),
        ("paste.wheel_tag", "macosx_11_0_arm64", 3, None),
        ("interpreter.machine", "arm64", 3, None),
        ("interpreter.version", "3.10", 3, None),
    ]


def test_platform_uname_with_and_without_its_kernel_and_another_systems_platform() -> None:
    lines = [
        "uname_result(system='Darwin', node='m', release='23.1.0', version='x', machine='arm64')",
        "uname_result(system='Darwin', node='m', release='23.1.0', version='Darwin Kernel Version 23.1.0: "
        "root:xnu-10002.41.9~6/RELEASE_X86_64', machine='x86_64')",
        ">>> platform.platform()",
        "'FreeBSD-14.0-RELEASE-amd64-64bit'",  # built: a system mpscheck names none for
        ">>> platform.platform()",
        "'Windows-10-10.0.19041-SP0'",
    ]
    assert read_with("repl", lines) == [
        ("host.system", "Darwin", 1, None),
        ("interpreter.machine", "arm64", 1, None),
        ("host.system", "Darwin", 2, None),
        ("interpreter.machine", "x86_64", 2, None),
        ("host.arm64_hardware", False, 2, None),
        ("interpreter.platform", "FreeBSD-14.0-RELEASE-amd64-64bit", 4, 3),
        ("interpreter.platform", "Windows-10-10.0.19041-SP0", 6, 5),
        ("host.system", "Windows", 6, 5),
    ]


def test_sw_vers_build_and_other_products() -> None:
    lines = [
        "ProductName: macOS",
        "ProductVersion: 14.5",
        "BuildVersion: 23F79",
        "BuildVersion: 23F79 (beta)",  # built: not one word
        "ProductName: Windows",  # built: not a Mac
        "ProductVersion: 14.x",  # built: not a version
    ]
    assert read_with("sw_vers", lines) == [
        ("host.system", "Darwin", 1, None),
        ("host.system", "Darwin", 2, None),
        ("host.macos_version", "14.5", 2, None),
        ("host.macos_build", "23F79", 3, None),
    ]


def test_lipo_and_file_of_a_universal_python() -> None:
    lines = [
        "Architectures in the fat file: /usr/bin/python3 are: x86_64 arm64e",
        "/usr/bin/python3: Mach-O universal binary with 2 architectures: [x86_64:Mach-O 64-bit executable x86_64] "
        "[arm64e:Mach-O 64-bit executable arm64e]",
        "Non-fat file: /opt/python3 is architecture: ppc",  # built: no architecture mpscheck knows
    ]
    assert read_with("uname", lines) == [
        ("interpreter.binary_archs", ["arm64e", "x86_64"], 1, None),
        ("interpreter.binary_archs", ["arm64e", "x86_64"], 2, None),
        ("interpreter.real_executable", "/usr/bin/python3", 2, None),
    ]


def test_an_observation_whose_lines_are_out_of_the_text() -> None:
    lines = ["a", "b", "c"]
    inside = observe("sysctl", lines, 2, "host.cpu_count", 8, 1)
    assert (inside.fact, inside.value, inside.line, inside.text, inside.kind, inside.command, inside.command_text) == (
        "host.cpu_count",
        8,
        2,
        "b",
        "sysctl",
        1,
        "a",
    )
    for command in (0, 4, -1):
        outside = observe("sysctl", lines, 2, "host.cpu_count", 8, command)
        assert (outside.command, outside.command_text) == (None, ""), command
    assert observe("sysctl", lines, 4, "host.cpu_count", 8).text == ""
    assert observe("sysctl", lines, 0, "host.cpu_count", 8).text == ""
    assert observe("sysctl", lines, 3, "host.cpu_count", 8, 3).command_text == "c"


def test_each_of_dockers_own_lines_and_not_a_sentence_about_docker() -> None:
    lines = [
        "#7 [stage-1 3/7] RUN pip install torch",  # BuildKit's step
        "#12 [internal] load metadata",  # BuildKit, but no numbered RUN/FROM/COPY step
        "Dockerfile:80",  # BuildKit's excerpt of the failing line
        "Dockerfile:80 x",
        "Step 3/7 : RUN pip install torch",  # the legacy builder
        "Step 3/7 : ENV X=1",
        "$ docker compose up",
        "% sudo docker run --rm -it img",
        "docker-compose up",
        "docker exec -it c bash",
        "I use docker build sometimes",  # prose
        "Container web  Started",
        "✓ Container web  Recreated",
        "Container web  Stopping",
    ]
    docker = [1, 3, 5, 7, 8, 9, 10, 12, 13]
    expected = [row for n in docker for row in (("paste.container", True, n, None), ("host.system", "Linux", n, None))]
    assert read_with("container", lines) == expected


# ---- prose: each of the user's claims a line can make ----------------------------------------------------


def test_prose_claims_read_exactly() -> None:
    lines = [
        "print(x_mps.addcdiv_(y_mps, z_mps)) # NOT same!",  # pytorch-118115
        "# user: Using Conv1d with out_channels >65536 in MPS gives different outputs than in CPU (conv = "
        "nn.Conv1d(1, 65537, 3, padding=1), printed on cpu and mps)",  # pytorch-129207
        "# user: I have a normal computer, an rtx 2060 and a normal cpu, core i-5 11400F, and I have no idea what "
        "TPU and MPS stands for ... Can anyone help?",  # diffusers-1847
        "# user: Ok, I'm using MacOS Sequoia 15.2 with pipx installed open-webui 0.5.3 and the sentence transformers "
        "for RAG for both the embed model and the ranker seem to be CPU only.",  # open-webui-8324
        "# user: my setup is Mac M1 with Ubuntu 22.04 running via VMWare Fusion. I would like to use my host "
        "machine's GPU device on my virtual machine.",  # pytorch-120557
        "# user: Is MPS supported for Ubuntu 20.04 with PyTorch 2.1?",  # pytorch-96881
        "# user: running training on the default GitHub macos runner",  # instructlab-1112
        "i have upgraded to python 3.13 in my local env(macos 15.0.1), but can not install pytorch 2.4.1",  # #137853
        "Cannot install torch.",  # comp-loinc-250
        "# user (later): Intel iMac with an AMD Radeon Pro 580X; uname -m returns x86_64",  # cellpose-1468
        "# user: my M1 Pro reports platform i386",  # lightning-14634
        "# user: runs quite well except when i try to use the mode best; System Mac Ventura, without nvidia or CUDA",
        "# user: 2,6 GHz 6-Core Intel Core i7",  # fooocus-1152: About This Mac's processor line
    ]
    assert read_with("prose", lines) == [
        ("paste.wrong_results", True, 1, None),
        ("paste.wrong_results", True, 2, None),
        ("paste.pc_gpu", True, 3, None),
        ("paste.device_used", "cpu", 4, None),
        ("host.macos_version", "15.2", 4, None),
        ("host.system", "Darwin", 4, None),
        ("host.system", "Linux", 5, None),  # the guest, said before the Mac it runs on
        ("paste.guest_said", "Linux", 5, None),  # ... and kept apart: it outranks a Mac told in words (round 34)
        ("host.cpu_brand", "Apple M1", 5, None),
        ("host.arm64_hardware", True, 5, None),
        ("host.system", "Darwin", 5, None),
        ("host.system", "Linux", 6, None),
        ("host.hypervisor", True, 7, None),
        ("paste.install_failed", "2.4.1", 8, None),
        ("host.macos_version", "15.0.1", 8, None),
        ("host.system", "Darwin", 8, None),
        ("paste.install_failed", "", 9, None),
        ("host.arm64_hardware", False, 10, None),
        ("paste.intel_prose", True, 10, None),
        ("host.system", "Darwin", 10, None),
        ("paste.shell_machine", "x86_64", 10, None),
        ("host.cpu_brand", "Apple M1 Pro", 11, None),
        ("host.arm64_hardware", True, 11, None),
        ("host.system", "Darwin", 11, None),
        ("interpreter.processor", "i386", 11, None),
        ("paste.mac_named", True, 12, None),  # a Mac named with nothing else of it: the Mac context (round 7)
        ("host.macos_version", "13", 12, None),
        ("host.system", "Darwin", 12, None),
        ("host.arm64_hardware", False, 13, None),
        ("paste.intel_prose", True, 13, None),
        ("host.system", "Darwin", 13, None),
    ]


def test_prose_edges_read_exactly() -> None:
    lines = [
        "an Intel iMac (built on an M1)",  # built: both an Intel Mac and a chip: not said which
        "my Mac is on Monterey 13.1",  # built: a version that is not Monterey's (12): the name wins
        "self-hosted macos runner on my Mac",  # built: a self-hosted runner is no VM
        "Windows 11 in Parallels on my Mac",  # built: a Windows guest
        "it runs inside a docker container",  # built
        "Windows 11 laptop",  # built: another system, no Mac word
        "$ uname -m says arm64 and MPS is wrong",  # built: a command line: only the wrong-results words
        "macos-14-xlarge runner",  # built: a larger runner label
        "Ventura 13.4.1 on my Mac",  # built: the name with its own version
    ]
    assert read_with("prose", lines) == [
        ("paste.mac_named", True, 2, None),  # the Mac context (round 7): a Mac named in the user's words
        ("host.macos_version", "12", 2, None),
        ("host.system", "Darwin", 2, None),
        ("paste.mac_named", True, 3, None),
        ("host.system", "Windows", 4, None),
        ("paste.guest_said", "Windows", 4, None),
        ("host.system", "Linux", 5, None),
        ("paste.guest_said", "Linux", 5, None),
        ("host.system", "Windows", 6, None),
        ("paste.wrong_results", True, 7, None),
        ("host.hypervisor", True, 8, None),
        ("paste.mac_named", True, 9, None),
        ("host.macos_version", "13.4.1", 9, None),
        ("host.system", "Darwin", 9, None),
    ]


def test_two_expressions_with_their_values_on_one_line_are_both_read() -> None:
    # built: an annotated line whose comment holds a second expression and its value
    line = "torch.backends.mps.is_available() = True  # torch.backends.mps.is_built() = True"
    assert read_with("repl", [line]) == [("torch.mps_available", True, 1, None), ("torch.mps_built", True, 1, None)]


def test_hw_optional_arm64_zero_is_no_arm64_cpu() -> None:
    # built: the value an Intel Mac's sysctl gives where the key exists
    assert read_with("sysctl", ["hw.optional.arm64: 0"]) == [("host.arm64_hardware", False, 1, None)]
