"""Which architecture a paste shows, pinned exactly (checks/causes/setup.py): every line that says the
Python is x86_64 and every line that says the hardware is Apple silicon, each alone; and the four ways a
Rosetta cause is said (a conda env of Intel packages, an x86_64 Python whose file is shown, an x86_64
build, the terminal itself translated), an Intel Mac, a PC with an NVIDIA GPU, a torch without MPS.

Lines are the formats the readers take (sysctl, uname -m, file, conda info, collect_env); expected values
are written out or built from the causes table and the one Rosetta fix (checks/interpreter.py) with plain
code; every field of a Cause is compared.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from mpscheck.checks.causes import Cause, Evidence, explain_text
from mpscheck.checks.causes.judge import _Judge
from mpscheck.checks.installing import conda_arm64_create
from mpscheck.checks.interpreter import rosetta_cause
from mpscheck.checks.registry import Context
from mpscheck.knowledge import errors as table
from mpscheck.knowledge.causes import CAUSES
from mpscheck.knowledge.versions import last_intel_mac_torch
from mpscheck.model import Remediation
from mpscheck.probes.paste import read

SHELL_TRANSLATED = "sysctl.proc_translated: 1"
ARM64 = "hw.optional.arm64: 1"
BRAND = "machdep.cpu.brand_string: Apple M1 Pro"
FEATURES = "machdep.cpu.features: FPU VME DE PSE TSC MSR PAE MCE CX8 APIC SEP MTRR PGE MCA CMOV PAT MMX FXSR SSE SSE2"
CONDA_64 = "       platform : osx-64"
FILE_X86 = "/usr/local/bin/python3: Mach-O 64-bit executable x86_64"
FILE_UNIVERSAL = (
    "/opt/homebrew/bin/python3: Mach-O universal binary with 2 architectures: [x86_64:Mach-O 64-bit executable "
    "x86_64] [arm64]"
)
MACHINE_X86 = "platform.machine() / processor(): x86_64 / i386"
TRANSLATED = "Rosetta (sysctl.proc_translated): 1"


def reader(lines: list[str]) -> _Judge:
    return _Judge(read("\n".join(lines)), [], None)


def shown(lines: list[str], *numbers: int) -> tuple[Evidence, ...]:
    return tuple(Evidence(n, lines[n - 1]) for n in numbers)


@pytest.mark.parametrize(
    ("lines", "x86", "arm"),
    [
        ([SHELL_TRANSLATED], (1,), ()),
        ([FEATURES], (1,), ()),
        (["$ uname -m", "x86_64"], (1, 2), ()),
        (["$ uname -m", "arm64"], (), (1, 2)),
        ([CONDA_64], (1,), ()),
        ([FILE_X86], (1,), ()),
        ([FILE_UNIVERSAL], (), ()),  # it has an arm64 slice: not x86_64-only
        ([MACHINE_X86], (1,), ()),
        ([">>> platform.processor()", "'i386'"], (1, 2), ()),
        ([">>> platform.processor()", "'arm'"], (), ()),
        ([">>> platform.machine()", "'x86_64'"], (1, 2), ()),
        ([">>> platform.machine()", "'arm64'"], (), ()),
        (["Rosetta (sysctl.proc_translated): 0"], (), ()),
        ([TRANSLATED], (1,), (1,)),
        ([ARM64], (), (1,)),
        (["hw.optional.arm64: 0"], (), ()),
        ([BRAND], (), (1,)),
        (["machdep.cpu.brand_string: Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz"], (), ()),
        (["  __archspec=1=arm64"], (), (1,)),
        (["  __archspec=1=m1"], (), (1,)),
        (["  __archspec=1=m2"], (), (1,)),
        (["  __archspec=1=m3"], (), (1,)),
        (["  __archspec=1=m4"], (), (1,)),
        # conda's own x86_64 family: an x86_64 conda (Rosetta on Apple silicon, anaconda-issues#13174) or an Intel Mac
        (["  __archspec=1=x86_64"], (1,), ()),
    ],
)
def test_each_line_is_evidence_of_an_x86_64_python_or_apple_silicon_or_neither(
    lines: list[str], x86: tuple[int, ...], arm: tuple[int, ...]
) -> None:
    assert reader(lines).x86_python() == shown(lines, *x86)
    assert reader(lines).arm64_hardware() == shown(lines, *arm)


def rosetta_summary(why: str) -> str:
    values = {"why": why, "last_intel": last_intel_mac_torch(), "python": "python3"}
    return table.fill(CAUSES["rosetta-python"].summary, values)


def test_a_translated_terminal_alone_makes_everything_started_from_it_x86_64() -> None:
    lines = [SHELL_TRANSLATED, ARM64]
    entry = CAUSES["rosetta-python"]
    values = {"python": "python3", "last_intel": last_intel_mac_torch(), "conda_arm64": conda_arm64_create()}
    assert explain_text("\n".join(lines)).cause == Cause(
        "rosetta-python",
        rosetta_summary("the terminal itself runs under Rosetta, so everything started from it is x86_64"),
        Remediation(table.fill(entry.fix, values), tuple(table.fill(c, values) for c in entry.commands)),
        shown(lines, 1, 2),
        entry.source,
    )


def test_an_x86_64_python_whose_file_is_shown_gets_the_fix_for_that_python() -> None:
    lines = [FILE_X86, ARM64]
    paste = read("\n".join(lines))
    info = paste.facts.target.interpreter
    assert info is not None
    why, remedy = rosetta_cause(Context(paste.facts), info)
    assert explain_text("\n".join(lines)).cause == Cause(
        "rosetta-python", rosetta_summary(why), remedy, shown(lines, 1, 2), CAUSES["rosetta-python"].source
    )


def test_an_x86_64_build_without_its_file_is_said_as_a_build() -> None:
    lines = [MACHINE_X86, ARM64]
    paste = read("\n".join(lines))
    info = paste.facts.target.interpreter
    assert info is not None and not info.real_executable
    _, remedy = rosetta_cause(Context(paste.facts), info)
    assert explain_text("\n".join(lines)).cause == Cause(
        "rosetta-python",
        rosetta_summary("an x86_64 Python build"),
        remedy,
        shown(lines, 1, 2),
        CAUSES["rosetta-python"].source,
    )


def test_a_conda_env_of_intel_packages_is_said_as_conda_and_fixed_with_arm64_packages() -> None:
    lines = [CONDA_64, ARM64]
    paste = read("\n".join(lines))
    info = paste.facts.target.interpreter
    assert info is not None and not info.conda_prefix
    _, remedy = rosetta_cause(Context(paste.facts), replace(info, conda_prefix="torch", conda_subdir="osx-64"))
    assert explain_text("\n".join(lines)).cause == Cause(
        "rosetta-python",
        rosetta_summary("a conda Python with Intel (osx-64) packages"),
        remedy,
        shown(lines, 1, 2),
        CAUSES["rosetta-python"].source,
    )


def test_an_intel_mac_and_a_pc_are_said_from_the_general_table() -> None:
    intel = ["machdep.cpu.brand_string: Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz", "hw.optional.arm64: 0"]
    entry = CAUSES["intel-mac"]
    values = {"python": "python3", "last_intel": last_intel_mac_torch(), "conda_arm64": conda_arm64_create()}
    assert explain_text("\n".join(intel)).cause == Cause(
        "intel-mac",
        table.fill(entry.summary, values),
        Remediation(table.fill(entry.fix, values), tuple(table.fill(c, values) for c in entry.commands)),
        shown(intel, 1, 2),
        entry.source,
    )
    pc = "My PC has an RTX 3090 and torch uses it fine"
    entry = CAUSES["not-macos"]
    cause = explain_text(pc).cause
    assert cause.summary == table.fill(entry.summary, {"system": "a PC with an NVIDIA GPU"})
    assert (cause.id, cause.evidence, cause.source) == ("not-macos", shown([pc], 1), entry.source)


def test_a_torch_built_without_mps_is_the_rows_cause_unless_not_on_macos() -> None:
    lines = [">>> torch.backends.mps.is_built()", "False"]
    row = table.BY_ID["not-built"]
    fix = Remediation(row.fix, tuple(table.fill(c, {"python": "python3"}) for c in row.commands))
    assert explain_text("\n".join(lines)).cause == Cause(
        "torch-not-built-with-mps", row.summary, fix, shown(lines, 1, 2), row.source
    )
    linux = explain_text("\n".join(["OS: Ubuntu 22.04.4 LTS (x86_64)", *lines]))
    assert [c.id for c in [linux.cause, *linux.others]] == ["not-macos"]
