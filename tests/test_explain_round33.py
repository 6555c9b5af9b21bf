"""The classes of input the thirty-third out-of-sample round (2026-11-24, training frameworks and their tooling on a
Mac: Lightning, the transformers Trainer, accelerate, autotrain, LLaMA-Factory, Unsloth, keras' torch backend, skorch,
ignite, fastai) found explain missing, each read generally:

- an error retold in the user's words: MPS that "doesn't support the `float64` type" (pytorch/ignite#3326), with an
  article or quotes between the words; a CUDA error told as "an error saying no CUDA device found"
  (unslothai/unsloth#685): the tool looked for an NVIDIA GPU on a Mac, which "my Mac has no CUDA" alone does not say;
- a default that is CUDA, said of the code ("The above code defaults to "cuda", but it should consider whether mps is
  available first", huggingface/peft#1575): CUDA asked for on a Mac, not a default taken only "if available";
- Tensor.cuda(device) handed the Mac's device ("RuntimeError: Invalid device, must be cuda device",
  fishaudio/fish-speech#60): the code asks for CUDA;
- torch's convolution device check quoted by its head, cut before "must be on the same device", as an issue's title
  gives it (huggingface/transformers#31571): an input on the CPU and weights on mps;
- a line naming Apple silicon and AMD (or Intel) together ("works on both Apple silicon and AMD GPUs",
  keras-team/keras#18437) says nothing of which Mac the user has: no Intel Mac is concluded from it;
- pip's version list that stops at a release newer ones followed ("from versions: ..., 2.8.0" asked for torch>=2.10,
  unslothai/unsloth#7306): the next release dropped a Python, and that Python is the interpreter's.

The texts are lines of the round's threads (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.model import ExitCode
from mpscheck.probes.paste import read

FLOAT64_SAID = [
    # pytorch/ignite#3326
    "Running metrics via `evaluator.run(dataloader)` on MacOS fails, because the pytorch MPS backend doesn't support "
    "the `float64` type that the result is cast into.",
    "training stops: MPS does not support the 'float64' dtype",
    "MPS can't support a double tensor, so the loss has to be cast",
]


@pytest.mark.parametrize("paste", FLOAT64_SAID)
def test_float64_told_in_words_with_an_article_or_quotes_is_float64_unsupported(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "float64-unsupported"
    assert diagnosis.exit_code == ExitCode.PROBLEMS


@pytest.mark.parametrize(
    "paste",
    [
        "MPS supports the float32 type only",  # nothing refused
        "CUDA doesn't support the `float64` type on this card",  # not MPS
        "MPS doesn't support the new optimizer",  # not float64
    ],
)
def test_other_words_about_support_are_not_float64(paste: str) -> None:
    assert explain_text(paste).cause.id != "float64-unsupported"


CUDA_ERROR_RETOLD = [
    # unslothai/unsloth#685
    "So, I have a macbook, and when i run my model on it, i bascially get an error saying no CUDA device found. "
    "(I have a macbook m3 16)",
    "On my M2 MacBook Air the script fails with an error that says no NVIDIA GPU found",
    "I get a message saying No CUDA GPUs are available on my Mac mini M4",
]


@pytest.mark.parametrize("paste", CUDA_ERROR_RETOLD)
def test_a_cuda_error_retold_on_a_mac_is_cuda_requested(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.exit_code == ExitCode.PROBLEMS


@pytest.mark.parametrize(
    "line",
    [
        "I know there is no CUDA device on a MacBook",  # what the Mac lacks, no error retold
        "my MacBook has no NVIDIA GPU available",
        "the error says no module named torch",  # an error, but not CUDA's
        "an error saying no devices found",  # no CUDA or NVIDIA named
    ],
)
def test_a_mac_without_cuda_or_another_error_is_no_cuda_asked_for(line: str) -> None:
    assert read(line).get("paste.cuda_asked") is None


def test_a_cuda_default_said_of_the_code_on_a_mac_is_cuda_requested() -> None:
    # huggingface/peft#1575's words, with the Mac it names
    paste = (
        "apple m3 max\n"
        'The above code defaults to "cuda", but it should consider whether mps is available first, instead.'
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.exit_code == ExitCode.PROBLEMS


@pytest.mark.parametrize(
    "line",
    [
        "the device defaults to cuda if available",  # CUDA only where it is there
        "it defaults to cuda when there is a GPU",
        "it defaults to cpu, not cuda",
    ],
)
def test_a_default_taken_only_where_cuda_is_there_asks_for_nothing(line: str) -> None:
    assert read(line).get("paste.cuda_asked") is None


def test_cuda_called_with_a_device_that_is_not_cudas_is_cuda_requested() -> None:
    # fishaudio/fish-speech#60, under a Chinese sentence naming the Mac's own chip
    paste = (
        "入手了mac 自家芯片的笔记本\n"
        "return self._apply(lambda t: t.cuda(device))\n"
        "RuntimeError: Invalid device, must be cuda device"
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert "mps" in diagnosis.cause.fix.summary


def test_the_convolution_device_check_cut_before_its_tail_is_a_device_mismatch() -> None:
    # huggingface/transformers#31571's title, and the 3-d one with the weight's device quoted
    for paste in (
        "RuntimeError: slow_conv2d_forward_mps: input(device='cpu') and weight(device=mps:0')",
        "slow_conv3d_forward_mps: input(device='cpu') and weight(device='mps:0')",
    ):
        diagnosis = explain_text(paste)
        assert diagnosis.cause.id == "device-mismatch", paste
        assert ".to(" in diagnosis.cause.fix.summary


def test_the_whole_convolution_message_stays_torch_messages_own() -> None:
    paste = (
        "RuntimeError: slow_conv2d_forward_mps: input(device='cpu') and weight(device=mps:0') "
        "must be on the same device"
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "device-mismatch"
    assert diagnosis.cause.variant == "torch-message"


def test_a_line_naming_apple_silicon_and_amd_together_says_no_intel_mac() -> None:
    line = (
        "Using a Mac, I was trying to manually set a keras-core more with torch backend to benefit from the Metal GPU "
        "acceleration, which works on both Apple silicon and AMD GPUs."
    )
    assert read(line).get("paste.intel_prose") is None
    assert explain_text(line).cause.id != "intel-mac"


def test_an_intel_mac_named_alone_is_still_an_intel_mac() -> None:
    assert read("I am on my Intel MacBook Pro 2019").get("paste.intel_prose") is not None


def _pip(versions: str, wanted: str) -> str:
    return (
        f"ERROR: Could not find a version that satisfies the requirement torch{wanted} (from versions: {versions})\n"
        f"ERROR: No matching distribution found for torch{wanted}"
    )


@pytest.mark.parametrize(
    ("versions", "wanted", "python"),
    [
        # unslothai/unsloth#7306: torch 2.9 dropped Python 3.9
        ("2.5.1, 2.6.0, 2.7.0, 2.7.1, 2.8.0", ">=2.10", "3.9"),
        # torch 2.5 dropped Python 3.8
        ("2.2.2, 2.3.0, 2.3.1, 2.4.0, 2.4.1", ">=2.6", "3.8"),
    ],
)
def test_a_version_list_that_stops_below_newer_releases_names_the_python_they_dropped(
    versions: str, wanted: str, python: str
) -> None:
    diagnosis = explain_text(_pip(versions, wanted))
    assert diagnosis.cause.id == "no-matching-distribution"
    assert f"this interpreter is Python {python}" in diagnosis.cause.summary
    assert any("python@3.12" in command for command in diagnosis.cause.fix.commands)


def test_a_version_list_that_ends_at_the_newest_release_names_no_python() -> None:
    from mpscheck.knowledge import releases

    newest = releases.known_releases("arm64")[-1]
    diagnosis = explain_text(_pip(f"2.8.0, {newest}", "==9.0"))
    assert diagnosis.cause.id == "no-matching-distribution"
    assert "this interpreter is Python" not in diagnosis.cause.summary


def test_a_version_list_that_stops_at_the_last_intel_release_stays_an_intel_python() -> None:
    diagnosis = explain_text(_pip("2.0.1, 2.1.0, 2.2.0, 2.2.1, 2.2.2", ">=2.4"))
    assert "x86_64" in diagnosis.cause.summary
    assert "this interpreter is Python" not in diagnosis.cause.summary
