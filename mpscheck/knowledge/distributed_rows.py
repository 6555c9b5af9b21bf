"""Rows of the known-errors table (joined into ``LIBRARY`` by knowledge/library_rows.py) for work split over
several processes with its tensors on mps: torch.distributed has no communication backend for MPS tensors (NCCL
is CUDA's, gloo reduces CPU tensors), Lightning refuses its DDP strategies on the MPS accelerator, and a tensor on
mps cannot be put in shared memory for other processes (Hogwild, marker's batch workers).

Their own cause, ``distributed-on-mps``: none of these is a bug fixed later or a missing op, and the fix is the
same shape each time, one process on mps or the multi-process job on the CPU. Every pattern is an alternation of
literals: linear on any line, and each row keeps a literal for the needle gate.
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import Row

ONE_PROCESS = "train on mps in one process"

DISTRIBUTED: tuple[Row, ...] = (
    Row(
        "ddp-strategy-on-mps",
        # Lightning's accelerator connector (PR Lightning-AI/pytorch-lightning#16153): "You set `strategy=ddp`, but
        # strategies from the DDP family are not supported on the MPS accelerator. Either explicitly set
        # `accelerator='cpu'` or change the strategy."
        r"strategies from the DDP family are not supported on the MPS accelerator",
        "distributed-on-mps",
        "Lightning's DDP strategies (several processes joined by torch.distributed) do not run on the MPS "
        "accelerator: torch.distributed has no MPS backend",
        f"Either {ONE_PROCESS} (no strategy='ddp', devices=1), or run the DDP job on the CPU (accelerator='cpu').",
        (),
        "https://github.com/Lightning-AI/pytorch-lightning/pull/16153 (the accelerator connector's check); "
        "https://github.com/chemprop/chemprop/issues/1261",
    ),
    Row(
        "no-comm-backend-for-mps",
        # torch/distributed/distributed_c10d.py (BackendConfig): no default backend for the mps device before
        # pytorch/pytorch#149538; ProcessGroup.hpp when a collective is handed mps tensors on a gloo group
        r"We detected accelerator mps on your machine\. But we don't know which communication backend"
        r"|No backend type associated with device type mps\b"
        # gloo handed an mps tensor by DDP's first collective (ultralytics/ultralytics#15701): "ProcessGroupGloo::
        # allgather: invalid tensor type at index 0 (expected TensorOptions(... device=cpu ...), got ... device=mps:0"
        r"|ProcessGroupGloo::\w{1,40}: invalid tensor type\b[^\n]{0,400}?\bdevice=mps\b",
        "distributed-on-mps",
        "torch.distributed has no communication backend for mps tensors (NCCL is CUDA's; gloo reduces CPU tensors)",
        f"Either {ONE_PROCESS}, or start torch.distributed with backend='gloo' and reduce CPU tensors (the job on "
        "the CPU); later torch releases pick gloo for mps by themselves.",
        (),
        "torch/distributed/distributed_c10d.py (BackendConfig); https://github.com/pytorch/pytorch/issues/149537; "
        "https://github.com/deepspeedai/DeepSpeed/issues/7148; https://github.com/ultralytics/ultralytics/pull/15701",
    ),
    Row(
        "share-memory-on-mps",
        # torch/csrc/StorageSharing.cpp: share_memory_() (Hogwild's model.share_memory(), a DataLoader worker
        # handing back mps tensors) is for CPU storages only; marker refuses its batch workers on mps itself
        r"_share_(?:filename|fd)_: only available on CPU"
        r"|Cannot use MPS with torch multiprocessing share_memory",
        "distributed-on-mps",
        "tensors on mps cannot be shared between processes (share_memory, torch.multiprocessing): only CPU tensors can",
        f"Either {ONE_PROCESS} (one worker; DataLoader workers hand back CPU tensors, moved to mps in the main "
        "process), or run the multi-process job on the CPU (marker: TORCH_DEVICE=cpu).",
        (),
        "torch/csrc/StorageSharing.cpp (_share_filename_); https://github.com/pytorch/examples/issues/1105; "
        "https://github.com/datalab-to/marker/issues/255",
    ),
)

# The same told in words, no message quoted: "the `c10d` operators on MPS" (pytorch/pytorch#173808), "MPS + DDP is
# unsupported" (TomAIDD/NaFM-Official#2). Joined into knowledge/told_rows.py's TOLD (late): a message, when quoted
# too, outranks its retelling. Each branch starts with its own literal, the row's needles (never every "mps" line).
_ON_MPS = r"[^\n]{0,60}?\b(?:on|with|for|using|to) (?:the |an? )?(?:MPS|mps|Mps)\b"
DISTRIBUTED_TOLD = Row(
    "distributed-on-mps-told",
    rf"\bc10d\b{_ON_MPS}|\btorch\.distributed\b{_ON_MPS}|\bDistributedDataParallel\b{_ON_MPS}|\bDDP\b{_ON_MPS}"
    r"|(?<!\w)(?:MPS|mps) ?\+ ?DDP\b",
    "distributed-on-mps",
    "the paste tells of torch.distributed (DDP, c10d collectives) with tensors on mps, which has no communication "
    "backend for them",
    f"Either {ONE_PROCESS}, or run the multi-process job on the CPU (backend='gloo' with CPU tensors, "
    "accelerator='cpu'); the CPU fallback does not make collectives on mps tensors work.",
    (),
    "https://github.com/pytorch/pytorch/issues/173808 (and PR #173954: collectives on mps fail even with the "
    "fallback); https://github.com/TomAIDD/NaFM-Official/pull/2",
)
