"""Rows of the known-errors table (joined into ``library_rows.LIBRARY``) for a training framework's own refusal of a
CUDA device it was asked for: Ultralytics' ``select_device`` raises ``ValueError: Invalid CUDA 'device=0'
requested. Use 'device=cpu' ...`` and YOLOv5's asserts ``Invalid CUDA '--device 0' requested, use '--device cpu'
...`` when the run names a CUDA index (``device=0``, a config's default) and torch sees no CUDA. On a Mac that is
CUDA asked for: the run should name mps (or cpu). Kept apart from library_rows.py so that each stays small.

The pattern is literals and bounded classes: linear on any line.
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import Row

FRAMEWORK_DEVICE: tuple[Row, ...] = (
    Row(
        "framework-invalid-cuda-device",
        # Ultralytics: "Invalid CUDA 'device=0' requested."; YOLOv5: "Invalid CUDA '--device 0' requested" (and
        # "device=0,1" for several GPUs): the device the run named, quoted.
        r"\bInvalid CUDA '(?:--)?device[= ][^'\n]{0,40}' requested\b",
        "cuda-requested-on-mac",
        "the run asked the framework (Ultralytics/YOLOv5) for a CUDA device, and torch sees no CUDA: a Mac has "
        "none, its GPU is mps",
        "Name the Mac's GPU instead of a CUDA index: device='mps' (yolo ... device=mps, model.train(..., "
        "device='mps'), YOLOv5's --device mps), or device='cpu'; a config or script that sets device=0 asks for CUDA.",
        (),
        "ultralytics/utils/torch_utils.py (select_device: \"Invalid CUDA 'device=...' requested\"); yolov5 "
        "utils/torch_utils.py (select_device); https://github.com/ultralytics/ultralytics/issues/19770",
    ),
)
