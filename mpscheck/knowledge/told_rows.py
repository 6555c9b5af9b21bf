"""Rows of the known-errors table (joined before ``LATE`` in knowledge/errors.py) for an MPS error the user tells in
words instead of quoting torch's message: a dtype MPS lacks said to be unsupported ("the console said the MPS
backend does not support the Float8 data type", "报错提示 MPS 后端不支持 Float8 数据类型"). Late, because torch's
own message, when quoted too, names the dtype exactly and outranks a retelling.
"""

from __future__ import annotations

from mpscheck.knowledge.distributed_rows import DISTRIBUTED_TOLD
from mpscheck.knowledge.error_rows import Row

# The dtypes MPS has no kind of at all (float8 variants, unsigned wider than 8 bits), as people write them; float64
# and bfloat16 have rows of their own, and complex is left to torch's own messages ("MPS doesn't support complex
# types", the messages table), which name the op and the release that fixed it.
_DTYPE = r"(?P<NAME>[Ff]loat8\w{0,20}|FP8|fp8|[Uu][Ii]nt(?:16|32|64))"

TOLD: tuple[Row, ...] = (
    Row(
        "dtype-unsupported-told",
        # "MPS 后端不支持 Float8 数据类型" (zjncs.github.io, Z-Image on a Mac): no \b parts MPS from Chinese text
        # (short words between, no Latin letters; [Mm]PS so that the row's needle is 不支持, not every "MPS" line)
        r"(?<![A-Za-z])[Mm]PS(?![A-Za-z])[^\nA-Za-z]{0,12}?不支持\s?"
        + _DTYPE.replace("NAME", "dtype")
        + r"|\bMPS(?: backend| framework| device)?,? (?:does not|doesn't|doesn’t|cannot|can't) support (?:the )?[`'\"]?"
        + _DTYPE.replace("NAME", "dtype2"),
        "dtype-unsupported",
        "MPS has no {dtype} type",
        "Use a dtype MPS has (float32, float16, bfloat16 on macOS 14) for tensors on mps: a checkpoint in that "
        "dtype (or a GGUF/quantised build the front end runs on mps), not the {dtype} one.",
        (),
        "aten/src/ATen/mps/EmptyTensor.cpp (the dtypes MPS accepts); https://zjncs.github.io/2025/12/01/ "
        "(Z-Image-Turbo FP8 on ComfyUI, macOS)",
    ),
    DISTRIBUTED_TOLD,
)
