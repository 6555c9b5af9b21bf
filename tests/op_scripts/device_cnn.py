"""A small CNN training step plus torch.roll, on the device named by OPS_DEVICE (cpu or cuda).

The same script under CPU and CUDA: `mpscheck ops` must predict the same MPS problems from both
recordings (CUDA-only kernels such as cuDNN's are mapped back to the op MPS will see).
"""

import os

import torch
from torch import nn

device = os.environ.get("OPS_DEVICE", "cpu")
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Linear(8 * 8 * 8, 10),
).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
images = torch.randn(4, 3, 16, 16, device=device).roll(1, dims=0)
labels = torch.randint(0, 10, (4,), device=device)
loss = nn.functional.cross_entropy(model(images), labels)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(f"{device} loss {loss.item():.4f}")
