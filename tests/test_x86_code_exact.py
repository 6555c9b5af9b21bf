"""Intel MKL's messages say x86_64 code runs (probes/paste/x86_code.py), pinned exactly: which lines the
reader takes, that the x86 evidence counts only where the paste shows a Mac, and the cause each Mac gets
(an Apple chip: Rosetta, with the fix for an Intel Python install; an Intel Mac: that Mac; an unknown Mac:
both, with the command that tells them apart). Also the known-errors row for a torch library that dyld
rejected with its reason cut (knowledge/error_texts.py).
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import Evidence, explain_text
from mpscheck.checks.causes.judge import _Judge
from mpscheck.knowledge.errors import first
from mpscheck.model import Remediation
from mpscheck.probes.paste import parser, read

FATAL = (
    "Intel MKL FATAL ERROR: This system does not meet the minimum requirements for use of the Intel(R) Math Kernel "
    "Library."
)
WARNING = (
    "Intel MKL WARNING: Support of Intel(R) Streaming SIMD Extensions 4.2 (Intel(R) SSE4.2) enabled only processors "
    "has been deprecated. Intel oneAPI Math Kernel Library 2025.0 will require Intel(R) Advanced Vector Extensions "
    "(Intel(R) AVX) instructions."
)
BUILT = (
    "  - Intel(R) oneAPI Math Kernel Library Version 2021.4-Product Build 20210904 for Intel(R) 64 architecture "
    "applications"
)
DLOPEN_ERROR = (
    "INTEL MKL ERROR: dlopen(/opt/miniconda3/envs/ml/lib/libmkl_intel_thread.1.dylib, 0x0009): Library not loaded"
)
M1 = "# user: I'm getting this error on a M1 Pro 2021 MacBook"
INTEL = "machdep.cpu.brand_string: Intel(R) Core(TM) i7-9750H CPU @ 2.60GHz"
DARWIN = "/Users/me/opt/anaconda3/envs/ldm/lib/python3.10/multiprocessing/resource_tracker.py:224: UserWarning: x"


def facts_of(lines: list[str]) -> list[tuple[str, object, int]]:
    return [(obs.fact, obs.value, obs.line) for obs in parser("x86_code")(lines)]


@pytest.mark.parametrize("line", [FATAL, WARNING, BUILT, DLOPEN_ERROR, "intel mkl fatal error: x"])
def test_each_mkl_line_says_x86_64_code_runs(line: str) -> None:
    assert facts_of(["before", line, line]) == [("paste.x86_library", "Intel MKL", 2)]  # the first line only
    assert {obs.kind for obs in parser("x86_code")([line])} == {"x86_code"}


@pytest.mark.parametrize(
    "line",
    [
        "Intel MKL is fast",  # prose, no message
        "  - Intel(R) oneAPI Math Kernel Library Version 2021.4 for Intel(R) 32 architecture",
        "LAPACK is enabled (usually provided by MKL)",
        "MKL_DEBUG_CPU_TYPE=5",
        "",
    ],
)
def test_other_mkl_words_are_not_read(line: str) -> None:
    assert facts_of([line]) == []


def judge(lines: list[str]) -> _Judge:
    return _Judge(read("\n".join(lines)), [], None)


def test_the_mkl_line_is_x86_evidence_only_where_the_paste_shows_a_mac() -> None:
    assert judge([FATAL]).x86_python() == ()  # Linux x86 boxes print it too: no Mac, no evidence
    assert judge([M1, FATAL]).x86_python() == (Evidence(2, FATAL),)
    assert judge([DARWIN, FATAL]).x86_python() == (Evidence(2, FATAL),)  # a /Users path: macOS
    assert judge([INTEL, FATAL]).x86_python() == ()  # the Intel brand alone names no Mac
    assert judge(["# user: it fails on my MacBook", FATAL]).x86_python() == (Evidence(2, FATAL),)  # a Mac named


def test_mkl_on_an_apple_chip_is_rosetta_with_the_fix_for_an_intel_python_install() -> None:
    cause = explain_text("\n".join([M1, "", FATAL])).cause
    assert cause.id == "rosetta-python"
    assert "Intel MKL, which exists only as x86_64 code, runs in this Python" in cause.summary
    assert "the terminal itself" not in cause.summary  # the paste does not show the terminal
    assert cause.fix == Remediation(
        "Check the Python's architecture (x86_64 means an Intel build under Rosetta), then install an arm64 "
        "Python, such as an arm64 Miniforge or Homebrew in /opt/homebrew, and recreate the environment with it.",
        (
            "python3 -c 'import platform; print(platform.machine())'",
            "CONDA_SUBDIR=osx-arm64 conda create -n torch-arm64 python=3.12",
        ),
    )
    assert [e.line for e in cause.evidence] == [1, 3]


def test_mkl_with_a_translated_shell_keeps_the_terminal_answer() -> None:
    cause = explain_text("\n".join([M1, "sysctl.proc_translated: 1", FATAL])).cause
    assert cause.id == "rosetta-python"
    assert "the terminal itself runs under Rosetta" in cause.summary


def test_mkl_on_a_mac_of_unknown_chip_names_both_and_on_an_intel_mac_that_mac() -> None:
    unknown = explain_text("\n".join([DARWIN, FATAL]))
    assert [(c.id, c.variant) for c in [unknown.cause, *unknown.others]][:2] == [
        ("rosetta-python", "chip-not-shown"),
        ("intel-mac", "chip-not-shown"),
    ]
    lines = ["# user: my MacBook Pro 2009 with 2.53 GHz Intel Core 2 Duo", FATAL]
    assert explain_text("\n".join(lines)).cause.id == "intel-mac"


LIB = (
    "/Library/Frameworks/Python.framework/Versions/3.11/lib/python3.11/site-packages/torch/lib/"
    "libtorch_global_deps.dylib"
)
TRIED = f"OSError: dlopen({LIB}, 0x000A): tried: '{LIB}' "


@pytest.mark.parametrize("tail", ["(mach-o file, bu", "", "(code signature invalid)"])
def test_a_torch_library_that_dyld_rejected_is_read_as_a_build_for_the_other_architecture(tail: str) -> None:
    hit = first(TRIED + tail)
    assert hit is not None and hit.row.id == "torch-dylib-not-loaded" and hit.groups["library"] == LIB
    cause = explain_text(TRIED + tail).cause
    assert cause.id == "wrong-arch-wheel"
    assert cause.fix is not None and cause.fix.commands == (
        f"file {LIB}",
        "python3 -c 'import platform, sys; print(sys.executable, platform.machine())'",
        "python3 -m pip install --force-reinstall --no-cache-dir torch",
    )


def test_a_missing_file_or_a_full_reason_is_left_to_other_rows() -> None:
    assert first(TRIED + "(no such file)") is None
    full = TRIED + "(mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64'))"
    hit = first(full)
    assert hit is not None and hit.row.id == "wrong-arch-dylib"
    other = f"OSError: dlopen({LIB}, 0x000A): Library not loaded: @rpath/libomp.dylib"
    assert first(other) is None or first(other).row.id != "torch-dylib-not-loaded"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "line",
    [
        "Failed to load cpm_kernels:Unknown platform: darwin",
        "Message: 'Failed to load cpm_kernels:'",
        "AttributeError: 'NoneType' object has no attribute 'int4WeightExtractionHalf'",
        '  File "/x/site-packages/cpm_kernels/library/nvrtc.py", line 5, in <module>',
        ' File "/x/site-packages/cpm_kernels/library/base.py", line 59, in __init__',
        "cpm_kernels raised RuntimeError: Unknown platform: darwin",
    ],
)
def test_cpm_kernels_of_a_quantized_chatglm_is_a_cuda_only_library(line: str) -> None:
    hit = first(line)
    assert hit is not None and (hit.row.id, hit.row.cause) == ("cuda-only-library", "backend-has-no-mps")


def test_an_unknown_platform_alone_is_a_library_without_macos_that_the_answer_does_not_name() -> None:
    hit = first("RuntimeError: Unknown platform: darwin")
    assert hit is not None and (hit.row.id, hit.row.cause) == ("unknown-platform-darwin", "backend-has-no-mps")
    assert "cpm_kernels" in hit.row.summary and "with ChatGLM-style" in hit.row.summary  # named as a likely one
    assert first("Unknown platform: darwin64") is None and first("Unknown platform: linux") is None
    named = first("Failed to load cpm_kernels:Unknown platform: darwin")
    assert named is not None and named.row.id == "cuda-only-library"  # the library named: the earlier row
