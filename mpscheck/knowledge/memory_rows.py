"""The known-errors table's rows for memory (errors.py joins them into ``TABLE`` in this place, after the linker
row): torch's out-of-memory message (a 0-byte one first: a virtual machine's GPU), Metal's largest buffer, and the
watermark ratios torch refuses. Each row with its source, each pattern linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import Row

SIZE = r"[\d.]+ ?(?:bytes|[KMGT]i?B)"

MEMORY: tuple[Row, ...] = (
    Row(
        "oom-zero",
        r"MPS backend out of memory \(MPS allocated: 0 bytes, other allocations: 0 bytes",
        "virtual-machine",
        "the first MPS allocation fails with 0 bytes in use: the paravirtual GPU of a macOS virtual machine "
        "(such as a hosted CI runner), where is_available() is True and nothing can be allocated",
        "Run MPS work on a physical Mac (a self-hosted runner in CI); in a hosted macOS VM, test on the CPU.",
        ("mpscheck doctor --require none",),
        "https://github.com/actions/runner-images/issues/9918",
    ),
    Row(
        "oom",
        rf"MPS backend out of memory \(MPS allocated: (?P<allocated>{SIZE}), other allocations: "
        rf"(?P<other>{SIZE})(?:, max allowed: (?P<max>{SIZE}))?\)\. Tried to allocate (?P<requested>{SIZE})"
        r"|MPS backend out of memory \(MPS allocated: (?P<allocated2>[^,]{1,60}), "
        # cut before "Tried to allocate" (a title, a repr, a stored copy that ends): the cap is still read when shown
        r"other allocations: (?P<other2>[^,)]{1,60})(?:, max allowed: (?P<max2>[^,)]{1,60}))?",
        "out-of-memory",
        "MPS ran out of memory",
        "Use less memory per step (smaller batch or resolution, half precision); free unified memory: see which "
        "processes hold it.",
        ("top -l 1 -o mem -n 10",),  # macOS top: one sample, sorted by memory, ten processes
        "aten/src/ATen/mps/MPSAllocator.mm (format of the message); mps-facts.md 3.3",
    ),
    Row(
        "buffer-too-large",
        r"Invalid buffer size: (?P<requested>[\d.]+ ?(?:bytes|[KMGT]i?B))",
        "out-of-memory",
        "one tensor of {requested} is larger than the largest buffer Metal allows on this GPU",
        "Split the work into smaller tensors (smaller batch, tile the image); a watermark setting does not help.",
        (),
        "aten/src/ATen/mps/MPSAllocator.mm ('Invalid buffer size'); mps-facts.md 3.3",
    ),
    Row(
        "watermark",
        r"invalid (?P<which>high|low) watermark ratio (?P<value>\S+)?",
        "watermark-invalid",
        "PYTORCH_MPS_{which_upper}_WATERMARK_RATIO is out of range: torch refuses the first MPS allocation",
        "Unset both watermark variables before Python starts (or set both: low <= high within [0, 2]; both 0.0 "
        "lifts the limit, which may freeze the system).",
        (
            "unset PYTORCH_MPS_HIGH_WATERMARK_RATIO PYTORCH_MPS_LOW_WATERMARK_RATIO",
            "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 PYTORCH_MPS_LOW_WATERMARK_RATIO=0.0",
        ),
        "aten/src/ATen/mps/MPSAllocator.mm (TORCH_CHECK on the watermark ratios)",
    ),
)
