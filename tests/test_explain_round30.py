"""The classes of input the thirtieth out-of-sample round (2026-11-24, vision-language models and LLM fine-tuning or
inference on a Mac: MiniCPM-V, DeepSeek-VL, xinference, axolotl, llama3, llama-stack-apps, llama2.c, gemma_pytorch)
found explain missing, each read generally:

- torch's warning that the build has no NCCL ("Attempted to get default timeout for nccl backend, but NCCL support
  is not compiled"), which torch gives only when asked for the nccl backend: the code asks for an NVIDIA GPU, as the
  "Distributed package doesn't have NCCL built in" error says, also where the traceback is cut before that error;
- pip refusing a package pinned beside torch ("No matching distribution found for bitsandbytes==0.43.0"): an
  install failure of that package, never an unknown MPS error nor torch's own missing wheel.

The texts are lines of the round's threads (tests/corpus names each) and the same shapes in other words.
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge.install_rows import INSTALL

NCCL_WARNING = (
    "/opt/miniconda3/envs/llama3/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py:608: UserWarning: "
    "Attempted to get default timeout for nccl backend, but NCCL support is not compiled\n"
    '  warnings.warn("Attempted to get default timeout for nccl backend, but NCCL support is not compiled")\n'
    "Traceback (most recent call last):\n"
    '  File "/Users/shawn/llama3/example_chat_completion.py", line 84, in <module>\n'
    "    fire.Fire(main)\n"
)


def test_the_no_nccl_warning_of_a_cut_traceback_is_cuda_asked_for() -> None:
    diagnosis = explain_text(NCCL_WARNING)  # meta-llama/llama3#75
    assert diagnosis.cause.id == "cuda-requested-on-mac"
    assert diagnosis.cause.fix is not None
    assert "gloo" in diagnosis.cause.fix.summary
    assert diagnosis.exit_code == 1


def test_the_no_nccl_warning_alone_is_read_too() -> None:
    line = "UserWarning: Attempted to get default timeout for nccl backend, but NCCL support is not compiled"
    assert explain_text(line).cause.id == "cuda-requested-on-mac"


OTHER_PACKAGE = [
    ("ERROR: No matching distribution found for bitsandbytes==0.43.0", "bitsandbytes"),  # axolotl#1436
    ("ERROR: No matching distribution found for flash-attn>=2.5.0", "flash-attn"),
    ("ERROR: No matching distribution found for triton", "triton"),
]


@pytest.mark.parametrize(("paste", "package"), OTHER_PACKAGE)
def test_pip_refusing_another_package_is_that_package_missing(paste: str, package: str) -> None:
    diagnosis = explain_text("# user: on my M2\n" + paste)
    assert diagnosis.cause.id == "no-matching-distribution"
    assert package in diagnosis.cause.summary
    assert "torch wheel" not in diagnosis.cause.summary  # not read as torch's own missing wheel
    assert diagnosis.cause.fix is not None
    assert any(f"pip index versions {package}" in command for command in diagnosis.cause.fix.commands)
    assert diagnosis.exit_code == 1


def test_the_full_pip_refusal_of_bitsandbytes_is_not_an_unknown_mps_error() -> None:
    paste = (
        "ERROR: Could not find a version that satisfies the requirement bitsandbytes==0.43.0 (from axolotl) "
        "(from versions: 0.31.8, 0.32.0, 0.41.3.post2, 0.42.0)\n"
        "ERROR: No matching distribution found for bitsandbytes==0.43.0\n"
    )
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "no-matching-distribution"
    assert diagnosis.cause.variant != "unrecognised"


@pytest.mark.parametrize(
    "line",
    [
        "ERROR: No matching distribution found for torch==2.2.0",
        "ERROR: No matching distribution found for torchvision==0.15.2+cu118",
        "ERROR: No matching distribution found for torchaudio",
        "ERROR: No matching distribution found for torch",
    ],
)
def test_the_other_package_row_leaves_torch_and_its_siblings_to_the_torch_rows(line: str) -> None:
    row = next(row for row in INSTALL if row.id == "pip-no-match-other")
    assert row.pattern.search(line) is None
    assert "torch" in explain_text(line).cause.summary


def test_the_other_package_row_reads_the_name_without_its_pin() -> None:
    row = next(row for row in INSTALL if row.id == "pip-no-match-other")
    found = row.pattern.search("No matching distribution found for bitsandbytes==0.43.0")
    assert found is not None
    assert found["package"] == "bitsandbytes"
    torchlike = row.pattern.search("No matching distribution found for torchmetrics==1.0")
    assert torchlike is not None and torchlike["package"] == "torchmetrics"


ONLY_EXCLAIMED = [
    # davmacario/MDI-LLM#8
    "# user: When running inference from a pretrained model (huggingface) using MPS and a torch version above 2.2.0, "
    "I only get '!' at output (token 0).",
    "# user: with device mps the model just outputs !!!!!!!! for every prompt",
    '# user: on mps it only generates "!" tokens',
]


@pytest.mark.parametrize("paste", ONLY_EXCLAIMED)
def test_a_model_said_to_answer_only_exclamation_marks_on_mps_is_wrong_results(paste: str) -> None:
    diagnosis = explain_text(paste)
    assert diagnosis.cause.id == "metal-bug-fixed-later"
    assert diagnosis.exit_code == 1


@pytest.mark.parametrize(
    "paste",
    [
        "# user: I only get '!' at output (token 0).",  # no mps named: not read as the backend's results
        "# user: with mps the demo works, all good!",  # an exclamation of the user's own, not the model's output
    ],
)
def test_exclamation_marks_without_mps_or_without_only_are_not_wrong_results(paste: str) -> None:
    assert explain_text(paste).cause.id != "metal-bug-fixed-later"


FLASH_ATTN_SAID = [
    "ImportError: This modeling file requires... flash_attn",  # replit/ReplitLM#8's title, cut as posted
    "ImportError: This modeling file requires the following packages that were not found in your environment: "
    "flash_attn. Run `pip install flash_attn`",
    # flash-attn's setup.py on a Mac (OpenBMB/MiniCPM-V#11, Dao-AILab/flash-attention#770)
    "      UserWarning: flash_attn was requested, but nvcc was not found.  Are you sure your environment has nvcc "
    "available?",
]


@pytest.mark.parametrize("paste", FLASH_ATTN_SAID)
def test_flash_attn_asked_for_on_a_mac_is_a_cuda_only_library(paste: str) -> None:
    diagnosis = explain_text("# user: on my M1 Mac\n" + paste)
    assert diagnosis.cause.id == "backend-has-no-mps"
    assert "flash-attn" in diagnosis.cause.summary
    assert diagnosis.cause.fix is not None
    assert "sdpa" in diagnosis.cause.fix.summary


def test_a_quoted_reply_of_a_soft_wrapped_message_is_joined_as_the_message_itself() -> None:
    # mattmireles/gemma-tuner-multimodal#18: the out-of-memory message broken after "max allowed: 9.47 GiB)."
    from mpscheck.probes.paste import read

    text = (
        "RuntimeError: MPS backend out of memory (MPS allocated: 9.48 GiB, other allocations: 480.00 KiB, max "
        "allowed: 9.47 GiB).\n"
        "Tried to allocate 256 bytes on shared pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper "
        "limit for memory \n"
        "allocations (may cause system failure).\n"
    )
    quoted = "\n".join("> " + line for line in text.split("\n"))
    for paste in (text, quoted):
        values = [e.values for e in read(paste).facts.errors if e.values]
        assert values and values[0]["requested"] == "256 bytes"
