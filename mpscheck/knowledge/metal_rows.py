"""Rows of the known-errors table for Metal's own failures: an assertion inside Metal or MPSGraph that aborts the
process (after the rows that name a cause more exactly: joined into knowledge/errors.py's TABLE), and the GPU's
memory running out inside a command buffer or the process killed for memory (late: joined into ``LATE`` of
knowledge/error_texts.py, after every row that says more).
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import TORCH_ISSUE, Row

ASSERTION: tuple[Row, ...] = (
    Row(
        "metal-assertion",
        r"INTERNAL ASSERT FAILED at \"[^\"]*/mps/[^\"]*\"|Placeholder buffer size \(\d+\) is not large enough"
        r"|failed assertion `|\[MPSNDArray\w*|MPSNDArrayDescriptor|LLVM ERROR: Failed to infer result type"
        r"|error: '?mps\.\w+'? op |MPSGraph.{0,300}?(?:error|assert)|-\[MTL\w+ \w+"
        # MPSGraph's location prefix of a failed graph op, even where the line is cut before its "error:"
        # (an op's own name too: 'loc("varianceEps"("(mpsFileLoc): ...', haotian-liu/LLaVA#700)
        r"|loc\(\"\w+\"\(\"\(mpsFileLoc\)"
        # the assertion's own words without its "[MPSNDArray ...]" frame, as a title quotes it ("[Device MPS] Error:
        # buffer is not large enough. Must be 19200 bytes", pytorch#78916), and the Metal framework's source path
        # that starts the assertion's line where a paste cuts it before the words (pytorch#87859)
        r"|\bbuffer is not large enough\. Must be \d+ bytes"
        r"|/AppleInternal/Library/BuildRoots/[\w-]+/Library/Caches/com\.apple\.xbs/Sources/MetalPerformanceShaders",
        "metal-bug-fixed-later",
        "an assertion inside Metal/MPSGraph aborted the process: a bug in torch's MPS backend or in the OS, "
        "several of which later torch releases fixed",
        "Upgrade torch (and macOS); if it persists on the newest release, report it to PyTorch with the op and "
        "the shapes.",
        ("{python} -m pip install --upgrade torch",),
        TORCH_ISSUE + "96153; " + TORCH_ISSUE + "77886 (fixed by PR pytorch/pytorch#78496); " + TORCH_ISSUE + "119088",
    ),
)

MEMORY: tuple[Row, ...] = (
    Row(
        "metal-command-buffer-oom",
        r"kIOGPUCommandBufferCallbackErrorOutOfMemory",
        "out-of-memory",
        "Metal ran out of GPU memory while running the work (Insufficient Memory in a command buffer)",
        "Use less memory (smaller model, batch or resolution); if PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 is set, unset "
        "it so torch refuses an allocation first.",
        ("unset PYTORCH_MPS_HIGH_WATERMARK_RATIO", "top -l 1 -o mem -n 10"),
        "Metal's IOGPU command buffer errors (kIOGPUCommandBufferCallbackErrorOutOfMemory); " + TORCH_ISSUE + "119088",
    ),
    Row(
        "killed-9",
        # macOS's own kernel log of the same kill ("kernel: memorystatus: killing largest compressed process
        # python3.11 [5844] 43350 MB"), which is all a run killed for memory leaves when no shell line is pasted
        r"\bKilled: 9\b|zsh: killed\b|memorystatus: killing (?:largest|process)",
        "out-of-memory",
        "macOS killed the process (SIGKILL, Killed: 9), which it does when memory runs out",
        "Use less memory (smaller model, batch or resolution); if PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 is set, unset "
        "it so torch refuses an allocation instead of the system killing the process.",
        ("unset PYTORCH_MPS_HIGH_WATERMARK_RATIO", "top -l 1 -o mem -n 10"),
        "https://github.com/gensyn-ai/rl-swarm/issues/369; aten/src/ATen/mps/MPSAllocator.mm (watermark 0.0)",
    ),
)
