"""The known-errors table's rows for a call handed a device it cannot use (joined into knowledge/errors.py's table
beside the other device rows):

- a CUDA-only call handed another device: ``Tensor.cuda(device)`` given the Mac's mps device, which torch refuses in
  its own words ("Invalid device, must be cuda device"). Code that replaced the string "cuda" by a device variable
  but kept the ``.cuda()`` calls: the code asks for CUDA.
- a random draw handed a ``torch.Generator`` of another device ("Expected a 'mps:0' generator device but found
  'cpu'"): the draw runs on one device and its generator lives on the other. On a Mac this is mostly
  ``torch.set_default_device('mps')`` around a DataLoader that shuffles (its sampler's generator stays on the
  CPU, pytorch/pytorch#110820; transformers' Trainer, huggingface/transformers#31897 and #31390): two devices
  meeting in one call, the device-mismatch cause, not a backend bug.
"""

from __future__ import annotations

from mpscheck.knowledge.error_rows import TORCH_ISSUE, Row

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

# torch's check in its random kernels (aten/src/ATen/core/Generator.h, check_generator): both devices as torch names
# them ('mps:0', 'cpu', 'cuda:0'), bounded.
GENERATOR_OTHER_DEVICE = Row(
    "generator-other-device",
    r"Expected a '(?P<want>[\w:]{1,12})' generator device but found '(?P<found>[\w:]{1,12})'",
    "device-mismatch",
    "a random draw on {want} was handed a torch.Generator on {found}: the generator and the tensor it fills must be "
    "on one device (on a Mac mostly torch.set_default_device('mps') around a DataLoader that shuffles)",
    "Drop torch.set_default_device('mps') and move the model and each batch with .to('mps') instead (the Trainer "
    "does it itself), or make the generator on the device that draws: torch.Generator(device='mps').",
    (),
    "aten/src/ATen/core/Generator.h (check_generator); " + TORCH_ISSUE + "110820; "
    "https://github.com/huggingface/transformers/issues/31897",
)

DEVICE_CALL = (CUDA_CALL_OTHER_DEVICE, GENERATOR_OTHER_DEVICE)
