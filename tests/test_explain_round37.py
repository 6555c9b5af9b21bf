"""The classes of input the 37th out-of-sample round (2026-11-25: vision, NLP, embedding and LLM-app libraries, and
distributed training on a Mac) found explain missing, each read generally: work split over several processes with
its tensors on mps had no cause, and every such paste was read as an MPS crash fixed later. Lightning's DDP
strategies on the MPS accelerator, torch.distributed with no communication backend for mps, and an mps tensor put
in shared memory for other processes are one cause, ``distributed-on-mps``: one process on mps, or the job on the
CPU.

The texts are lines of the round's threads (tests/corpus names each).
"""

from __future__ import annotations

import pytest

from mpscheck.checks.causes import explain_text
from mpscheck.knowledge.errors import BY_ID, first

DDP = (
    "ValueError: You set `strategy=ddp`, but strategies from the DDP family are not supported on the MPS "
    "accelerator. Either explicitly set `accelerator='cpu'` or change the strategy."
)
NO_BACKEND = (
    "E   ValueError: We detected accelerator mps on your machine. But we don't know which communication backend to "
    "use for this accelerator. Please specify the `backend` argument in the `init_process_group` call."
)
SHARE = "Runtimeerror: _share_filename_: only available on CPU"
MARKER = (
    'raise ValueError("Cannot use MPS with torch multiprocessing share_memory.  You have to use CUDA or CPU.  Set '
    'the TORCH_DEVICE environment variable to change the device.")'
)


@pytest.mark.parametrize(
    ("line", "row"),
    [
        (DDP, "ddp-strategy-on-mps"),
        (NO_BACKEND, "no-comm-backend-for-mps"),
        ("RuntimeError: No backend type associated with device type mps", "no-comm-backend-for-mps"),
        (SHARE, "share-memory-on-mps"),
        ("RuntimeError: _share_fd_: only available on CPU", "share-memory-on-mps"),
        (MARKER, "share-memory-on-mps"),
    ],
)
def test_each_distributed_wording_is_its_row_and_the_cause(line: str, row: str) -> None:
    hit = first(line)
    assert hit is not None and hit.row.id == row
    diagnosis = explain_text(line)
    assert diagnosis.cause.id == "distributed-on-mps"
    assert diagnosis.cause.fix is not None
    assert "one process" in diagnosis.cause.fix.summary and "CPU" in diagnosis.cause.fix.summary


def test_the_fix_names_what_each_wording_needs() -> None:
    assert "accelerator='cpu'" in BY_ID["ddp-strategy-on-mps"].fix
    assert "backend='gloo'" in BY_ID["no-comm-backend-for-mps"].fix
    assert "TORCH_DEVICE=cpu" in BY_ID["share-memory-on-mps"].fix


def test_the_ddp_error_quoted_in_prose_is_the_cause() -> None:
    said = (  # chemprop#1261: the error only in the user's sentence, inside double quotes
        '# user: I encounter an error when running "train" or "hpopt" with \'mps\'. The error message states: '
        '"ValueError: You set `strategy=ddp`, but strategies from the DDP family are not supported on the MPS '
        "accelerator. Either explicitly set `accelerator='cpu'` or change the strategy.\""
    )
    assert explain_text(said).cause.id == "distributed-on-mps"


def test_other_backends_and_other_devices_are_not_this_cause() -> None:
    assert explain_text("RuntimeError: Distributed package doesn't have NCCL built in").cause.id == (
        "cuda-requested-on-mac"  # NCCL is the CUDA backend asked for on a Mac: its own cause
    )
    for line in (
        "RuntimeError: No backend type associated with device type npu",  # ms-swift on Ascend, not a Mac
        "We detected accelerator xpu on your machine. But we don't know which communication backend to use",
        "strategies from the DDP family are not supported on the CPU accelerator",
    ):
        assert explain_text(line).cause.id != "distributed-on-mps", line
