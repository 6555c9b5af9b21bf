"""Rows of the known-errors table (joined through ``library_rows.LIBRARY``) for an engine that is not torch refusing
to put an op on the GPU: TensorFlow's placer when its GPU device (on a Mac, the tensorflow-metal plugin) has no
kernel for the op. The engine is TensorFlow, so no torch advice fits; its own switch runs that op on the CPU.

TensorFlow's own words (tensorflow/core/common_runtime/placer.cc and colocation_graph.cc; op_kernel.cc), which
users paste from forums (developer.apple.com/forums/thread/759438, the Keras Embedding layer's
StatelessRandomGetKeyCounter): "Could not satisfy device specification '...device:GPU:0'. ... Supported device types
[CPU]", "Could not satisfy explicit device specification '/device:GPU:0' because no supported kernel for GPU devices
is available", "No registered 'X' OpKernel for 'GPU' devices compatible with node". Every pattern is literals and
bounded classes: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import Row

SOFT_PLACEMENT = "tf.config.set_soft_device_placement(True)"

ENGINE: tuple[Row, ...] = (
    Row(
        "tensorflow-op-no-gpu-kernel",
        # the placer's refusal names the GPU device asked for and CPU as the only type that has the op; a list that
        # also names GPU ("[GPU, CPU]") is another placement failure, not a missing kernel
        r"Could not satisfy (?:explicit )?device specification '[^'\n]{0,120}?device:GPU:\d{1,2}'"
        r"[^\n]{0,240}?Supported device types \[CPU\]"
        r"|\bbecause no supported kernel for GPU devices is available\b"
        r"|\bNo registered '[\w>]{1,80}' OpKernel for '?GPU'? devices compatible with node\b",
        "backend-has-no-mps",
        "the error is TensorFlow's, not torch's: its GPU device (on a Mac, the tensorflow-metal plugin) has no kernel "
        "for this op, only its CPU has one",
        "Let TensorFlow run that op on the CPU (enable soft device placement, or build that layer under "
        "tf.device('/CPU:0')): the engine is TensorFlow, so torch's device='cpu' or MPS fallback do not apply; a "
        "newer tensorflow-metal may add the kernel.",
        (SOFT_PLACEMENT,),
        "tensorflow/core/common_runtime/colocation_graph.cc ('Could not satisfy device specification'); "
        "https://developer.apple.com/forums/thread/759438 (Keras Embedding on Metal: soft placement as the "
        "workaround)",
    ),
)
