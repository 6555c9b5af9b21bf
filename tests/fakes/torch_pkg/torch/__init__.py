"""A stand-in for torch, for situations Linux cannot produce (tests only).

FAKE_TORCH_MODE picks the situation:
  mps-vm          MPS built and available on 'Apple Paravirtual device'; the first allocation fails
                  with the GitHub-hosted runner's message (actions/runner-images#9918).
  import-hangs    `import torch` never returns.
  abort-in-smoke  MPS available; the first copy to the device aborts the process (as Metal does).
  stdout-noise    prints to stdout, from Python and straight to fd 1, while importing.
The real torch runs the real code paths elsewhere in the tests; this only drives decisions.
"""

import os
import time

MODE = os.environ.get("FAKE_TORCH_MODE", "mps-vm")
__version__ = "2.5.1"

if MODE == "import-hangs":
    time.sleep(600)
if MODE == "stdout-noise":
    print("hello from a noisy torch import")
    os.write(1, b"raw write to fd 1\n")

VM_ERROR = (
    "MPS backend out of memory (MPS allocated: 0 bytes, other allocations: 0 bytes, max allowed: 7.93 GB). "
    "Tried to allocate 256 bytes on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper "
    "limit for memory allocations (may cause system failure)."
)
float32 = "float32"


class _Namespace:
    pass


class _Tensor:
    def to(self, device):
        if MODE == "abort-in-smoke":
            os.abort()
        raise RuntimeError(VM_ERROR)


def arange(*args, **kwargs):
    return _Tensor()


def empty(*args, **kwargs):
    raise RuntimeError(VM_ERROR)


backends = _Namespace()
backends.mps = _Namespace()
backends.mps.is_built = lambda: True
backends.mps.is_available = lambda: MODE != "stdout-noise"
backends.mps.get_name = lambda: "Apple Paravirtual device"
mps = _Namespace()
mps.synchronize = lambda: None
cuda = _Namespace()
cuda.is_available = lambda: False
cuda.device_count = lambda: 0
version = _Namespace()
version.cuda = None
version.debug = False
