"""Uses aten::roll (an MPS kernel only from torch 2.1) and an SVD."""

import torch

x = torch.randn(4, 4)
y = torch.roll(x, 1) @ x
u, s, vh = torch.linalg.svd(y)
print("roll_and_svd done")
