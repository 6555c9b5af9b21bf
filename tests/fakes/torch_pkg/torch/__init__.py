"""A stand-in for torch, for situations Linux cannot produce (tests only).

FAKE_TORCH_MODE picks the situation:
  mps-vm          MPS built and available on 'Apple Paravirtual device'; the first allocation fails
                  with the GitHub-hosted runner's message (actions/runner-images#9918).
  import-hangs    `import torch` never returns.
  abort-in-smoke  MPS available; the first copy to the device aborts the process (as Metal does).
  stdout-noise    prints to stdout, from Python and straight to fd 1, while importing.
  slow-teardown   as mps-works, and the interpreter's teardown (an atexit handler) takes a minute,
                  as torch's own teardown takes a second or more.
  mps-works       MPS built and available, and a device that computes what the CPU computes: each
                  tensor is one float, so the quick smoke's steps run and compare for real.
The real torch runs the real code paths elsewhere in the tests; this only drives decisions.
"""

import math
import os
import time

MODE = os.environ.get("FAKE_TORCH_MODE", "mps-vm")
__version__ = "2.5.1"

if MODE == "import-hangs":
    time.sleep(600)
if MODE == "slow-teardown":
    import atexit

    atexit.register(time.sleep, 60)
    MODE = "mps-works"
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


class _Device:
    def __init__(self, kind):
        self.type = kind

    def __str__(self):
        return self.type if self.type == "cpu" else self.type + ":0"


class _Tensor:
    """One float standing for a whole tensor: enough for the quick smoke's arithmetic to be real."""

    def __init__(self, value=0.0, device="cpu"):
        self.value = float(value)
        self.device = _Device(device)

    def to(self, device):
        if MODE == "abort-in-smoke":
            os.abort()
        if MODE != "mps-works":
            raise RuntimeError(VM_ERROR)
        return _Tensor(self.value, str(device).split(":")[0])

    def cpu(self):
        return _Tensor(self.value)

    def _with(self, value):
        return _Tensor(value, self.device.type)

    def _other(self, other):
        return other.value if isinstance(other, _Tensor) else float(other)

    def __add__(self, other):
        return self._with(self.value + self._other(other))

    def __sub__(self, other):
        return self._with(self.value - self._other(other))

    def __mul__(self, other):
        return self._with(self.value * self._other(other))

    def __ne__(self, other):
        return self._with(float(self.value != self._other(other)))

    def clamp(self, low, high):
        return self._with(min(max(self.value, low), high))

    def exp(self):
        return self._with(math.exp(self.value))

    def abs(self):
        return self._with(abs(self.value))

    def softmax(self, dim=-1):
        return self._with(1.0)

    def sum(self, *args, **kwargs):
        return self._with(self.value)

    mean = max = double = sum

    def __float__(self):
        return self.value

    def __int__(self):
        return int(self.value)


class Generator:
    def manual_seed(self, seed):
        self.seed = seed
        return self


def arange(*args, **kwargs):
    return _Tensor(args[0] if args else 0.0)


def randn(*args, **kwargs):
    return _Tensor(0.5)


def empty(*args, **kwargs):
    raise RuntimeError(VM_ERROR)


backends = _Namespace()
backends.mps = _Namespace()
backends.mps.is_built = lambda: True
backends.mps.is_available = lambda: MODE != "stdout-noise"
backends.mps.get_name = lambda: "Apple M2" if MODE == "mps-works" else "Apple Paravirtual device"
mps = _Namespace()
mps.synchronize = lambda: None
cuda = _Namespace()
cuda.is_available = lambda: False
cuda.device_count = lambda: 0
version = _Namespace()
version.cuda = None
version.debug = False
