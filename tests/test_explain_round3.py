"""The classes of input the third out-of-sample round (2026-11-24) found explain missing, each read
generally: ld64's other wording of an architecture mismatch, a framework's own environment report
(Lightning's lower-case ``- processor: i386`` rows) and the kernel's version string on its own, and an
install failure told in words (the pip error was a screenshot) judged against the generated wheel table.

The texts are lines of the round's threads (tests/corpus names each); the wheel facts come from
mpscheck/knowledge/torch_releases.json (generated from the wheels).
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge import errors as table
from mpscheck.knowledge import releases
from mpscheck.probes.paste import read

LD_NEW = (
    "ld: warning: ignoring file '/Users/u/micromamba/envs/demo/lib/python3.10/site-packages/torch/lib/libtorch.dylib': "
    "found architecture 'x86_64', required architecture 'arm64'"
)  # LaurentMazare/tch-rs#881
KERNEL = "Darwin Kernel Version 22.1.0: Sun Oct  9 20:14:30 PDT 2022; root:xnu-8792.41.9~2/RELEASE_ARM64_T8103"
LIGHTNING_REPORT = f"""* System:
\t- OS:                Darwin
\t- architecture:
\t\t- 64bit
\t\t-
\t- processor:         i386
\t- python:            3.9.13
\t- version:           {KERNEL}
"""  # Lightning-AI/pytorch-lightning#16124


def facts_of(text: str) -> dict[str, object]:
    return {o.fact: o.value for o in read(text).observations}


def test_ld64s_found_architecture_wording_is_the_wrong_architecture() -> None:
    hit = table.first(LD_NEW)
    assert hit is not None and hit.row.id == "linker-other-arch"
    assert (hit.groups.get("have"), hit.groups.get("need")) == ("x86_64", "arm64")
    assert explain_text(LD_NEW).cause.id == "wrong-arch-wheel"


def test_the_kernel_version_string_alone_says_the_hardware() -> None:
    assert facts_of(f"- version: {KERNEL}")["host.arm64_hardware"] is True
    intel = KERNEL.replace("RELEASE_ARM64_T8103", "RELEASE_X86_64")
    assert facts_of(f"- version: {intel}")["host.arm64_hardware"] is False


def test_lightnings_environment_report_is_read() -> None:
    seen = facts_of(LIGHTNING_REPORT)
    assert seen["interpreter.processor"] == "i386"
    assert seen["interpreter.version"] == "3.9.13"
    assert seen["host.system"] == "Darwin"


def test_lightnings_report_of_an_i386_python_on_an_arm64_kernel_is_rosetta() -> None:
    diagnosis = explain_text(LIGHTNING_REPORT)
    assert diagnosis.cause.id == "rosetta-python"
    assert {e.line for e in diagnosis.cause.evidence} == {6, 8}


def test_lightnings_report_without_the_kernel_does_not_settle_the_chip() -> None:
    """processor i386 with no kernel line: Rosetta is said as most likely only (variant chip-not-shown), an Intel Mac
    next, never as settled."""
    text = "\n".join(line for line in LIGHTNING_REPORT.splitlines() if "Kernel" not in line)
    diagnosis = explain_text(text)
    assert [(c.id, c.variant) for c in [diagnosis.cause, *diagnosis.others]][:2] == [
        ("rosetta-python", "chip-not-shown"),
        ("intel-mac", "chip-not-shown"),
    ]
    full = explain_text(LIGHTNING_REPORT).cause
    assert (full.id, full.variant) == ("rosetta-python", None)  # the RELEASE_ARM64 kernel settles it


COLLECT_ENV_313 = """PyTorch version: N/A
OS: macOS 15.0.1 (arm64)
Python version: 3.13.0 (main, Oct  7 2024, 05:02:14) [Clang 16.0.0 (clang-1600.0.26.3)] (64-bit runtime)
Python platform: macOS-15.0.1-arm64-arm-64bit-Mach-O
"""  # pytorch/pytorch#137853


@pytest.mark.parametrize(
    "said",
    [
        "i have upgraded to python 3.13, but can not install pytorch 2.4.1",
        "I cannot install torch==2.4.1 on this Mac",
        "pip fails to install torch 2.4.1",
    ],
)
def test_an_install_failure_told_in_words_is_judged_by_the_wheel_table(said: str) -> None:
    assert releases.release_facts("2.4.1") is not None and "cp313" not in releases.release_facts("2.4.1").install
    diagnosis = explain_text(said + "\n" + COLLECT_ENV_313)
    assert diagnosis.cause.id == "no-matching-distribution"
    assert "2.4.1" in diagnosis.cause.summary and "3.13.0" in diagnosis.cause.summary
    assert diagnosis.cause.fix is not None
    first = next(v for v in releases.known_releases() if "cp313" in releases.release_facts(v).install)
    assert any(f"torch>={first}" in command for command in diagnosis.cause.fix.commands)


def test_a_version_that_has_a_wheel_for_the_python_is_not_called_missing() -> None:
    diagnosis = explain_text("can not install pytorch 2.6.0\n" + COLLECT_ENV_313)
    assert diagnosis.cause.id != "no-matching-distribution"


def test_an_install_failure_with_torch_installed_is_not_a_missing_wheel() -> None:
    text = "can not install pytorch 2.4.1\n" + COLLECT_ENV_313.replace("PyTorch version: N/A", "PyTorch version: 2.5.1")
    assert explain_text(text).cause.id != "no-matching-distribution"


# ---- text mangled on its way into a thread: each form read like the original -----------------------

OOM = (
    "RuntimeError: MPS backend out of memory (MPS allocated: 5.05 GB, other allocations: 2.29 GB, max allowed: "
    "6.77 GB). Tried to allocate 1024.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable "
    "upper limit for memory allocations (may cause system failure)"
)  # AUTOMATIC1111/stable-diffusion-webui#9133
CUDA = """Traceback (most recent call last):
  File "/start.py", line 6, in <module>
    model.half().cuda()
  File "/miniforge3/lib/python3.10/site-packages/torch/cuda/__init__.py", line 221, in _lazy_init
    raise AssertionError("Torch not compiled with CUDA enabled")
AssertionError: Torch not compiled with CUDA enabled"""  # Stability-AI/StableLM#31


@pytest.mark.parametrize(
    "mangle",
    [
        pytest.param(lambda t: t.replace(" ", "\u00a0"), id="non-breaking spaces"),
        pytest.param(lambda t: t.replace('"', "\u201d").replace("'", "\u2019"), id="curly quotes"),
        pytest.param(lambda t: t.replace('"', "&quot;").replace("'", "&#39;"), id="html entities"),
        pytest.param(lambda t: "\n".join("web-1  | " + line for line in t.split("\n")), id="compose prefix"),
        pytest.param(
            lambda t: "\n".join("2024-05-01 10:00:00,123 - ERROR - " + line for line in t.split("\n")), id="log prefix"
        ),
        pytest.param(lambda t: "\n".join("E       " + line for line in t.split("\n")), id="pytest E lines"),
        pytest.param(lambda t: t.replace("MPS", "M\u200bPS"), id="zero-width space"),
        pytest.param(
            lambda t: t.replace(": ", "\uff1a").replace(", ", "\uff0c").replace("(", "\uff08").replace(")", "\uff09"),
            id="full-width punctuation",
        ),
        pytest.param(lambda t: "\n".join("- " + line for line in t.split("\n")), id="list bullets"),
    ],
)
@pytest.mark.parametrize(("text", "cause"), [(OOM, "out-of-memory"), (CUDA, "cuda-requested-on-mac")])
def test_mangled_text_reads_like_the_original(mangle: object, text: str, cause: str) -> None:
    assert explain_text(text).cause.id == cause
    assert explain_text(mangle(text)).cause.id == cause  # type: ignore[operator]


def test_a_prefix_on_a_minority_of_lines_is_kept() -> None:
    text = "web-1  | hello\nplain line\nanother plain line\nthird"
    assert read(text).text.split("\n")[0] == "web-1  | hello"


def test_a_value_followed_by_an_annotation_is_read() -> None:
    seen = facts_of("platform.machine() → 'x86_64'              → the lie this PR describes")
    assert seen["interpreter.machine"] == "x86_64"
    assert facts_of("platform.processor() = 'i386'  # under Rosetta")["interpreter.processor"] == "i386"


def test_a_labelled_file_output_of_the_python_is_read() -> None:
    seen = facts_of("Python  : Mach-O 64-bit executable x86_64  → running translated")
    assert seen["interpreter.binary_archs"] == ["x86_64"]


# ---- the fourth round: wrong results told in words ----------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Training on M1 Pro with MPS as parameter reports 0 for all statistical metrics after each epoch.",
        "the loss is nan on mps but fine on the CPU",
        "with device mps the pipeline gives black images",
        "on MPS the output is pure noise",
    ],
)  # the first: ultralytics/ultralytics#9113
def test_wrong_results_told_in_words_are_not_healthy(said: str) -> None:
    assert facts_of(said).get("paste.wrong_results") is True
    diagnosis = explain_text(said + "\nCPU                 Apple M1 Pro\nOS macOS-14.4-arm64-arm-64bit")
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.cause.variant == "wrong-results"


def test_zero_or_nan_words_far_from_mps_say_nothing() -> None:
    assert "paste.wrong_results" not in facts_of("the scheduler returns 0 when the queue is empty")
    assert "paste.wrong_results" not in facts_of("I use mps for training.\nAlso, some values are NaN in my csv file.")


# ---- a known message soft-wrapped at word boundaries ----------------------------------------------------


def soft_wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.fill(line, width) if len(line) > width else line for line in text.split("\n"))


@pytest.mark.parametrize("width", [60, 72, 100])
@pytest.mark.parametrize(("text", "cause"), [(OOM, "out-of-memory"), (CUDA, "cuda-requested-on-mac")])
def test_a_known_message_wrapped_at_word_boundaries_is_read_whole(text: str, cause: str, width: int) -> None:
    wrapped = soft_wrap(text, width)
    assert wrapped.count("\n") > text.count("\n") or max(len(line) for line in text.split("\n")) <= width
    assert explain_text(wrapped).cause.id == cause


def test_the_joined_message_keeps_the_line_numbers() -> None:
    wrapped = "first line\n" + soft_wrap(OOM, 72) + "\nlast line"
    paste = read(wrapped)
    lines = paste.text.split("\n")
    assert len(lines) == wrapped.count("\n") + 1
    assert lines[1].startswith("RuntimeError: MPS backend out of memory") and lines[2] == ""
    assert lines[-1] == "last line"


def test_prose_lines_that_hold_no_known_message_are_not_joined() -> None:
    text = "I ran the training script on my laptop and it\nstopped after a while with no output at all."
    assert read(text).text == text


def test_an_op_message_retyped_in_a_sentence_is_still_the_op_message() -> None:
    said = "error says the operator 'aten::grid_sampler_3d' is not currently implemented for the MPS device"
    diagnosis = explain_text(said)
    assert diagnosis.cause.id == "op-not-implemented"
    assert "grid_sampler_3d" in diagnosis.cause.summary
