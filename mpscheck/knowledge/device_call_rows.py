"""The known-errors table's row for a CUDA-only call handed another device: ``Tensor.cuda(device)`` given the Mac's
mps device, which torch refuses in its own words ("Invalid device, must be cuda device"). Code that replaced the
string "cuda" by a device variable but kept the ``.cuda()`` calls: the code asks for CUDA (joined into
knowledge/errors.py's table beside the other CUDA-on-a-Mac rows).
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import Row

CUDA_CALL_OTHER_DEVICE = Row(
    "cuda-call-other-device",
    r"Invalid device, must be cuda device",
    "cuda-requested-on-mac",
    "the code calls .cuda() (CUDA only) with a device that is not CUDA's, such as the Mac's mps",
    "Replace .cuda(device) with .to(device) (device = torch.device('mps')), in the code and the libraries it calls.",
    ("{python} -c 'import torch; print(torch.backends.mps.is_available())'",),
    "torch/csrc/autograd/python_variable_methods.cpp (THPVariable_cuda: 'Invalid device, must be cuda device'); "
    "https://github.com/fishaudio/fish-speech/issues/60",
)
