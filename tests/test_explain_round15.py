"""The classes of input the fifteenth out-of-sample round (2026-11-24, blogs and other pages outside the issue
trackers) found explain missing, each read generally: torch's CPU-fallback warning retold with the op's quotes lost
or changed (a blog's code span, typographic quotes, the space after "operator" gone), and the user's words that the
work runs on the CPU: a tool's default ("defaults to CPU"), the GPU ignored or not used (not when asked, and not a
GPU at 0 %, which a swapping run on mps shows too).

The texts are lines of the round's pages (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.probes.paste import prose

WARNING = "is not currently supported on the MPS backend and will fall back to run on the CPU."


@pytest.mark.parametrize(
    "op",
    [
        "aten::linalg_svd",  # vglazer.github.io/training-on-metal: a code span that lost its quotes
        "‘aten::linalg_svd’",
        "`aten::linalg_svd`",
        '"aten::linalg_svd"',
        "'aten::linalg_svd'",  # torch's own words (MPSFallback.mm)
    ],
)
def test_the_fallback_warning_with_its_op_in_any_quotes_is_the_warning(op: str) -> None:
    diagnosis = explain_text(f"The operator {op} {WARNING} This may have performance implications.")
    assert diagnosis.cause.id == "op-fallback-warning"
    assert "aten::linalg_svd runs on the CPU" in diagnosis.cause.summary
    # judged as torch's own wording is: the same exit code
    assert diagnosis.exit_code == explain_text(f"The operator 'aten::linalg_svd' {WARNING}").exit_code


def test_the_fallback_warning_quoted_in_prose_is_read() -> None:
    # the blog's sentence: the warning called an "error", inside typographic double quotes, on a prose line
    line = (
        "# user: For example, if you try to run torch.svd on MPS, you get this error: “The operator aten::linalg_svd "
        f"{WARNING} This may have performance implications.”."
    )
    assert explain_text(line).cause.id == "op-fallback-warning"


def test_the_fallback_warning_whose_space_was_lost_is_read() -> None:
    assert explain_text(f"The operatoraten::linalg_svd {WARNING}").cause.id == "op-fallback-warning"


def test_the_op_message_in_typographic_quotes_is_the_op_not_implemented() -> None:
    diagnosis = explain_text("The operator ‘aten::_fft_r2c’ is not currently implemented for the MPS device.")
    assert diagnosis.cause.id == "op-not-implemented"


def test_a_fallback_word_without_an_op_is_not_the_warning() -> None:
    # no op named: nothing says which op fell back
    assert explain_text(f"The operator {WARNING}").cause.id != "op-fallback-warning"


@pytest.mark.parametrize(
    "line",
    [
        # yuanchang.org/en/posts/apple-silicon-stt-guide
        "# user: The issue is clear: OpenAI’s Python Whisper defaults to CPU on macOS and completely ignores the "
        "M4 Pro’s GPU.",
        "it defaulted to the CPU",
        "the pipeline defaults to using the cpu",
        "it ignores my GPU",
        "the GPU is not being used at all",
        "mps wasn't even used",
        "they ignore the GPU",
    ],
)
def test_the_cpu_told_in_words_is_the_device_used(line: str) -> None:
    read = [(o.fact, o.value, o.line) for o in prose.parse([line])]
    assert read[0] == ("paste.device_used", "cpu", 1), line
    assert [fact for fact, _, _ in read].count("paste.device_used") == 1


@pytest.mark.parametrize(
    "line",
    [
        # a GPU at 0 % or idle: a run on mps that swaps shows it too (jankais3r/LLaMA_MPS#2, out of memory)
        "GPU usage 0% at M2 Max MacBook Pro",
        "the GPU sits idle",
        # asked, not told: a guess (RVC-Project#767)
        "Is it that slow because RVC still doesn't support Apple Silicon, and the GPU is not being used?",
        # a library's own notice, read by the error table
        "surya: `TableRecEncoderDecoderModel` is not compatible with mps backend. Defaulting to cpu instead",
        "we ignore the warning about the GPU",
        "the GPU is used",
    ],
)
def test_a_busy_gpu_a_question_or_other_words_are_not_the_cpu(line: str) -> None:
    assert ("paste.device_used", "cpu") not in [(o.fact, o.value) for o in prose.parse([line])], line


def test_a_tool_on_the_cpu_told_with_a_named_chip_is_mps_not_requested() -> None:
    text = (
        "# user: My machine: MacBook Pro M4 Pro with 24GB unified memory.\n"
        "whisper recording.m4a --model turbo --language en\n"
        "# user: Then I waited… for 2.5 hours. top showed over 1000% CPU usage.\n"
        "# user: Whisper defaults to CPU on macOS and completely ignores the M4 Pro’s GPU.\n"
    )
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "mps-not-requested"
    assert diagnosis.exit_code != 0
    # without the words, the same paste says too little to name a cause
    assert explain_text(text.rsplit("# user: Whisper", 1)[0]).cause.id != "mps-not-requested"


def test_the_op_message_whose_space_was_lost_is_the_op_not_implemented() -> None:
    text = (
        "NotImplementedError: The operatoraten::_linalg_solve_ex.result is not currently implemented for the MPS "
        "device."
    )
    diagnosis = explain_text(text)
    assert diagnosis.cause.id == "op-not-implemented"
    assert "aten::_linalg_solve_ex.result" in diagnosis.cause.summary
